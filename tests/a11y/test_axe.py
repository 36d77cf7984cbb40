"""axe-core finds no WCAG 2.2 A/AA violation on any kind of page, light and dark,
on a desktop (1280 px) and a phone (390 px) screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import NewPage, axe, goto, open_calc, page_with, report, wait_python

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)

# Each kind of page, found by what it holds.
KINDS: dict[str, tuple[str, str | None]] = {
    "rules": ('class="ts-abbr"', 'class="ts-calc"'),          # prose and tables, no calculator
    "profile": ('data-calc="horizon.profile_row"', None),      # a Horizon weapon profile page
    "cheat-sheet": ('class="ts-cheat"', None),
}


def path_of(site_dir: Path, kind: str) -> str:
    if kind == "home":
        return ""
    if kind == "data":
        return "data/"
    if kind == "404":
        return "404.html"
    needle, exclude = KINDS[kind]
    return page_with(site_dir, needle, exclude)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind", ["home", "rules", "profile", "cheat-sheet", "data", "404"])
def test_page_has_no_violations(new_page: NewPage, site_dir: Path, base_url: str, kind: str,
                                scheme: str, width: int) -> None:
    page = new_page(width=width, scheme=scheme)
    goto(page, base_url + path_of(site_dir, kind), scheme)
    found = axe(page)
    assert not found, report(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_calculator_results_have_no_violations(new_page: NewPage, site_dir: Path, base_url: str,
                                               scheme: str) -> None:
    """A profile page with results shown: values, dice, odds, highlighted row, roll log."""
    page = new_page(width=390, scheme=scheme)
    goto(page, base_url + path_of(site_dir, "profile"), scheme)
    wait_python(page)
    host = open_calc(page, "horizon.profile_row")
    host.get_by_role("button", name="Compute", exact=True).click()
    host.locator(".ts-values").wait_for()
    # A rolling calculator elsewhere on the page: dice, and its odds table open.
    roller = open_calc(page, "horizon.combat_test", 1)
    roller.get_by_role("button", name="Roll", exact=True).click()
    roller.locator(".ts-dice").wait_for()
    page.locator(".ts-log-entry").first.wait_for()
    found = axe(page)
    assert not found, report(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_calculator_error_has_no_violations(new_page: NewPage, site_dir: Path, base_url: str,
                                            scheme: str) -> None:
    page = new_page(width=1280, scheme=scheme)
    goto(page, base_url + page_with(site_dir, 'data-calc="d100.test"'), scheme)
    wait_python(page)
    host = open_calc(page, "d100.test")
    # Above the input's maximum (100): the rules engine answers with an error.
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).fill("999")
    host.get_by_role("button", name="Compute", exact=True).click()
    host.locator(".ts-error:not([hidden])").wait_for()
    found = axe(page)
    assert not found, report(found)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_open_has_no_violations(new_page: NewPage, base_url: str, scheme: str,
                                       width: int) -> None:
    page = new_page(width=width, scheme=scheme)
    goto(page, base_url, scheme)
    page.keyboard.press("/")  # Material's shortcut: opens and focuses the search box
    box = page.locator("input.md-search__input")
    box.wait_for(state="visible")
    box.press_sequentially("attack", delay=20)  # Material searches on key events
    page.locator(".md-search-result__item").first.wait_for()
    found = axe(page)
    assert not found, report(found)


def test_palette_toggle_switches_and_persists(new_page: NewPage, base_url: str,
                                              site_dir: Path) -> None:
    """The header button switches light/dark, and the choice holds on the next page."""
    page: Any = new_page(scheme="light")
    goto(page, base_url, "light")
    page.locator('label[title="Switch to dark mode"]').click()
    page.locator('body[data-md-color-scheme="slate"]').wait_for(state="attached")
    page.goto(base_url + "data/")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    found = axe(page)
    assert not found, report(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focused_and_hovered_buttons_keep_contrast(new_page: NewPage, site_dir: Path,
                                                   base_url: str, scheme: str) -> None:
    """Material recolours buttons on :hover and :focus (accent background): each kind of
    calculator button, focused and hovered in turn, still passes axe."""
    page = new_page(scheme=scheme)
    goto(page, base_url + path_of(site_dir, "profile"), scheme)
    host = open_calc(page, "horizon.combat_test")
    deck = host.locator("xpath=..")
    problems: list[str] = []
    for button in [host.get_by_role("button", name="Compute", exact=True),
                   host.get_by_role("button", name="Roll", exact=True),
                   host.locator("button.ts-step").first,
                   deck.locator('[role="tab"][aria-selected="false"]').first]:
        for state in ("focus", "hover"):
            button.focus() if state == "focus" else button.hover()
            found = axe(page, include=".ts-deck")
            if found:
                problems.append(f"{state} {button}:\n{report(found)}")
            page.mouse.move(0, 0)
            page.evaluate("() => document.activeElement?.blur()")
    assert not problems, "\n".join(problems)
