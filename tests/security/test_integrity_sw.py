"""The service worker precaches only the bytes the build was made with (issue #9).

sw.js carries the SHA-256 of every file it precaches (scripts/sw/build_sw.mjs). A served
copy of the site in which a runtime file was changed after the build: the worker fetches
the file once more from the network, gets the same changed bytes, refuses them, and its
install fails. Nothing is left in Cache Storage under that file's URL, and no worker
controls the site (the pages keep working online)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .test_integrity_tamper import copy_site, flip_middle, server  # noqa: F401 (fixture)

STATE = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  return r ? {installing: !!r.installing, waiting: !!r.waiting, active: !!r.active} : null;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("rel", ["assets/runtime/pyodide/python_stdlib.zip",  # reused copy
                                 "assets/runtime/tableside.zip"])
def test_the_worker_refuses_a_changed_runtime_file(rel: str, browser: Any, site_dir: Path,
                                                   server: tuple[Path, str]) -> None:  # noqa: F811
    root, url = server
    name = "sw-" + rel.rsplit("/", 1)[1]
    site = copy_site(site_dir, root / name)
    flip_middle(site / rel)
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(f"{url}{name}/")
        page.wait_for_function("() => document.documentElement.dataset.tsSw === 'registered'",
                               timeout=30_000)
        deadline = time.monotonic() + 120
        state = page.evaluate(STATE)
        while state and (state["installing"] or state["waiting"]) and time.monotonic() < deadline:
            time.sleep(0.5)
            state = page.evaluate(STATE)
        assert state is None or not any(state.values()), state  # the install failed
        assert page.evaluate("() => navigator.serviceWorker.controller") is None
        assert page.locator("html").get_attribute("data-ts-sw") == "registered"  # never ready
        cached = page.evaluate("async (u) => !!(await caches.match(u, {ignoreSearch: true}))",
                               f"{url}{name}/{rel}")
        assert cached is False
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
        page.wait_for_function("() => document.documentElement.dataset.tsSw === 'ready'"
                               " && !!navigator.serviceWorker.controller", timeout=120_000)
        rel = "assets/runtime/tableside.zip"
        assert page.evaluate("async (u) => !!(await caches.match(u, {ignoreSearch: true}))",
                             f"{url}sw-clean/{rel}")
    finally:
        ctx.close()
