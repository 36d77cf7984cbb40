"""The Encounter page does not move while it starts (issue 26): its stylesheet is in the
head, the phone's calculators are the hidden sheet from the first frame, and the tracker's
box is reserved before the tracker is built. Before this, a phone's first visit shifted
the page by 0.77 (Lighthouse's CLS target is at most 0.1), the tracker alone by 0.73."""

from __future__ import annotations

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
