"""The service worker stores only the bytes the build was made with (issue #9).

sw.js carries the SHA-256 of every file it precaches and of every runtime file it caches on
demand (scripts/sw/build_sw.mjs). A served copy of the site in which a file was changed
after the build:
- a reading file (precached on any visit): the worker fetches it once more from the
  network, gets the same changed bytes, refuses them, and its install fails; no worker
  controls the site (the pages keep working online);
- a runtime file (cached on demand, issue #13): "Save everything for offline" fails and
  says so; the changed file is never stored, the others are."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from offline.helpers import wait_sw_ready

from scripts.page_states import SAVED, SW, expect

from .test_integrity_tamper import copy_site, flip_middle, server  # noqa: F401 (fixture)

STATE = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  return r ? {installing: !!r.installing, waiting: !!r.waiting, active: !!r.active} : null;
}"""
HELD = """async (u) => {
  const hit = await caches.match(u, {ignoreSearch: true});
  return hit ? hit.headers.get("X-Tableside-SRI") || "precached" : null;
}"""


@pytest.mark.browser
def test_the_worker_refuses_a_changed_reading_file(browser: Any, site_dir: Path,
                                                   server: tuple[Path, str]) -> None:  # noqa: F811
    root, url = server
    rel = "search/search_index.json"
    site = copy_site(site_dir, root / "sw-reading")
    flip_middle(site / rel)
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(f"{url}sw-reading/")
        page.wait_for_function(expect(SW.is_("registered")),
                               timeout=30_000)
        deadline = time.monotonic() + 120
        state = page.evaluate(STATE)
        while state and (state["installing"] or state["waiting"]) and time.monotonic() < deadline:
            time.sleep(0.5)
            state = page.evaluate(STATE)
        assert state is None or not any(state.values()), state  # the install failed
        assert page.evaluate("() => navigator.serviceWorker.controller") is None
        assert SW.of(page) == "registered"  # never ready
        assert page.evaluate(HELD, f"{url}sw-reading/{rel}") is None
    finally:
        ctx.close()


@pytest.mark.browser
@pytest.mark.parametrize("rel", ["assets/runtime/pyodide/python_stdlib.zip",
                                 "assets/runtime/tableside.zip"])
def test_the_worker_never_stores_a_changed_runtime_file(rel: str, browser: Any, site_dir: Path,
                                                        server: tuple[Path, str]) -> None:  # noqa: F811
    root, url = server
    name = "sw-" + rel.rsplit("/", 1)[1]
    site = copy_site(site_dir, root / name)
    flip_middle(site / rel)
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(f"{url}{name}/")
        wait_sw_ready(page)  # the reading pages are saved
        control = page.locator("#ts-save")
        control.get_by_role("button", name="Save everything for offline").click()
        control.get_by_text("Saving for offline failed").wait_for(timeout=180_000)
        assert SAVED.of(page) == "none"
        assert page.evaluate(HELD, f"{url}{name}/{rel}") is None
        other = "assets/runtime/pyodide/pyodide.asm.wasm"
        assert page.evaluate(HELD, f"{url}{name}/{other}").startswith("sha256-")
    finally:
        ctx.close()


@pytest.mark.browser
def test_the_worker_installs_from_the_untouched_copy(browser: Any, site_dir: Path,
                                                     server: tuple[Path, str]) -> None:  # noqa: F811
    """The same copy and server without a change: the worker installs and takes over."""
    root, url = server
    copy_site(site_dir, root / "sw-clean")
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(f"{url}sw-clean/")
        page.wait_for_function(expect(SW.is_("ready"), "!!navigator.serviceWorker.controller"),
                               timeout=120_000)
        rel = "search/search_index.json"
        assert page.evaluate(HELD, f"{url}sw-clean/{rel}") == "precached"
    finally:
        ctx.close()
