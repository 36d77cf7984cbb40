"""Players roll their own dice (#25 item 2) and who is out of the fight (item 3): a roll the
rules give a player is asked when it happens, checked against the die's faces, and
followed by the rule; the dead, broken and those the GM takes out get no turn."""

from __future__ import annotations

import pytest

from rules_pkg import RulesError
from rules_pkg.encounter import (
    AddCombatant,
    NextRound,
    NextTurn,
    SetCondition,
    SetInitiative,
    SetValue,
    fold,
)
from rules_pkg.encounter.events import Answer, OutOfFight
from rules_pkg.encounter.view import state_dict


def three(*values: tuple[str, int]) -> list:
    return [AddCombatant("a", "Ada", values=values), AddCombatant("b", "V", values=values),
            AddCombatant("c", "Cy", values=values), SetInitiative("a", 30),
            SetInitiative("b", 20), SetInitiative("c", 10)]


def test_cpr_death_save_is_the_players_d10() -> None:
    # cyberpunk:49 "Roll a d10. If you roll under your BODY, you live ... If you roll a
    # 10, you automatically fail ... each future Death Save ... an additional +1"
    log = [*three(("body", 6)), SetValue("b", "hp", 0), NextTurn(seed=1, ask=True)]
    enc = fold("cyberpunk_red", log)
    (ask,) = enc.asks
    assert (ask.id, ask.name, ask.sides) == ("b", "Death Save", 10)
    assert state_dict(enc)["asks"][0]["says"].startswith("V: Death Save, d10 + penalty 0")
    with pytest.raises(RulesError, match="V's Death Save first: enter the d10 or Roll"):
        fold("cyberpunk_red", [*log, NextTurn(ask=True)])
    with pytest.raises(RulesError, match="enter 1 to 10"):
        fold("cyberpunk_red", [*log, Answer("b", "Death Save", (11,))])
    enc = fold("cyberpunk_red", [*log, Answer("b", "Death Save", (5,))])
    b = enc.combatant("b")
    assert not enc.asks and not b.has("Dead") and b.counter("death_save_penalty") == 1
    # next round: 5 + penalty 1 = 6, not under BODY 6: dies
    log += [Answer("b", "Death Save", (5,)), *[NextTurn(ask=True)] * 3]
    assert fold("cyberpunk_red", log).asks[0].name == "Death Save"
    enc = fold("cyberpunk_red", [*log, Answer("b", "Death Save", (5,))])
    assert enc.combatant("b").has("Dead")
    assert state_dict(enc)["combatants"][1]["status"] == ["Dead"]
    assert state_dict(enc)["combatants"][1]["out"] == "Dead"
    enc = fold("cyberpunk_red", [*log, Answer("b", "Death Save", (10,))])  # a 10 always fails
    assert enc.combatant("b").has("Dead")


def test_a_dead_combatant_gets_no_turn_and_the_gm_can_bring_one_back() -> None:
    log = [*three(), SetCondition("b", "Dead")]
    enc = fold("cyberpunk_red", [*log, NextTurn()])
    assert enc.current.id == "c"
    assert "V is out of the fight (Dead): no turn" in enc.history[-1].steps
    log += [OutOfFight("b", out=False), NextTurn()]
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "b" and not enc.combatant("b").has("Dead")
    log += [OutOfFight("c"), NextTurn()]  # the GM's call: c is skipped too
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "a" and enc.round == 2
    assert state_dict(enc)["combatants"][2]["out"] == "the GM's call"


def test_d100_blood_loss_test_and_decay_are_the_players() -> None:
    # d100 § Status Effects, Blood Loss: "test Toughness every round; on a failure 1d5
    # Toughness decay"; the test is d100 against Toughness 35
    log = [*three(), SetCondition("a", "Blood Loss"), NextTurn(ask=True)]
    enc = fold("d100", log)
    assert [(a.id, a.name, a.sides) for a in enc.asks] == [("a", "Blood Loss test", 100)]
    passed = fold("d100", [*log, Answer("a", "Blood Loss test", (20,))])
    assert not passed.asks and passed.combatant("a").value("toughness") == 35
    failed = fold("d100", [*log, Answer("a", "Blood Loss test", (90,))])
    assert [(a.name, a.sides) for a in failed.asks] == [("Blood Loss decay", 5)]
    with pytest.raises(RulesError, match="enter 1 to 5"):
        fold("d100", [*log, Answer("a", "Blood Loss test", (90,)),
                      Answer("a", "Blood Loss decay", (6,))])
    enc = fold("d100", [*log, Answer("a", "Blood Loss test", (90,)),
                        Answer("a", "Blood Loss decay", (4,))])
    assert enc.combatant("a").value("toughness") == 31 and not enc.asks
    rolled = fold("d100", [*log, Answer("a", "Blood Loss test", seed=3)])  # "Roll": in sight
    assert "rolled for Ada" in rolled.history[-1].steps[0]


def test_an_older_log_still_rolls_from_its_seed() -> None:
    log = [*three(("body", 6)), SetValue("b", "hp", 0), NextTurn(seed=1)]
    enc = fold("cyberpunk_red", log)
    assert not enc.asks and enc.combatant("b").counter("death_save_penalty") == 1


def test_next_round_stops_for_a_players_roll() -> None:
    log = [*three(("body", 6)), SetValue("c", "hp", 0), NextRound(ask=True)]
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "c" and enc.asks[0].name == "Death Save" and enc.round == 1


def test_broken_and_out_of_vitality_are_skipped() -> None:
    cards = [AddCombatant(i, n) for i, n in (("a", "Ada"), ("b", "Bo"), ("c", "Cy"))]
    cards += [SetInitiative("c", 1), SetInitiative("b", 2), SetInitiative("a", 3)]
    enc = fold("forbidden_lands", [*cards, SetValue("b", "strength", 0), NextTurn()])
    assert enc.current.id == "a"  # FL lowest first: c (1), b (2, Broken: skipped), a (3)
    enc = fold("forbidden_lands", [*cards, SetValue("b", "strength", 0),
                                   OutOfFight("b", out=False)])
    assert enc.combatant("b").value("strength") == 1
    enc = fold("mecha", [*three(), SetValue("b", "vitality", 0), NextTurn()])
    assert enc.combatant(enc.order[enc.turn]).id != "b"
