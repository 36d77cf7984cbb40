"""Python off the main thread (issue 26, calculators/python/worker.mjs): Pyodide starts in
a module worker, so the page has no Pyodide of its own, the worker answers the calculators
with CPython's answers, and a tap is handled at once while Python is still restoring its
snapshot. A browser that cannot run the worker is told so and gets Python on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from perf.test_snapshot import CALC, _profile_page

import rules_pkg
from scripts.snapshot.hook import SNAPSHOT_NAME

from .helpers import LIVE_RESULT, PY_READY_MS, open_calc, wait_python

pytestmark = pytest.mark.browser

# Before any page script: the start-up's states with their times, every long task, and
# each click's input delay, with the state it was handled in.
WATCH = """
window.__boot = []; window.__long = []; window.__taps = [];
new MutationObserver(() => {
  const s = document.documentElement.dataset.tsBoot;
  if (s && (window.__boot.at(-1) || [])[0] !== s) window.__boot.push([s, performance.now()]);
}).observe(document, { subtree: true, attributeFilter: ["data-ts-boot"] });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
addEventListener("click", (e) => window.__taps.push({
  delay: performance.now() - e.timeStamp, at: performance.now(),
  state: document.documentElement.dataset.tsBoot }), true);
"""

# A browser without module workers runs the worker's script as a classic one: its first
# `import` is a SyntaxError, the worker's error event (PyScript only extends Worker).
NO_MODULE_WORKERS = """
{ const W = Worker;
  window.Worker = class extends W {
    constructor(url, options) {
      super(url, options && options.type === "module" ? { ...options, type: "classic" } : options);
    } }; }
"""

# The worker has the snapshot's memory and hands it to Pyodide now (python/client.mjs's mark)
RESTORING = """() => performance.getEntriesByType("mark")
  .find((m) => m.name.startsWith("tableside:snapshot-from-"))?.startTime ?? null"""


def _answer(weapon: str, ap: int) -> str:
    return rules_pkg.get(CALC).run(weapon=weapon, ap=ap).summary


def _compute(page: Any, ap: int) -> str:
    host = open_calc(page, CALC)
    host.locator('input[name="ap"]').fill(str(ap))
    host.locator("button[type=submit]").click()
    summary = host.locator(f"{LIVE_RESULT} .ts-summary")
    summary.wait_for(timeout=PY_READY_MS)
    return str(summary.inner_text())


def test_python_runs_in_a_worker_and_answers(page: Any, base_url: str, site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    page.goto(base_url + path)
    wait_python(page)
    seen = page.evaluate("""() => ({
      engine: document.documentElement.dataset.tsEngine,
      onPage: ["pyodide", "loadPyodide", "tablesideRun", "tablesideEncounter", "pyscript"]
        .filter((name) => name in window),
      pyElements: document.querySelectorAll("py-script, py-config").length })""")
    assert seen == {"engine": "worker", "onPage": [], "pyElements": 0}
    assert _compute(page, 17) == _answer(weapon, 17)


def test_a_tap_is_handled_while_python_restores(browser: Any, base_url: str,
                                                site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.add_init_script(WATCH)
        # The snapshot is held back until the form is filled in, so that the tap below
        # comes while Python restores it (a restore takes ~1 s here).
        held: list[Any] = []
        ctx.route(f"**/{SNAPSHOT_NAME}*", lambda route: held.append(route))
        page.goto(base_url + path)
        host = open_calc(page, CALC)
        host.locator('input[name="ap"]').fill("17")
        for _ in range(PY_READY_MS // 50):  # the worker has asked for the snapshot
            if held:
                break
            page.wait_for_timeout(50)
        held[0].continue_()
        page.wait_for_function(RESTORING, timeout=PY_READY_MS, polling=5)
        host.locator("button[type=submit]").click()  # the tap, while Python restores
        summary = host.locator(f"{LIVE_RESULT} .ts-summary")
        summary.wait_for(timeout=PY_READY_MS)
        assert summary.inner_text() == _answer(weapon, 17)
        seen = page.evaluate("() => ({ boot: window.__boot, long: window.__long, "
                             "taps: window.__taps, restoring: (" + RESTORING + ")() })")
    finally:
        ctx.close()
    states = dict(seen["boot"])
    assert "ready" in states and ("snapshot" in states or "plain" in states), seen["boot"]
    tap = seen["taps"][-1]
    assert tap["state"] == "snapshot" and tap["at"] > seen["restoring"], \
        f"the tap came before the restore or once Python was ready: {seen}"
    assert tap["delay"] < 100, f"the tap waited {tap['delay']:.0f} ms for the main thread"
    # From the restore's start to ready: the page's own work is done by then, so a long
    # task here could only be Python's.
    start = seen["restoring"]
    during = [(round(t), round(d)) for t, d in seen["long"] if start <= t < states["ready"]]
    assert not [x for x in during if x[1] > 50], \
        f"long tasks while Python started ({round(start)}-{round(states['ready'])} ms): {during}"


def test_without_module_workers_python_runs_on_the_page_and_says_so(
        page: Any, base_url: str, site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    page.add_init_script(NO_MODULE_WORKERS)
    page.goto(base_url + path)
    wait_python(page)
    assert page.evaluate("document.documentElement.dataset.tsEngine") == "page"
    host = open_calc(page, CALC)
    assert "cannot run the rules engine in the background" in host.locator(
        ".ts-status").text_content()
    assert _compute(page, 17) == _answer(weapon, 17)
