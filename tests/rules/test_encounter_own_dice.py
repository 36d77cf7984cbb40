"""Players roll their own dice (#25 item 2), the rest of them: Horizon's Awareness test for
turn order, d100 Burning, Cyberpunk RED Electrocution and a vacuum's STAT damage are asked
when they happen, checked against the die's faces, and followed by the rule; the ask-or-roll
choice is the core's one helper (encounter.common.ask_or_roll)."""

from __future__ import annotations

import random

import pytest

from rules_pkg import RulesError, dice
from rules_pkg.encounter import (
    AddCombatant,
    NextTurn,
    RollInitiative,
    SetCondition,
    SetInitiative,
    fold,
)
from rules_pkg.encounter.common import Log, ask_or_roll
from rules_pkg.encounter.events import Answer
from rules_pkg.encounter.model import Ask, Combatant

CPR = "cyberpunk_red"


def horizon_three() -> list:
    """Ada: Awareness 2, ACU 3; Bo: no Awareness Skill, ACU 4; Cy: Awareness 3, ACU 1."""
    return [AddCombatant("a", "Ada", values=(("awareness", 2), ("acuity", 3))),
            AddCombatant("b", "Bo", values=(("awareness", 0), ("acuity", 4))),
            AddCombatant("c", "Cy", values=(("awareness", 3), ("acuity", 1)))]


# --- the core's one helper -----------------------------------------------------------------
def test_ask_or_roll_asks_when_the_event_asks_else_rolls_from_the_seed() -> None:
    c = Combatant("v", "V", "character", ())
    a = Ask("v", "Test", 6, "V: a test", count=2)
    asking = Log(asking=True)
    assert ask_or_roll(asking, random.Random(1), a, c, lambda d: pytest.fail("rolled")) is c
    assert asking.asks == [a] and asking.steps == ["V: a test: the player rolls"]
    seen: list[tuple[int, ...]] = []
    ask_or_roll(Log(), random.Random(1), a, c, lambda d: seen.append(d) or c)
    assert seen == [dice.roll(random.Random(1), 6, 2)]


# --- Horizon § Starting Combat: the Awareness test ----------------------------------------
def test_horizon_awareness_for_turn_order_is_each_players_roll() -> None:
    # horizon:1793 "If you have the Awareness Skill unlocked, roll your dice and add your
    # Trait bonus as normal. If you don't have the Skill ... use your rank in the Acuity
    # Trait as your final score"; horizon:1810 Surprise adds the ACU rank again
    log = [*horizon_three(), RollInitiative(seed=1, surprise=("a",), ask=True)]
    enc = fold("horizon", log)
    assert [(a.id, a.name, a.sides, a.count) for a in enc.asks] == [
        ("a", "Awareness test with Surprise", 6, 2), ("c", "Awareness test", 6, 3)]
    assert enc.combatant("b").initiative == 4 and enc.combatant("a").initiative is None
    with pytest.raises(RulesError, match="Ada's Awareness test with Surprise first"):
        fold("horizon", [*log, NextTurn(ask=True)])
    with pytest.raises(RulesError, match="Ada's Awareness test with Surprise is 2d6: each "
                                         "die is 1 to 6"):
        fold("horizon", [*log, Answer("a", "Awareness test with Surprise", (7, 1))])
    with pytest.raises(RulesError, match="2d6"):
        fold("horizon", [*log, Answer("a", "Awareness test with Surprise", (6,))])
    # horizon:88 and the die table: 6 scores +2 AP, 4-5 +1, 1-3 nothing
    log += [Answer("a", "Awareness test with Surprise", (6, 4)),  # 2+1 +ACU 3 +Surprise 3
            Answer("c", "Awareness test", (6, 6, 6))]  # 2+2+2 +ACU 1
    enc = fold("horizon", log)
    assert [enc.combatant(i).initiative for i in "abc"] == [9, 4, 7]
    # horizon:1792 "sorted from highest score going first": the order starts from the top
    assert enc.order == ("a", "c", "b") and enc.current.id == "a" and enc.round == 1
    assert "(3+6) = 9 AP" in enc.history[-2].steps[-1]
    assert not enc.asks and not any(c.counters for c in enc.combatants)


def test_horizon_the_last_answer_at_the_top_still_acts_first() -> None:
    log = [*horizon_three(), RollInitiative(seed=1, ask=True),
           Answer("a", "Awareness test", (1, 1)),  # 0 +3 = 3: below Bo's 4
           Answer("c", "Awareness test", (6, 6, 6))]  # 7: the top, answered last
    enc = fold("horizon", log)
    assert enc.order == ("c", "b", "a") and enc.current.id == "c"


def test_horizon_a_late_joiners_awareness_leaves_the_turn_where_it_is() -> None:
    log = [*horizon_three(), SetInitiative("a", 9), SetInitiative("b", 4),
           SetInitiative("c", 7), NextTurn(), AddCombatant("d", "Dee", values=(
               ("awareness", 1), ("acuity", 5))),
           RollInitiative(seed=2, only_missing=True, ask=True)]
    enc = fold("horizon", log)
    assert enc.current.id == "c" and [a.id for a in enc.asks] == ["d"]
    enc = fold("horizon", [*log, Answer("d", "Awareness test", (6,))])  # 2 +5 = 7
    assert enc.combatant("d").initiative == 7 and enc.current.id == "c"
    enc = fold("horizon", [*log, Answer("d", "Awareness test", (6,)), NextTurn(ask=True)])
    assert enc.order == ("a", "c", "d", "b") and enc.current.id == "d" and enc.round == 1


def test_horizon_roll_here_as_before_when_not_asked() -> None:
    enc = fold("horizon", [*horizon_three(), RollInitiative(seed=1)])
    assert not enc.asks and all(c.initiative is not None for c in enc.combatants)


# --- d100 § Burning ------------------------------------------------------------------------
def d100_two() -> list:
    return [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetInitiative("a", 20),
            SetInitiative("b", 10)]


def test_d100_burning_is_asked_and_grows_by_the_rounds_passed() -> None:
    # d100:48 "take 1d10 energy damage ... that ignores AP. For every round that passes,
    # the amount of damage you suffer increases by +1"; TB 3 still comes off (the sheet's
    # note); Wounds 12
    log = [*d100_two(), SetCondition("a", "Burning"), NextTurn(ask=True)]
    enc = fold("d100", log)
    assert [(a.id, a.name, a.sides) for a in enc.asks] == [("a", "Burning damage", 10)]
    with pytest.raises(RulesError, match="enter 1 to 10"):
        fold("d100", [*log, Answer("a", "Burning damage", (11,))])
    log.append(Answer("a", "Burning damage", (7,)))
    assert fold("d100", log).combatant("a").value("wounds") == 12 - (7 + 0 - 3)
    # round 2, Ada's turn ends: one round passed, +1
    log += [NextTurn(ask=True), NextTurn(ask=True), Answer("a", "Burning damage", (7,))]
    enc = fold("d100", log)
    assert enc.round == 2 and enc.combatant("a").value("wounds") == 8 - (7 + 1 - 3)
    assert "1d10 (7) +1 for the rounds passed" in enc.history[-1].steps[-2]
    assert not enc.combatant("a").counters


def test_d100_burning_answered_after_the_round_turned_counts_its_own_round() -> None:
    # Ada acts last (her turn is on: set second, the turn stays with her): its end starts
    # round 2 before her player answers; the burn is still round 1's (+0)
    log = [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetInitiative("a", 10),
           SetInitiative("b", 20), SetCondition("a", "Burning"), NextTurn(ask=True)]
    enc = fold("d100", log)
    assert enc.round == 2 and enc.asks[0].name == "Burning damage"
    enc = fold("d100", [*log, Answer("a", "Burning damage", (5,))])
    assert enc.combatant("a").value("wounds") == 12 - (5 + 0 - 3)


def test_d100_a_burning_horde_loses_the_d10_in_magnitude() -> None:
    # d100:48 "Hordes instead automatically lose 1d10 magnitude at the end of each turn"
    log = [AddCombatant("h", "Rats", "horde", (("magnitude_max", 30),)),
           AddCombatant("b", "Bo"), SetInitiative("h", 20), SetInitiative("b", 10),
           SetCondition("h", "Burning"), NextTurn(ask=True), Answer("h", "Burning damage", (9,))]
    assert fold("d100", log).combatant("h").value("magnitude") == 21


# --- Cyberpunk RED § Electrocution, § Drowning and Asphyxiation (cyberpunk:31) -------------
def cpr_two() -> list:
    return [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetInitiative("a", 20),
            SetInitiative("b", 10)]


def test_cpr_electrocution_repeat_is_the_players_6d6() -> None:
    # cyberpunk:31 "immediately take 6d6 damage. This damage is soaked by armor as normal
    # ... this damage repeats at the end of each of your Turns"
    log = [*cpr_two(), SetCondition("b", "Electrocuted"), NextTurn(ask=True),
           NextTurn(ask=True)]
    enc = fold(CPR, log)
    assert [(a.id, a.name, a.sides, a.count) for a in enc.asks] == [
        ("b", "Electrocution damage", 6, 6)]
    with pytest.raises(RulesError, match="6d6: each die is 1 to 6"):
        fold(CPR, [*log, Answer("b", "Electrocution damage", (1, 2, 3, 4, 5))])
    enc = fold(CPR, [*log, Answer("b", "Electrocution damage", (1, 2, 3, 4, 5, 6))])
    bo = enc.combatant("b")  # 21 - body SP 11 = 10 through; SP ablated by 1
    assert (bo.value("hp"), bo.value("sp_body")) == (30, 10) and not enc.asks


def test_cpr_vacuum_is_the_players_1d6_each_to_int_ref_dex() -> None:
    # cyberpunk:31 "an additional 1d6 in damage at the end of your Turn to your INT, REF,
    # and DEX ... If your INT reaches 0, you are dead"
    log = [*cpr_two(), SetCondition("b", "Asphyxiating in space"), NextTurn(ask=True),
           NextTurn(ask=True)]
    enc = fold(CPR, log)
    assert [(a.name, a.sides, a.count) for a in enc.asks] == [("Vacuum damage", 6, 3)]
    bo = fold(CPR, [*log, Answer("b", "Vacuum damage", (2, 3, 4))]).combatant("b")
    assert [bo.value(k) for k in ("int", "ref", "dex")] == [4, 3, 2]
    enc = fold(CPR, [*log, Answer("b", "Vacuum damage", (6, 1, 1))])
    assert enc.combatant("b").has("Dead")  # INT 6 - 6 = 0


def test_cpr_an_older_log_still_rolls_its_shock_from_the_seed() -> None:
    log = [*cpr_two(), SetCondition("b", "Electrocuted"), NextTurn(seed=1), NextTurn(seed=7)]
    enc = fold(CPR, log)
    through = max(0, sum(dice.roll(random.Random(7), 6, 6)) - 11)
    assert not enc.asks and enc.combatant("b").value("hp") == 40 - through


def test_horizon_an_awareness_typed_instead_is_no_longer_asked() -> None:
    # horizon:1795 "Once you have your Awareness score, tell the Director": typed in the
    # initiative panel, the ask goes; the last one in still starts the order from the top
    log = [*horizon_three(), RollInitiative(seed=1, ask=True),
           Answer("a", "Awareness test", (1, 1)), SetInitiative("c", 8)]
    enc = fold("horizon", log)
    assert not enc.asks and enc.order == ("c", "b", "a") and enc.current.id == "c"
    assert "Cy's initiative typed: its roll is no longer asked" in enc.history[-1].steps
    assert not any(c.counters for c in enc.combatants)
