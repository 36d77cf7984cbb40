"""Horizon: Out of the Ashes rules beyond the attack itself: Pick Up / Carry / Drop /
Throw, being Disengaged, Draw / Holster / Switch and Communication (issue #10 item 6), the
banded profiles' columns as interpreted, and the rules issue #29 item 3 gave calculators.
Known answers quoted from sources/horizon-out-of-the-ashes-combat.txt (lines named in each
test); the attack, the look-ups and the odds are in test_horizon.py.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rules_pkg import Result, RulesError, get
from rules_pkg import horizon as h


def run(calc: str, **inputs: object) -> Result:
    return get(f"horizon.{calc}").run(**inputs)


# --- § Pick Up / Carry / Drop / Throw -------------------------------------------------------

def _object(name_start: str) -> str:
    return next(str(o.index) for o in h.heavy_objects() if o.name.startswith(name_start))


def test_helpers_reduce_the_difficulty() -> None:
    # "an armored safe requires a 20AP Endurance Skill test to move ... from 20AP down to
    # 15AP ... from 15AP down to 10AP"; the table: "Car / ... Small Armored Safe ... 20AP"
    safe = _object("Car")
    assert h.heavy_objects()[int(safe)].move == 20
    one = run("heavy_object", item=safe, task="move", helpers=1, end_dice=3, end_bonus=3)
    assert one.value("Difficulty (AP)") == 15
    two = run("heavy_object", item=safe, task="move", helpers=2, end_dice=3, end_bonus=3)
    assert two.value("Difficulty (AP)") == 10
    assert "20AP → 15AP → 10AP" in two.steps[1]
    # 3 dice + 3 reach at most 9 AP: the 10AP test cannot be passed
    assert two.value("P(you pass)") == 0
    easy = run("heavy_object", item=safe, task="move", helpers=2, end_dice=1, end_bonus=9)
    assert easy.value("P(you pass)") == Fraction(1, 2)


def test_throw_distance_and_no_test() -> None:
    chair = _object("Chair")
    r = run("heavy_object", item=chair, task="throw", strength=4, end_dice=0, end_bonus=10)
    assert r.value("Throw distance (m)") == 4 and r.value("Difficulty (AP)") == 10
    assert r.value("P(you pass)") == 1
    none = run("heavy_object", item=chair, task="carry")
    assert "no Endurance test" in none.summary


# -- Disengaged rules, Draw / Holster / Switch, Communication (issue #10 item 6) ---------------
def test_extended_action_needs_disengaged_no_other_action_and_agi_metres() -> None:
    # "you can make 1 roll per turn ... can't make any other actions and can only move a
    # maximum of you AGI rank in meters"
    run = get("horizon.extended_action").run
    assert run(agility=3, metres=3).value("Allowed") is True
    assert run(agility=3, metres=4).value("Allowed") is False
    assert run(other_actions=1).value("Allowed") is False
    assert run(disengaged=False).value("Rolls") == 0


def test_escaping_combat_takes_three_unlocated_rounds() -> None:
    # "You have escaped combat when your enemies fail to locate you for 3 consecutive rounds."
    run = get("horizon.escape").run
    assert (run(rounds=2).value("Escaped"), run(rounds=3).value("Escaped")) == (False, True)
    assert run(rounds=0).value("Rounds left") == 3


def test_draw_holster_switch_cost_one_action_and_talk_is_twenty_words() -> None:
    # "Drawing a weapon of your choice requires 1 action"; "speak up to 20 words per round"
    run = get("horizon.turn_actions").run
    r = run(actions=2, draws=1, switches=1, words=20)
    assert (r.value("Actions used"), r.value("Allowed")) == (2, True)
    assert run(actions=2, draws=1, holsters=1, switches=1).value("Allowed") is False
    assert run(words=21).value("Allowed") is False


# -- the banded profiles' columns, interpreted (issue #10 item 6) ------------------------------
# horizon-out-of-the-ashes-combat.txt:633-648, the Rusty Assault Rifle: headings "Initiative
# modifier", "Lethal Attack Damage (Hits)", "Special Attack Power (Hits)", "Aim Bonus",
# "Defense Bonus"; its rows "0 - 5 -3 3 (x3) 2 (x1) +1 5", "11 - 15 7 5 (x3) 4 (x1) +1 10",
# "16 - 20 12 6 (x3) 5 (x1) +2 10". Line 144, the Rusty Pistol: "0 - 5 2(3) x2 5(6) x1 +1 10".
def test_a_banded_lethal_attack_is_damage_a_hit_times_its_hits() -> None:
    r = get("horizon.attack").run(weapon="rusty-assault-rifle", ap=12, attacks=2)
    assert (r.value("Damage a hit"), r.value("Hits an Attack")) == (5, 3)
    assert r.value("Damage per Attack") == 15 and r.value("Total damage") == 30
    assert any(n.startswith(h.NOT_IN_SOURCE + "the banded profiles") for n in r.notes)
    pistol = get("horizon.attack").run(weapon="rusty-pistol", ap=3, attacks=1)
    assert (pistol.value("Damage a hit"), pistol.value("Hits an Attack")) == (2, 2)
    assert any("bracketed (3)" in n for n in pistol.notes)  # "2(3)": not explained


def test_aim_read_as_ap_adds_the_rows_aim_bonus_before_the_row_is_read() -> None:
    run = get("horizon.attack").run
    r = run(weapon="rusty-assault-rifle", ap=15, aim=True, aim_as="ap")  # 11 - 15: Aim +1
    assert r.value("AP used") == 16 and r.value("Damage a hit") == 6  # row 16 - 20: 6 (x3)
    assert any("Aim Bonus read as AP" in n for n in r.notes)
    for aim_as in ("ap", "damage"):
        with pytest.raises(RulesError, match="no Aim Bonus"):
            run(weapon=h.WEAPON_DEFAULT, aim=True, aim_as=aim_as)  # a per-AP profile: none


SOURCE_LINES = (Path(__file__).parents[2] / "sources" / "horizon-out-of-the-ashes-combat.txt"
                ).read_text("utf-8").splitlines()


def test_aim_read_as_damage_is_the_default_the_pistols_bracket_prints() -> None:
    """Issue #29 item 2. Line 144, "0 - 5 2(3) x2 5(6) x1 +1 10": each bracket is its attack
    plus the row's Aim Bonus +1 (2 -> 3, 5 -> 6), so by default an aimed Attack adds the Aim
    Bonus to the damage a hit, and the answer says which reading it used."""
    assert SOURCE_LINES[143] == "0 - 5 2(3) x2 5(6) x1 +1 10"
    run = get("horizon.attack").run
    aimed = run(weapon="rusty-pistol", ap=3, attacks=1, aim=True)
    assert (aimed.value("AP used"), aimed.value("Damage a hit")) == (3, 3)  # the bracket
    assert aimed.value("Damage per Attack") == 6  # 3 a hit x2
    assert any("Aim Bonus read as added to the damage a hit" in n for n in aimed.notes)
    plain = run(weapon="rusty-pistol", ap=3, attacks=1)
    assert plain.value("Damage a hit") == 2
    assert not any("Aim Bonus read as" in n for n in plain.notes)
    rifle = run(weapon="rusty-assault-rifle", ap=15, aim=True)  # "11 - 15 7 5 (x3) 4 (x1) +1"
    assert (rifle.value("AP used"), rifle.value("Damage a hit")) == (15, 6)
    as_ap = run(weapon="rusty-pistol", ap=3, attacks=1, aim=True, aim_as="ap")
    assert (as_ap.value("AP used"), as_ap.value("Damage a hit")) == (4, 2)


def test_the_initiative_modifier_is_added_to_the_turn_order_score() -> None:
    run = get("horizon.initiative").run
    assert run(weapon="rusty-assault-rifle", ap=3, awareness=5).value("Turn-order score") == 2
    r = run(weapon="rusty-assault-rifle", ap=12, awareness=5)
    assert (r.value("Initiative modifier"), r.value("Turn-order score")) == (7, 12)
    assert get("horizon.initiative").tables == ("profile-rusty-assault-rifle",)


# -- issue #29 item 3: rules the source defines that had no calculator ----------------------
def test_picking_up_costs_an_action_in_combat_and_dropping_none() -> None:
    # :1883 "Picking up any object normally requires 1 action during combat and can only be
    # done during your turn"; :1885 light "requires no action"; :1870 "instant if not in
    # combat"; :1894 "Dropping any object can be performed instantly"
    for line, words in ((1883, "Picking up any object normally requires 1 action during "
                               "combat and can only be done during your turn"),
                        (1885, "picking it up requires no action"),
                        (1870, "this can be instant if not in combat"),
                        (1894, "Dropping any object can be performed instantly")):
        assert words in SOURCE_LINES[line - 1], line
    run = get("horizon.pick_up").run
    r = run(actions=2, objects=2, light=1, drops=3)
    assert (r.value("Actions used"), r.value("Actions left"), r.value("Allowed")) == (1, 1, True)
    assert run(actions=2, objects=3).value("Allowed") is False
    assert run(objects=1, your_turn=False).value("Allowed") is False
    out = run(objects=5, in_combat=False, your_turn=False)
    assert (out.value("Actions used"), out.value("Allowed")) == (0, True)
    with pytest.raises(RulesError, match=r"^Of them, light .* must be at most 1"):
        run(objects=1, light=2)


def test_dive_off_turn_borrows_from_the_next_turn_and_is_once_a_scene_outside() -> None:
    # :1704 "it always consumes 1 of your actions for the round ... Dive(!) "borrows" 1
    # action from your next turn ... Outside combat, it can normally be used once per scene"
    assert "borrows\u201d 1 action from your next turn" in SOURCE_LINES[1703]
    run = get("horizon.dive").run
    mine = run(strength=2, agility=3)  # :1706-1708, the source's example: 3 m, +6 armor
    assert (mine.value("Dive"), mine.value("Armor"), mine.value("Actions left this turn")) == \
        (3, 6, 1)
    off = run(when="off_turn", actions=2)
    assert off.value("Actions next turn") == 1
    assert run(when="off_turn", actions=2, before=1).value("Actions next turn") == 0
    again = run(when="outside", before=1)
    assert "Director" in again.summary and any("once per scene" in n for n in again.notes)
    assert not any("once per scene" in n for n in run(when="outside").notes)
    with pytest.raises(RulesError, match=r"^Dive! uses before this one"):
        run(actions=2, before=2)


def test_stealth_is_a_contest_against_awareness_once_disengaged() -> None:
    # :1836 "You need to be Disengaged before you can use Stealth in combat"; :1837 "a
    # contested Awareness-Vs-Stealth test ... If you win the contest, they are none the wiser"
    assert "Disengaged before you can use Stealth" in SOURCE_LINES[1835]
    assert "contested Awareness-Vs-Stealth test" in SOURCE_LINES[1836]
    run = get("horizon.stealth").run
    assert run(disengaged=False).value("Allowed") is False
    # no dice either side: the scores are the bonuses, 4 against 3
    sure = run(my_dice=0, my_bonus=4, their_dice=0, their_acu=3)
    assert (sure.value("P(you win)"), sure.value("P(you lose)")) == (1, 0)
    # one die against a bare 0: you win on a 4, 5 or 6 (1-3 score 0, an equal 0)
    one = run(my_dice=1, my_bonus=0, their_dice=0, their_acu=0)
    assert (one.value("P(you win)"), one.value("P(equal)")) == (Fraction(1, 2), Fraction(1, 2))
    assert any("equal scores" in n for n in one.notes)


def test_a_distance_is_checked_against_the_rows_range() -> None:
    # :103 "the Combat Profile will tell you ... how much range you have"; the Heavy Combat
    # Pistol's row 17 AP: "Damage 22, Defense 27, Move Base, Range 20"; the Rusty Pistol
    # "Range: 15m" (:127-128); a thrown Melee weapon "Melee / 4" (:1744)
    assert "how much range you have" in SOURCE_LINES[102]
    run = get("horizon.in_range").run
    assert run(weapon="heavy-combat-pistol", ap=17, distance=20).value("In range") is True
    assert run(weapon="heavy-combat-pistol", ap=17, distance=21).value("In range") is False
    assert run(weapon="rusty-pistol", ap=3, distance=15).value("Range (m)") == 15
    thrown = run(weapon="rusty-weapon", ap=10, distance=4, thrown=True)
    assert (thrown.value("In range"), thrown.value("Range (m)")) == (True, 4)
    strike = run(weapon="rusty-weapon", ap=10, distance=3)
    assert strike.value("In range") is False and any("Melee range" in n for n in strike.notes)
    with pytest.raises(RulesError, match=r"^Thrown \(a Melee weapon\): .* only Melee"):
        run(weapon="heavy-combat-pistol", ap=17, thrown=True)
