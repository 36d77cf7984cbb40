"""Offline, an address never visited (a mistyped or outdated link) gets the site's own
404 page from the service worker, not the browser's error page (issue #11)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from offline.helpers import wait_sw_ready

pytestmark = pytest.mark.browser


@pytest.mark.timeout(600)
def test_unknown_address_offline_gets_the_sites_404(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(base_url)
        wait_sw_ready(page)
        context.set_offline(True)
        response = page.goto(base_url + "horizon/no-such-weapon/")
        assert response is not None and response.from_service_worker
        assert response.status == 404
        assert page.locator("h1").inner_text() == "404 - Not found"
        # the page is the site's: its own header and styles, from the precache
        assert page.locator(".md-header").count() == 1
        assert re.search(r"Tableside", page.title())
    finally:
        context.close()
