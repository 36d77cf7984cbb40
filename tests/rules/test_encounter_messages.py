"""Messages that fit (#25 item 8) and the turn taken back (item 6's Previous turn)."""

from __future__ import annotations

import pytest

from rules_pkg import RulesError
from rules_pkg.encounter import AddCombatant, Hit, NextTurn, SetInitiative, fold
from rules_pkg.encounter.events import PreviousTurn


def test_adding_with_a_maximum_says_nothing_about_the_default() -> None:
    # the issue: every add said "HP 40 is above the new HP (full) 25: kept at 25"
    enc = fold("cyberpunk_red", [AddCombatant("a", "Ganger", values=(("hp_max", 25),))])
    assert enc.combatant("a").value("hp") == 25 and enc.history[-1].notes == ()
    # a value typed above its own maximum is still said
    enc = fold("cyberpunk_red", [AddCombatant("a", "Ganger", values=(("hp_max", 25),
                                                                      ("hp", 30)))])
    assert enc.combatant("a").value("hp") == 25 and enc.history[-1].notes


@pytest.mark.parametrize(("game", "line"), [
    ("cyberpunk_red", "HP 40 \N{MINUS SIGN} 60 → 0"),  # direct to HP, stops at 0
    ("d100", "Wounds 12 \N{MINUS SIGN} 60 → 0"),
    ("forbidden_lands", "Strength 3 \N{MINUS SIGN} 60 → 0"),
    ("mecha", "Vitality 20 \N{MINUS SIGN} 60 → 0"),
])
def test_history_reads_right_after_the_floor(game: str, line: str) -> None:
    enc = fold(game, [AddCombatant("a", "Ada"), Hit("a", 60, bypass=True)])
    assert line in enc.history[-1].steps
    assert not enc.history[-1].notes  # no "outside 0-40: kept at 0" beside it


def test_previous_turn_goes_back_without_undoing() -> None:
    log = [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetInitiative("a", 9),
           SetInitiative("b", 5), NextTurn(), Hit("a", 3, bypass=True), PreviousTurn()]
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "a" and enc.combatant("a").value("hp") == 37
    with pytest.raises(RulesError, match="round's first turn"):
        fold("cyberpunk_red", [*log, PreviousTurn()])


# --- the rules the tracker missed (#25 item 13) ------------------------------------------
def test_cpr_choke_leaves_1_hp_and_unconscious_and_three_in_a_row_knock_out() -> None:
    # cyberpunk:27 "If damage dealt by a Choke would reduce a target with more than 1 HP to
    # less than 0 HP, they are instead left at 1 HP and are Unconscious ... if you Choke the
    # same target for 3 successive Rounds, they go Unconscious regardless"
    from rules_pkg.encounter import NextRound, SetValue

    log = [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetInitiative("a", 9),
           SetInitiative("b", 5), SetValue("b", "hp", 5), Hit("b", 8, location="choke")]
    b = fold("cyberpunk_red", log).combatant("b")
    assert b.value("hp") == 1 and b.has("Unconscious")
    log = [*log[:4], Hit("b", 2, location="choke"), NextRound(), Hit("b", 2, location="choke"),
           NextRound(), Hit("b", 2, location="choke")]
    b = fold("cyberpunk_red", log).combatant("b")
    assert b.value("hp") == 34 and b.has("Unconscious")
    b = fold("cyberpunk_red", log[:-1]).combatant("b")
    assert not b.has("Unconscious")  # two in a row: not yet


def test_cpr_throw_leaves_the_target_prone_and_ends_the_grapple() -> None:
    from rules_pkg.encounter import SetCondition

    b = fold("cyberpunk_red", [AddCombatant("b", "Bo"), SetCondition("b", "Grappled"),
                               Hit("b", 6, location="throw")]).combatant("b")
    assert b.value("hp") == 34 and b.has("Prone") and not b.has("Grappled")


def test_fl_strength_or_agility_at_zero_knocks_prone() -> None:
    # FL:56-57 "Strength: Knocked prone", "Agility: Collapse from exhaustion, prone"
    for attr in ("strength", "agility"):
        a = fold("forbidden_lands", [AddCombatant("a", "Ada"),
                                     Hit("a", 3, location=attr, bypass=True)]).combatant("a")
        assert a.value(attr) == 0 and a.has("Prone")
    a = fold("forbidden_lands", [AddCombatant("a", "Ada"),
                                 Hit("a", 3, location="wits", bypass=True)]).combatant("a")
    assert not a.has("Prone")


def test_horizon_shatter_head_doubles_the_attack_and_does_not_last() -> None:
    import rules_pkg
    from rules_pkg.encounter.apply import proposals

    calc = rules_pkg.get("horizon.wounding")
    seed = next(s for s in range(50) if calc.run(condition="Shatter Head", ap=30, roll=True,
                                                 seed=s).value("Outcome") == "applied")
    result = calc.run(condition="Shatter Head", ap=30, roll=True, seed=seed).to_dict()
    (p,) = proposals("horizon.wounding", {"condition": "Shatter Head", "ap": 30}, result)
    # the calculator doubled it ("the target suffers double damage from the attack")
    assert any("double damage from the attack" in s for s in result["steps"])
    assert p.event.damage == result["values"][2][1] and p.event.condition == ""


def test_a_condition_of_the_tables_own() -> None:
    """#25 item 7: custom conditions, counted in their bearer's turns like the others."""
    from rules_pkg.encounter import ClearCondition, SetCondition

    log = [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetInitiative("a", 9),
           SetInitiative("b", 5), SetCondition("b", "  Covered   in oil ", 1, custom=True)]
    enc = fold("d100", log)
    assert enc.combatant("b").has("Covered in oil").rounds == 1
    assert enc.history[-1].summary == "Bo is Covered in oil until the end of Bo's next turn"
    assert not fold("d100", [*log, NextTurn(), NextTurn()]).combatant("b").has("Covered in oil")
    assert not fold("d100", [*log, ClearCondition("b", "Covered in oil")]).combatant(
        "b").conditions
    with pytest.raises(RulesError, match="no condition called"):  # a typo is still refused
        fold("d100", [*log, SetCondition("b", "Stunnned")])
    with pytest.raises(RulesError, match="1 to 40 characters"):
        fold("d100", [*log, SetCondition("b", " ", custom=True)])
