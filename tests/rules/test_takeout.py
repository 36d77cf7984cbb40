"""Exact odds at the table (issue #28): known answers worked out by hand from the sources,
three attacker/target pairs (or more) per game, and properties of every answer.

Each answer is the chance an attack (or the turn's attacks) takes the target out by the
game's own rule, with the target's own armour from its tracked sheet.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_pkg import takeout
from rules_pkg.encounter import AddCombatant, fold

CPR = "sources/cyberpunk-red-combat-cheat-sheet.txt"


def odds(game: str, calc: str, inputs: dict[str, Any], target: dict[str, int],
         attacks: int = 1, kind: str = "character") -> takeout.Takeout:
    enc = fold(game, [AddCombatant("a", "Attacker"),
                      AddCombatant("t", "Target", kind, tuple(target.items()))])
    t = enc.combatant("t")
    plan = takeout.plan_for(game, calc, inputs, enc.combatant("a"), t)
    return takeout.work_out(plan, t, attacks, "t", "Target")


# -- Cyberpunk RED ---------------------------------------------------------------------------------
def test_cyberpunk_red_single_shot_at_a_ganger() -> None:
    """REF 6 + Weapon Skill 4 + 1d10 against DV 13 hits when it beats it (CPR:22): d10 4-10,
    7/10. 3d6 against body SP 4 (CPR:39) takes HP 10 to 0 when 3d6 - 4 >= 10, 3d6 >= 14:
    15..18 are 15+10+6+3+1 = 35 of 216; or two 6s (CPR:44: +5 direct): 6,6,1 (3 orders) gives
    13 - 4 = 9 through, + 5 = 14. 38/216 = 19/108; x 7/10 = 133/1080."""
    r = odds("cyberpunk_red", "cyberpunk_red.ranged", {"ref": 6, "skill": 4, "dv": 13, "dice": 3},
             {"hp": 10, "sp_body": 4})
    assert r.p_hit == F(7, 10)
    assert r.out_by == (F(133, 1080),)
    # any damage through ablates the SP by 1 (CPR:39): 3d6 > 4 on a hit
    assert dict(r.wear[0][2]) == {3: F(7, 10) * F(216 - 4, 216), 4: 1 - F(7, 10) * F(212, 216)}


def test_cyberpunk_red_autofire_smg() -> None:
    """Autofire (CPR:23): REF 6 + Autofire 4 + 1d10 against DV 15 beats it by 1 (d10 6), 2
    (7) or 3+ (8-10), times 2d6 up to 3 for an SMG. HP 10 behind SP 4: x1 needs 2d6 >= 14,
    only both 6s (a Critical Injury: 12 - 4 + 5 = 13) 1/36; x2 needs 2d6 >= 7, 21/36; x3
    needs 2d6 >= 5, 30/36. (1 + 21 + 3 x 30) / 360 = 112/360 = 14/45."""
    r = odds("cyberpunk_red", "cyberpunk_red.autofire", {"dv": 15}, {"hp": 10, "sp_body": 4})
    assert r.p_hit == F(1, 2)
    assert r.out_by[0] == F(14, 45)


def test_cyberpunk_red_melee_ignores_half_the_armour() -> None:
    """Melee (CPR:27): DEX 6 + Melee 4 + 1d10 against DEX 6 + Evasion 4 + 1d10, the
    defender winning ties: 45/100. The weapon ignores half of SP 4 (rounded up: 2), so 2d6 -
    2 >= 10 needs 12: both 6s, 1/36 (also a Critical Injury). 9/20 x 1/36 = 1/80."""
    r = odds("cyberpunk_red", "cyberpunk_red.melee", {"dice": 2}, {"hp": 10, "sp_body": 4})
    assert r.p_hit == F(9, 20)
    assert r.out_by == (F(1, 80),)


def test_cyberpunk_red_ablation_carries_to_the_next_shot() -> None:
    """A sure hit (REF 10 + Skill 10 against DV 0) of 1d6 on HP 5 behind SP 3 (CPR:39): the
    first shot cannot drop it (at most 3 through). After it: 1-3 (1/2) HP 5 SP 3; 4: HP 4 SP
    2; 5: HP 3 SP 2; 6: HP 2 SP 2. The second drops HP 4 on a 6, HP 3 on 5-6, HP 2 on 4-6:
    1/6 x (1 + 2 + 3)/6 = 1/6 (none from HP 5 SP 3). Without ablation it would be 1/6 x 3/6."""
    r = odds("cyberpunk_red", "cyberpunk_red.ranged",
             {"ref": 10, "skill": 10, "dv": 0, "dice": 1}, {"hp": 5, "sp_body": 3}, attacks=2)
    assert r.out_by == (F(0), F(1, 6))
    assert r.mean_damage == F(1 + 2 + 3, 6)


# -- Forbidden Lands -------------------------------------------------------------------------------
FL = "sources/forbidden-lands-combat-quick-reference.md"
ONE_DIE = {"attribute": 1, "skill": 0, "weapon_bonus": 0, "weapon_damage": 2}


def test_forbidden_lands_slash_one_die_no_armour() -> None:
    """Strength 1 + Melee 0 + no bonus: one base die, a ✘ on its 6: 1/6 (FL:25-29). A single
    ✘ does the weapon's damage, 2 (FL:31): Strength 2 reaches zero, Broken (FL:53)."""
    r = odds("forbidden_lands", "forbidden_lands.attack", ONE_DIE, {"strength": 2})
    assert r.p_hit == F(1, 6)
    assert r.out_by == (F(1, 6),)


def test_forbidden_lands_armour_save() -> None:
    """The same against armour 1 (FL:40-44): one gear die; its ✘ (a 6) takes 1 off the 2:
    not Broken. 1/6 x 5/6 = 5/36. Damage through always lowers the rating by 1 (FL:44)."""
    r = odds("forbidden_lands", "forbidden_lands.attack", ONE_DIE,
             {"strength": 2, "armour": 1})
    assert r.out_by == (F(5, 36),)
    assert dict(r.wear[0][2]) == {0: F(1, 6), 1: F(5, 6)}


def test_forbidden_lands_two_slashes() -> None:
    """Strength 3: one hit of 2 leaves 1; the second hit Breaks: (1/6)^2 = 1/36 by the 2nd."""
    r = odds("forbidden_lands", "forbidden_lands.attack", ONE_DIE, {"strength": 3}, 2)
    assert r.out_by == (F(0), F(1, 36))


# -- d100 ------------------------------------------------------------------------------------------
def test_d100_two_shots_through_ap_and_tb() -> None:
    """BS 40: a d100 at or under 40 hits, 2/5 (the test). 1d10+3 against AP 2 + TB 3 (d100
    § Status Effects: damage minus AP and TB off Wounds) lets d - 2 through, at most 8: one
    hit cannot take 10 Wounds. Two hits need d1 + d2 >= 14: 7+6+5+4+3+2+1 = 28 of 100.
    (2/5)^2 x 28/100 = 28/625."""
    r = odds("d100", "d100.test", {"characteristic": 40},
             {"wounds": 10, "ap": 2, "tb": 3}, 2)
    assert r.p_hit == F(2, 5)
    assert r.out_by == (F(0), F(28, 625))


def test_d100_one_hit_to_zero_wounds() -> None:
    """BS 50 (1/2); 1d10+3 - TB 3 against 4 Wounds: d >= 4, 7/10. 1/2 x 7/10 = 7/20."""
    r = odds("d100", "d100.test", {"characteristic": 50}, {"wounds": 4, "ap": 0, "tb": 3})
    assert r.out_by == (F(7, 20),)


def test_d100_horde_magnitude() -> None:
    """A horde loses Magnitude instead (the tracker's reading): BS 30 (3/10), 1d10 against
    Magnitude 10, no AP or TB: a 10, 1/10. 3/100."""
    r = odds("d100", "d100.test", {"characteristic": 30, "damage_bonus": 0},
             {"magnitude_max": 10, "magnitude": 10, "ap": 0, "tb": 0}, kind="horde")
    assert r.out_by == (F(3, 100),)


# -- Horizon ---------------------------------------------------------------------------------------
HZ = "sources/horizon-out-of-the-ashes-combat.txt"


def test_horizon_defense_negates_the_first_attack() -> None:
    """AP score 10 with the Light Combat Pistol: 12 damage an Attack (HZ:170-183, HZ:1621).
    Defense 5 negates 5 of the first (HZ:1640-1643): 7 taken, then 12: 19 >= 15."""
    r = odds("horizon", "horizon.attack", {"score": 10, "out_at": 15}, {"defense": 5}, 2)
    assert r.p_hit == 1
    assert r.out_by == (F(0), F(1))
    assert r.mean_damage == 7 and r.mean_total == 19


def test_what_an_attack_does_is_said_in_the_sheets_words() -> None:
    """The panel's "Mean … " and its chart's title: what the target loses, as its card names
    it; Horizon's track counts up (played at 390 px, the panel said "Mean damage lost" of a
    track the card calls "Damage taken")."""
    from rules_pkg.encounter.fold import rules_for

    got = {
        "cyberpunk_red": odds("cyberpunk_red", "cyberpunk_red.ranged",
                              {"ref": 6, "skill": 4, "dv": 13, "dice": 3}, {"hp": 10}).loss,
        "horizon": odds("horizon", "horizon.attack", {"score": 10, "out_at": 15},
                        {"defense": 5}).loss,
    }
    assert got == {"cyberpunk_red": "HP lost", "horizon": "Damage taken"}
    labels = {g: {s.label for s in rules_for(g).sheet.stats} for g in got}
    assert {g: loss.removesuffix(" lost") in labels[g] for g, loss in got.items()} == {
        "cyberpunk_red": True, "horizon": True}


def test_horizon_one_combat_test_for_the_turn() -> None:
    """1 die (Skill rank 1) + Trait bonus 2 (ACU or AGI, HZ:60, HZ:87): 1-3 +0 (1/2), 4-5 +1
    (1/3), 6 +2 (1/6): AP 2, 3, 4 deal 6, 7, 8 (HZ:174-176). Both Attacks use that score:
    12, 14, 16; 14 or more takes out: 1/3 + 1/6 = 1/2 (independent Attacks would give 5/12)."""
    r = odds("horizon", "horizon.attack",
             {"skill": 1, "acuity": 2, "agility": 2, "out_at": 14}, {"defense": 0}, 2)
    assert r.out_by == (F(0), F(1, 2))


def test_horizon_point_blank_ignores_defense() -> None:
    """Point Blank: +5 AP and the target's Defense is ignored (HZ:1645-1646, HZ:1735):
    score 5 → 10 AP, 12 damage against Defense 20: out at 12. A normal Attack at 5 AP deals
    8 (HZ:177), all negated."""
    pb = odds("horizon", "horizon.attack", {"score": 5, "mode": "point_blank", "out_at": 12},
              {"defense": 20})
    assert pb.out_by == (F(1),)
    normal = odds("horizon", "horizon.attack", {"score": 5, "out_at": 12}, {"defense": 20})
    assert normal.out_by == (F(0),) and normal.mean_damage == 0


# -- mecha -----------------------------------------------------------------------------------------
def test_mecha_one_attack_no_armour() -> None:
    """1 die + 6 against 1 die + 5 succeeds when higher (mecha:38): a >= d, 55/100; the
    margin a - d + 1 is k in 11 - k ways: 1-5 in 40, 6-10 in 15. Damage dice (mecha:60-62):
    1 or 2 success dice + 1 weapon die. Vitality 20 needs 2d10 = 20 (1/100) or 3d10 >= 20
    (= P(3d10 <= 13) = C(13,3) - 3 = 283 of 1000). 40/100 x 1/100 + 15/100 x 283/1000 =
    929/20000."""
    r = odds("mecha", "mecha.attack", {}, {"vitality": 20, "armour_dice": 0})
    assert r.p_hit == F(11, 20)
    assert r.out_by == (F(929, 20000),)


def test_mecha_armour_roll() -> None:
    """One armour die off the damage (mecha:68): 2d10 - d10 < 20 always; 3d10 - d >= 20 is
    3d10 <= 13 - d ... summed over d: 220+165+120+84+56+35+20+10+4+1 = 715 of 10000.
    15/100 x 715/10000 = 429/40000."""
    r = odds("mecha", "mecha.attack", {}, {"vitality": 20, "armour_dice": 1})
    assert r.out_by == (F(429, 40000),)


def test_mecha_two_attacks_on_a_weak_target() -> None:
    """Vitality 2: any hit (at least 2 dice) takes it out: 11/20, then 1 - (9/20)^2."""
    r = odds("mecha", "mecha.attack", {}, {"vitality": 2, "armour_dice": 0}, 2)
    assert r.out_by == (F(11, 20), 1 - F(81, 400))


# -- properties ------------------------------------------------------------------------------------
def _sound(r: takeout.Takeout) -> None:
    assert sum(p for _, p in r.damage) == 1
    for _, _, after in r.wear:
        assert sum(p for _, p in after) == 1
    assert all(0 <= p <= 1 for p in r.out_by)
    assert list(r.out_by) == sorted(r.out_by)
    assert 0 <= r.p_hit <= 1


@settings(max_examples=25, deadline=None)
@given(sp=st.integers(0, 12), hp=st.integers(1, 30), dice=st.integers(1, 5),
       n=st.integers(1, 3))
def test_cyberpunk_red_more_armour_never_helps_the_attacker(sp: int, hp: int, dice: int,
                                                            n: int) -> None:
    a = odds("cyberpunk_red", "cyberpunk_red.ranged", {"dice": dice}, {"hp": hp, "sp_body": sp}, n)
    b = odds("cyberpunk_red", "cyberpunk_red.ranged", {"dice": dice},
             {"hp": hp, "sp_body": sp + 1}, n)
    _sound(a)
    assert all(x >= y for x, y in zip(a.out_by, b.out_by, strict=True))


@settings(max_examples=20, deadline=None)
@given(armour=st.integers(0, 3), strength=st.integers(1, 5), skill=st.integers(0, 3),
       damage=st.integers(1, 3))
def test_forbidden_lands_armour_and_dice(armour: int, strength: int, skill: int,
                                         damage: int) -> None:
    inp = {"attribute": 2, "skill": skill, "weapon_bonus": 0, "weapon_damage": damage}
    a = odds("forbidden_lands", "forbidden_lands.attack", inp,
             {"strength": strength, "armour": armour})
    b = odds("forbidden_lands", "forbidden_lands.attack", inp,
             {"strength": strength, "armour": armour + 1})
    more = odds("forbidden_lands", "forbidden_lands.attack", {**inp, "skill": skill + 1},
                {"strength": strength, "armour": armour})
    _sound(a)
    assert a.out_by[0] >= b.out_by[0]
    assert more.p_hit >= a.p_hit  # more dice never lower the chance to hit


@settings(max_examples=20, deadline=None)
@given(ap=st.integers(0, 8), wounds=st.integers(1, 20), bs=st.integers(0, 100),
       n=st.integers(1, 3))
def test_d100_more_ap_never_helps_the_attacker(ap: int, wounds: int, bs: int, n: int) -> None:
    a = odds("d100", "d100.test", {"characteristic": bs}, {"wounds": wounds, "ap": ap}, n)
    b = odds("d100", "d100.test", {"characteristic": bs}, {"wounds": wounds, "ap": ap + 1}, n)
    _sound(a)
    assert all(x >= y for x, y in zip(a.out_by, b.out_by, strict=True))


@settings(max_examples=15, deadline=None)
@given(armour=st.integers(0, 3), vitality=st.integers(1, 30), weapon=st.integers(0, 3))
def test_mecha_more_armour_never_helps_the_attacker(armour: int, vitality: int,
                                                   weapon: int) -> None:
    inp = {"weapon_dice": weapon}
    a = odds("mecha", "mecha.attack", inp, {"vitality": vitality, "armour_dice": armour}, 2)
    b = odds("mecha", "mecha.attack", inp, {"vitality": vitality, "armour_dice": armour + 1}, 2)
    _sound(a)
    assert all(x >= y for x, y in zip(a.out_by, b.out_by, strict=True))


@settings(max_examples=15, deadline=None)
@given(defense=st.integers(0, 30), skill=st.integers(0, 4), out_at=st.integers(1, 40))
def test_horizon_defense_and_dice(defense: int, skill: int, out_at: int) -> None:
    inp = {"skill": skill, "out_at": out_at}
    a = odds("horizon", "horizon.attack", inp, {"defense": defense}, 2)
    b = odds("horizon", "horizon.attack", inp, {"defense": defense + 1}, 2)
    more = odds("horizon", "horizon.attack", {**inp, "skill": skill + 1}, {"defense": defense}, 2)
    _sound(a)
    assert all(x >= y for x, y in zip(a.out_by, b.out_by, strict=True))
    assert more.p_hit >= a.p_hit
    assert all(x >= y for x, y in zip(more.out_by, a.out_by, strict=True))


def test_an_answer_too_slow_to_be_exact_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(takeout, "MAX_STEPS", 3)
    r = odds("cyberpunk_red", "cyberpunk_red.ranged", {}, {"hp": 40}, 3)
    assert not r.exact and r.method.startswith("approximate")
    _sound(r)


def test_unknown_attack_and_bad_counts_are_refused() -> None:
    from rules_pkg.errors import RulesError

    with pytest.raises(RulesError, match="no odds for"):
        odds("cyberpunk_red", "cyberpunk_red.death_save", {}, {})
    with pytest.raises(RulesError, match="attacks this turn"):
        odds("mecha", "mecha.attack", {}, {}, 11)


def test_the_page_asks_through_the_encounter_api() -> None:
    """The odds op folds the stored log and answers per target with the target's own sheet
    (its SP from the log, not from the form); the form op leaves out what the sheet fills."""
    import json

    from rules_pkg.encounter import api

    events = [{"type": "add", "eid": "e1", "id": "a", "name": "Ada"},
              {"type": "add", "eid": "e2", "id": "g", "name": "Ganger",
               "values": [["hp", 10], ["sp_body", 4]]}]
    reply = json.loads(api.handle_json(json.dumps(
        {"op": "odds", "game": "cyberpunk_red", "events": events, "attacker": "a",
         "targets": ["g"], "calc": "cyberpunk_red.ranged",
         "inputs": {"dv": 13, "dice": 3, "sp_body": 30}, "attacks": 1})))
    assert reply["ok"], reply
    assert [o["text"] for o in reply["odds"][0]["out_by"]] == ["133/1080"]
    form = json.loads(api.handle_json(json.dumps(
        {"op": "odds_form", "game": "cyberpunk_red", "events": events, "attacker": "a",
         "target": "g"})))
    ranged = next(a for a in form["attacks"] if a["calc"] == "cyberpunk_red.ranged")
    asked = {i["name"] for i in ranged["inputs"]}
    assert "dv" in asked and not asked & {"ref", "sp_body", "sp_head"}
    bad = json.loads(api.handle_json(json.dumps(
        {"op": "odds", "game": "cyberpunk_red", "events": events, "targets": []})))
    assert not bad["ok"] and "target" in bad["message"]


def test_the_first_request_chooses_and_brings_the_form() -> None:
    """The page's first answer is one request: no attacker or target chosen yet, the first
    combatant against the next, the form of the game's attacks with it."""
    import json

    from rules_pkg.encounter import api

    events = [{"type": "add", "eid": "e1", "id": "a", "name": "Ada"},
              {"type": "add", "eid": "e2", "id": "g", "name": "Ganger",
               "values": [["hp", 10], ["sp_body", 4]]}]
    reply = json.loads(api.handle_json(json.dumps(
        {"op": "odds", "form": True, "game": "cyberpunk_red", "events": events})))
    assert reply["ok"], reply
    assert (reply["attacker"], reply["targets"]) == ("a", ["g"])
    assert reply["attacks"][0]["calc"] == "cyberpunk_red.ranged"
    # REF 6 + Weapon Skill 4 + 1d10 against the default DV 15: 1/2; 3d6 - 4 >= 10 or two
    # 6s: 38/216 (test_cyberpunk_red_single_shot_at_a_ganger)
    assert reply["odds"][0]["out_by"][0]["text"] == str(F(1, 2) * F(38, 216))
    empty = json.loads(api.handle_json(json.dumps(
        {"op": "odds", "form": True, "game": "cyberpunk_red", "events": []})))
    assert empty["ok"] and empty["odds"] == [] and empty["attacks"]
