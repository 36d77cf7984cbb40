"""Golden results: every registered calculator's answer over a fixed, reproducible sample.

The sample per calculator: its defaults; each int input at its min and its max; each value
of each choice; each bool flipped; a fixed pseudo-random sample (a `random.Random` seeded by
the calculator id, so it is the same on every run and in Pyodide); and, for calculators that
roll, a few seeded rolls. A refused input is recorded as its RulesError message.

    python -m tests.rules.golden --update   # rewrite tests/rules/golden/<game>.json
    python -m tests.rules.golden            # print the differences, exit 1 if any

`tests/rules/test_golden.py` fails on any difference, so a change of behaviour is a
reviewed diff of the golden files.
"""

from __future__ import annotations

import difflib
import json
import random
import sys
from pathlib import Path
from typing import Any

import rules_pkg
from rules_pkg import Calculator, Input, RulesError

GOLDEN_DIR = Path(__file__).parent / "golden"
RANDOM_CASES = 6
ROLL_SEEDS = (1, 2, 3)


def _random_value(inp: Input, rng: random.Random) -> Any:
    if inp.kind == "int":
        lo = inp.min if inp.min is not None else -20
        hi = inp.max if inp.max is not None else 20
        return rng.randint(lo, hi)
    if inp.kind == "bool":
        return rng.random() < 0.5
    if inp.kind == "choice":
        return rng.choice([v for v, _ in inp.choices])
    return rng.choice(["", "a", "abc"])


def sample(calc: Calculator) -> list[dict[str, Any]]:
    """The fixed sample of raw inputs for one calculator (no duplicates, stable order)."""
    cases: list[dict[str, Any]] = [{}]
    for inp in calc.inputs:
        if inp.kind == "int":
            cases += [{inp.name: v} for v in (inp.min, inp.max) if v is not None]
        elif inp.kind == "choice":
            cases += [{inp.name: v} for v, _ in inp.choices]
        elif inp.kind == "bool":
            cases.append({inp.name: not inp.default})
    rng = random.Random(calc.id)
    randoms = [{i.name: _random_value(i, rng) for i in calc.inputs} for _ in range(RANDOM_CASES)]
    cases += randoms
    if calc.rolls:
        cases += [{"roll": True, "seed": s} for s in ROLL_SEEDS]
        cases += [{**r, "roll": True, "seed": 7} for r in randoms[:2]]
    seen: set[str] = set()
    unique = []
    for c in cases:
        key = _key(c)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def _key(raw: dict[str, Any]) -> str:
    return json.dumps(raw, sort_keys=True, ensure_ascii=False)


def _compact(v: Any) -> Any:
    # A fraction as the browser gets it is {"text": "n/d", "value": float}: the float follows
    # from the text, so only the exact text is kept (it keeps the files a few MB).
    if isinstance(v, dict):
        if set(v) == {"text", "value"} and isinstance(v["value"], float):
            return v["text"]
        return {k: _compact(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_compact(x) for x in v]
    return v


def answer(calc: Calculator, raw: dict[str, Any]) -> Any:
    try:
        return _compact(calc.run(**raw).to_dict())
    except RulesError as e:
        return {"error": str(e)}


def record(game: str) -> dict[str, dict[str, Any]]:
    return {c.id: {_key(raw): answer(c, raw) for raw in sample(c)}
            for c in rules_pkg.calculators() if c.game == game}


def games() -> list[str]:
    return sorted({c.game for c in rules_pkg.calculators()})


def path(game: str) -> Path:
    return GOLDEN_DIR / f"{game}.json"


def dump(data: Any) -> str:
    # One line per case: a changed answer is a one-line diff in git.
    lines = ["{"]
    calcs = list(data.items())
    for ci, (calc_id, cases) in enumerate(calcs):
        lines.append(f" {json.dumps(calc_id)}: {{")
        items = list(cases.items())
        for i, (k, v) in enumerate(items):
            comma = "," if i < len(items) - 1 else ""
            lines.append(f"  {json.dumps(k, ensure_ascii=False)}: "
                         f"{json.dumps(v, ensure_ascii=False, sort_keys=True)}{comma}")
        lines.append(" }" + ("," if ci < len(calcs) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def differences(game: str, limit: int = 20) -> list[str]:
    """Readable differences between the recorded and the current answers of one game."""
    recorded: dict[str, dict[str, Any]] = json.loads(path(game).read_text("utf-8"))
    current = record(game)
    out: list[str] = []
    for calc_id in sorted(set(recorded) | set(current)):
        if calc_id not in current:
            out.append(f"{calc_id}: calculator gone")
            continue
        if calc_id not in recorded:
            out.append(f"{calc_id}: new calculator, not recorded (run --update)")
            continue
        old, new = recorded[calc_id], current[calc_id]
        for key in sorted(set(old) | set(new)):
            if old.get(key) == new.get(key):
                continue
            a = json.dumps(old.get(key), indent=1, sort_keys=True, ensure_ascii=False)
            b = json.dumps(new.get(key), indent=1, sort_keys=True, ensure_ascii=False)
            diff = "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), "recorded",
                                                  "current", lineterm="", n=1))
            out.append(f"{calc_id} with {key}:\n{diff}")
            if len(out) >= limit:
                return out
    return out


def main(argv: list[str]) -> int:
    if "--update" in argv:
        GOLDEN_DIR.mkdir(exist_ok=True)
        for game in games():
            path(game).write_text(dump(record(game)), "utf-8")
            print(f"wrote {path(game)}")
        return 0
    bad = 0
    for game in games():
        for d in differences(game):
            bad += 1
            print(d, end="\n\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
