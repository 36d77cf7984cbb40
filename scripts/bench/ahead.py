"""The answers worked out ahead (issues 13, 26; scripts/site/page_answers.py), on the
built site: the bytes they add to each calculator page, and the share of sampled
one-input changes a page answers before Python is ready.

`python -m scripts.bench.ahead [--site site]` prints them alone (no browser; seconds);
`make bench` prints them beside its timings.

The sample: every calculator each page places whose starting inputs the engine answers,
and its one-input changes the engine answers too: a checkbox toggled, each other option
of a select, a whole number's values within its limits up to SAMPLE_REACH steps from the
start (a reader's first change is near; a 1-100 characteristic's far values are in the
denominator only that far); SAMPLES of them drawn evenly (seeded), counted answered when
the page carries an answer with exactly those inputs (forms/answers.mjs's sameInputs).
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import random
import re
import statistics
from pathlib import Path
from typing import Any

from scripts.site import page_answers

SAMPLES = 1000
SAMPLE_REACH = 20
_ANSWERS = re.compile(r"<div class=\"ts-answers\"[^>]*></div>\n?")
_CARRIED = re.compile(r"data-answers='([^']*)'")


def answers_bytes(site: Path) -> dict[str, tuple[int, int]]:
    """What the answers worked out ahead add to each calculator page: bytes raw, and
    gzipped as the bench server sends a page (the page with them minus the page without
    them)."""
    out = {}
    for page in sorted(site.rglob("index.html")):
        text = page.read_bytes()
        m = _ANSWERS.search(text.decode("utf-8"))
        if not m:
            continue
        without = text.replace(m.group(0).encode("utf-8"), b"", 1)
        gz = (len(gzip.compress(text, compresslevel=6, mtime=0))
              - len(gzip.compress(without, compresslevel=6, mtime=0)))
        out[page.parent.relative_to(site).as_posix() + "/"] = (len(text) - len(without), gz)
    return out


def _changes(calc: Any, start: dict[str, Any]) -> list[tuple[int, str, Any]]:
    """Every one-input change of the sample (the docstring above), as the form holds it,
    with its steps from the start (a select's: places along its list)."""
    out: list[tuple[int, str, Any]] = []
    for i in calc.inputs:
        now = start[i.name]
        if i.kind == "bool":
            out.append((1, i.name, not now))
        elif i.kind == "choice":
            values = [v for v, _ in i.choices]
            at = values.index(now) if now in values else 0
            out += [(abs(k - at), i.name, v) for k, v in enumerate(values) if k != at]
        elif i.kind == "int" and re.fullmatch(r"-?\d+", str(now)):
            n = int(now)
            lo = n - SAMPLE_REACH if i.min is None else max(i.min, n - SAMPLE_REACH)
            hi = n + SAMPLE_REACH if i.max is None else min(i.max, n + SAMPLE_REACH)
            out += [(abs(v - n), i.name, str(v)) for v in range(lo, hi + 1) if v != n]
    return out


def coverage(site: Path, samples: int = SAMPLES) -> dict[str, tuple[int, int]]:
    """(answered before Python, sampled) of sampled one-input changes the engine answers:
    "all" of them, and "next" ones (a checkbox, the stepper's +1/-1, a select's
    neighbouring options)."""
    import rules_pkg

    universe: list[tuple[str, Any, int, dict[str, Any], set[str]]] = []
    for page in sorted(site.rglob("index.html")):
        text = page.read_text("utf-8")
        m = _CARRIED.search(text)
        if not m:
            continue
        carried = {json.dumps([a["calc"], a["inputs"]], sort_keys=True)
                   for a in page_answers.carried(html.unescape(m.group(1)))}
        for cid, preset in page_answers.hosts(text):
            calc = rules_pkg.get(cid)
            start = page_answers.form_values(calc, preset)
            if page_answers.answer(cid, json.dumps(preset, sort_keys=True)) is None:
                continue  # the form waits for Python as it starts: not a change's matter
            for d, name, value in _changes(calc, start):
                universe.append((cid, calc, d, {**start, name: value}, carried))
    rng = random.Random(26)
    counts = {"all": [0, 0], "next": [0, 0]}
    for cid, calc, d, inputs, carried in rng.sample(universe, len(universe)):
        try:
            calc.run(**inputs)
        except Exception:  # refused: the live engine says why; no answer to count
            continue
        hit = json.dumps([cid, inputs], sort_keys=True) in carried
        for key in ("all", "next") if d == 1 else ("all",):
            if counts[key][1] < samples:
                counts[key][0] += hit
                counts[key][1] += 1
        if min(n for _, n in counts.values()) >= samples:
            break
    return {k: (a, n) for k, (a, n) in counts.items()}


def report(site: Path, profile: str = "") -> list[str]:
    """The lines make bench prints: bytes per page (median, max) and the share answered."""
    added = answers_bytes(site)
    if not added:
        return []
    raw = statistics.median(r for r, _ in added.values())
    gz = statistics.median(g for _, g in added.values())
    mine = added.get(profile, (0, 0))
    shares = [f"{100 * a / n:.0f} % of {key} ({a} of {n})" if n else f"{key}: none"
              for key, (a, n) in coverage(site).items()]
    return [f"answers worked out ahead (issues 13, 26): /{profile} +{mine[0]} B raw, "
            f"+{mine[1]} B gzip; median of {len(added)} calculator pages +{raw:.0f} B raw, "
            f"+{gz:.0f} B gzip; largest +{max(r for r, _ in added.values())} B raw, "
            f"+{max(g for _, g in added.values())} B gzip (budget "
            f"{page_answers.BUDGET_GZIP} B gzip per page, or the starting answers' + "
            f"{page_answers.CHANGES_GZIP} B)",
            "sampled one-input changes answered before Python: " + ", ".join(shares)
            + f" (all: within {SAMPLE_REACH} steps of the start; next: one step)"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=Path("site"))
    args = ap.parse_args(argv)
    for line in report(args.site):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
