"""axe-core finds no WCAG 2.2 A/AA violation on any kind of page, light and dark,
on a desktop (1280 px) and a phone (390 px) screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import NewPage, axe, goto, open_calc, page_with, report, settle, wait_python

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
    return page_with(site_dir, needle, exclude=exclude)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind", ["home", "rules", "profile", "cheat-sheet", "data", "404"])
def test_page_has_no_violations(new_page: NewPage, site_dir: Path, base_url: str, kind: str,
                                scheme: str, width: int) -> None:
    page = new_page(width=width, scheme=scheme)
    goto(page, base_url + path_of(site_dir, kind), scheme)
    found = axe(page)
    assert not found, report(found)


# Lighthouse's accessibility audits are axe rules, some beyond WCAG's tags ("best practice"):
# Lighthouse 12/13's list. Material's search dialog had no name (aria-dialog-name).
LIGHTHOUSE_RULES = [
    "accesskeys", "aria-allowed-attr", "aria-allowed-role", "aria-command-name",
    "aria-conditional-attr", "aria-deprecated-role", "aria-dialog-name", "aria-hidden-body",
    "aria-hidden-focus", "aria-input-field-name", "aria-meter-name", "aria-progressbar-name",
    "aria-prohibited-attr", "aria-required-attr", "aria-required-children",
    "aria-required-parent", "aria-roles", "aria-text", "aria-toggle-field-name",
    "aria-tooltip-name", "aria-treeitem-name", "aria-valid-attr-value", "aria-valid-attr",
    "button-name", "bypass", "color-contrast", "definition-list", "dlitem", "document-title",
    "duplicate-id-aria", "empty-heading", "form-field-multiple-labels", "frame-title",
    "heading-order", "html-has-lang", "html-lang-valid", "html-xml-lang-mismatch",
    "identical-links-same-purpose", "image-alt", "image-redundant-alt", "input-button-name",
    "input-image-alt", "label-content-name-mismatch", "label", "landmark-one-main",
    "link-in-text-block", "link-name", "list", "listitem", "meta-refresh", "meta-viewport",
    "object-alt", "select-name", "skip-link", "tabindex", "table-duplicate-name",
    "table-fake-caption", "target-size", "td-has-header", "td-headers-attr",
    "th-has-data-cells", "valid-lang", "video-caption",
]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", ["home", "rules", "profile", "cheat-sheet", "encounter"])
def test_lighthouse_accessibility_audits_pass(new_page: NewPage, site_dir: Path, base_url: str,
                                              kind: str, width: int) -> None:
    page = new_page(width=width)
    path = "cyberpunk-red/encounter/" if kind == "encounter" else path_of(site_dir, kind)
    goto(page, base_url + path)
    found = axe(page, rules=LIGHTHOUSE_RULES)
    assert not found, report(found)
    name = page.locator('.md-search[role="dialog"]').get_attribute("aria-label")
    assert name == "Search"


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


# Text and background colours of the element under test, composited over its ancestors'
# backgrounds (rgba strings, as the browser computes them).
COLOURS = """e => { const parse = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const over = (top, bottom) => { const a = top.length > 3 ? top[3] : 1;
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)); };
  let bg = [255, 255, 255]; const layers = [];
  for (let n = e; n; n = n.parentElement) layers.push(parse(getComputedStyle(n).backgroundColor));
  for (const l of layers.reverse()) if (l.length) bg = over(l, bg);
  return { fg: over(parse(getComputedStyle(e).color), bg), bg }; }"""


def contrast(fg: list[float], bg: list[float]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (0-255 channels)."""
    def lum(c: list[float]) -> float:
        lin = [(v / 255 / 12.92) if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4
               for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_known_answers() -> None:
    assert round(contrast([0, 0, 0], [255, 255, 255]), 1) == 21.0
    assert round(contrast([255, 255, 255], [255, 110, 66]), 2) == 2.78  # white on #ff6e42


def low_contrast(page: Any, button: Any) -> list[str]:
    """The states (at rest, focused, hovered) in which `button`'s text is under 4.5:1."""
    low = []
    for state in ("rest", "focus", "hover"):
        page.mouse.move(0, 0)
        page.evaluate("() => document.activeElement?.blur()")
        if state == "focus":
            button.focus()
        elif state == "hover":
            button.hover()
        settle(page)  # Material's colour transitions (.25 s), however slow the machine
        c = button.evaluate(COLOURS)
        if (ratio := contrast(c["fg"], c["bg"])) < 4.5:
            low.append(f"({state}): {ratio:.2f}:1, text {c['fg']} on {c['bg']}")
    return low


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focused_and_hovered_buttons_keep_contrast(new_page: NewPage, site_dir: Path,
                                                   base_url: str, scheme: str) -> None:
    """Material recolours buttons on :hover and :focus (accent background), states axe
    does not look at: each kind of calculator button keeps 4.5:1 in each state."""
    page = new_page(scheme=scheme)
    goto(page, base_url + path_of(site_dir, "profile"), scheme)
    host = open_calc(page, "horizon.combat_test")
    deck = host.locator("xpath=..")
    buttons = {"Compute": host.get_by_role("button", name="Compute", exact=True),
               "Roll": host.get_by_role("button", name="Roll", exact=True),
               "stepper": host.locator("button.ts-step").first,
               "tab": deck.locator('[role="tab"][aria-selected="false"]').first}
    low = [f"{name} {line}" for name, button in buttons.items()
           for line in low_contrast(page, button)]
    assert not low, "\n".join(low)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_save_for_offline_control_keeps_contrast(new_page: NewPage, base_url: str,
                                                 scheme: str) -> None:
    """The footer's "Save everything for offline" button (offline.js) appears once the
    service worker is ready, so a page-wide axe run may or may not see it: here it is
    waited for, then checked by axe and at rest, focused and hovered (4.5:1)."""
    page = new_page(scheme=scheme)
    goto(page, base_url, scheme)
    button = page.locator("#ts-save button")
    button.wait_for()
    found = axe(page, "#ts-save")
    assert not found, report(found)
    low = low_contrast(page, button)
    assert not low, "\n".join(low)
