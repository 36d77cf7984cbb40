"""Keyboard alone: a calculator is filled in, computed and rolled with Tab, typing, Enter
and Space; its result is announced; deck tabs follow the ARIA tabs pattern; glossary
terms open on keyboard focus and on tap (nothing needs hover)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rules_pkg

from .conftest import NewPage, goto, page_with, wait_python

pytestmark = pytest.mark.browser

MAX_TABS = 800  # Tab presses allowed to reach a control from the top of a page

FOCUSED = """() => { const e = document.activeElement;
  const host = e.closest('.ts-calc');
  const label = e.labels?.[0]?.textContent.trim() ?? '';
  return { key: e.id || e.getAttribute('aria-label') || e.textContent.trim(), id: e.id,
           tag: e.localName, type: e.type ?? '', role: e.getAttribute('role') ?? '',
           name: (e.getAttribute('aria-label') || label || e.textContent).trim(),
           calc: host ? host.dataset.calc : null, hostIndex: host ? [...document
             .querySelectorAll('.ts-calc')].indexOf(host) : -1 }; }"""


def tab_until(page: Any, done: Any, limit: int = MAX_TABS, key: str = "Tab") -> dict[str, Any]:
    """Press Tab until done(focused) holds; the focused element's description."""
    for _ in range(limit):
        page.keyboard.press(key)
        focused: dict[str, Any] = page.evaluate(FOCUSED)
        if done(focused):
            return focused
    raise AssertionError(f"{key} never reached the wanted control in {limit} presses")


def wait_text(page: Any, element: Any, text: str | None) -> None:
    """Wait until element's text is exactly `text` (what a screen reader is handed)."""
    assert text
    page.wait_for_function("([el, s]) => el.textContent === s",
                           arg=[element.element_handle(), text])


def test_d100_higher_ground_by_keyboard_alone(new_page: NewPage, site_dir: Path,
                                              base_url: str) -> None:
    # d100 source: "Higher Ground Weapon Skill and Ballistic Skill tests ... take a +10
    # bonus" -> Characteristic 40 on higher ground: Target 50, P(success) 1/2.
    calc = rules_pkg.get("d100.test")
    page = new_page(width=390)
    goto(page, base_url + page_with(site_dir, 'data-calc="d100.test"'))
    wait_python(page)
    index = page.evaluate("() => [...document.querySelectorAll('.ts-calc')]"
                          ".findIndex(c => c.dataset.calc === 'd100.test')")
    host = page.locator(".ts-calc").nth(index)
    live = host.locator('[aria-live="polite"]')
    # The live region is rendered before anything is announced (else nothing is heard).
    assert live.count() == 1 and live.evaluate("e => e.checkVisibility() || "
                                               "getComputedStyle(e).display !== 'none'")

    def in_host(f: dict[str, Any]) -> bool:
        return bool(f["hostIndex"] == index)

    deck_tab = host.get_attribute("aria-labelledby") if host.get_attribute("role") else None

    if deck_tab:  # reach the deck's tabs, then arrow to this calculator's tab
        tab_until(page, lambda f: f["role"] == "tab" and f["id"] != "" and page.locator(
            f"#{f['id']}").evaluate("(t, id) => t.parentElement.contains(document"
                                    ".getElementById(id))", deck_tab))
        while page.evaluate("() => document.activeElement.id") != deck_tab:
            page.keyboard.press("ArrowRight")
        assert host.is_visible()
    visited = [tab_until(page, in_host)]

    char_label = next(i.label for i in calc.inputs if i.name == "characteristic")
    filled = checked = False
    while visited[-1]["name"] != "Compute":
        f = visited[-1]
        if f["tag"] == "input" and f["name"] == char_label:
            page.keyboard.press("Control+A")
            page.keyboard.type("40")
            filled = True
        if f["tag"] == "summary" and f["name"].startswith("More modifiers"):
            page.keyboard.press("Enter")  # a long form's folded inputs open by keyboard
        if f["type"] == "checkbox" and f["name"] == "On higher ground than the opponent":
            page.keyboard.press("Space")
            checked = True
        visited.append(tab_until(page, lambda _f: True, limit=1))
        assert in_host(visited[-1]), f"Tab left the calculator at {visited[-1]}"
    assert filled and checked
    page.keyboard.press("Enter")
    # the result of this Compute: the one shown before (the starting inputs' answer) is
    # only marked out of date until the new one arrives
    page.wait_for_function("h => !h.getAttribute('aria-busy') && h.querySelector("
                           "'.ts-result:not([hidden]):not([data-stale]) .ts-values')",
                           arg=host.element_handle())
    shown = dict(host.locator(".ts-values > div").evaluate_all(
        "els => els.map(e => [e.querySelector('dt').textContent,"
        " e.querySelector('dd').textContent])"))
    assert shown["Target"] == "50"
    assert shown["P(success)"] in ("1/2 (50.0 %)", "50.0 %")  # (2-element values, kinds)
    summary = host.locator(".ts-summary").text_content()
    expected = calc.run(characteristic=40, higher_ground=True)
    assert summary == expected.summary
    wait_text(page, live, summary)

    # Roll: the next stop after Compute; Space presses it.
    roll = tab_until(page, lambda _f: True, limit=1)
    assert roll["name"] == "Roll"
    visited.append(roll)
    page.keyboard.press("Space")
    host.locator(".ts-dice").wait_for()
    rolled = host.locator(".ts-summary").text_content()
    assert rolled and rolled != summary
    wait_text(page, live, rolled)

    # Every visible control of the form was reached by Tab (one more stop after Roll).
    visited.append(tab_until(page, lambda _f: True, limit=1))
    controls = host.locator("form").evaluate(
        """f => [...f.querySelectorAll('input, select, button, summary')]
                 .filter(e => e.checkVisibility())
                 .map(e => e.id || e.getAttribute('aria-label') || e.textContent.trim())""")
    reached = {v["key"] for v in visited}
    assert set(controls) <= reached, set(controls) - reached


def test_rules_error_is_announced(new_page: NewPage, site_dir: Path, base_url: str) -> None:
    page = new_page()
    goto(page, base_url + page_with(site_dir, 'data-calc="d100.test"'))
    wait_python(page)
    host = page.locator('.ts-calc[data-calc="d100.test"]').first
    tab = host.get_attribute("aria-labelledby")
    if tab and host.get_attribute("role") == "tabpanel":
        page.locator(f"#{tab}").click()
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).fill("999")
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).press("Enter")
    error = host.locator(".ts-error:not([hidden])")
    error.wait_for()
    message = error.text_content()
    assert message and "100" in message  # the input's maximum, from rules_pkg's check
    live = host.locator('[aria-live="polite"]')
    wait_text(page, live, message)


def test_deck_tabs_follow_arrow_keys(new_page: NewPage, site_dir: Path, base_url: str) -> None:
    page = new_page()
    goto(page, base_url + page_with(site_dir, 'data-calc="horizon.profile_row"'))
    deck = page.locator(".ts-deck").first
    tabs = deck.locator('[role="tab"]')
    n = tabs.count()
    assert n >= 2
    tab_until(page, lambda f: f["role"] == "tab")
    first_id = tabs.nth(0).get_attribute("id")
    assert page.evaluate("() => document.activeElement.id") == first_id

    def selected() -> list[int]:
        return [i for i in range(n) if tabs.nth(i).get_attribute("aria-selected") == "true"]

    def visible_panels() -> list[str | None]:
        return [p.get_attribute("aria-labelledby")
                for p in deck.locator(":scope > .ts-calc").all() if p.is_visible()]

    page.keyboard.press("ArrowRight")
    assert selected() == [1] and visible_panels() == [tabs.nth(1).get_attribute("id")]
    assert page.evaluate("() => document.activeElement.id") == tabs.nth(1).get_attribute("id")
    page.keyboard.press("End")
    assert selected() == [n - 1]
    page.keyboard.press("ArrowRight")  # wraps around
    assert selected() == [0]
    page.keyboard.press("ArrowLeft")
    assert selected() == [n - 1]
    page.keyboard.press("Home")
    assert selected() == [0] and visible_panels() == [first_id]
    # Only the selected tab is a Tab stop (roving tabindex).
    assert [tabs.nth(i).get_attribute("tabindex") for i in range(n)] == ["0"] + ["-1"] * (n - 1)


def _gloss_page(site_dir: Path) -> str:
    return page_with(site_dir, 'class="ts-abbr"')


def test_glossary_opens_on_keyboard_focus_and_enter(new_page: NewPage, site_dir: Path,
                                                     base_url: str) -> None:
    page = new_page()
    goto(page, base_url + _gloss_page(site_dir))
    first = page.locator("abbr.ts-abbr").first
    text = first.get_attribute("title")
    assert text
    tab_until(page, lambda f: f["tag"] == "abbr")
    focused_text = page.evaluate("() => document.activeElement.dataset.gloss || "
                                 "document.activeElement.getAttribute('title')")
    # Focus alone shows the text (glossary.js's text-only tooltip), no hover needed.
    assert focused_text
    tip = page.locator(".ts-tip", has_text=focused_text)
    tip.first.wait_for(state="visible")
    # Enter pins it open as a box tied to the term; Escape closes it.
    page.keyboard.press("Enter")
    box = page.locator(".ts-gloss")
    box.wait_for(state="visible")
    assert box.text_content() == focused_text
    assert page.evaluate("() => document.activeElement.getAttribute('aria-expanded')") == "true"
    assert page.evaluate("() => document.getElementById(document.activeElement"
                         ".getAttribute('aria-describedby'))?.textContent") == focused_text
    page.keyboard.press("Escape")
    box.wait_for(state="detached")


def test_glossary_opens_on_tap(new_page: NewPage, site_dir: Path, base_url: str) -> None:
    page = new_page(width=390, touch=True)
    goto(page, base_url + _gloss_page(site_dir))
    term = page.locator("abbr.ts-abbr").first
    text = term.get_attribute("title")
    assert page.locator(".ts-gloss").count() == 0
    term.tap()
    box = page.locator(".ts-gloss")
    box.wait_for(state="visible")
    assert box.text_content() == text
    # On screen, at a phone's width.
    r = box.bounding_box()
    assert r and r["x"] >= 0 and r["x"] + r["width"] <= 390
    term.tap()  # a second tap closes it
    box.wait_for(state="detached")


def test_tab_row_scrolls_to_the_chosen_tab_on_a_phone(new_page: NewPage, site_dir: Path,
                                                      base_url: str) -> None:
    page = new_page(width=390, touch=True)
    goto(page, base_url + page_with(site_dir, 'data-calc="horizon.profile_row"'))
    row = page.locator(".ts-deck > .ts-tabs").first
    assert row.evaluate("r => r.scrollWidth > r.clientWidth"), "the tabs fit: nothing to test"
    assert row.evaluate("r => r.scrollLeft") == 0  # the first tab, chosen as it is built
    # A tab the row cuts off at its right edge (or hides), chosen by a tap: an event on the
    # tab itself, so that nothing but the page's own code scrolls anything.
    tab = row.locator('[role="tab"]').nth(row.evaluate(
        "r => [...r.children].findIndex((t) => t.getBoundingClientRect().right"
        " > r.getBoundingClientRect().right)"))
    page_y = page.evaluate("scrollY")
    tab.dispatch_event("click")
    assert tab.get_attribute("aria-selected") == "true"
    # In the next frame (forms/decks.mjs: measuring right after a build lays the page out twice)
    # the row, not the page, scrolls the tab fully into view.
    page.wait_for_function(
        """t => { const r = t.parentElement.getBoundingClientRect();
                  const b = t.getBoundingClientRect();
                  return t.parentElement.scrollLeft > 0
                    && b.left >= r.left && b.right <= r.right; }""",
        arg=tab.element_handle())
    assert page.evaluate("scrollY") == page_y
