"""What the bench puts into pages: the instrumentation a reader's visit is timed with,
and the MicroPython page (the floor: the same look-up with no Pyodide)."""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path

# Injected before any page script: LCP, and a reader who clicks Compute on CALC as soon
# as its form exists; records when its result shows (fallback when there is no mark).
INSTRUMENT = """
(() => {
  const CALC = %s;
  const B = window.__bench = { lcp: 0, clicked: 0, result: 0, py: 0, summary: null, long: [] };
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) B.lcp = e.startTime; })
      .observe({ type: "largest-contentful-paint", buffered: true });
    // the main thread's long tasks (issue 26: none of Python's, which runs in a worker)
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) B.long.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { /* no LCP or Long Tasks API in this browser */ }
  const tick = () => {
    if (!B.py && document.documentElement?.dataset.tsPython === "ready") B.py = performance.now();
    if (!B.clicked) {
      const host = document.querySelector(`.ts-calc[data-calc="${CALC}"][data-ts-ready]`);
      const btn = host && host.querySelector("button[type=submit]");
      if (!btn) return;
      const tab = host.getAttribute("role") === "tabpanel" && host.getAttribute("aria-labelledby");
      if (tab) document.getElementById(tab)?.click();
      btn.click();
      B.clicked = performance.now();
      B.host = host;
    }
    const out = B.host && B.host.querySelector(".ts-result");
    // a live result: not one worked out ahead (calculators/forms/ahead.mjs, data-ts-ahead)
    if (!B.result && out && !out.hidden && out.dataset.tsAhead === undefined) {
      B.result = performance.now();
      B.summary = out.querySelector(".ts-summary")?.textContent ?? null;
    }
  };
  new MutationObserver(tick).observe(document, { subtree: true, childList: true,
    attributes: true, attributeFilter: ["hidden", "data-ts-python", "data-ts-ready"] });
})();
"""

READ_VISIT = """() => {
  const B = window.__bench || {};
  const mark = performance.getEntriesByName("tableside:first-result")[0];
  // the first answer on screen, worked out ahead (issue 13) or live; MicroPython's page
  // has only its live one
  const answer = performance.getEntriesByName("tableside:first-answer")[0] || mark;
  const nav = performance.getEntriesByType("navigation")[0];
  // Bytes over the wire from Resource Timing (0 for cache hits): CDP's Network domain
  // would buffer every body (the 10 MB wasm too) and slow the very loads we time.
  // Python's worker downloads on its own timeline: calculators/python/client.mjs puts
  // them on a mark (the snapshot among them); Python on the page fetches the snapshot in
  // a worker of its own, whose transferSize python/snapshot.mjs puts on a mark.
  const python = performance.getEntriesByName("tableside:python-worker-ready")
    .flatMap((m) => m.detail.resources);
  const worker = python.length ? python
    : performance.getEntriesByName("tableside:snapshot-from-network")
      .map((m) => ({ transferSize: (m.detail && m.detail.transferSize) || 0 }));
  const bytes = [nav, ...performance.getEntriesByType("resource"), ...worker]
    .reduce((n, e) => n + (e ? e.transferSize || 0 : 0), 0);
  // The longest main-thread task between the first answer and the live result: while
  // Python starts (on the page, its compile and restore were such tasks).
  const end = mark ? mark.startTime : (B.result || Infinity);
  const blocked = (B.long || []).filter(([t]) => answer && t >= answer.startTime && t < end)
    .reduce((m, [, d]) => Math.max(m, d), 0);
  return { result: mark ? mark.startTime : (B.result || 0), lcp: B.lcp || 0, py: B.py || 0,
           answer: answer ? answer.startTime : 0, blocked,
           load: nav ? nav.loadEventEnd : 0, bytes,
           summary: B.summary ?? window.__benchSummary ?? null };
}"""

# In-page JS: resolve when pred() returns something, watching the DOM (both next-page probes)
WAIT_FOR = """  const waitFor = (pred, ms = 60000) => new Promise((resolve, reject) => {
    const hit = pred();
    if (hit) return resolve(hit);
    const mo = new MutationObserver(() => {
      const v = pred();
      if (v) { mo.disconnect(); clearTimeout(t); resolve(v); }
    });
    const t = setTimeout(() => { mo.disconnect(); reject(new Error("timeout")); }, ms);
    mo.observe(document, { subtree: true, childList: true, attributes: true });
  });
"""

# In-page JS: follow the link to `target` (made if the page has none) as a reader clicks it
FOLLOW = """  let a = [...document.querySelectorAll("a[href]")].find((x) => x.href === target);
  if (!a) {
    a = document.createElement("a");
    a.href = target;
    a.textContent = "next";
    document.querySelector("article")?.append(a);
  }
  a.click();
"""

# Runs in the page: follow a link by clicking it (Material's instant navigation), wait for
# the new page's CALC form, click Compute, wait for its live result. All timing in the page.
# A calculator behind a deck's tab is chosen as a reader does, as soon as its tab is
# there; the click builds its form at once (forms/decks.mjs). (Until issue 13 the bench waited
# for the page's idle queue to build the hidden panel first, which no reader waits for:
# that wait was most of the figure, see scripts/bench/next_page.py.)
NEXT_PAGE = """async ([target, calc]) => {
  const before = new Set(document.querySelectorAll(".ts-calc"));
  window.__benchKeep = 1;  // survives only if the document is not reloaded
""" + WAIT_FOR + """  const t0 = performance.now();
""" + FOLLOW + """  const tabOf = (h) => h.getAttribute("role") === "tabpanel"
    && document.getElementById(h.getAttribute("aria-labelledby") || "");
  const host = await waitFor(() => {
    const h = document.querySelector(`.ts-calc[data-calc="${calc}"]`);
    return h && !before.has(h) && (tabOf(h) || h.querySelector("button[type=submit]")) ? h : null;
  });
  tabOf(host)?.click();
  (await waitFor(() => host.querySelector("button[type=submit]"))).click();
  const out = await waitFor(() => {  // the live result, not one worked out ahead (issue 13)
    const o = host.querySelector(".ts-result");
    return o && !o.hidden && o.dataset.tsAhead === undefined ? o : null;
  });
  return { ms: performance.now() - t0, instant: window.__benchKeep === 1,
           url: location.href, summary: out.querySelector(".ts-summary")?.textContent };
}"""

MPY_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>MicroPython: {title}</title>
<mpy-config>{config}</mpy-config>
<script type="module" src="/__bench__/pyscript/core.js"></script>
<style>body{{font:16px/1.5 system-ui,sans-serif;margin:2rem}}</style>
</head><body>
<h1>{title}</h1>
<p>The same look-up as <code>{calc}</code>, in MicroPython (benchmark page).</p>
<p id="result">Loading…</p>
<script type="mpy">
# rules_pkg cannot be imported here: MicroPython has no fractions or dataclasses. This
# is the closest equivalent of horizon.profile() + lookup() + ProfileRow.describe().
import json
import js

WEAPON = {weapon!r}
AP = {ap!r}


def tables(sections):
    for s in sections:
        for b in s.get("blocks", ()):
            if b.get("type") == "table":
                yield b
        yield from tables(s.get("sections", []))


def ap_range(cell):
    # rules_pkg.cells.band: "17", "17 AP", "12 - 14 AP" (MicroPython's re has no (?:...))
    parts = cell.replace("AP", "").split("-")
    try:
        nums = [int(p.strip()) for p in parts]
    except ValueError:
        return None
    return (nums[0], nums[0]) if len(nums) == 1 else (nums[0], nums[1]) if len(nums) == 2 else None


with open("horizon.json") as f:
    doc = json.load(f)
rec = [r for r in doc["records"]["weapon_profiles"] if r["id"] == WEAPON][0]
table = [t for t in tables(doc["sections"]) if t["id"] == rec["table"]][0]
header = [str(h) for h in table["header"]]
summary = "no row"
for row in table["rows"]:
    cells = [str(c) for c in row["cells"]]
    band = ap_range(cells[0]) if cells else None
    if band and band[0] <= AP <= band[1]:
        parts = []
        for i in range(1, len(header)):
            text = cells[i].strip() if i < len(cells) else ""
            parts.append(header[i] + " " + text if text else header[i] + " (blank in the source)")
        summary = (rec.get("name") or rec["id"]) + ", " + str(AP) + " AP: " + ", ".join(parts)
        break
js.document.getElementById("result").innerText = summary
js.window.__benchSummary = summary
js.performance.mark("tableside:first-result")
</script>
</body></html>
"""



def write_mpy_page(folder: Path, calc: str, weapon: str, ap: int, site: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    plugins = ["!error", "!codemirror", "!deprecations-manager", "!donkey", "!py-editor",
               "!py-game", "!py-terminal"]
    config = {"interpreter": "/__bench__/mpy/micropython.mjs",
              "files": {"/data/horizon.json": "./horizon.json"}, "plugins": plugins}
    (folder / "mpy.html").write_text(MPY_PAGE.format(
        title=f"{weapon}, {ap} AP", config=html.escape(json.dumps(config), quote=False),
        calc=calc, weapon=weapon, ap=ap), "utf-8")
    if not (site / "data" / "horizon.json").is_file():
        sys.exit("bench: the site has no data/horizon.json for the MicroPython page")


# Before the page's scripts: each call to the Python worker (python/client.mjs's messages):
# its op, the bytes sent, posted and replied (page clock), and Python's own time in the
# worker (`ms`), in window.__calls.
WORKER_CALLS = """(() => {
  const calls = window.__calls = [];
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(...a) {
      super(...a);
      const sent = new Map();
      const post = this.postMessage.bind(this);
      this.postMessage = (m, ...rest) => {
        if (m && m.id) sent.set(m.id, {t0: performance.now(),
          bytes: (m.encounter || m.payload || '').length,
          op: (/"op":"(\\w+)"/.exec(m.encounter || '') || [, m.calc])[1]});
        return post(m, ...rest);
      };
      this.addEventListener('message', ({data}) => {
        const s = data && data.id && sent.get(data.id);
        if (!s) return;
        sent.delete(data.id);
        calls.push({...s, t1: performance.now(), ms: data.ms || 0});
      });
    }
  };
})();"""
