"""Replay figures for the encounter tracker (issue 24: a bounded replay).

    python -m scripts.bench.replay                 # CPython: fold, cached fold, reply size
    python -m scripts.bench.replay --browser SITE  # also the page, phone profile (CPU x4)

A fight is made here (`fight`): N combatants, then events cycling through what a table
does (next turn, hits, conditions, adjustments, a new round now and then), each game's
own numbers and conditions, up to the event limit. The browser run imports the file on the
game's Encounter page (built site in SITE, served here) with Chromium's CPU throttled x4
(CDP Emulation.setCPUThrottlingRate) and times the replay: from the import to the page
showing the fight up to date, and the longest main-thread task meanwhile; then a reload:
when the fight as last folded is drawn (before Python, calculators/encounter/cache.js),
when Python is ready, and how long after that its fold is up to date on screen. Each also
gives Python's own time in the worker (import_python_ms, reload_python_ms: see PYTHON_MS),
which the throttling leaves at this machine's speed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from rules_pkg.encounter import api, codec, replay
from rules_pkg.encounter import log as stored
from rules_pkg.encounter.fold import MAX_EVENTS, fold, rules_for
from scripts.bench.pages import WORKER_CALLS

ROOT = Path(__file__).resolve().parents[2]


def fight(game: str, events: int = MAX_EVENTS, combatants: int = 8,
          rounds_only: bool = False, seed: int = 1) -> list[dict[str, Any]]:
    """A fight of `events` stored events (dicts with eids), every one accepted by the rules.
    `rounds_only`: after initiative, only "next round" (the issue's mecha file)."""
    rng = random.Random(seed)
    sheet = rules_for(game).sheet
    tracked = [s.key for s in sheet.stats if s.tracked and isinstance(s.hi, int | str)]
    conds = [c for c in sheet.conditions if not c.levels][:3]
    out: list[dict[str, Any]] = []

    def push(e: dict[str, Any]) -> None:
        out.append({"eid": f"b{len(out) + 1}", **e})

    ids = [f"c{i}" for i in range(combatants)]
    for i, cid in enumerate(ids):
        push({"type": "add", "id": cid, "name": f"Fighter {i + 1}", "kind": sheet.kinds[0]})
    push({"type": "initiative", "seed": rng.randrange(2**32)})
    n = 0
    while len(out) < events:
        n += 1
        if rounds_only or n % 40 == 0:
            e: dict[str, Any] = {"type": "next_round", "seed": rng.randrange(2**32)}
        elif n % 2:
            e = {"type": "next_turn", "seed": rng.randrange(2**32)}
        elif n % 6 == 0 and conds:
            c = conds[n % len(conds)]
            e = {"type": "condition", "target": rng.choice(ids), "name": c.name,
                 "rounds": 2, "level": ""}
        elif n % 4 == 0 and tracked:
            e = {"type": "adjust", "target": rng.choice(ids), "key": rng.choice(tracked),
                 "delta": rng.choice((-1, 1))}
        else:
            e = {"type": "hit", "target": rng.choice(ids), "damage": rng.randrange(0, 3),
                 "seed": rng.randrange(2**32)}
        push(e)
    return out


def file_text(game: str, events: list[dict[str, Any]]) -> str:
    return json.dumps({"format": codec.FORMAT, "schema": codec.SCHEMA, "game": game,
                       "name": "Bench", "events": events})


def cpython(game: str, events: list[dict[str, Any]]) -> dict[str, float]:
    """Seconds to fold from scratch (fold.fold), through the page's request cold (no
    checkpoint) and warm (one event more), and the reply's size in bytes."""
    live = stored.effective(stored.parse(events, MAX_EVENTS))
    t = time.perf_counter()
    fold(game, [x.event for x in live])
    plain = time.perf_counter() - t
    replay.forget()
    req = json.dumps({"op": "fold", "game": game, "events": events[:-1]})
    t = time.perf_counter()
    api.handle_json(req)
    cold = time.perf_counter() - t
    req = json.dumps({"op": "fold", "game": game, "events": events})
    t = time.perf_counter()
    reply = api.handle_json(req)
    warm = time.perf_counter() - t
    return {"fold_s": plain, "request_cold_s": cold, "request_next_s": warm,
            "reply_bytes": len(reply.encode())}


# A reload's moments, on the page's clock (ms from navigation): the stored fight drawn
# (None: it was not), Python ready (the worker's mark), the fold up to date on screen.
RELOAD = """() => {
  const at = (n) => performance.getEntriesByName(n)[0]?.startTime ?? null;
  const ready = at('tableside:python-worker-ready');
  const done = at('tableside:encounter-up-to-date');
  return { reload_stored_drawn_ms: at('tableside:encounter-stored'), reload_python_ready_ms: ready,
    reload_up_to_date_after_python_ms: ready === null || done === null ? null : done - ready };
}"""

# Python's own time in the worker (python/worker.mjs's `ms`) for the calls answered since
# `t0`: Chromium's CPU throttling slows the page's thread only, never a worker's, so the
# phone profile runs the worker at this machine's speed; a phone as slow in its worker
# too would take up to (slowdown - 1) times this much longer
# (the tracker's requests only: not the calculators' answers checked meanwhile, "game.calc")
PYTHON_MS = """(t0) => window.__calls.filter((c) => c.t0 >= t0 && !String(c.op).includes('.'))
  .reduce((n, c) => n + c.ms, 0)"""

CASES = (("mecha", {}), ("d100", {}),
         ("mecha", {"combatants": 40, "events": 191, "rounds_only": True}))


def browser(site: Path, cases: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The page's replay of each case's file on the phone profile (CPU x4)."""
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]
    import http.server
    import socketserver
    import tempfile
    import threading
    from functools import partial

    from playwright.sync_api import sync_playwright

    port = _sitemap_port(site)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = partial(Quiet, directory=str(site))
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    server = socketserver.ThreadingTCPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    rows = []
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
            b = p.chromium.launch(executable_path=_chromium())
            for game, kw in cases:
                events = fight(game, **kw)
                path = Path(tmp) / f"{game}.json"
                path.write_text(file_text(game, events))
                ctx = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2)
                ctx.add_init_script(WORKER_CALLS)
                page = ctx.new_page()
                slug = game.replace("_", "-")
                page.goto(f"http://127.0.0.1:{port}/{slug}/encounter/")
                page.wait_for_function(
                    "() => document.documentElement.dataset.tsPython === 'ready'", timeout=180_000)
                page.wait_for_function(
                    "() => document.querySelector('.ts-encounter')?.dataset.events")
                cdp = ctx.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.evaluate("""() => { window.__long = 0;
                  new PerformanceObserver((l) => { for (const e of l.getEntries())
                    window.__long = Math.max(window.__long, e.duration); })
                    .observe({ type: 'longtask' }); }""")
                t = page.evaluate("() => performance.now()")
                page.set_input_files("#ts-enc-file", str(path))
                page.wait_for_function(
                    "(n) => document.querySelector('.ts-encounter')?.dataset.events === String(n)"
                    " && document.querySelector('.ts-encounter')?.dataset.replayed === 'done'",
                    arg=len(events), timeout=600_000)
                imported = page.evaluate("() => performance.now()") - t
                longest = page.evaluate("() => window.__long")
                imported_python = page.evaluate(PYTHON_MS, t)
                # a reload: the fight as last folded is drawn at once (encounter/cache.js),
                # then Python's fold checks it (issue 26); throttled from the start
                page.wait_for_timeout(1000)  # its folded state is kept (encounter/cache.js)
                page.reload()
                page.wait_for_function(
                    "() => document.querySelector('.ts-encounter')?.dataset.replayed === 'done'",
                    timeout=600_000)
                stored_replay = page.evaluate(
                    "() => Number(document.querySelector('.ts-encounter').dataset.replayMs)")
                reload = page.evaluate(RELOAD)
                reload_python = page.evaluate(PYTHON_MS, 0)
                rows.append({"game": game, **kw, "events": len(events),
                             "import_to_up_to_date_ms": round(imported),
                             "longest_task_ms": round(longest),
                             "import_python_ms": round(imported_python),
                             "stored_replay_ms": round(stored_replay),
                             "reload_python_ms": round(reload_python),
                             **{k: round(v) if v is not None else None
                                for k, v in reload.items()}})
                ctx.close()
            b.close()
    finally:
        server.shutdown()
    return rows


def _sitemap_port(site: Path) -> int:
    import re

    m = re.search(r"http://127\.0\.0\.1:(\d+)/", (site / "sitemap.xml").read_text())
    return int(m.group(1)) if m else 8000


def _chromium() -> str:
    import shutil

    exe = shutil.which("chromium")
    if not exe:
        raise SystemExit("Debian's chromium is not on PATH")
    return exe


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--browser", type=Path, metavar="SITE", help="also time the page")
    args = ap.parse_args()
    for game, kw in CASES:
        events = fight(game, **kw)
        print(json.dumps({"game": game, **kw, "events": len(events),
                          **{k: round(v, 3) for k, v in cpython(game, events).items()}}))
    if args.browser:
        for row in browser(args.browser, list(CASES)):
            print(json.dumps(row))


if __name__ == "__main__":
    main()
