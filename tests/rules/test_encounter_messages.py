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
