"""A limit that follows another input, in the built site (issue #10 item 7): the form's
steppers stop where the engine's check (rules_pkg.registry.Bound) does, and a typed value
past it gets the engine's message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import open_calc, open_heavy_pistol, page_with, values

pytestmark = pytest.mark.browser


def test_attack_steppers_stop_at_the_weapons_magazine(page: Any, site_dir: Path,
                                                      base_url: str) -> None:
    # Heavy Combat Pistol "Magazine: 3Shots" (horizon-out-of-the-ashes-combat.txt)
    host = open_heavy_pistol(page, site_dir, base_url, "horizon.attack")
    attacks = host.get_by_label("Attack actions", exact=True)
    assert attacks.input_value() == "2"
    for _ in range(3):
        host.get_by_role("button", name="Increase Attack actions").click()
    assert attacks.input_value() == "3"  # the Magazine: the static limit is 20
    host.get_by_role("button", name="Compute").click()
    assert values(host)["Total damage"]
    attacks.fill("4")
    host.get_by_role("button", name="Compute").click()
    error = host.locator(".ts-error")
    error.wait_for(state="visible")
    assert "at most 3 with that weapon's Magazine" in error.inner_text()


def test_initiative_swap_steppers_step_over_the_card_the_other_holds(
        page: Any, site_dir: Path, base_url: str) -> None:
    # Forbidden Lands § Start of Round: no two combatants hold the same initiative card
    # (issue #29 item 5: your card 1 or 10 against theirs was offered, then refused)
    page.goto(base_url + page_with(site_dir, 'data-calc="forbidden_lands.initiative_swap"'))
    host = open_calc(page, "forbidden_lands.initiative_swap")
    yours = host.get_by_label("Your card", exact=True)
    theirs = host.get_by_label("Their card", exact=True)
    assert (yours.input_value(), theirs.input_value()) == ("5", "2")
    for _ in range(3):
        host.get_by_role("button", name="Decrease Your card").click()
    assert yours.input_value() == "1"  # 4, 3, then over their 2 to 1
    host.get_by_role("button", name="Decrease Their card").click()
    assert theirs.input_value() == "2"  # 1 is yours, and nothing is below it
    host.get_by_role("button", name="Compute").click()
    assert values(host)["Your card"] == "2"
    theirs.fill("1")
    host.get_by_role("button", name="Compute").click()
    error = host.locator(".ts-error")
    error.wait_for(state="visible")
    assert "Your card cannot be 1 when Their card is too" in error.inner_text()
