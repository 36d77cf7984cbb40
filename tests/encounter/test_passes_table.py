"""The mecha game's passes through the UI at 390 px (mecha:81-86, § 6 Additional Actions):
each one's actions in the turn order, Next turn moving pass by pass, the round ending when
all actions are done. The page's state is checked against the fold of the stored log."""

from __future__ import annotations

from typing import Any

import pytest

from encounter.test_encounter_walk import add_combatant, open_tracker, wait_events
from encounter.test_tracker_table import next_turn, row

pytestmark = pytest.mark.browser


def crew(page: Any, base_url: str) -> int:
    """Ada, Bo and Cy added (Reflex 30 / 15 / 0: 1 die + Reflex keeps them in that order
    every round; 3, 2 and 1 actions) and initiative rolled: the events stored."""
    open_tracker(page, f"{base_url}mecha/encounter/")
    page.locator(".ts-enc-add summary").click()
    n = 0
    for who, reflex, actions in (("Ada", 30, 3), ("Bo", 15, 2), ("Cy", 0, 1)):
        n += 1
        add_combatant(page, n, who, {"Reflex": str(reflex), "Actions per round": str(actions)})
    page.locator(".ts-enc-add summary").click()
    page.get_by_role("button", name="Roll initiative").click()
    n += 1
    wait_events(page, n)
    return n


def test_mecha_next_turn_moves_pass_by_pass(phone: Any, base_url: str) -> None:
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    n = crew(page, base_url)
    line = page.locator(".ts-enc-round")
    assert line.inner_text() == "Round 1 · Pass 1 of 3 · Ada's turn"
    assert row(page, "Ada").locator(".ts-enc-pass").inner_text() == "action 1 of 3"
    seen = []
    for _ in range(5):
        n, enc = next_turn(page, n, "mecha")
        seen.append((enc.round, enc.pass_no, enc.current.name))
        assert line.inner_text() == (f"Round {enc.round} · Pass {enc.pass_no} of 3 · "
                                     f"{enc.current.name}'s turn")
        if enc.pass_no == 2:  # Cy took its one action: done for this round
            assert row(page, "Cy").locator(".ts-enc-pass").inner_text() == "done: 1 action"
            assert row(page, "Bo").locator(".ts-enc-pass").inner_text() == "action 2 of 2"
    # mecha:83-86: everyone by initiative, then the second actions, then the third; then
    # a new round, its initiative rolled again
    assert seen == [(1, 1, "Bo"), (1, 1, "Cy"), (1, 2, "Ada"), (1, 2, "Bo"), (1, 3, "Ada")]
    n, enc = next_turn(page, n, "mecha")
    assert (enc.round, enc.pass_no, enc.current.name) == (2, 1, "Ada")
    assert line.inner_text() == "Round 2 · Pass 1 of 3 · Ada's turn"
    assert not errors, errors


def test_entangled_actions_lost_pass_one_action_at_a_time(phone: Any, base_url: str) -> None:
    """mecha:160 "Target is robbed of 1 action for every 5 points attacker beat strength test
    by. Loss of actions is cumulative over turns": Bo (2 actions) owes 3, typed on his card;
    both of his actions in round 1 pass, then the first of round 2, and he acts in its
    second pass."""
    page = phone.new_page()
    n = crew(page, base_url)
    row(page, "Bo").locator(".ts-enc-who").click()
    page.get_by_label("Actions lost (entangled) of Bo").fill("3")
    page.get_by_label("Actions lost (entangled) of Bo").press("Enter")
    n += 1
    wait_events(page, n)
    row(page, "Bo").locator(".ts-enc-who").click()  # the card closes: the order in view
    seen = []
    for _ in range(7):
        n, enc = next_turn(page, n, "mecha")
        seen.append((enc.round, enc.pass_no, enc.current.name))
    assert seen == [(1, 1, "Cy"), (1, 2, "Ada"), (1, 3, "Ada"), (2, 1, "Ada"), (2, 1, "Cy"),
                    (2, 2, "Ada"), (2, 2, "Bo")]
    assert enc.combatant(next(c.id for c in enc.combatants if c.name == "Bo")).value(
        "actions_lost") == 0
    assert page.locator(".ts-enc-round").inner_text() == "Round 2 · Pass 2 of 3 · Bo's turn"
