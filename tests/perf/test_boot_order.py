"""The first answer comes before Python's runtime (issue 13, calculators/python/boot.mjs `settled`).

Reading the runtime from the cache into the page, hashing it and compiling it is main-thread
work; started from the head, it held the page's parsing and so the answers worked out ahead
back (a phone's warm visit: 2.2 s against 1.7 s). So nothing of the runtime is requested
before the page's first frame with its forms, and the live engine still answers after.
Then the runtime's files are asked for together, the rules bundle with them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_snapshot import _profile_page

# Python's big files: none may be asked for before the answer worked out ahead is shown.
RUNTIME = ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", "tableside.zip")

READY = "() => document.documentElement.dataset.tsPython === 'ready'"
# Python's worker downloads it all itself: its Resource Timing, on the page's clock, is the
# detail of python/client.mjs's mark.
WORKER = """const WORKER = () => performance.getEntriesByName("tableside:python-worker-ready")
  .flatMap((m) => m.detail.resources);"""
READ = """() => {
  """ + WORKER + """
  const nav = performance.getEntriesByType("navigation")[0];
  const answer = performance.getEntriesByName("tableside:first-answer")[0];
  const result = performance.getEntriesByName("tableside:first-result")[0];
  const files = [...performance.getEntriesByType("resource"), ...WORKER()]
    .map((e) => [e.name.replace(/[?#].*$/, "").replace(/^.*\\//, ""), e.startTime]);
  return { dcl: nav.domContentLoadedEventStart, answer: answer && answer.startTime,
           result: result && result.startTime, files };
}"""


@pytest.mark.browser
@pytest.mark.parametrize("visit", ["first", "warm"])
def test_python_is_fetched_only_after_the_first_answer(browser: Any, base_url: str,
                                                       site_dir: Path, visit: str) -> None:
    path, _ = _profile_page(site_dir)
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        if visit == "warm":  # the runtime in the HTTP cache, read at once when asked for
            page.goto(base_url + path)
            page.wait_for_function(READY, timeout=120_000)
            page.close()
            page = ctx.new_page()
        page.goto(base_url + path)
        page.wait_for_function(READY, timeout=120_000)
        # and the live engine still answers, taking over an answer worked out ahead
        page.wait_for_function(
            "() => performance.getEntriesByName('tableside:first-result').length > 0",
            timeout=30_000)
        t = page.evaluate(READ)
    finally:
        ctx.close()
    assert t["answer"] is not None and t["answer"] >= t["dcl"]
    assert t["result"] is not None and t["result"] > t["answer"]
    asked = {name: start for name, start in t["files"] if name in RUNTIME}
    assert set(asked) == set(RUNTIME), f"the page never asked for {set(RUNTIME) - set(asked)}"
    early = {name: round(start) for name, start in asked.items() if start < t["answer"]}
    assert not early, f"asked for before the first answer ({round(t['answer'])} ms): {early}"


BUNDLE = """() => {
  """ + WORKER + """
  const all = [...performance.getEntriesByType("resource"), ...WORKER()];
  const wasm = all.find((e) => /\\/pyodide\\.asm\\.wasm$/.test(e.name));
  return { wasm: wasm && [wasm.startTime, wasm.responseEnd],
           bundle: all.filter((e) => /\\/tableside\\.zip\\?v=/.test(e.name))
             .map((e) => [e.initiatorType, e.startTime, e.transferSize]) };
}"""


@pytest.mark.browser
def test_the_rules_bundle_is_asked_for_with_the_wasm(browser: Any, base_url: str,
                                                     site_dir: Path) -> None:
    """PyScript asked for tableside.zip only once Python had started (a phone's first visit
    then waited ~2 s more for it); Python's worker asks for it with the wasm, once."""
    path, _ = _profile_page(site_dir)
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(base_url + path)
        page.wait_for_function(READY, timeout=120_000)
        t = page.evaluate(BUNDLE)
    finally:
        ctx.close()
    assert t["wasm"] is not None, "the page never asked for pyodide.asm.wasm"
    downloads = [e for e in t["bundle"] if e[2] > 0]
    assert len(downloads) == 1, f"tableside.zip should be downloaded once: {t['bundle']}"
    _, start, _ = downloads[0]
    assert start <= t["wasm"][1], \
        f"asked for at {round(start)} ms, after the wasm was in ({round(t['wasm'][1])} ms)"
