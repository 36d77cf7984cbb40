"""Wide and long tables on a phone keep their row names and header (issue #11)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import page_with

from .conftest import PHONE, NewPage

pytestmark = pytest.mark.browser
SCREENS = Path(__file__).resolve().parents[2] / "screens"


def no_python(page: Any) -> Any:
    """Tables need no Python: keep its start (seconds of CPU) out of these tests."""
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # never answered
    return page


def test_first_column_stays_when_a_wide_table_scrolls(new_page: NewPage, site_dir: Path,
                                                      base_url: str) -> None:
    page = no_python(new_page(PHONE))
    page.goto(base_url + page_with(site_dir, 'data-table="attacks"'),
              wait_until="domcontentloaded")
    wrap = page.locator('.ts-table-wrap:has(table[data-table="attacks"])')
    wrap.scroll_into_view_if_needed()
    sizes = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert sizes[0] > sizes[1] + 100, sizes  # it is wider than the phone
    first = wrap.locator("tbody tr").first.locator("th, td").first
    second = wrap.locator("tbody tr").first.locator("th, td").nth(1)
    left0 = wrap.evaluate("w => w.getBoundingClientRect().left")
    wrap.evaluate("w => { w.scrollLeft = 250; }")
    page.wait_for_timeout(100)
    box, other = first.bounding_box(), second.bounding_box()
    assert box and other
    assert abs(box["x"] - left0) <= 2, (box, left0)  # the row's name stays in view
    # and it covers what scrolls under it (opaque, above the other cells)
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('th, td')"
                        "?.cellIndex", [box["x"] + 5, box["y"] + box["height"] / 2])
    assert hit == 0


def test_header_row_stays_when_a_long_table_scrolls(new_page: NewPage, site_dir: Path,
                                                    base_url: str) -> None:
    page = no_python(new_page(PHONE))
    page.goto(base_url + page_with(site_dir, 'data-table="profile-heavy-combat-pistol"'),
              wait_until="domcontentloaded")
    wrap = page.locator('.ts-table-wrap:has(table[data-table="profile-heavy-combat-pistol"])')
    assert wrap.locator("tbody tr").count() >= 13
    wrap.evaluate("w => w.scrollIntoView({ block: 'start' })")
    wrap.evaluate("w => { w.scrollTop = 400; }")
    page.wait_for_timeout(100)
    head = wrap.locator("thead th").nth(1).bounding_box()
    top = wrap.evaluate("w => w.getBoundingClientRect().top")
    cap = wrap.evaluate("w => w.querySelector('caption')?.getBoundingClientRect().height || 0")
    assert head and abs(head["y"] - top) <= 2, (head, top, cap)
    page.screenshot(path=str(SCREENS / "long-table-scrolled.png"))
