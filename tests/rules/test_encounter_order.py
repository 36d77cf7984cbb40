"""The turn order under the table's control (#25 item 1): typed, rolled for those without,
exchanged, moved, held; Surprise where the game has it. Known answers from the sources."""

from __future__ import annotations

import pytest

from rules_pkg import RulesError
from rules_pkg.encounter import (
    AddCombatant,
    NextTurn,
    RollInitiative,
    SetCondition,
    SetInitiative,
    SetValue,
    fold,
)
from rules_pkg.encounter.events import Move, SwapInitiative


def three(*values: tuple[str, int]) -> list:
    return [AddCombatant("a", "Ada", values=values), AddCombatant("b", "Bo", values=values),
            AddCombatant("c", "Cy", values=values)]


def test_fl_late_joiner_draws_from_the_cards_left_and_no_one_else_changes() -> None:
    # FL:65 "do not reshuffle cards. Keep the same cards for the entire combat"
    log = [*three(), RollInitiative(seed=5), NextTurn()]
    before = fold("forbidden_lands", log)
    cards = {c.id: c.initiative for c in before.combatants}
    log += [AddCombatant("d", "Dee"), RollInitiative(seed=9, only_missing=True)]
    enc = fold("forbidden_lands", log)
    assert {c.id: c.initiative for c in enc.combatants if c.id != "d"} == cards
    assert enc.combatant("d").initiative not in cards.values()
    assert 1 <= enc.combatant("d").initiative <= 10
    assert enc.current.id == before.current.id and enc.round == before.round
    for seed in range(30):  # never one of the cards already held
        got = fold("forbidden_lands", [*log[:-1], RollInitiative(seed=seed, only_missing=True)])
        assert got.combatant("d").initiative not in cards.values()


def test_cpr_late_joiner_replays_no_start_of_turn() -> None:
    # the issue: re-rolling everyone for a joiner gave a Mortally Wounded PC two Death
    # Saves in one round (cyberpunk:49). Rolling only for the joiner starts no turn.
    log = [*three(), SetInitiative("a", 20), SetInitiative("b", 10), SetInitiative("c", 5),
           SetValue("a", "hp", 0), NextTurn(seed=1)]
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "b"
    log += [AddCombatant("d", "Dee"), RollInitiative(seed=3, only_missing=True)]
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "b" and enc.round == 1
    assert not any("Death Save" in s for s in enc.history[-1].steps)
    assert enc.combatant("a").counter("death_save_penalty") == 0
    with pytest.raises(RulesError, match="everyone has an initiative"):
        fold("cyberpunk_red", [*log, RollInitiative(seed=4, only_missing=True)])


def test_fl_a_typed_card_is_one_of_ten_and_no_one_elses() -> None:
    log = [*three(), SetInitiative("a", 3), SetInitiative("b", 7)]
    # each refusal names whose card it is: a form sets several at once (panels.js)
    with pytest.raises(RulesError, match=r"Cy cannot take card 3: it is Ada's \(exchange cards"):
        fold("forbidden_lands", [*log, SetInitiative("c", 3)])
    with pytest.raises(RulesError, match=r"Cy's card: an initiative card is 1 to 10 \(got 11\)"):
        fold("forbidden_lands", [*log, SetInitiative("c", 11)])


def test_fl_exchanging_cards_keeps_the_turn() -> None:
    # FL:10 "Players may exchange initiative cards here"
    log = [*three(), SetInitiative("a", 3), SetInitiative("b", 7), SetInitiative("c", 9)]
    enc = fold("forbidden_lands", [*log, NextTurn(), SwapInitiative("a", "c")])
    assert (enc.combatant("a").initiative, enc.combatant("c").initiative) == (9, 3)
    assert enc.order == ("c", "b", "a") and enc.current.id == "b"


def test_holding_a_turn_starts_the_next_and_no_one_crosses_the_current() -> None:
    # Horizon: Defense lasts "until your next turn" (§ Defense Actions): Bo's turn starts
    # when Ada holds, so Bo's Defense lapses then.
    log = [*three(), SetInitiative("a", 9), SetInitiative("b", 5), SetInitiative("c", 1),
           SetValue("b", "defense", 4)]
    enc = fold("horizon", [*log, Move("a", 1)])
    assert enc.order == ("b", "a", "c") and enc.current.id == "b"
    assert enc.combatant("b").value("defense") == 0
    assert enc.history[-1].summary == "Ada holds their turn: Bo acts now"
    enc = fold("horizon", [*log, Move("c", -1)])  # among those yet to act: fine
    assert enc.order == ("a", "c", "b") and enc.current.id == "a"
    with pytest.raises(RulesError, match="Ada's turn has begun"):
        fold("horizon", [*log, Move("b", -1)])


def test_surprise_where_the_game_has_it() -> None:
    # Horizon 1807-1811: the striking team adds its ACU rank to the Awareness result
    enc = fold("horizon", [*three(("awareness", 0), ("acuity", 3)),
                           RollInitiative(seed=2, surprise=("a",))])
    assert [enc.combatant(i).initiative for i in "abc"] == [6, 3, 3]
    assert enc.order[0] == "a"
    # FL:8 "Surprise: Draw 2 initiative cards, choose better"
    enc = fold("forbidden_lands", [*three(), RollInitiative(seed=5, surprise=("c",))])
    drew = next(s for s in enc.history[-1].steps if s.startswith("Cy draws"))
    a, b = (int(x) for x in drew.split("draws ")[1].split(" (")[0].split(" and "))
    assert enc.combatant("c").initiative == min(a, b)


def test_late_joiner_with_surprise_in_fl_uses_two_cards_left() -> None:
    log = [*three(), RollInitiative(seed=5), AddCombatant("d", "Dee"),
           SetCondition("d", "Prone"), RollInitiative(seed=8, surprise=("d",), only_missing=True)]
    enc = fold("forbidden_lands", log)
    held = {enc.combatant(i).initiative for i in "abc"}
    assert enc.combatant("d").initiative not in held
