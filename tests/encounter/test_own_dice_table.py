"""A player's own dice for a vacuum's STAT damage, through the UI at 390 px (#25 item 2,
cyberpunk:31): "an additional 1d6 in damage at the end of your Turn to your INT, REF, and
DEX". Asked in the main view when Bo's Turn ends, three dice checked against a d6's faces,
then the rule; the state is checked against the fold of the stored log."""

from __future__ import annotations

from typing import Any

import pytest

from encounter.test_encounter_walk import add_combatant, open_tracker, wait_events
from encounter.test_tracker_table import live, row

pytestmark = pytest.mark.browser


def test_cpr_vacuum_damage_is_the_players_3d6(phone: Any, base_url: str) -> None:
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_tracker(page, f"{base_url}cyberpunk-red/encounter/")
    page.locator(".ts-enc-add summary").click()
    for n, who in enumerate(("Ada", "Bo"), 1):
        add_combatant(page, n, who)
    page.locator(".ts-enc-add summary").click()
    panel = page.locator(".ts-enc-initform")
    panel.get_by_label("Initiative of Ada", exact=True).fill("20")
    panel.get_by_label("Initiative of Bo", exact=True).fill("10")
    panel.get_by_role("button", name="Set typed initiatives").click()
    wait_events(page, 4)
    row(page, "Bo").locator(".ts-enc-who").click()
    card = page.locator(".ts-enc-card")
    card.get_by_label("Condition", exact=True).select_option("Asphyxiating in space")
    card.get_by_role("button", name="Set").click()
    wait_events(page, 5)
    for n in (6, 7):  # Bo's Turn starts (BODY to HP), then ends: the vacuum's dice
        page.get_by_role("button", name="Next turn").click()
        wait_events(page, n)
    ask = page.locator(".ts-enc-ask")
    field = ask.get_by_label("Bo: Vacuum damage, enter your 3d6")
    assert "1d6 each to INT, REF and DEX, in that order" in ask.locator(
        ".ts-enc-says").inner_text()
    field.fill("2 3")  # two dice for three STATs: refused, naming the dice
    ask.get_by_role("button", name="Enter").click()
    page.locator(".ts-enc-msg", has_text="Bo's Vacuum damage: enter the 3d6 as rolled, "
                 "3 dice, each 1 to 6 (got “2 3”).").wait_for()
    field.fill("2 3 4")
    ask.get_by_role("button", name="Enter").click()
    wait_events(page, 8)
    bo = next(c for c in live(page, "cyberpunk_red").combatants if c.name == "Bo")
    assert [bo.value(k) for k in ("int", "ref", "dex")] == [4, 3, 2]  # 6 each before
    assert bo.value("hp") == 40 - 6  # BODY 6 direct to HP at the Turn's start
    assert page.locator(".ts-enc-ask").count() == 0
    assert not errors, errors
