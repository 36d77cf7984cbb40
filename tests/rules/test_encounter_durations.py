"""Durations in the affected combatant's own turns, and the turns a condition costs (#25
item 5), with the sources' own wording."""

from __future__ import annotations

from rules_pkg.encounter import AddCombatant, NextTurn, SetCondition, SetInitiative, fold


def test_d100_stunned_for_one_turn_costs_the_next_turn() -> None:
    # d100 § Status Effects, Stunned: "cannot act"; set on Ada's turn for 1 of Bo's turns
    log = [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), AddCombatant("c", "Cy"),
           SetInitiative("a", 30), SetInitiative("b", 20), SetInitiative("c", 10),
           SetCondition("b", "Stunned", 1)]
    enc = fold("d100", [*log, NextTurn(seed=1)])
    assert enc.current.id == "c" and not enc.combatant("b").has("Stunned")
    steps = enc.history[-1].steps
    assert any(s.startswith("Bo is Stunned (") and s.endswith("this turn is lost")
               for s in steps)
    assert "Bo: Stunned ends" in steps
    # set on Bo's own turn: Bo's next turn is the one lost, not the end of this one
    own = [*log[:-1], NextTurn(seed=1), SetCondition("b", "Stunned", 1)]
    enc = fold("d100", [*own, NextTurn(seed=2)])
    assert enc.current.id == "c" and enc.combatant("b").has("Stunned").rounds == 1
    enc = fold("d100", [*own, NextTurn(seed=2), NextTurn(seed=3), NextTurn(seed=4)])
    assert enc.round == 2 and enc.current.id == "c"  # a, then Bo's lost turn
    assert not enc.combatant("b").has("Stunned")


def test_mecha_critical_failure_costs_the_next_turn() -> None:
    # mecha § Combat Actions: "lose the next two actions or one full turn, whichever is
    # greater"; it used to end at the next round's start, before the turn it should cost.
    # Reflex 30 / 15 / 0: 1 die + Reflex keeps the order a, b, c every round.
    log = [AddCombatant("a", "Ada", values=(("reflex", 30),)),
           AddCombatant("b", "Bo", values=(("reflex", 15),)),
           AddCombatant("c", "Cy", values=(("reflex", 0),)),
           SetInitiative("a", 31), SetInitiative("b", 16), SetInitiative("c", 1),
           SetCondition("a", "Critical failure")]  # Ada fumbles on her own turn
    # mecha:153 with one action a round (§ 6, lines 81-86: one pass per action): her next
    # two actions, greater than one full turn of one action, are rounds 2 and 3's
    enc = fold("mecha", log)
    assert enc.combatant("a").has("Critical failure").rounds == 2
    log += [NextTurn(seed=1), NextTurn(seed=2)]  # Bo, Cy
    assert fold("mecha", log).combatant("a").has("Critical failure")
    enc = fold("mecha", [*log, NextTurn(seed=3)])  # round 2: Ada's turn is lost
    assert enc.round == 2 and enc.current.id == "b"
    assert enc.combatant("a").has("Critical failure").rounds == 1
    enc = fold("mecha", [*log, *[NextTurn(seed=s) for s in (3, 4, 5)]])  # round 3: lost too
    assert enc.round == 3 and enc.current.id == "b"
    assert not enc.combatant("a").has("Critical failure")
