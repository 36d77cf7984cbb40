"""The site as a reader gets it, in Debian's Chromium: layout, search, print, glossary."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scripts.site import pages

pytestmark = pytest.mark.browser

GAMES = [json.loads(p.read_text("utf-8")) for p in sorted(pages.data_dir().glob("*.json"))]


def _first_page(doc: dict[str, Any]) -> str:
    game = pages.plan_game(doc)
    first = next(iter(pages.pages_of(game.items)))
    return first.path.removesuffix(".md") + "/"


PAGES = ["", "horizon/pistols/", *(_first_page(d) for d in GAMES)]


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    width, height = getattr(request, "param", (1280, 800))
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    yield pg
    ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["390", "1280"])
def test_no_horizontal_overflow(browser: Any, base_url: str, size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    pg = ctx.new_page()
    try:
        for path in PAGES:
            pg.goto(base_url + path)
            pg.wait_for_load_state("load")
            sw, iw = pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert sw <= iw, f"{path or 'home'} scrolls sideways at {size[0]} px ({sw} > {iw})"
    finally:
        ctx.close()


def _search(pg: Any, base_url: str, query: str) -> list[str]:
    pg.goto(base_url)
    box = pg.locator("input[data-md-component=search-query]")
    box.click()
    box.press_sequentially(query, delay=20)  # Material listens to key events, not fill()
    pg.wait_for_selector(".md-search-result__item", timeout=60_000)
    hrefs: list[str] = pg.eval_on_selector_all(
        ".md-search-result__item a", "els => els.map(e => e.href)")
    return hrefs


@pytest.mark.parametrize(("query", "want"), [
    ("Krav Maga", ["horizon/unarmed/"]),
    ("Suppressive Fire", ["cyberpunk-red/", "mecha/"]),
    ("H.O.L.Y.", ["horizon/grenades/"]),
    ("Fog/Smoke/Mist", ["d100/combat-circumstances/"]),
])
def test_search_finds_table_contents(page: Any, base_url: str, query: str,
                                     want: list[str]) -> None:
    hrefs = _search(page, base_url, query)
    for w in want:
        assert any(w in h for h in hrefs), f"{query!r}: no result under {w} in {hrefs}"


def test_search_reaches_the_krav_maga_profile(page: Any, base_url: str) -> None:
    hrefs = _search(page, base_url, "Krav Maga")
    link = page.locator(".md-search-result__item a[href*='horizon/unarmed/']").first
    link.click()
    page.wait_for_url(re.compile(r".*/horizon/unarmed/.*"))
    heading = page.locator("article.md-content__inner h2", has_text="Krav Maga")
    heading.first.wait_for(state="visible")
    table = page.locator("table[data-table*='krav-maga']")
    assert table.count() == 1 and table.locator("tr[data-row]").count() > 0, hrefs


@pytest.mark.parametrize("doc", GAMES, ids=lambda d: d["game"])
def test_cheat_sheet_prints_on_two_a4_pages(page: Any, base_url: str, doc: dict[str, Any],
                                             tmp_path: Path) -> None:
    slug = doc["game"].replace("_", "-")
    page.goto(f"{base_url}{slug}/cheat-sheet/")
    page.wait_for_load_state("load")
    page.emulate_media(media="print")
    assert page.locator(".ts-cheat table.ts-table, .ts-cheat .ts-list").count() > 0
    pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    (tmp_path / f"{slug}.pdf").write_bytes(pdf)
    n = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
    assert 1 <= n <= 2, f"{slug} cheat sheet prints on {n} pages"


def test_abbreviation_shows_on_tap_and_on_enter(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)
    pg = ctx.new_page()
    try:
        pg.goto(base_url + "d100/combat-circumstances/")
        abbr = pg.locator("abbr.ts-abbr", has_text="BS").first
        title = abbr.get_attribute("title")
        assert title == "Ballistic Skill"
        abbr.scroll_into_view_if_needed()
        abbr.tap()
        gloss = pg.locator(".ts-gloss")
        gloss.wait_for(state="visible")
        assert gloss.inner_text() == "Ballistic Skill"
        box, word = gloss.bounding_box(), abbr.bounding_box()
        assert box and word and box["y"] >= word["y"] + word["height"] - 1  # under the word
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        pg.mouse.click(5, 400)  # a tap elsewhere closes it
        assert gloss.count() == 0
        other = pg.locator("abbr.ts-abbr", has_text="WS").first
        other.focus()
        pg.keyboard.press("Enter")
        assert pg.locator(".ts-gloss").inner_text() == "Weapon Skill"
    finally:
        ctx.close()


def test_injected_markup_never_runs(browser: Any, base_url: str) -> None:
    """Pages load without any dialog (alert) firing, even with a ⚑ and abbreviations."""
    ctx = browser.new_context()
    pg = ctx.new_page()
    dialogs: list[str] = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        for path in PAGES:
            pg.goto(base_url + path)
        assert dialogs == []
    finally:
        ctx.close()


def test_abbreviation_on_click_after_instant_navigation(page: Any, base_url: str) -> None:
    """Hover (the tooltip hides the title) then click, on a page reached instantly."""
    page.goto(base_url + "d100/")
    page.evaluate("window.__sameDocument = true")
    page.locator("nav.md-nav--primary a[href$='d100/combat-circumstances/']").first.click()
    page.wait_for_url(re.compile(r".*/d100/combat-circumstances/$"))
    abbr = page.locator("article abbr.ts-abbr", has_text="BS").first
    abbr.hover()
    abbr.click()
    gloss = page.locator(".ts-gloss")
    gloss.wait_for(state="visible")
    assert gloss.inner_text() == "Ballistic Skill"
    assert page.locator(".ts-gloss").count() == 1
    # Material swapped the page in place (navigation.instant), so one listener still serves.
    assert page.evaluate("window.__sameDocument === true")
