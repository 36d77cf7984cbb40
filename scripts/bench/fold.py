"""The fold's and the odds' figures in CPython (issues 24, 25, 28): how fast the rules
engine answers what the Encounter page asks.

    PYTHONPATH=. .venv/bin/python -m scripts.bench.fold            # every figure
    PYTHONPATH=. .venv/bin/python -m scripts.bench.fold --json F   # also the fights, for
                                                                   # scripts/bench/fold_pyodide.mjs

- fold_s: fold.fold of each bench fight (scripts/bench/replay.py's), the first in the
  process; fold_again_s: the best of 3 more (what the first left in caches helps);
- request_next_s: the api's "fold" op for ONE new event after the state before it was
  folded (the tap: a checkpoint is there), best of 5, and its reply's size;
- page_replays: the Python side of the page's import and reload of each bench fight
  (import_read_s, import_fold_s, reload_read_s, reload_fold_s: page_replays());
- odds_ms: the api's "odds" op for each game's typical attacks (its takeout.py TYPICAL),
  one attacker and one target, the first request of the process and then the same
  request with the target hit once (a new state: nothing of it worked out yet);
  odds_form_ms: the "odds" op with "form": true (the panel's first request).
Times are the process's CPU time (time.process_time): steadier on a shared machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from pathlib import Path
from typing import Any

from rules_pkg.encounter import api, codec, held, replay
from rules_pkg.encounter import log as stored
from rules_pkg.encounter.fold import MAX_EVENTS, fold
from scripts.bench.replay import CASES, fight, file_text

clock = time.process_time  # fold_pyodide.mjs sets Node's process.cpuUsage() instead
GAMES = ("cyberpunk_red", "d100", "forbidden_lands", "horizon", "mecha")


def _best(fn: Any, n: int) -> float:
    best = float("inf")
    for _ in range(n):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def folds() -> list[dict[str, Any]]:
    rows = []
    for game, kw in CASES:
        events = fight(game, **kw)
        live = [x.event for x in stored.effective(stored.parse(events, MAX_EVENTS))]
        t = clock()
        fold(game, live)
        cold = clock() - t
        warm = _best(lambda: fold(game, live), 3)  # noqa: B023 (run at once)
        before = json.dumps({"op": "fold", "game": game, "events": events[:-1]})
        after = json.dumps({"op": "fold", "game": game, "events": events})

        taps: list[tuple[float, int]] = []
        for _ in range(5):
            replay.forget()
            api.handle_json(before)  # the state before: checkpoints and events read
            t = clock()
            reply = api.handle_json(after)
            taps.append((clock() - t, len(reply.encode())))
        rows.append({"game": game, **kw, "events": len(events), "fold_s": round(cold, 4),
                     "fold_again_s": round(warm, 4),
                     "request_next_s": round(min(t for t, _ in taps), 4),
                     "reply_bytes": taps[0][1]})
    return rows


def page_replays() -> list[dict[str, Any]]:
    """The Python side of the Encounter page's replay of each bench fight (issue 24), as the
    page asks it (calculators/encounter/replay.js): an import (op import, the log held),
    then 250 ms fold slices until up to date, the first with the state so far; a reload
    (op import of the stored copy, "known"), then quiet slices. CPU seconds of each: the
    phone profile is about 4 times these in Pyodide (fold_pyodide.mjs)."""
    rows = []
    for game, kw in CASES:
        text = file_text(game, fight(game, **kw))
        row: dict[str, Any] = {"game": game, **kw, "page": True}
        for what, known in (("import", False), ("reload", True)):
            replay.forget()
            held.forget()
            t = clock()
            reply = json.loads(api.handle_json(json.dumps(
                {"op": "import", "text": text, "hold": game, "known": known})))
            read = clock() - t
            if not known:  # the page stores what Python read: a reload sends it back
                events = reply["events"]
                text = json.dumps({"format": codec.FORMAT, "schema": reply["schema"],
                                   "game": game, "name": reply["name"], "events": events})
            else:
                assert reply["same"], "the stored copy is read as it was written"
            slices = 0
            done = False
            t = clock()
            while not done:
                slices += 1
                done = json.loads(api.handle_json(json.dumps(
                    {"op": "fold", "game": game, "hold": game, "keep": len(events),
                     "last": events[-1]["eid"],
                     "events": [], "budget_ms": 250,
                     "partial_state": not known and slices == 1})))["done"]
            row.update({f"{what}_read_s": round(read, 3),
                        f"{what}_fold_s": round(clock() - t, 3), f"{what}_slices": slices})
        rows.append(row)
    return rows


def odds_requests(game: str) -> list[tuple[str, dict[str, Any]]]:
    """Each typical attack of the game as the page asks it: (label, request)."""
    module = importlib.import_module(f"rules_pkg.{game}.takeout")
    out = []
    for n, t in enumerate(module.TYPICAL):
        events = [{"type": "add", "eid": "e1", "id": "a", "name": "Attacker"},
                  {"type": "add", "eid": "e2", "id": "t", "name": "Target", "kind": t.kind,
                   "values": [list(v) for v in t.values]}]
        req = {"op": "odds", "game": game, "events": events, "attacker": "a", "targets": ["t"],
               "calc": t.calc, "inputs": dict(t.inputs), "attacks": t.attacks}
        out.append((f"{t.attack} vs {t.target}", req))
        if n == 0:
            hit = [*events, {"type": "initiative", "eid": "e3", "seed": 1},
                   {"type": "hit", "eid": "e4", "target": "t", "damage": 1, "seed": 2}]
            out.append((f"{t.attack} vs {t.target}, hit once", {**req, "events": hit}))
    return out


def odds() -> list[dict[str, Any]]:
    rows = []
    for game in GAMES:
        reqs = odds_requests(game)
        form = {"op": "odds", "game": game, "events": reqs[0][1]["events"], "form": True}
        t = clock()
        reply = json.loads(api.handle_json(json.dumps(form)))
        assert reply["ok"], reply
        row: dict[str, Any] = {"game": game,
                               "odds_form_ms": round(1000 * (clock() - t), 1)}
        for label, req in reqs:
            t = clock()
            reply = json.loads(api.handle_json(json.dumps(req)))
            assert reply["ok"], reply
            row[label] = round(1000 * (clock() - t), 1)
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", type=Path, help="write the bench fights and odds requests here")
    args = ap.parse_args()
    if args.json:
        args.json.write_text(json.dumps({
            "fights": [{"game": g, **kw, "events": fight(g, **kw)} for g, kw in CASES],
            "odds": {g: odds_requests(g) for g in GAMES}}))
    for row in [*odds(), *folds(), *page_replays()]:  # odds first: the process's first
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
