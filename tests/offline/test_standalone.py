"""An installed app saves everything by itself (issue #13); a tab in the browser does not.

calculators/offline.js asks the service worker to save the whole runtime, without a click,
when the page is shown as an installed app: `matchMedia("(display-mode: standalone)")`.
Chromium shows a page that way in an app window, `--app=<url>` (it answers the media query
with `standalone`, headless too); Playwright's emulateMedia and CDP's
Emulation.setEmulatedMedia cannot emulate display-mode (microsoft/playwright#26853).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from scripts.bench.main import CHROMIUM_ARGS
from scripts.page_states import SAVED

from .helpers import runtime_cache, runtime_files, wait_saved, wait_sw_ready

pytestmark = pytest.mark.browser

READING = "horizon/"  # a page of rules text: nothing on it needs Python
STANDALONE = "() => matchMedia('(display-mode: standalone)').matches"


def _app_window(browser: Any, profile: Path, url: str) -> tuple[Any, Any]:
    """Chromium with `url` in an app window, as an installed app opens; (context, page)."""
    ctx = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=shutil.which("chromium"),
        args=[*CHROMIUM_ARGS, f"--app={url}"])
    page = next((p for p in ctx.pages if p.url.startswith(url)), None)
    if page is None:
        page = ctx.wait_for_event("page", predicate=lambda p: p.url.startswith(url))
    page.wait_for_load_state()
    return ctx, page


@pytest.mark.timeout(900)
def test_the_installed_app_saves_everything_without_a_click(
        browser: Any, base_url: str, site_dir: Path, tmp_path: Path) -> None:
    ctx, page = _app_window(browser, tmp_path, base_url + READING)
    try:
        assert page.evaluate(STANDALONE), "the app window is not display-mode: standalone"
        wait_sw_ready(page)
        wait_saved(page)  # no click: offline.js saved it because it is an installed app
        assert page.locator("#ts-save").inner_text().startswith("Offline ready")
        assert page.locator("#ts-save button").count() == 0
        # Every runtime file is in the runtime cache, with this build's hash.
        assert runtime_cache(page) == {rel: [sri, sri]
                                       for rel, sri in runtime_files(site_dir).items()}
    finally:
        ctx.close()


def test_a_browser_tab_saves_the_runtime_only_when_asked(
        browser: Any, base_url: str, tmp_path: Path) -> None:
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        page = ctx.new_page()
        page.goto(base_url + READING)
        assert not page.evaluate(STANDALONE)
        wait_sw_ready(page)
        page.locator("#ts-save button").wait_for()  # the worker has said what is saved
        page.wait_for_timeout(3000)  # time enough for an unasked save to start
        assert SAVED.of(page) == "none"
        assert runtime_cache(page) == {}
    finally:
        ctx.close()
