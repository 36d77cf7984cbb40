"""At a phone's width (390 px) every calculator control is at least 44 x 44 px to tap,
on one page per game (each calculator of a deck shown in turn) and in a shown result."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import rules_pkg

from .conftest import NewPage, goto, open_calc, wait_python

pytestmark = pytest.mark.browser

MIN_PX = 44
# What a finger taps: form controls, buttons, disclosure summaries, deck tabs. A checkbox
# is tapped through its label, which wraps it (so the label is measured).
TARGETS = """host => [...host.querySelectorAll(
    'input:not([type=checkbox]), select, button, summary, label:has(> input[type=checkbox])')]
  .filter(e => e.checkVisibility())
  .map(e => { const r = e.getBoundingClientRect();
              return { what: e.outerHTML.slice(0, 90), w: r.width, h: r.height }; })"""


def busiest_pages(site_dir: Path) -> dict[str, str]:
    """For each game, the built page with the most calculators of that game."""
    games = {c.id.split(".")[0] for c in rules_pkg.calculators()}
    best: dict[str, tuple[int, str]] = {}
    for html in sorted(site_dir.rglob("index.html")):
        if html.parent.name == "encounter":  # all of a game's calculators, in a sheet that
            continue  # opens on demand: tests/a11y/test_encounter_axe.py covers that page
        text = html.read_text("utf-8")
        for game in games:
            n = text.count(f'data-calc="{game}.')
            if n and n > best.get(game, (0, ""))[0]:
                rel = html.relative_to(site_dir).as_posix()
                best[game] = (n, rel[: -len("index.html")])
    return {game: path for game, (_, path) in sorted(best.items())}


def small(targets: list[dict[str, Any]]) -> list[str]:
    return [f"{t['w']:.0f}x{t['h']:.0f} {t['what']}" for t in targets
            if t["w"] < MIN_PX - 0.5 or t["h"] < MIN_PX - 0.5]


def test_every_game_has_a_page_with_calculators(site_dir: Path) -> None:
    games = {c.id.split(".")[0] for c in rules_pkg.calculators()}
    assert set(busiest_pages(site_dir)) == games


@pytest.mark.parametrize("game", sorted({c.id.split(".")[0] for c in rules_pkg.calculators()}))
def test_calculator_controls_are_44px(new_page: NewPage, site_dir: Path, base_url: str,
                                      game: str) -> None:
    page = new_page(width=390, touch=True)
    goto(page, base_url + busiest_pages(site_dir)[game])
    ids = page.locator(".ts-calc").evaluate_all("els => els.map(e => e.dataset.calc)")
    too_small: list[str] = []
    seen: Counter[str] = Counter()
    for calc_id in ids:
        host = open_calc(page, calc_id, seen[calc_id])
        seen[calc_id] += 1
        host.scroll_into_view_if_needed()
        too_small += small(host.evaluate(TARGETS))
        deck = host.locator("xpath=..")
        if deck.get_attribute("class") == "ts-deck":
            too_small += small(deck.locator(":scope > .ts-tabs").evaluate(TARGETS))
    assert not too_small, "\n".join(sorted(set(too_small)))


def test_result_controls_are_44px(new_page: NewPage, site_dir: Path, base_url: str) -> None:
    """A shown result's buttons (row links, odds), the roll log and its 'Use' chips."""
    page = new_page(width=390, touch=True)
    goto(page, base_url + busiest_pages(site_dir)["horizon"])
    wait_python(page)
    host = open_calc(page, "horizon.profile_row")
    host.get_by_role("button", name="Compute", exact=True).tap()
    host.locator(".ts-values").wait_for()
    roller = open_calc(page, "horizon.combat_test")
    roller.get_by_role("button", name="Roll", exact=True).tap()
    roller.locator(".ts-dice").wait_for()
    log = page.locator(".ts-log")
    log.locator(".ts-log-entry").first.wait_for()
    targets = host.evaluate(TARGETS) + roller.evaluate(TARGETS) + log.evaluate(TARGETS)
    kinds = {t["what"].split(" class=")[1].split('"')[1] for t in targets if " class=" in t["what"]}
    assert "ts-link" in kinds  # a "Show the row" button is among those measured
    assert not small(targets), "\n".join(small(targets))
