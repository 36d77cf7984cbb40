"""Where a warm start's time goes (issue 13): `python -m scripts.bench.warm --site site`.

One desktop profile with a disk cache (service workers blocked, as `make bench`'s warm
series), primed by one visit that stays open `--settle` seconds (Chrome writes a wasm
module's compiled code to its cache only after tiering it up), then `--runs` warm visits
to the bench's calculator page, each traced (CDP, categories v8.wasm and the timeline).
Per visit it prints, from navigation start (ms):

* the boot states (<html data-ts-boot>), Python ready, the first result;
* when each big runtime file's response ended (Resource Timing);
* the page's WebAssembly compile/instantiate calls and SHA-256 digests (wrapped in the
  page), with their sizes;
* from the trace: the main thread's busy time by top-level kind, and V8's wasm events
  (lazy compiles, code cache reads: `wasm.*Deserialize*`, `*Cache*`).

Figures only compare within one run (the machine is shared): use `make bench` for the
targets. Timings are never asserted by tests.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from scripts.bench.main import CALC, CHROMIUM_ARGS, DESKTOP, plan
from scripts.bench.pages import INSTRUMENT
from scripts.bench.server import serve

ROOT = Path(__file__).resolve().parents[2]

# Injected before any page script: time WebAssembly's entry points, SHA-256 digests and
# the boot states, in the page's own clock.
PROBE = """
(() => {
  const P = window.__warm = { calls: [], states: [] };
  const wrap = (obj, name, label, size) => {
    const f = obj[name];
    if (typeof f !== "function") return;
    obj[name] = function (...a) {
      const t0 = performance.now();
      const out = f.apply(this, a);
      const rec = (x) => { P.calls.push({ label, t0, t1: performance.now(), size: size(a) });
        return x; };
      return out && typeof out.then === "function" ? out.then(rec, (e) => { rec(); throw e; })
        : rec(out);
    };
  };
  const len = (b) => (b && (b.byteLength ?? b.length)) || 0;
  wrap(WebAssembly, "instantiateStreaming", "wasm instantiateStreaming", () => 0);
  wrap(WebAssembly, "compileStreaming", "wasm compileStreaming", () => 0);
  wrap(WebAssembly, "instantiate", "wasm instantiate", (a) => len(a[0]));
  wrap(WebAssembly, "compile", "wasm compile", (a) => len(a[0]));
  if (crypto.subtle) wrap(crypto.subtle, "digest", "sha-256 digest", (a) => len(a[1]));
  new MutationObserver(() => {
    const s = document.documentElement.dataset.tsBoot;
    if (s && P.states.at(-1)?.state !== s) P.states.push({ state: s, t: performance.now() });
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-ts-boot"] });
})();
"""

READ = """() => {
  const P = window.__warm, B = window.__bench || {};
  const mark = performance.getEntriesByName("tableside:first-result")[0];
  const res = performance.getEntriesByType("resource")
    .filter((e) => /\\.(wasm|zip|gz|mjs|json|py)(\\?|$)|core\\.js/.test(e.name))
    .map((e) => ({ name: e.name.replace(/^.*\\//, ""), start: e.startTime, end: e.responseEnd,
                   transfer: e.transferSize, body: e.decodedBodySize }));
  const marks = performance.getEntriesByType("mark").map((m) => ({ name: m.name, t: m.startTime }));
  return { result: mark ? mark.startTime : B.result, py: B.py, states: P.states,
           calls: P.calls, res, marks };
}"""

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.wasm",
              "disabled-by-default-v8.wasm.detailed", "blink.user_timing", "loading"]


def main_thread(events: list[dict[str, Any]]) -> tuple[int, int] | None:
    """(pid, tid) of the page's main thread (CrRendererMain with the most events)."""
    names = {(e["pid"], e["tid"]) for e in events
             if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    counts = Counter((e["pid"], e["tid"]) for e in events if (e["pid"], e["tid"]) in names)
    return counts.most_common(1)[0][0] if counts else None


def summarise_trace(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Main-thread busy time by top-level event (one not inside another), and V8's wasm
    events: count and total ms by name."""
    main = main_thread(events)
    wasm_n: Counter[str] = Counter()
    wasm_ms: dict[str, float] = defaultdict(float)
    for e in events:
        if "wasm" in e.get("cat", "") or "wasm." in e.get("name", ""):
            wasm_n[e["name"]] += 1
            wasm_ms[e["name"]] += e.get("dur", 0) / 1000
    spans = sorted((e for e in events if (e["pid"], e["tid"]) == main and e.get("ph") == "X"
                    and "dur" in e), key=lambda e: (e["ts"], -e["dur"]))
    busy: dict[str, float] = defaultdict(float)
    end = -1.0
    for e in spans:
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask"):
            continue  # the scheduler's wrapper: what it ran is the top level
        if e["ts"] >= end:  # top level
            name = e["name"]
            data = (e.get("args") or {}).get("data") or {}
            if name in ("FunctionCall", "EvaluateScript", "v8.callFunction", "EventDispatch",
                        "TimerFire", "FireIdleCallback", "FireAnimationFrame"):
                name += " " + str(data.get("url") or data.get("type") or "").rsplit("/", 1)[-1][:32]
            busy[name] += e["dur"] / 1000
            end = e["ts"] + e["dur"]
    return {"busy_total_ms": sum(busy.values()),
            "busy_top": sorted(busy.items(), key=lambda kv: -kv[1])[:14],
            "wasm_events": {k: (wasm_n[k], round(wasm_ms[k], 1)) for k in wasm_n}}


def start_trace(ctx: Any, page: Any) -> Any:
    cdp = ctx.new_cdp_session(page)
    cdp.send("Tracing.start", {"categories": ",".join(CATEGORIES),
                               "transferMode": "ReturnAsStream"})
    return cdp


def end_trace(cdp: Any) -> list[dict[str, Any]]:
    done: dict[str, Any] = {}
    cdp.on("Tracing.tracingComplete", lambda e: done.update(e))
    cdp.send("Tracing.end")
    while "stream" not in done:
        cdp.send("Runtime.evaluate", {"expression": "1"})  # let the event arrive
    chunks = []
    while True:
        r = cdp.send("IO.read", {"handle": done["stream"], "size": 1 << 22})
        chunks.append(r["data"])
        if r.get("eof"):
            break
    cdp.send("IO.close", {"handle": done["stream"]})
    data = json.loads("".join(chunks))
    return data["traceEvents"] if isinstance(data, dict) else data


def one_visit(ctx: Any, url: str, trace: bool) -> dict[str, Any]:
    page = ctx.new_page()
    cdp = start_trace(ctx, page) if trace else None
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => performance.getEntriesByName('tableside:first-result')"
                           ".length > 0 || (window.__bench && window.__bench.result > 0)",
                           timeout=120_000, polling=50)
    out = page.evaluate(READ)
    if cdp is not None:
        page.wait_for_timeout(300)
        events = end_trace(cdp)
        out["trace"] = summarise_trace(events)
    page.close()
    return out


def report(v: dict[str, Any]) -> None:
    print(f"  first result {v['result']:.0f} ms, Python ready {v['py']:.0f} ms")
    print("  boot: " + ", ".join(f"{s['state']}@{s['t']:.0f}" for s in v["states"]))
    print("  marks: " + ", ".join(f"{m['name']}@{m['t']:.0f}" for m in v["marks"]))
    for r in v["res"]:
        if r["body"] > 200_000 or r["name"].startswith(("runtime.json", "bridge")):
            print(f"  file {r['name'][:40]:40} {r['start']:6.0f} → {r['end']:6.0f} ms, "
                  f"{r['body'] / 1e6:5.2f} MB, wire {r['transfer']}")
    for c in v["calls"]:
        print(f"  call {c['label']:26} {c['t0']:6.0f} → {c['t1']:6.0f} ms "
              f"({c['t1'] - c['t0']:5.0f} ms) {c['size'] / 1e6:6.2f} MB")
    t = v.get("trace")
    if t:
        print(f"  main thread busy {t['busy_total_ms']:.0f} ms; top: " + "; ".join(
            f"{k} {ms:.0f}" for k, ms in t["busy_top"]))
        key = re.compile(r"Lazy|[Ss]eriali|[Cc]ache|TopTier|Streaming$|AsyncCompile$")
        print("  wasm events: " + "; ".join(f"{k} x{n} {ms} ms" for k, (n, ms)
                                             in sorted(t["wasm_events"].items()) if key.search(k)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench.warm")
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--settle", type=float, default=10.0,
                    help="seconds the priming visit stays open (wasm code cache write)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--no-trace", action="store_true")
    ap.add_argument("--trace-all", action="store_true", help="trace every warm visit")
    args = ap.parse_args(argv)
    site = args.site.resolve()
    p = plan(site)
    from playwright.sync_api import sync_playwright

    with serve(site, {}, args.port or p.port) as base, sync_playwright() as pw:
        user_dir = tempfile.mkdtemp(prefix="tableside-warm-")
        try:
            ctx = pw.chromium.launch_persistent_context(
                user_dir, executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
                service_workers="block", **DESKTOP)
            ctx.add_init_script(INSTRUMENT % json.dumps(CALC))
            ctx.add_init_script(PROBE)
            url = base + p.profile
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_function("() => window.__bench && window.__bench.result > 0",
                                   timeout=120_000)
            page.wait_for_timeout(args.settle * 1000)
            page.close()
            results = []
            for i in range(args.runs):
                v = one_visit(ctx, url, args.trace_all)
                results.append(v)
                print(f"warm visit {i + 1} (untraced):")
                report(v)
            if not args.no_trace:
                v = one_visit(ctx, url, True)
                print("warm visit, traced:")
                report(v)
            print(f"median first result {statistics.median(r['result'] for r in results):.0f} ms"
                  f" over {len(results)} untraced warm visits")
            ctx.close()
        finally:
            shutil.rmtree(user_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
