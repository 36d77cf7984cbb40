"""CPython speed figures for rules_pkg: `python -m scripts.bench.rules`.

Prints, each the median of N fresh subprocesses (so no cache from an earlier step helps):
  * `import rules_pkg`
  * `rules_pkg.calculators()` (imports every game module and reads its data)
  * exact odds for the largest pools the calculators allow: 30 Horizon dice with a bonus,
    a 15-die Forbidden Lands pool with a push, the heaviest Forbidden Lands attack (15-die
    pushed attack and reaction, 15 armour dice) and the heaviest mecha auto-fire attack.
Target (issue "rules_pkg"): <= 50 ms for the import and for each pool, judged on CPU time
(printed beside wall time, so a busy machine does not hide a regression or invent one).
`calculators()` has no target: it is printed for information (the browser does it at
build time, in the snapshot). Without .pyc files (PYTHONDONTWRITEBYTECODE) most of
it is compiling the game modules. A game whose calculator is not registered
yet is skipped with a note.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET_MS = 50.0

# (label, calculator id, inputs): the largest pools each calculator accepts.
CASES: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("Horizon: 30 dice + bonus, exact odds", "horizon.skill_test", {"dice": 30, "bonus": 3}),
    ("Forbidden Lands: 15-die pool, pushed, exact odds", "forbidden_lands.roll",
     {"attribute": 6, "skill": 5, "gear": 4, "push": "always", "needed": 3}),
    ("Forbidden Lands: 15-die pool, pushed only if no ✘, exact odds", "forbidden_lands.roll",
     {"attribute": 6, "skill": 5, "gear": 4, "push": "failed", "needed": 3}),
    ("Forbidden Lands: 15-die pushed attack vs 15-die pushed parry, 15 armour dice",
     "forbidden_lands.attack",
     {"action": "slash", "attribute": 6, "skill": 5, "weapon_bonus": 4, "push": "always",
      "reaction": "parry_parrying", "defender_attribute": 6, "defender_skill": 5,
      "defender_bonus": 4, "defender_push": "always", "armour": 10, "helmet": 5}),
    ("Mecha: auto fire 1-10, +6 weapon, 10 armour dice", "mecha.attack",
     {"combat": "2", "mode": "auto10", "attack_score": 20, "defence_score": 5,
      "weapon_dice": 5, "armour_dice": 10}),
)

# Each snippet prints "wall_ms cpu_ms": CPU time is the fairer figure on a busy machine.
_T0 = "import time; w, c = time.perf_counter(), time.process_time()\n"
_T1 = "print((time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000)"
IMPORT = _T0 + "import rules_pkg\n" + _T1
REGISTRY = "import rules_pkg\n" + _T0 + "rules_pkg.calculators()\n" + _T1
CASE = ("import rules_pkg; ids = {{c.id for c in rules_pkg.calculators()}}\n"
        "if {cid!r} not in ids: print('skip')\n"
        "else:\n"
        "    calc = rules_pkg.get({cid!r})\n"
        "    import time; w, c = time.perf_counter(), time.process_time()\n"
        "    calc.run(**{kw!r})\n"
        "    " + _T1)


def fresh(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    if proc.returncode:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed")
    return proc.stdout.strip().splitlines()[-1]


def median_ms(code: str, runs: int) -> tuple[float, float] | None:
    """(wall, cpu) medians in ms, or None when the calculator is not registered."""
    outs = [fresh(code) for _ in range(runs)]
    if any(o == "skip" for o in outs):
        return None
    pairs = [tuple(float(x) for x in o.split()) for o in outs]
    return (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs))


def line(label: str, ms: tuple[float, float] | None, note: str = "",
         target: bool = True) -> str:
    if ms is None:
        return f"{label}: skipped ({note or 'calculator not registered yet'})"
    wall, cpu = ms
    flag = ("no target" if not target else
            "ok" if cpu <= TARGET_MS else f"OVER the {TARGET_MS:.0f} ms target")
    return f"{label}: {wall:.1f} ms wall, {cpu:.1f} ms CPU ({flag})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench.rules",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="fresh subprocesses per figure (median)")
    args = ap.parse_args(argv)
    print(f"rules_pkg on CPython {sys.version.split()[0]}, median of {args.runs} fresh processes")
    print(line("import rules_pkg", median_ms(IMPORT, args.runs)))
    print(line("rules_pkg.calculators()", median_ms(REGISTRY, args.runs), target=False))
    for label, cid, kw in CASES:
        try:
            ms = median_ms(CASE.format(cid=cid, kw=kw), args.runs)
            print(line(f"{label} [{cid}]", ms))
        except RuntimeError as e:
            print(f"{label} [{cid}]: skipped ({e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
