"""The Encounter page with a fight in progress (issue 12): axe-core finds no WCAG 2.2
A/AA violation, phone and desktop, light and dark; it works by keyboard alone."""

from __future__ import annotations

import pytest

from .conftest import NewPage, axe, goto, report, wait_python

pytestmark = pytest.mark.browser


def fight(page, base_url: str, scheme: str) -> None:
    goto(page, base_url + "d100/encounter/", scheme)
    wait_python(page)
    page.wait_for_function("() => document.querySelector('.ts-encounter')?.dataset.events")
    page.locator(".ts-enc-add summary").click()
    for i, name in enumerate(("Ada", "Bo", "Horde")):
        page.get_by_label("Name", exact=True).fill(name)
        if name == "Horde":
            page.get_by_label("Kind", exact=True).select_option("horde")
            page.get_by_label("Magnitude (full)", exact=True).fill("30")
        page.get_by_role("button", name="Add to the fight").click()
        page.wait_for_function(
            f"() => document.querySelector('.ts-encounter').dataset.events === '{i + 1}'")
    page.get_by_role("button", name="Roll initiative").click()
    page.wait_for_function("() => document.querySelector('.ts-encounter').dataset.events === '4'")
    page.locator(".ts-enc-order > li[aria-current=true] .ts-enc-who").click()  # its actions
    card = page.locator(".ts-enc-card")
    card.get_by_label("Condition", exact=True).select_option("Burning")
    card.get_by_role("button", name="Set").click()
    page.wait_for_function("() => document.querySelector('.ts-encounter').dataset.events === '5'")
    page.get_by_role("button", name="Next turn").click()
    page.locator(".ts-enc-hist summary").click()
    page.get_by_role("button", name="More").click()


@pytest.mark.parametrize("width", (390, 1280))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_fight_in_progress_has_no_violations(new_page: NewPage, base_url: str, scheme: str,
                                             width: int) -> None:
    page = new_page(width=width, scheme=scheme)
    fight(page, base_url, scheme)
    if width < 900:
        page.get_by_role("button", name="Calculators").click()
    host = page.locator(".ts-calc[data-calc='d100.cover']")
    page.locator(f"#{host.get_attribute('id')}-tab").click()
    host.get_by_role("button", name="Compute", exact=True).click()
    host.locator(".ts-apply-go").wait_for()
    # The turn bar is sticky at the bottom: what scrolls under it is covered by design (a
    # control brought into view by focus stops above it: scroll-padding). axe measures the
    # page where it stands, so it stands at the tracker's end, the bar in its own place.
    page.evaluate("document.querySelector('.ts-encounter').scrollIntoView({block: 'end'})")
    found = axe(page)
    assert not found, report(found)


def test_keyboard_only(new_page: NewPage, base_url: str) -> None:
    """Add a combatant, roll initiative and go to the next turn with the keyboard alone."""
    page = new_page(width=390)
    goto(page, base_url + "mecha/encounter/")
    wait_python(page)
    page.wait_for_function("() => document.querySelector('.ts-encounter')?.dataset.events")
    page.locator(".ts-enc-add summary").focus()
    page.keyboard.press("Enter")
    page.get_by_label("Name", exact=True).focus()
    page.keyboard.type("Kaz")
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_function("() => document.querySelector('.ts-encounter').dataset.events === '1'")
    page.get_by_role("button", name="Roll initiative").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.ts-encounter').dataset.events === '2'")
    # the Initiative panel is drawn again: the focus goes on to Next turn (#25)
    assert page.evaluate("document.activeElement.textContent") == "Next turn"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.ts-encounter').dataset.events === '3'")
    assert page.locator(".ts-enc-round").inner_text() == "Round 2 · Kaz's turn"
