"""The Encounter page does not move while it starts (issue 26): its stylesheet is in the
head, the phone's calculators are the hidden sheet from the first frame, and the tracker's
box is reserved before the tracker is built. Before this, a phone's first visit shifted
the page by 0.77 (Lighthouse's CLS target is at most 0.1), the tracker alone by 0.73."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from offline.helpers import wait_python

from encounter.test_encounter_walk import DESKTOP, PHONE, SHIFTS

pytestmark = pytest.mark.browser



@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_encounter_page_does_not_shift_while_it_starts(browser: Any, base_url: str,
                                                          screen: str) -> None:
    options = PHONE if screen == "phone" else DESKTOP
    ctx = browser.new_context(**options, service_workers="block")
    try:
        page = ctx.new_page()
        page.add_init_script(SHIFTS)
        page.goto(f"{base_url}cyberpunk-red/encounter/")
        wait_python(page)  # the tracker drawn from Python's fold, too
        page.locator(".ts-encounter[data-events]").wait_for(state="attached")
        page.wait_for_timeout(500)
        shifts = page.evaluate("window.__shifts")
    finally:
        ctx.close()
    total = sum(v for _, v in shifts)
    assert total <= 0.1, f"cumulative layout shift {total:.3f}: {shifts}"


# Init script: each largest-paint candidate's time (window.__paints), and when the tracker
# was built (window.__mounted: its box gets data-ts-enc).
PAINTS = """
window.__paints = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__paints.push([e.startTime, e.size]);
}).observe({ type: "largest-contentful-paint", buffered: true });
new MutationObserver((_, obs) => {
  if (document.querySelector(".ts-encounter[data-ts-enc]")) {
    window.__mounted = performance.now();
    obs.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


def test_the_largest_paint_comes_with_the_html(browser: Any, base_url: str) -> None:
    """The first line of an empty fight is served in the page (scripts/site/encounter.py), in
    the place and size the tracker draws it: the largest paint (LCP) is not held until the
    tracker's modules have loaded (issue 26's Lighthouse: 3.6 s of LCP on the phone
    profile when only the tracker drew it). On a phone: on a desktop the calculators
    beside the tracker are drawn larger still, as the reading pages' are."""
    ctx = browser.new_context(**PHONE, service_workers="block")

    def late(route: Any) -> None:  # the served page is painted before the tracker comes
        time.sleep(0.6)
        route.continue_()

    try:
        page = ctx.new_page()
        page.add_init_script(PAINTS)
        page.route("**/encounter/page.js", late)
        html = page.goto(f"{base_url}cyberpunk-red/encounter/", wait_until="commit").text()
        served = re.search(r'<p class="ts-enc-round"[^>]*>([^<]*)</p>', html)
        wait_python(page)
        page.locator(".ts-encounter[data-events]").wait_for(state="attached")
        assert page.locator(".ts-enc-round").inner_text() != "Loading the rules engine…"
        page.wait_for_timeout(300)
        paints, mounted = page.evaluate("[window.__paints, window.__mounted]")
    finally:
        ctx.close()
    assert served and served[1] == "Loading the rules engine…"
    assert paints and mounted
    assert all(t < mounted for t, _ in paints), f"a larger paint after the tracker: {paints}"
