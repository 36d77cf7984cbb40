"""A page framed by another site says so and its actions are off (issue #9): the
fallback for the frame-ancestors header GitHub Pages cannot send (a <meta> policy cannot
carry frame-ancestors)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import page_with  # tests/ is on sys.path (rootdir packages)


@pytest.fixture(scope="module")
def other_site() -> Iterator[dict[str, str]]:
    """Another origin (another port) serving one page: {"url": …, "html": what it serves}.
    Local, as Chromium blocks a public page from framing a local one anyway."""
    served = {"html": ""}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = served["html"].encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    served["url"] = f"http://127.0.0.1:{srv.server_address[1]}/"
    try:
        yield served
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.browser
def test_a_framed_page_shows_a_notice_and_its_actions_are_off(
        browser: Any, site_dir: Path, base_url: str, other_site: dict[str, str]) -> None:
    target = base_url + page_with(site_dir, 'data-calc="forbidden_lands.attack"')
    other_site["html"] = (f'<!doctype html><title>x</title>'
                          f'<iframe src="{target}" width=1200 height=800></iframe>')
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    requested: list[str] = []
    ctx.on("request", lambda r: requested.append(r.url))
    page = ctx.new_page()
    try:
        page.goto(other_site["url"])
        frame = page.frame_locator("iframe")
        notice = frame.locator(".ts-framed")
        notice.wait_for(timeout=30_000)
        assert "shown inside another site" in notice.inner_text()
        assert notice.get_attribute("role") == "alert"
        host = frame.locator('.ts-calc[data-calc="forbidden_lands.attack"]').first
        host.locator("form").wait_for(state="attached")
        buttons = host.locator("form button")
        assert buttons.count() >= 3  # Compute, and the steppers
        for i in range(buttons.count()):
            assert buttons.nth(i).is_disabled()
        assert "switched off here" in host.locator(".ts-status").inner_text()
        # Enter in a field submits the form: still nothing is computed.
        host.locator('input[name="attribute"]').press("Enter")
        page.wait_for_timeout(1000)
        assert host.locator(".ts-result").is_hidden()
        # and the framed page does not start the engine: none of Python's big downloads
        # (the page's own module preloads are fetched by the HTML, not run)
        big = ("pyodide.asm.wasm", "python_stdlib.zip", "snapshot.bin.gz", "tableside.zip")
        assert not [u for u in requested if u.split("?")[0].endswith(big)]
    finally:
        ctx.close()


@pytest.mark.browser
def test_the_same_page_on_its_own_has_no_notice(browser: Any, site_dir: Path,
                                                base_url: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(base_url + page_with(site_dir, 'data-calc="forbidden_lands.attack"'))
        host = page.locator('.ts-calc[data-calc="forbidden_lands.attack"]').first
        host.locator("form").wait_for(state="attached")
        assert page.locator(".ts-framed").count() == 0
        assert host.locator("button[type=submit]").is_enabled()
    finally:
        ctx.close()
