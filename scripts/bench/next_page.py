"""Where the "next page" time goes (issue 13): `python -m scripts.bench.next_page --site site`.

One warm desktop profile per site (service workers blocked, as `make bench`'s warm
series). Each run opens the bench's calculator page, waits for its first result, waits
`--delays` seconds (several, alternating run by run: does the first page's leftover work
slow the next page?), then clicks a link to the next page (Material's instant navigation)
and splits the time from the click, in the page's own clock (ms):

* fetched   the next page's HTML response ended (Resource Timing);
* swapped   Material's document$ emitted for the new page (its content is in, Material's
            own components mounted);
* built     tableside.js marked the page's forms built (`tableside:page-built`; absent
            on a site built before that mark);
* chosen    the calculator is there: built, or behind a deck's tab that is there;
* form      its tab clicked (which builds its form at once), its Compute button there;
* result    Compute clicked, the result shown.

`--wait-built` waits instead, as `make bench` did before issue 13, for the page's idle
queue to build a panel behind a tab before choosing it (no reader waits for that).
Several `--site`s are measured alternately, run by run (the machine is shared: compare
only within one run). `--trace` records a CDP trace of each next page and prints the main
thread's busy time by top-level event (`--timeline`: those events in time order);
`--profile` a JavaScript CPU profile: time by the script that started the work, and the
hottest functions in each phase (placed on the page's clock by the first sample of the
probe's own click: to a few ms). `--log N` fills the roll log to N entries first.
`--leftover S` instead traces S seconds of the first page after its first result: what
each of its threads still does then (the work a click right after the result meets).
Timings are never asserted by tests; `make bench` reports the target.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from scripts.bench.main import CALC, CHROMIUM_ARGS, DESKTOP, plan
from scripts.bench.pages import FOLLOW, INSTRUMENT, WAIT_FOR
from scripts.bench.server import VARIANT, serve
from scripts.bench.warm import end_trace, main_thread, start_trace, summarise_trace

ROOT = Path(__file__).resolve().parents[2]

# Runs in the page: as pages.NEXT_PAGE, with each phase's time.
SPLIT = """async ([target, calc, waitBuilt, logN]) => {
  if (logN) { // a longer roll log, as after a while at the table: copies of this result

    const log = JSON.parse(sessionStorage.getItem("tableside:log") || "[]");
    while (log.length && log.length < logN) log.push(log[0]);
    sessionStorage.setItem("tableside:log", JSON.stringify(log));
  }
  const before = new Set(document.querySelectorAll(".ts-calc"));
  const T = { };
""" + WAIT_FOR + """  let emitted = 0;
  window.document$.subscribe(() => {
    if (++emitted > 1 && !T.swapped) T.swapped = performance.now();
  });
  window.__benchKeep = 1;
  const t0 = performance.now();
  performance.mark("tableside:next-click");
""" + FOLLOW + """  const host = await waitFor(() => {
    const h = document.querySelector(`.ts-calc[data-calc="${calc}"]`);
    return h && !before.has(h) && (!h.hidden || h.getAttribute("aria-labelledby")) ? h : null;
  });
  T.chosen = performance.now();
  const tab = host.getAttribute("role") === "tabpanel" && host.getAttribute("aria-labelledby");
  if (waitBuilt) await waitFor(() => host.matches("[data-ts-ready]") && host);
  if (tab) document.getElementById(tab)?.click();
  const btn = await waitFor(() => host.querySelector("button[type=submit]"));
  T.form = performance.now();
  btn.click();
  const out = await waitFor(() => {
    const o = host.querySelector(".ts-result");
    return o && !o.hidden ? o : null;
  });
  T.result = performance.now();
  const res = performance.getEntriesByType("resource").filter((e) => e.name === target
    || e.name === target + "index.html");
  if (res.length) T.fetched = res.at(-1).responseEnd;
  const built = performance.getEntriesByName("tableside:page-built")
    .filter((m) => m.startTime > t0);
  if (built.length) T.built = built[0].startTime;
  const ms = {};
  for (const [k, v] of Object.entries(T)) ms[k] = v - t0;
  return { ms, instant: window.__benchKeep === 1, tabbed: !!tab,
           summary: out.querySelector(".ts-summary")?.textContent };
}"""

PHASES = ["fetched", "swapped", "built", "chosen", "form", "result"]


def timeline(events: list[dict[str, Any]], least_ms: float = 2.0) -> list[str]:
    """The main thread's top-level events of at least `least_ms`, in time order, from the
    trace's first user-timing mark of the click ("tableside:next-click"), with what each
    ran (script URL, event type) and its longest children."""
    main = main_thread(events)
    t0 = min((e["ts"] for e in events if e.get("name") == "tableside:next-click"), default=None)
    if main is None or t0 is None:
        return []
    spans = sorted((e for e in events if (e["pid"], e["tid"]) == main and e.get("ph") == "X"
                    and "dur" in e and e["ts"] >= t0), key=lambda e: (e["ts"], -e["dur"]))
    out, end, top = [], -1.0, None
    kids: dict[int, list[dict[str, Any]]] = {}
    for e in spans:
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask"):
            continue
        if e["ts"] >= end:
            top = e
            end = e["ts"] + e["dur"]
            kids[id(top)] = []
            if e["dur"] >= least_ms * 1000:
                out.append(top)
        elif top is not None and e["dur"] >= 1000:
            kids[id(top)].append(e)

    def label(e: dict[str, Any]) -> str:
        data = (e.get("args") or {}).get("data") or {}
        what = str(data.get("url") or data.get("type") or data.get("functionName") or "")
        return e["name"] + (" " + what.rsplit("/", 1)[-1][:40] if what else "")

    lines = []
    for e in out:
        sub = sorted(kids[id(e)], key=lambda k: -k["dur"])[:4]
        lines.append(f"{(e['ts'] - t0) / 1000:7.1f} +{e['dur'] / 1000:5.1f} {label(e)}"
                     + ("  [" + "; ".join(f"{label(k)} {k['dur'] / 1000:.1f}" for k in sub) + "]"
                        if sub else ""))
    return lines


def hot(profile: dict[str, Any], cuts: dict[str, float], top: int = 12) -> list[str]:
    """A CPU profile's hottest functions by self time (ms) in each phase: samples placed
    on the page's clock by the first one running the probe's click (the evaluated
    function at line 1), phases cut at the page's times `cuts` (ms from the click)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}

    def key(n: dict[str, Any]) -> str:
        f = n["callFrame"]
        return (f"{f['functionName'] or '(anon)'} {f['url'].rsplit('/', 1)[-1]}:"
                f"{f['lineNumber'] + 1}:{f['columnNumber'] + 1}")

    def stack(sid: int) -> list[str]:
        out, n = [], sid
        while n is not None:
            out.append(key(nodes[n]))
            n = parent.get(n)  # type: ignore[assignment]
        return out

    t, times = profile["startTime"], []
    for dt in profile.get("timeDeltas", []):
        t += dt
        times.append(t)
    samples = profile.get("samples", [])
    start = next((times[i] for i, sid in enumerate(samples)
                  if any(k.startswith("(anon) :1:") for k in stack(sid))),
                 times[0] if times else 0)
    order = sorted(cuts.items(), key=lambda kv: kv[1])
    phase_self: dict[str, dict[str, float]] = {}
    for i, sid in enumerate(samples):
        if i + 1 >= len(times):
            break
        ms = (times[i + 1] - times[i]) / 1000
        at = (times[i] - start) / 1000
        name = next((k for k, v in order if at <= v), "after")
        k = key(nodes[sid])
        if k.startswith("(idle)"):
            continue
        phase_self.setdefault(name, {})
        phase_self[name][k] = phase_self[name].get(k, 0) + ms
    # Each sample by the file of its outermost script frame: who started that work (a
    # MutationObserver's callback is its own entry; ":1" the probe's click and waits).
    by_entry: dict[str, float] = {}
    for i, sid in enumerate(samples[:-1]):
        at = (times[i] - start) / 1000
        if at < 0 or at > order[-1][1]:
            continue
        frames = [k for k in stack(sid) if not k.startswith(("(root)", "(program)", "(idle)"))]
        scripts = [k for k in frames if not k.split(" ", 1)[1].startswith(":")]
        entry = scripts[-1].split(" ", 1)[1].rsplit(":", 2)[0] if scripts else (
            "native " + frames[-1].split(" ", 1)[0] if frames else "(program)")
        by_entry[entry] = by_entry.get(entry, 0) + (times[i + 1] - times[i]) / 1000
    lines = ["click to result, by entry file: " + "; ".join(
        f"{k} {v:.0f}" for k, v in sorted(by_entry.items(), key=lambda kv: -kv[1])[:top])]
    for name, _ in [*order, ("after", 0)]:
        d = phase_self.get(name)
        if d:
            lines.append(f"to {name} ({sum(d.values()):.0f} ms busy): " + "; ".join(
                f"{k} {v:.1f}" for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]))
    return lines


def one(ctx: Any, url: str, target: str, delay: float, trace: bool = False,
        wait_built: bool = False, profile: bool = False, log: int = 0) -> dict[str, Any]:
    """One visit to `url`, its first result, `delay` s, then the next page `target`."""
    page = ctx.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__bench && window.__bench.result > 0",
                           timeout=120_000, polling=50)
    if delay:
        page.wait_for_timeout(delay * 1000)
    cdp = start_trace(ctx, page) if trace else None
    prof = None
    if profile:
        prof = ctx.new_cdp_session(page)
        prof.send("Profiler.enable")
        prof.send("Profiler.setSamplingInterval", {"interval": 100})
        prof.send("Profiler.start")
    r = page.evaluate(SPLIT, [target, CALC, wait_built, log])
    if prof is not None:
        r["hot"] = hot(prof.send("Profiler.stop")["profile"], r["ms"])
    if cdp is not None:
        events = end_trace(cdp)
        r["trace"] = summarise_trace(events)
        r["timeline"] = timeline(events)
    page.close()
    return dict(r)


def leftover(ctx: Any, url: str, seconds: float, bucket_ms: float = 500) -> list[str]:
    """What the calculator page still does after its first result, doing nothing else
    for `seconds`: busy ms of each of its renderer's threads (top-level events) per
    bucket of `bucket_ms`, and each thread's biggest kinds of work."""
    page = ctx.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__bench && window.__bench.result > 0",
                           timeout=120_000, polling=50)
    cdp = start_trace(ctx, page)
    page.evaluate("performance.mark('tableside:leftover')")
    page.wait_for_timeout(seconds * 1000)
    events = end_trace(cdp)
    page.close()
    main = main_thread(events)
    t0 = min((e["ts"] for e in events if e.get("name") == "tableside:leftover"), default=None)
    if main is None or t0 is None:
        return ["(no trace)"]
    names = {(e["pid"], e["tid"]): e["args"].get("name", "?") for e in events
             if e.get("name") == "thread_name"}
    n = int(seconds * 1000 // bucket_ms) + 1
    busy: dict[tuple[int, int], list[float]] = {}
    kinds: dict[tuple[int, int], dict[str, float]] = {}
    ends: dict[tuple[int, int], float] = {}
    for e in sorted((e for e in events if e.get("ph") == "X" and "dur" in e
                     and e["pid"] == main[0] and e["ts"] >= t0),
                    key=lambda e: (e["ts"], -e["dur"])):
        key = (e["pid"], e["tid"])
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask"):
            continue
        if e["ts"] < ends.get(key, -1):
            continue  # inside a top-level event of this thread
        ends[key] = e["ts"] + e["dur"]
        b = min(int((e["ts"] - t0) / 1000 // bucket_ms), n - 1)
        busy.setdefault(key, [0.0] * n)[b] += e["dur"] / 1000
        kinds.setdefault(key, {})
        kinds[key][e["name"]] = kinds[key].get(e["name"], 0) + e["dur"] / 1000
    lines = [f"{'thread':28} " + " ".join(f"{int(i * bucket_ms):>6}" for i in range(n))
             + "   (busy ms per bucket, from the first result)"]
    for key, row in sorted(busy.items(), key=lambda kv: -sum(kv[1])):
        if sum(row) < 5:
            continue
        top = sorted(kinds[key].items(), key=lambda kv: -kv[1])[:4]
        lines.append(f"{names.get(key, '?')[:28]:28} " + " ".join(f"{x:6.0f}" for x in row)
                     + "   " + "; ".join(f"{k} {v:.0f}" for k, v in top))
    return lines


def show(label: str, r: dict[str, Any], timeline_too: bool) -> None:
    ms = r["ms"]
    print(f"{label}: " + ", ".join(f"{k} {ms[k]:.0f}" for k in PHASES if k in ms)
          + ("" if r["instant"] else " (FULL RELOAD)"), flush=True)
    t = r.get("trace")
    if t:
        print(f"   busy {t['busy_total_ms']:.0f} ms: " + "; ".join(
            f"{k} {v:.0f}" for k, v in t["busy_top"][:10]), flush=True)
    for line in r.get("hot", []):
        print("   " + line, flush=True)
    if timeline_too:
        print("\n".join("     " + x for x in r.get("timeline", [])), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench.next_page")
    ap.add_argument("--site", type=Path, action="append",
                    help="a built site (repeat to alternate builds)")
    ap.add_argument("--runs", type=int, default=4, help="runs of each case")
    ap.add_argument("--delays", default="0,3", help="seconds after the first result")
    ap.add_argument("--next", default="",
                    help="next pages, comma-separated (default: the bench's)")
    ap.add_argument("--wait-built", choices=["no", "yes", "both"], default="no",
                    help="as make bench before issue 13: wait for a hidden panel's idle "
                         "build before its tab")
    ap.add_argument("--log", type=int, default=0,
                    help="entries in the roll log before the click (a session at the table)")
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--profile", action="store_true",
                    help="a JavaScript CPU profile of each next page: the hottest functions")
    ap.add_argument("--timeline", action="store_true",
                    help="with --trace: the main thread's events in time order")
    ap.add_argument("--leftover", type=float, default=0,
                    help="instead: trace this many seconds of the first page after its "
                         "first result, each thread's busy time")
    ap.add_argument("--plain", action="store_true",
                    help="each site also with runtime.json's plain Pyodide start (as "
                         "make bench's plain variant), in a profile of its own")
    args = ap.parse_args(argv)
    sites = [s.resolve() for s in (args.site or [ROOT / "site"])]
    plains = [False] * len(sites) + [True] * (len(sites) if args.plain else 0)
    sites = sites * (2 if args.plain else 1)
    plans = [plan(s) for s in sites]
    nexts = [n for n in args.next.split(",") if n] or [plans[0].next]
    waits = {"no": [False], "yes": [True], "both": [False, True]}[args.wait_built]
    # every case once per run, in turn: a drift of the machine hits each alike
    cases = [(i, nxt, wait, float(d)) for d in args.delays.split(",") for nxt in nexts
             for wait in waits for i in range(len(sites))]
    from playwright.sync_api import sync_playwright

    dirs = [tempfile.mkdtemp(prefix="tableside-next-") for _ in sites]
    rows: dict[tuple[int, str, bool, float], list[dict[str, Any]]] = {}
    try:
        with sync_playwright() as pw:
            ctxs = []
            for d in dirs:
                ctx = pw.chromium.launch_persistent_context(
                    d, executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
                    service_workers="block", **DESKTOP)
                ctx.add_init_script(INSTRUMENT % json.dumps(CALC))
                ctxs.append(ctx)
            for site, p, ctx, plain in zip(sites, plans, ctxs, plains, strict=True):
                VARIANT["plain"] = plain
                with serve(site, {}, p.port) as base:  # priming visits, not counted
                    for nxt in nexts:
                        one(ctx, base + p.profile, base + nxt, 2)
            for run in range(args.runs if args.leftover else 0):
                for i, (site, p, ctx) in enumerate(zip(sites, plans, ctxs, strict=True)):
                    VARIANT["plain"] = plains[i]
                    with serve(site, {}, p.port) as base:
                        lines = leftover(ctx, base + p.profile, args.leftover)
                    print(f"run {run + 1} site {i}, after the first result:")
                    print("\n".join("   " + x for x in lines), flush=True)
            for run in range(0 if args.leftover else args.runs):
                for case in cases:
                    i, nxt, wait, delay = case
                    VARIANT["plain"] = plains[i]
                    with serve(sites[i], {}, plans[i].port) as base:
                        r = one(ctxs[i], base + plans[i].profile, base + nxt, delay,
                                args.trace, wait, args.profile, args.log)
                    rows.setdefault(case, []).append(r)
                    show(f"run {run + 1} site {i} {nxt}{' wait-built' if wait else ''} "
                         f"delay {delay:g}", r, args.timeline)
            for c in ctxs:
                c.close()
    finally:
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
    print(f"\nmedians of {args.runs} (ms from the click); roll log {args.log or 'as it comes'}")
    # ours: from Material's swap to the result (our forms, the tab, Python, the result):
    # the part of the figure this site's code decides, less noisy than the whole
    print("site  next page                      wait  delay  "
          + "  ".join(f"{k:>7}" for k in PHASES) + "     ours")
    for (i, nxt, wait, delay), rs in sorted(rows.items()):
        cells = []
        for k in PHASES:
            vals = [r["ms"][k] for r in rs if k in r["ms"]]
            cells.append(f"{statistics.median(vals):7.0f}" if vals else f"{'—':>7}")
        ours = [r["ms"]["result"] - r["ms"]["swapped"] for r in rs if "swapped" in r["ms"]]
        cells.append(f"{statistics.median(ours):7.0f}" if ours else f"{'—':>7}")
        print(f"{i:4}  {nxt:30} {'yes' if wait else 'no':>4}  {delay:5g}  " + "  ".join(cells))
    for i, site in enumerate(sites):
        print(f"site {i}: {site}{' (plain start)' if plains[i] else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
