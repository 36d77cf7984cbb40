"""Lighthouse mobile on the built site (issue 26's Targets): `make bench` runs it, or alone
`python -m scripts.bench.lighthouse [--site site] [--runs 1]`.

Lighthouse is the bench's own npm project (scripts/bench/lighthouse/package.json and its
lock, `lighthouse` pinned exactly: 12.x runs on Node 20, 13.x wants Node 22), installed by
`make bench` only, into build/lighthouse (git-ignored): `make test` and `make serve` never
install it. It runs against the site served as GitHub Pages serves it (server.py), with its
default mobile preset (a mid phone, simulated Slow 4G and 4x CPU) in Debian's Chromium,
on one page of each kind: home, a weapon page, a cheat sheet and an Encounter page. It
prints performance, accessibility, best practices, TBT and CLS per page (median of the
runs), each against issue 26's target, and what each failing audit names.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scripts.bench.main import plan
from scripts.bench.server import serve

ROOT = Path(__file__).resolve().parents[2]
# Where `make bench` installs the bench's npm project (build/ is git-ignored).
LIGHTHOUSE = ROOT / "build" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
# Issue 26's targets: (figure, at least / at most, bound).
TARGETS = {"performance": (">=", 90), "accessibility": (">=", 100),
           "best-practices": (">=", 95), "tbt_ms": ("<=", 300), "cls": ("<=", 0.1)}


@dataclass(frozen=True)
class Score:
    """One Lighthouse run of one page: the category scores (0-100), TBT (ms), CLS, the
    titles of the audits that failed in accessibility and best practices, and where a
    TBT over its target goes (the longest main-thread tasks)."""

    performance: int
    accessibility: int
    best_practices: int
    tbt_ms: float
    cls: float
    failing: tuple[str, ...]


def pages(site: Path) -> dict[str, str]:
    """One page of each kind the issue names, by label: path under the site."""
    found = {"home": "", "weapon page": plan(site).profile,
             "cheat sheet": "horizon/cheat-sheet/", "Encounter page": "cyberpunk-red/encounter/"}
    for label, path in found.items():
        if not (site / path / "index.html").is_file():
            sys.exit(f"bench: {site} has no {label} at /{path}: run `make site`")
    return found


def score(report: dict[str, Any]) -> Score:
    """The figures of one Lighthouse JSON report (lhr)."""
    cats, audits = report["categories"], report["audits"]
    failing = []
    for cat in ("accessibility", "best-practices"):
        for ref in cats[cat]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref.get("weight", 0) and audit.get("score") is not None and audit["score"] < 1:
                failing.append(f"{cat}: {ref['id']} ({audit['title']})")
    if audits["total-blocking-time"]["numericValue"] > TARGETS["tbt_ms"][1]:
        tasks = ((audits.get("long-tasks") or {}).get("details") or {}).get("items") or []
        longest = sorted(tasks, key=lambda t: -t.get("duration", 0))[:3]
        if longest:  # where the blocking time goes (simulated phone)
            failing.append("TBT: longest main-thread tasks " + ", ".join(
                f"{t.get('url', '?')} {t.get('duration', 0):.0f} ms" for t in longest))
    return Score(round(100 * (cats["performance"]["score"] or 0)),
                 round(100 * (cats["accessibility"]["score"] or 0)),
                 round(100 * (cats["best-practices"]["score"] or 0)),
                 audits["total-blocking-time"]["numericValue"],
                 audits["cumulative-layout-shift"]["numericValue"], tuple(failing))


def run_once(url: str, chrome: str, out: Path) -> Score:
    """Lighthouse once on `url` (its default: mobile), in a new Chromium profile."""
    cmd = ["node", str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}",
           f"--chrome-path={chrome}", f"--chrome-flags={CHROME_FLAGS}", "--quiet",
           "--only-categories=" + ",".join(CATEGORIES)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "CHROME_PATH": chrome})
    if proc.returncode or not out.is_file():
        raise RuntimeError(f"lighthouse failed on {url}: {(proc.stderr or proc.stdout)[-400:]}")
    report = json.loads(out.read_text("utf-8"))
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse on {url}: {report['runtimeError'].get('message')}")
    return score(report)


def median(runs: list[Score]) -> Score:
    """Each figure's median over the runs; the failing audits of any run."""
    def med(key: str) -> float:
        return float(statistics.median(getattr(r, key) for r in runs))
    failing = tuple(dict.fromkeys(f for r in runs for f in r.failing))
    return Score(round(med("performance")), round(med("accessibility")),
                 round(med("best_practices")), med("tbt_ms"), med("cls"), failing)


def _mark(value: float, key: str) -> str:
    op, bound = TARGETS[key]
    ok = value >= bound if op == ">=" else value <= bound
    return "" if ok else " ✗"


def table(results: dict[str, tuple[str, Score]]) -> list[str]:
    """The issue's table: one row per page, a ✗ by each figure that misses its target."""
    lines = ["| page | performance | accessibility | best practices | TBT | CLS |",
             "|---|---|---|---|---|---|"]
    for label, (path, s) in results.items():
        lines.append(
            f"| {label} `/{path}` | {s.performance}{_mark(s.performance, 'performance')} "
            f"| {s.accessibility}{_mark(s.accessibility, 'accessibility')} "
            f"| {s.best_practices}{_mark(s.best_practices, 'best-practices')} "
            f"| {s.tbt_ms:,.0f} ms{_mark(s.tbt_ms, 'tbt_ms')} "
            f"| {s.cls:.3f}{_mark(s.cls, 'cls')} |")
    lines.append("targets (issue 26): performance >= 90, accessibility 100, best practices "
                 ">= 95, TBT <= 300 ms, CLS <= 0.1 (✗: missed)")
    for label, (_, s) in results.items():
        lines += [f"  {label}: {f}" for f in s.failing]
    return lines


def report(site: Path, runs: int, log: Callable[[str], None]) -> list[str]:
    """Lighthouse on each page kind, `runs` times each: the table's lines."""
    chrome = shutil.which("chromium")
    if not chrome:
        return ["lighthouse: Debian's chromium is not on PATH (make setup)"]
    if not LIGHTHOUSE.is_file():
        return [f"lighthouse: not installed ({LIGHTHOUSE.relative_to(ROOT)}): `make bench` "
                "installs it (scripts/bench/lighthouse/package.json)"]
    results: dict[str, tuple[str, Score]] = {}
    with tempfile.TemporaryDirectory(prefix="tableside-lighthouse-") as tmp, \
            serve(site, {}, plan(site).port) as base:
        for label, path in pages(site).items():
            scores = []
            for i in range(runs):
                scores.append(run_once(base + path, chrome, Path(tmp) / f"{len(results)}-{i}.json"))
                log(f"  lighthouse {label} run {i + 1}/{runs}: performance "
                    f"{scores[-1].performance}, TBT {scores[-1].tbt_ms:.0f} ms")
            results[label] = (path, median(scores))
    return [f"Lighthouse {lighthouse_version()} mobile (its default: simulated mid phone, "
            f"Slow 4G, 4x CPU), Debian chromium, served as GitHub Pages serves; median of "
            f"{runs} run(s) per page", *table(results)]


def lighthouse_version() -> str:
    meta = LIGHTHOUSE.parents[1] / "package.json"
    return json.loads(meta.read_text("utf-8"))["version"] if meta.is_file() else "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench.lighthouse",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page (median)")
    args = ap.parse_args(argv)
    for line in report(args.site.resolve(), args.runs,
                       lambda m: print(m, file=sys.stderr, flush=True)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
