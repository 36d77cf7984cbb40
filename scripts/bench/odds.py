"""How fast the Encounter page's odds answer (issue #28), on the bench's phone profile.

Usage: python -m scripts.bench.odds [--site site] [--runs 5] [--game cyberpunk_red]

Each run opens the game's Encounter page with a fight of three (an attacker and two
targets, stored before the page loads) in a warm browser (primed by one unthrottled
visit), throttled as `make bench`'s phone (scripts/bench/main.py) (4x CPU, Slow 4G), and reports:

* answer: from Python ready (`<html data-ts-python="ready">`) to the odds panel's first
  answer painted (Element Timing's render time of its first heading, not its insertion
  in the page), the target: 200 ms or less. The GM
  opens the folded panel at once: at ready, from the page itself (no polling delay),
  or, while the panel is held (`inert`: the page waits for Python's fold), the moment it
  is let go, as a tap could no sooner;
* the tracker's own first state, for comparison (the page's other Python work comes first);
* with the worker slowed as much, at most: Chromium's CPU throttling slows the page's own
  thread and never a worker's ("Operation is only supported for pages, not workers"), so
  Python in the worker runs at this machine's speed. The bound adds (slowdown - 1) times
  Python's own time (the worker's `ms`) for the requests it answered before the odds
  and the odds' own: what a phone as slow in its worker too would take at most;
* update: from an input changed (the attack's DV or its first number) to the new answer
  on screen (the panel waits 120 ms for typing to settle: included).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from scripts.bench.main import CHROMIUM_ARGS, CPU_SLOWDOWN, PHONE, SLOW_4G
from scripts.bench.pages import WORKER_CALLS
from scripts.bench.server import serve, site_port

FIGHTS = {
    "cyberpunk_red": ("cyberpunk-red", [["hp", 25], ["sp_body", 7]], [["hp", 40], ["sp_body", 11]]),
    "forbidden_lands": ("forbidden-lands", [["strength", 3]], [["strength", 4], ["armour", 3]]),
    "d100": ("d100", [["wounds", 12]], [["wounds", 12], ["ap", 4]]),
    "horizon": ("horizon", [["defense", 0]], [["defense", 10]]),
    "mecha": ("mecha", [["vitality", 20]], [["vitality", 20], ["armour_dice", 2]]),
}
# marks the moments in the page itself (no polling delay in the figures); `answer`: the
# answer's first text painted (Element Timing), what the GM sees, not its insertion
WATCH = """(() => {
  const t = window.__odds = {ready: 0, opened: 0, tracker: 0, inserted: 0, answer: 0};
  // the answer's text painted: Element Timing's renderTime, marked before its first frame
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      if (e.identifier === "odds" && !t.answer) t.answer = e.renderTime;
    }
  }).observe({type: "element", buffered: true});
  const seen = new MutationObserver(() => {  // (as little work as it can: it is timed too)
    const now = performance.now();
    if (!t.ready && document.documentElement.dataset.tsPython === "ready") t.ready = now;
    const panel = t.ready && !t.opened && window.__openAtReady
      && document.querySelector(".ts-enc-odds > summary");
    if (panel && !panel.closest("[inert]")) {
      t.opened = now;
      panel.click();
    }
    if (!t.tracker && document.querySelector(".ts-encounter[data-events]")) t.tracker = now;
    if (!t.inserted && document.querySelector(".ts-takeout-target")) t.inserted = now;
    // every answer heading drawn until one is painted: the panel may draw its answer again
    // before the first is painted (the tracker's fold arriving), and only a heading marked
    // when painted is reported
    if (!t.answer) {
      for (const h of document.querySelectorAll(".ts-takeout-target h3:not([elementtiming])")) {
        h.setAttribute("elementtiming", "odds");
      }
    }
    if (t.tracker && t.answer) seen.disconnect();
  });
  seen.observe(document, {subtree: true, childList: true, attributes: true});
})();"""
SEED = """(([d, g]) => {
  localStorage.setItem('tableside:encounters', JSON.stringify({[d.id]: d}));
  localStorage.setItem('tableside:encounter-active', JSON.stringify({[g]: d.id}));
})(%s);"""


def fight(game: str) -> dict[str, Any]:
    _, first, second = FIGHTS[game]
    return {"format": "tableside-encounter", "schema": 2, "game": game, "name": "Bench",
            "id": "ebench", "updated": 1, "events": [
                {"type": "add", "eid": "e1", "id": "a", "name": "Ada"},
                {"type": "add", "eid": "e2", "id": "g", "name": "Ganger", "values": first},
                {"type": "add", "eid": "e3", "id": "b", "name": "Boss", "values": second}]}


def run(page_url: str, game: str, runs: int) -> tuple[list[float], list[float]]:
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium")
    if not exe:
        sys.exit("bench.odds: Debian's chromium is not on PATH")
    answers: list[float] = []
    updates: list[float] = []
    trackers: list[float] = []
    bounds: list[float] = []  # the answer if the worker were as slow as the page (see main)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as user_dir:
        ctx = pw.chromium.launch_persistent_context(user_dir, executable_path=exe,
                                                    args=CHROMIUM_ARGS, **PHONE)
        ctx.add_init_script(SEED % json.dumps([fight(game), game]))
        ctx.add_init_script(WATCH)
        ctx.add_init_script(WORKER_CALLS)
        prime = ctx.new_page()  # the warm visit's caches: runtime, snapshot, modules
        prime.goto(page_url)
        prime.locator(".ts-enc-odds > summary").click()  # the panel is folded at first
        prime.wait_for_selector(".ts-takeout-target", timeout=300_000)
        prime.close()
        for _ in range(runs):
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable", {"maxTotalBufferSize": 1024, "maxResourceBufferSize": 1024})
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            cdp.send("Network.emulateNetworkConditions", SLOW_4G)
            page.add_init_script("window.__openAtReady = true;")  # WATCH opens the panel
            page.goto(page_url)
            page.wait_for_function("() => window.__odds.answer > 0", timeout=300_000, polling=100)
            t = page.evaluate("() => window.__odds")
            answers.append(t["answer"] - t["ready"])
            trackers.append(t["tracker"] - t["ready"])
            # what the worker did from Python ready to the answer: each call, from ready
            calls = page.evaluate("""(t0) => window.__calls.filter((c) => c.t1 >= t0)
              .map((c) => `${c.op} ${Math.round(c.t0 - t0)}+${Math.round(c.t1 - c.t0)} ms`
                + ` (${(c.bytes / 1000).toFixed(1)} kB, Python ${Math.round(c.ms)} ms)`)""",
                                  t["ready"])
            # Python's own time in the worker up to the answer: the odds request and those
            # the worker answered from ready before it (it takes them in order)
            python = page.evaluate("""(t0) => { const c = window.__calls;
              const odds = c.find((x) => x.op === 'odds' && x.t1 >= t0);
              return c.filter((x) => x.t1 >= t0 && odds && x.t1 <= odds.t1)
                .reduce((n, x) => n + x.ms, 0); }""", t["ready"])
            bounds.append(answers[-1] + (CPU_SLOWDOWN - 1) * python)
            files = page.evaluate("""(t0) => performance.getEntriesByType('resource')
              .filter((r) => r.name.includes('/calculators/odds/'))
              .map((r) => `${r.name.split('/').pop()} ${Math.round(r.startTime - t0)}`
                + `..${Math.round(r.responseEnd - t0)} ms`)""", t["ready"])
            opened, inserted = t["opened"] - t["ready"], t["inserted"] - t["ready"]
            print(f"  run: answer {answers[-1]:.0f} ms (panel opened at {opened:.0f}, answer"
                  f" in the page at {inserted:.0f}); from ready, worker calls: "
                  + "; ".join(calls) + "; panel files: " + "; ".join(files))
            page.locator("#ts-takeout-more").click()
            field = page.locator(".ts-takeout-fields input[type=number]").first
            before = page.locator(".ts-takeout-answers").inner_html()
            value = int(field.input_value() or 0)
            start = page.evaluate("() => performance.now()")
            field.fill(str(value + 1 if value < 30 else value - 1))
            page.wait_for_function(
                "(b) => !('busy' in document.querySelector('.ts-enc-oddsbox').dataset)"
                " && document.querySelector('.ts-takeout-answers').innerHTML !== b",
                arg=before, timeout=60_000, polling="raf")
            updates.append(page.evaluate("() => performance.now()") - start)
            page.close()
        ctx.close()
    print("  Python ready -> the tracker's first state: "
          + ", ".join(f"{x:.0f}" for x in trackers) + " ms")
    print("  with the worker slowed as much (at most): "
          + ", ".join(f"{x:.0f}" for x in bounds) + " ms")
    return answers, updates


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench.odds",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=Path("site"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--game", choices=sorted(FIGHTS), default="cyberpunk_red")
    args = ap.parse_args(argv)
    with serve(args.site, {}, site_port(args.site)) as base:
        answers, updates = run(f"{base}{FIGHTS[args.game][0]}/encounter/", args.game, args.runs)
    print(f"odds on the phone profile ({CPU_SLOWDOWN}x CPU, Slow 4G), {args.game}, "
          f"2 targets, n={args.runs}")
    print(f"  Python ready -> first answer: median {statistics.median(answers):.0f} ms "
          f"(runs: {', '.join(f'{x:.0f}' for x in answers)}); target <= 200 ms")
    print(f"  input changed -> new answer: median {statistics.median(updates):.0f} ms "
          f"(runs: {', '.join(f'{x:.0f}' for x in updates)}; includes the 120 ms wait for typing)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
