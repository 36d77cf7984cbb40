"""How fast a tap on the Encounter page shows its effect (issue #25 "Done when": ≤ 100 ms
p95 from Python ready, phone profile): `python -m scripts.bench.tap --site site`.

For each game (`--games`, two by default) a browser on the bench's phone profile (412 px,
touch, CPU slowed 4x by CDP: the network plays no part once Python is up) opens the
game's Encounter page with a 6-combatant fight stored before the page loads (six adds and
a roll of initiative), waits for Python and the fight, then taps Next turn `--taps` times
(20), each once the last was saved. Per tap, on the page's own clock (ms from the tap):

* drawn   the new state drawn, to the next frame after it (`data-drawn-events`, the events the
          drawn state folds, set by calculators/encounter/page.js; the target: p95 ≤ 100 ms);
* stored  the event stored on the device (`data-events`: the store's locked, merging save);
* python  the worker's round trips the tap made (posted → replied), and the bytes sent.

`--trace DIR` also records a CDP trace of one more tap per game (`DIR/tap-<game>.json`,
opens in DevTools' Performance panel) and prints each thread's busy time in it by what ran.
Timings are never asserted by tests (tests/encounter/test_tracker_table.py only checks
that a tap works).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from scripts.bench.main import CHROMIUM_ARGS, CPU_SLOWDOWN, PHONE
from scripts.bench.odds import FIGHTS
from scripts.bench.pages import WORKER_CALLS
from scripts.bench.server import serve, site_port
from scripts.bench.warm import end_trace, start_trace

ROOT = Path(__file__).resolve().parents[2]
SLUGS = {game: fight[0] for game, fight in FIGHTS.items()}  # each game's Encounter page
COMBATANTS = 6

# Before the page's scripts: the fight.
SEED = """(([d, g]) => {
  if (!localStorage.getItem('tableside:encounters')) {
    localStorage.setItem('tableside:encounters', JSON.stringify({[d.id]: d}));
    localStorage.setItem('tableside:encounter-active', JSON.stringify({[g]: d.id}));
  }
})(%s);"""
TAPS = """async (taps) => {
  const el = document.querySelector('.ts-encounter');
  const next = [...document.querySelectorAll('.ts-enc-sticky button')]
    .find((b) => b.textContent === 'Next turn');
  const out = [];
  const until = (ok) => new Promise((resolve) => {
    if (ok()) { resolve(); return; }
    const o = new MutationObserver(() => { if (ok()) { o.disconnect(); resolve(); } });
    o.observe(el, { attributes: true });
  });
  for (let i = 0; i < taps; i++) {
    const n = Number(el.dataset.events);
    window.__calls.length = 0;
    const t0 = performance.now();
    next.click();
    const drawnP = until(() => Number(el.dataset.drawnEvents) === n + 1).then(
      () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))))
      .then(() => performance.now() - t0);
    const storedP = until(() => Number(el.dataset.events) === n + 1)
      .then(() => performance.now() - t0);
    const [drawn, stored] = await Promise.all([drawnP, storedP]);
    const calls = window.__calls.map((c) => ({op: c.op, bytes: c.bytes,
      ms: c.t1 - c.t0, at: c.t0 - t0}));
    out.push({drawn, stored, calls});
    await new Promise((r) => setTimeout(r, 50));
  }
  return out;
}"""


def fight(game: str) -> dict[str, Any]:
    """Six combatants and a roll of initiative (seed 1): round 1 under way."""
    events: list[dict[str, Any]] = [
        {"type": "add", "eid": f"e{i}", "id": f"c{i}", "name": f"Thug {i}"}
        for i in range(1, COMBATANTS + 1)]
    events.append({"type": "initiative", "eid": "e0", "seed": 1})
    return {"format": "tableside-encounter", "schema": 2, "game": game, "name": "Bench",
            "id": "ebench", "updated": 1, "events": events}


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[round(q * (len(s) - 1))]


def busy_by_thread(events: list[dict[str, Any]], t0: float, t1: float) -> dict[str, list[Any]]:
    """Each renderer thread's top-level work between t0 and t1 (trace µs), in ms by name
    (a function call by its script, an event by its type)."""
    names = {(e["pid"], e["tid"]): e["args"].get("name", "") for e in events
             if e.get("name") == "thread_name"}
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    ends: dict[tuple[int, int], float] = defaultdict(lambda: -1.0)
    for e in sorted((e for e in events if e.get("ph") == "X" and "dur" in e
                     and t0 <= e["ts"] <= t1), key=lambda e: (e["ts"], -e["dur"])):
        key = (e["pid"], e["tid"])
        thread = names.get(key, "")
        if not (thread == "CrRendererMain" or "Worker" in thread or "worker" in thread):
            continue
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask"):
            continue
        if e["ts"] >= ends[key]:
            data = (e.get("args") or {}).get("data") or {}
            name = e["name"]
            if name in ("FunctionCall", "EvaluateScript", "v8.callFunction", "EventDispatch",
                        "TimerFire", "FireAnimationFrame", "V8.Execute"):
                name += " " + str(data.get("url") or data.get("type") or "").rsplit("/", 1)[-1]
                if data.get("functionName"):
                    name += f" {data['functionName']}()"
            out[thread][name[:70]] += e["dur"] / 1000
            ends[key] = e["ts"] + e["dur"]
    return {t: sorted(v.items(), key=lambda kv: -kv[1]) for t, v in out.items()}


def one_game(pw: Any, base: str, game: str, taps: int, trace: Path | None) -> dict[str, Any]:
    browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        ctx = browser.new_context(**PHONE)
        ctx.add_init_script(SEED % json.dumps([fight(game), game]))
        ctx.add_init_script(WORKER_CALLS)
        page = ctx.new_page()
        page.goto(f"{base}{SLUGS[game]}/encounter/")
        page.wait_for_function(
            f"() => document.querySelector('.ts-encounter')?.dataset.events === "
            f"'{COMBATANTS + 1}' && document.querySelector('.ts-encounter').dataset.drawnEvents",
            timeout=300_000, polling=100)
        page.wait_for_timeout(1000)  # the page's own start-up work is over
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        runs = page.evaluate(TAPS, taps)
        traced = None
        if trace is not None:
            tcdp = start_trace(ctx, page)
            page.wait_for_timeout(300)
            one = page.evaluate(TAPS, 1)[0]
            page.wait_for_timeout(300)
            events = end_trace(tcdp)
            trace.mkdir(parents=True, exist_ok=True)
            (trace / f"tap-{game}.json").write_text(json.dumps({"traceEvents": events}), "utf-8")
            clicks = [e["ts"] for e in events if e.get("name") == "EventDispatch"
                      and ((e.get("args") or {}).get("data") or {}).get("type") == "click"]
            t0 = clicks[-1] if clicks else min(e["ts"] for e in events if e.get("ts"))
            traced = {"tap": one, "busy": busy_by_thread(events, t0, t0 + one["stored"] * 1000)}
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        return {"runs": runs, "trace": traced}
    finally:
        browser.close()


def report(game: str, r: dict[str, Any]) -> None:
    runs = r["runs"]
    drawn = [x["drawn"] for x in runs]
    stored = [x["stored"] for x in runs]
    py = [sum(c["ms"] for c in x["calls"]) for x in runs]
    sent = [sum(c["bytes"] for c in x["calls"]) for x in runs]
    ops = sorted({c["op"] for x in runs for c in x["calls"]})
    print(f"{game}: Next turn, {COMBATANTS} combatants, n={len(runs)}")
    print(f"  tap -> drawn (next frame): median {statistics.median(drawn):.0f} ms, "
          f"p95 {pct(drawn, 0.95):.0f} ms  (target: p95 <= 100 ms)")
    print(f"  tap -> stored:             median {statistics.median(stored):.0f} ms, "
          f"p95 {pct(stored, 0.95):.0f} ms")
    print(f"  worker round trips per tap: {statistics.median(len(x['calls']) for x in runs):.0f} "
          f"({', '.join(ops)}), median {statistics.median(py):.0f} ms in all, "
          f"{statistics.median(sent) / 1000:.1f} kB sent")
    t = r.get("trace")
    if t:
        one = t["tap"]
        print(f"  traced tap: drawn {one['drawn']:.0f} ms, stored {one['stored']:.0f} ms; calls "
              + "; ".join(f"{c['op']} at {c['at']:.0f} ms took {c['ms']:.0f} ms "
                          f"({c['bytes']} B)" for c in one["calls"]))
        for thread, items in t["busy"].items():
            total = sum(ms for _, ms in items)
            print(f"  {thread}: busy {total:.0f} ms: "
                  + "; ".join(f"{k} {ms:.1f}" for k, ms in items[:8]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench.tap",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--games", nargs="+", choices=sorted(SLUGS),
                    default=["cyberpunk_red", "horizon"])
    ap.add_argument("--taps", type=int, default=20)
    ap.add_argument("--trace", type=Path, default=None,
                    help="a folder for one traced tap per game (and its busy time printed)")
    args = ap.parse_args(argv)
    site = args.site.resolve()
    if not (site / "sitemap.xml").is_file():
        sys.exit(f"bench.tap: no built site in {site}: run `make site`")
    if not shutil.which("chromium"):
        sys.exit("bench.tap: Debian's chromium is not on PATH")
    from playwright.sync_api import sync_playwright

    print(f"phone profile: {PHONE['viewport']['width']} px, touch, CPU x{CPU_SLOWDOWN} (CDP)")
    with serve(site, {}, site_port(site)) as base, sync_playwright() as pw:
        for game in args.games:
            report(game, one_game(pw, base, game, args.taps, args.trace))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
