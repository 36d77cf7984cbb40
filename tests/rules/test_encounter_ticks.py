"""Per-turn effects the sources define, ticked by the fold and explained step by step:
Cyberpunk RED Electrocution and Asphyxiation in space, d100 Crippled."""

from __future__ import annotations

import random

from rules_pkg import dice
from rules_pkg.encounter import (
    AddCombatant,
    ClearCondition,
    Hit,
    NextTurn,
    SetCondition,
    SetInitiative,
    SetValue,
    fold,
)

CPR = "cyberpunk_red"


def two(*values: tuple[str, int], kind: str = "character") -> list:
    """Ada acts first, then Bo: round 1, Ada's turn."""
    return [AddCombatant("a", "Ada"), AddCombatant("b", "Bo", kind, values=tuple(values)),
            SetInitiative("a", 20), SetInitiative("b", 10)]


def steps(enc) -> str:
    return "\n".join(enc.history[-1].steps)


# --- Cyberpunk RED § Electrocution ------------------------------------------------------
def test_electrocuted_repeats_6d6_soaked_by_armour_at_the_end_of_each_turn() -> None:
    # "this damage repeats at the end of each of your Turns, starting with your next
    # Turn": set during Ada's turn, Bo's own next Turn ends with a shock.
    log = [*two(), SetCondition("b", "Electrocuted"), NextTurn(seed=1), NextTurn(seed=7)]
    enc = fold(CPR, log)
    rolled = sum(dice.roll(random.Random(7), 6, 6))  # the first roll of that step
    through = max(0, rolled - 11)  # "soaked by armor as normal": body SP 11
    bo = enc.combatant("b")
    assert bo.value("hp") == 40 - through
    assert bo.value("sp_body") == (10 if through else 11)  # ablated when any got through
    assert f"= {rolled}), soaked by armour" in steps(enc)
    # still in contact: it repeats at the end of the next Turn too; moving away clears it
    log += [NextTurn(seed=2), NextTurn(seed=9)]
    second = sum(dice.roll(random.Random(9), 6, 6))
    sp = bo.value("sp_body")
    assert fold(CPR, log).combatant("b").value("hp") == bo.value("hp") - max(0, second - sp)
    log += [ClearCondition("b", "Electrocuted"), NextTurn(seed=3), NextTurn(seed=4)]
    assert fold(CPR, log).combatant("b").value("hp") == fold(CPR, log[:-3]).combatant(
        "b").value("hp")


def test_electrocuted_on_your_own_turn_starts_with_your_next_turn() -> None:
    log = [*two(), Hit("a", 20, condition="Electrocuted"), NextTurn(seed=7)]
    enc = fold(CPR, log)
    ada = enc.combatant("a")
    assert ada.value("hp") == 40 - (20 - 11)  # only the immediate 6d6 (here 20)
    assert "the damage repeats from the next Turn" in steps(enc)
    log += [NextTurn(seed=1), NextTurn(seed=5)]  # Bo's turn, then Ada's ends: a shock
    rolled = sum(dice.roll(random.Random(5), 6, 6))
    assert fold(CPR, log).combatant("a").value("hp") == ada.value("hp") - max(0, rolled - 10)


# --- Cyberpunk RED § Drowning and Asphyxiation ------------------------------------------
def test_asphyxiating_in_space_body_to_hp_and_1d6_to_int_ref_dex() -> None:
    # "Asphyxiation should be treated like Drowning": BODY direct to HP at the beginning
    # of a Turn; "in space ... an additional 1d6 ... at the end of your Turn to your INT,
    # REF, and DEX"; "reversed if you manage to get a breath of air".
    log = [*two(("body", 7), ("int", 8), ("ref", 9), ("dex", 6)),
           SetCondition("b", "Asphyxiating in space"), NextTurn(seed=1)]
    enc = fold(CPR, log)
    assert enc.combatant("b").value("hp") == 40 - 7
    assert "Asphyxiating in space: BODY 7 direct to HP" in steps(enc)
    log.append(NextTurn(seed=4))
    enc = fold(CPR, log)
    rng = random.Random(4)
    lost = [dice.roll(rng, 6)[0] for _ in range(3)]
    bo = enc.combatant("b")
    assert [bo.value(k) for k in ("int", "ref", "dex")] == [
        max(0, 8 - lost[0]), max(0, 9 - lost[1]), max(0, 6 - lost[2])]
    assert bo.value("hp") == 33 and bo.value("sp_body") == 11  # no HP, no ablation at the end
    enc = fold(CPR, [*log, ClearCondition("b", "Asphyxiating in space")])
    bo = enc.combatant("b")
    assert [bo.value(k) for k in ("int", "ref", "dex")] == [8, 9, 6]
    assert "a breath of air: INT" in steps(enc) and not bo.counters


def test_int_0_in_a_vacuum_is_death() -> None:
    log = [*two(("int", 1)), SetCondition("b", "Asphyxiating in space"), NextTurn(seed=1),
           NextTurn(seed=4)]
    enc = fold(CPR, log)
    assert enc.combatant("b").value("int") == 0 and enc.combatant("b").has("Dead")
    assert "INT reaches 0: dead" in steps(enc)


# --- d100 § Crippled --------------------------------------------------------------------
def test_crippled_toughness_test_then_1d10_ignoring_ap_and_tb() -> None:
    # "If you take more than a Half Action on your turn, you must test toughness. On a
    # failure, you suffer 1d10 damage that ignores AP and TB."
    for seed in range(12):
        log = [*two(("toughness", 40), ("ap", 4)), SetCondition("b", "Crippled"),
               NextTurn(seed=1), NextTurn(seed=seed)]
        enc = fold("d100", log)
        rng = random.Random(seed)
        (rolled,) = dice.roll(rng, 100)
        ok = rolled <= 40  # the standard d100 test: roll at most the target
        wounds = 12 if ok else 12 - dice.roll(rng, 10)[0]
        assert enc.combatant("b").value("wounds") == max(0, wounds)
        assert f"Toughness test {rolled} against 40" in steps(enc)


def test_crippled_no_test_on_a_half_action_or_when_held_to_one() -> None:
    base = [*two(("toughness", 1)), SetCondition("b", "Crippled"), NextTurn(seed=1)]
    assert "no Toughness test" in steps(fold("d100", [*base, NextTurn(seed=3,
                                                                      half_action=True)]))
    dazed = [*base, SetCondition("b", "Dazed"), NextTurn(seed=3)]  # "Take only half actions"
    assert "Dazed: at most a Half Action" in steps(fold("d100", dazed))
    assert fold("d100", dazed).combatant("b").value("wounds") == 12
    # the half-action mark lasts one call: the next full turn is tested again
    enc = fold("d100", [*base, NextTurn(seed=3, half_action=True), NextTurn(seed=2),
                        NextTurn(seed=3)])
    assert "Toughness test" in steps(enc) and not enc.combatant("b").counters


def test_crippled_to_0_wounds_becomes_blood_loss_and_hordes_bleed() -> None:
    log = [*two(("toughness", 1), ("wounds", 1)), SetCondition("b", "Crippled"),
           NextTurn(seed=1), NextTurn(seed=3)]
    enc = fold("d100", log)
    bo = enc.combatant("b")
    assert bo.value("wounds") == 0 and bo.has("Blood Loss") and not bo.has("Crippled")
    horde = [*two(("magnitude_max", 30), kind="horde"), SetCondition("b", "Crippled"),
             NextTurn(seed=1), NextTurn(seed=3)]
    # d100:49 "Hordes instead instantly gain the Blood Loss status": when Crippled is set,
    # not at the end of its turn (#25 item 13)
    enc = fold("d100", horde[:-2])
    assert enc.combatant("b").has("Blood Loss")
    assert any("a Crippled horde: it gains Blood Loss at once" in x
               for x in enc.history[-1].steps)
    enc = fold("d100", horde)
    assert enc.combatant("b").value("magnitude") == 30  # its Toughness tests passed


def test_int_and_dex_are_cyberpunk_red_values() -> None:
    enc = fold(CPR, [*two(), SetValue("b", "int", 3)])
    assert enc.combatant("b").value("int") == 3
