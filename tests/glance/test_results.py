"""Results a game master reads at a glance (issue #11), on the built site in Chromium:
values formatted by kind, the phone-first result and form, a shared link that lands on
its result, and chaining that offers only fitting inputs, most relevant first."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import (
    LIVE_RESULT,
    open_calc,
    open_heavy_pistol,
    page_with,
    wait_python,
)

import rules_pkg

from .conftest import DESKTOP, PHONE, NewPage
from .nav import compute_defaults, instant

pytestmark = pytest.mark.browser

PERCENT = re.compile(r"^(?:\d{1,3}(?:\.\d{1,2})? %|< 0\.01 %|> 99\.99 %)$")
KINDS = {"probability", "mean", "count", "dice", "text"}


def calc_pages(site_dir: Path) -> dict[str, list[str]]:
    """page path -> ids of the calculators it carries (each calculator on one page)."""
    pages: dict[str, list[str]] = defaultdict(list)
    for c in rules_pkg.calculators():
        pages[page_with(site_dir, f'data-calc="{c.id}"')].append(c.id)
    return pages


def test_every_calculator_formats_its_values_by_kind(new_page: NewPage, site_dir: Path,
                                                     base_url: str) -> None:
    """Every calculator on its defaults: each value has a kind (the engine's contract),
    and no "%" on any value that is not a probability. (Needs the engine's kinds.)"""
    page = new_page(DESKTOP)
    pages = calc_pages(site_dir)
    first = next(iter(pages))
    page.goto(base_url + first)
    wait_python(page)
    problems = []
    checked = 0
    for path, ids in pages.items():
        if path != first:
            instant(page, base_url + path)
        for cid in ids:
            host = open_calc(page, cid)
            done = compute_defaults(host)
            if "ts-error" in (done.get_attribute("class") or ""):
                # a rule's own message (e.g. a preset weapon the source gives no Reload
                # for) is an answer; a calculator error is not
                if done.inner_text().startswith("Calculator error"):
                    problems.append(f"{cid}: {done.inner_text()}")
                continue
            checked += 1
            shown = host.locator(".ts-values > div").evaluate_all(
                "els => els.map(e => [e.querySelector('dt').textContent, e.dataset.kind || '',"
                " e.querySelector('dd').textContent])")
            for name, kind, text in shown:
                if kind not in KINDS:
                    problems.append(f"{cid}: {name} = {text!r} has no kind")
                elif kind != "probability" and "%" in text:
                    problems.append(f"{cid}: {name} = {text!r} is a {kind}, shown as a percent")
                elif kind == "probability" and not PERCENT.match(text):
                    problems.append(f"{cid}: {name} = {text!r} is a probability")
    assert not problems, "\n".join(problems)
    assert checked >= len(rules_pkg.calculators()) - 5


def test_a_probability_shows_its_exact_fraction_on_a_tap(new_page: NewPage, site_dir: Path,
                                                         base_url: str) -> None:
    page = new_page(PHONE, has_touch=True)
    page.goto(base_url + page_with(site_dir, 'data-calc="d100.test"'))
    host = open_calc(page, "d100.test")
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).fill("40")
    compute_defaults(host)
    odds = host.locator("details.ts-odds-box").first
    if not odds.evaluate("d => d.open"):  # folded on a phone when long: open it
        odds.locator("summary").tap()
    cell = host.locator("table.ts-odds .ts-exact").first
    pct = cell.inner_text()
    assert PERCENT.match(pct), pct
    assert re.fullmatch(r"exactly \d+/\d+", cell.get_attribute("title") or "")
    cell.tap()
    assert re.fullmatch(re.escape(pct) + r" = \d+/\d+", cell.inner_text())
    # odds are readable on a phone: 14 px or more
    size = host.locator("table.ts-odds").evaluate("t => parseFloat(getComputedStyle(t).fontSize)")
    assert size >= 14


def test_d100_form_on_a_phone(new_page: NewPage, site_dir: Path, base_url: str) -> None:
    """34 inputs: the common ones first, the rest under "More modifiers"; number fields two
    to a row; after Compute the answer is in view, the worked steps folded."""
    page = new_page(PHONE)
    page.goto(base_url + page_with(site_dir, 'data-calc="d100.test"'))
    host = open_calc(page, "d100.test", unfold=False)  # its tab chosen if it has one
    host.scroll_into_view_if_needed()
    calc = rules_pkg.get("d100.test")
    shown = host.locator(".ts-field").evaluate_all("els => els.filter(e => e.checkVisibility())"
                                                   ".length")
    assert shown <= 8 < len(calc.inputs)
    more = host.locator("details.ts-more > summary")
    assert more.inner_text().startswith("More modifiers")
    more.click()
    rows: dict[int, list[int]] = defaultdict(list)
    for box in host.locator(".ts-field.ts-int").all():
        b = box.bounding_box()
        assert b and b["width"] <= PHONE["width"] / 2
        rows[round(b["y"])].append(round(b["x"]))
    assert any(len(xs) == 2 for xs in rows.values()), rows
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).fill("40")
    page.mouse.wheel(0, -5000)  # the reader is back at the form's top
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).scroll_into_view_if_needed()
    host.get_by_role("button", name="Compute").click()
    summary = host.locator(f"{LIVE_RESULT} .ts-summary")  # live (issue 13)
    summary.wait_for(timeout=90_000)
    page.wait_for_timeout(800)  # the smooth scroll
    top = summary.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top <= PHONE["height"] - 60
    assert host.locator("details.ts-steps-box").evaluate("d => !d.open")
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "screens" / "d100-form.png"))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_shared_link_lands_on_its_result(new_page: NewPage, site_dir: Path, base_url: str,
                                           viewport: dict[str, int]) -> None:
    page = new_page(viewport)
    page.goto(base_url + page_with(site_dir, 'data-calc="forbidden_lands.roll"'))
    host = open_calc(page, "forbidden_lands.roll")
    host.get_by_label("Attribute (base dice)", exact=True).fill("4")
    compute_defaults(host)
    link = page.url
    assert "calc=forbidden_lands.roll" in link
    friend = new_page(viewport)
    friend.goto(link)
    result = friend.locator('.ts-calc[data-calc="forbidden_lands.roll"] .ts-result')
    result.locator(".ts-summary").wait_for(timeout=90_000)
    friend.wait_for_function(
        "() => document.activeElement && document.activeElement.matches('.ts-result')")
    friend.wait_for_timeout(500)
    top = result.evaluate("e => e.getBoundingClientRect().top")
    header = friend.locator(".md-header").evaluate("e => e.getBoundingClientRect().bottom")
    assert header - 2 <= top <= header + 80, (top, header)


def test_chaining_offers_fitting_inputs_most_relevant_first(page: Any, site_dir: Path,
                                                            base_url: str) -> None:
    host = open_heavy_pistol(page, site_dir, base_url, "horizon.profile_row")
    host.get_by_label("AP score", exact=True).fill("17")
    host.get_by_role("button", name="Compute").click()
    entry = page.locator(".ts-log .ts-log-entry").first
    entry.get_by_role("button", name="Use Damage 22").click()
    chooser = entry.get_by_label("Use Damage 22 as")
    options = chooser.locator("option").all_inner_texts()
    assert options and "damage" in options[0].lower(), options[:3]
    # only whole-number inputs of calculators on this page that accept 22
    page_inputs = page.evaluate("""() => [...document.querySelectorAll(
        '.ts-calc[data-ts-ready] input[data-int]')].map(e => ({
          max: e.dataset.max === undefined ? null : Number(e.dataset.max),
          min: e.dataset.min === undefined ? null : Number(e.dataset.min)}))""")
    fitting = [i for i in page_inputs if (i["max"] is None or i["max"] >= 22)
               and (i["min"] is None or i["min"] <= 22)]
    assert len(options) == len(fitting)


def test_highlights_are_labelled_and_replace_their_own(page: Any, site_dir: Path,
                                                       base_url: str) -> None:
    open_heavy_pistol(page, site_dir, base_url)
    table = page.locator('table[data-table="profile-heavy-combat-pistol"]')
    row_calc = open_calc(page, '.ts-calc[data-calc="horizon.profile_row"]'
                               '[data-preset*="heavy-combat-pistol"]')
    row_calc.get_by_label("AP score", exact=True).fill("17")
    row_calc.get_by_role("button", name="Compute").click()
    row_calc.locator(f"{LIVE_RESULT} .ts-summary").wait_for(timeout=90_000)
    tags = table.locator("tr.ts-hl > [data-ts-hl]")
    assert tags.count() == 1
    tab = row_calc.get_attribute("aria-labelledby")
    assert tab and tags.first.get_attribute("data-ts-hl") == page.locator(f"#{tab}").inner_text()
    assert tags.first.evaluate("c => getComputedStyle(c, '::after').content") == \
        f'"{tags.first.get_attribute("data-ts-hl")}"'  # shown beside the row's name
    row_calc.get_by_label("AP score", exact=True).fill("3")
    row_calc.get_by_role("button", name="Compute").click()
    page.wait_for_function("""() => document.querySelectorAll(
        'table[data-table="profile-heavy-combat-pistol"] tr.ts-hl').length === 1
        && document.querySelector('table[data-table="profile-heavy-combat-pistol"] tr.ts-hl')
           .cells[0].textContent.trim().startsWith('3')""")
    assert table.locator("tr.ts-hl").count() == 1
    assert table.locator("tr.ts-hl").first.locator("th, td").first.inner_text().startswith("3")
