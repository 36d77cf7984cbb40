"""Horizon: Out of the Ashes rules: known answers from the source's own examples and tables.

Every expected number below is quoted from sources/horizon-out-of-the-ashes-combat.txt
(the section is named in each test); exact odds are checked by hand-counting and
against 10^5 seeded rolls.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_pkg import Highlight, LimitError, Result, RulesError, get
from rules_pkg import horizon as h
from rules_pkg.dice import Distribution, roll, sample


def wid(name: str) -> str:
    """A profile's id from its name as the source prints it."""
    found = [p.id for p in h.profiles().values() if p.name == name]
    assert len(found) == 1, f"{name!r}: {found}"
    return found[0]


def run(calc: str, **inputs: object) -> Result:
    return get(f"horizon.{calc}").run(**inputs)


# --- § Forgotten how to use Skills? -----------------------------------------------------

def test_one_die_scores_as_the_source_table() -> None:
    # "Die result: 1 2 3 4 5 6 / Score: 0 0 0 +1AP +1AP +2AP"
    assert h.face_ap() == (0, 0, 0, 1, 1, 2)  # read from the extracted die-result table
    pmf = h.SkillTest(1, 0).distribution().pmf()
    assert pmf == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    assert [h.SkillTest(1, 0).score([f]) for f in range(1, 7)] == [0, 0, 0, 1, 1, 2]
    assert [h.face_label(f) for f in (3, 4, 6)] == ["0", "+1 AP", "+2 AP"]


def test_two_dice_hand_counted() -> None:
    # 36 ways: 0 AP 3*3=9; 1 AP 2*(3*2)=12; 2 AP 2*(3*1)+2*2=10; 3 AP 2*(2*1)=4; 4 AP 1.
    dist = h.SkillTest(2, 5).distribution()
    assert dist.counts() == {5: 9, 6: 12, 7: 10, 8: 4, 9: 1}


def test_four_plus_five_is_nine() -> None:
    # "if you got +4AP from your dice and +5AP from your Trait bonus ... (4+5) = 9AP"
    test = h.SkillTest(3, 5)
    assert test.score([6, 4, 5]) == 9
    assert test.explain([6, 4, 5]).endswith("(4+5) = 9 AP")
    assert test.score([1, 2, 3]) == 5


def test_no_skill_is_the_trait_rank_alone() -> None:
    # § Starting Combat: "if don't have the Awareness Skill and your ACU is 3, then your
    # score for the test is also 3"; § Forgotten how to use Skills?: Acuity 3 → +3AP.
    assert h.awareness(0, 3, False).distribution() == Distribution.constant(3)
    assert h.awareness(2, 3, False).distribution().outcomes() == (3, 4, 5, 6, 7)
    r = run("skill_test", dice=0, bonus=3, roll=True, seed=1)
    assert r.value("AP score") == 3 and r.dice == ()


def test_skill_test_calculator_rolls_through_the_seed() -> None:
    r1 = run("skill_test", dice=5, bonus=2, roll=True, seed=42)
    r2 = run("skill_test", dice=5, bonus=2, roll=True, seed=42)
    assert r1 == r2
    faces = [d.value for d in r1.dice]
    assert tuple(faces) == roll(random.Random(42), 6, 5)
    assert r1.value("AP score") == sum(h.face_ap()[f - 1] for f in faces) + 2
    assert all(d.label == h.face_label(d.value) for d in r1.dice)
    odds = {row.outcome: row.exactly for row in r1.odds[0].rows}
    assert sum(odds.values()) == 1 and odds["2 AP"] == Fraction(3, 6) ** 5


def chi_square(dist: Distribution[int], samples: list[int]) -> tuple[float, int]:
    """Pearson's statistic, bins with expected counts under 5 pooled into the tails."""
    n = len(samples)
    seen: dict[int, int] = {}
    for s in samples:
        seen[s] = seen.get(s, 0) + 1
    bins: list[tuple[float, int]] = []
    exp_acc, obs_acc = 0.0, 0
    for outcome, p in dist.pmf().items():
        exp_acc += float(p) * n
        obs_acc += seen.pop(outcome, 0)
        if exp_acc >= 5:
            bins.append((exp_acc, obs_acc))
            exp_acc, obs_acc = 0.0, 0
    assert not seen, f"rolled outcomes outside the distribution: {seen}"
    if obs_acc or exp_acc:
        e, o = bins.pop()
        bins.append((e + exp_acc, o + obs_acc))
    stat = sum((o - e) ** 2 / e for e, o in bins)
    return stat, len(bins) - 1


# chi-square critical values at alpha = 0.001 (standard tables), by degrees of freedom
CHI2_001 = {5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264,
            12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697, 16: 39.252, 17: 40.790,
            18: 42.312, 19: 43.820, 20: 45.315}


@pytest.mark.parametrize(("dice", "bonus"), [(4, 3), (8, 0)])
def test_exact_odds_agree_with_seeded_rolls(dice: int, bonus: int) -> None:
    test = h.SkillTest(dice, bonus)
    rng = random.Random(20260405)
    samples = [sample(test.ap, rng)[0] for _ in range(100_000)]  # the rule as rolled
    stat, df = chi_square(test.distribution(), samples)
    assert df in CHI2_001
    assert stat < CHI2_001[df], (stat, df)
    # and the mean, exactly: 5/6 AP a die (0*1/2 + 1*1/3 + 2*1/6 = 2/3)
    assert test.distribution().mean() == Fraction(2, 3) * dice + bonus


def test_chi_square_catches_a_wrong_die() -> None:
    # the same check rejects samples from a die scoring 1-2 → 0, 3-5 → +1, 6 → +2
    wrong = (0, 0, 1, 1, 1, 2)
    rng = random.Random(7)
    samples = [sum(wrong[rng.randint(1, 6) - 1] for _ in range(4)) + 3 for _ in range(100_000)]
    stat, df = chi_square(h.SkillTest(4, 3).distribution(), samples)
    assert stat > CHI2_001[df]


# A guard against a hang (e.g. enumerating 6**30 outcomes), not a speed test: the timing
# is `make bench`'s (scripts/bench/rules.py), never a pass/fail figure on a shared machine.
@pytest.mark.timeout(30)
def test_thirty_dice_exact_odds() -> None:
    h.skills._dice_distribution.cache_clear()
    dist = h.SkillTest(30, 5).distribution()
    assert dist.total == 6**30 and dist.outcomes()[0] == 5 and dist.outcomes()[-1] == 65
    assert dist.probability(65) == Fraction(1, 6**30)


def test_limits_checked_first() -> None:
    with pytest.raises(LimitError):
        h.SkillTest(101, 0)
    with pytest.raises(RulesError):
        h.SkillTest(2, -1)
    with pytest.raises(RulesError):
        run("skill_test", dice=1000, bonus=0)
    with pytest.raises(RulesError):
        h.profile("no-such-gun")
    with pytest.raises(RulesError):
        run("profile_row", weapon="no-such-gun", ap=3)


# --- § Weapon Profiles: look-ups ---------------------------------------------------------

def test_all_36_profiles_are_loaded_with_rows() -> None:
    ps = h.profiles()
    assert len(ps) == 36
    choices = dict(next(i for i in get("horizon.attack").inputs if i.name == "weapon").choices)
    assert set(choices) == set(ps)
    for p in ps.values():
        assert p.rows, p.name
        for r in p.rows:  # the table's own rows: each score of a row finds that row
            assert p.row_for(r.low) == r and p.row_for(r.high) == r
        if p.layout == "ap":
            assert [r.low for r in p.rows] == list(range(1, 31)), p.name


def test_heavy_combat_pistol_17_ap() -> None:
    # source line "17 22 27 Base 20" of Weapon Profile - Heavy Combat Pistol (Tier 3)
    r = run("profile_row", weapon=wid("Heavy Combat Pistol"), ap=17)
    assert r.value("Damage") == "22" and r.value("Defense") == "27"
    assert r.steps == ("17 AP → row 17: Damage 22, Defense 27, Move Base, Range 20",)
    w = h.profile(wid("Heavy Combat Pistol"))
    assert r.highlight == (Highlight(w.table, 16),)


def test_banded_profiles_find_the_band() -> None:
    # Rusty Assault Rifle: "21 - 25 17 7 (x3) 6 (x1) +2 15"
    w = h.profile(wid("Rusty Assault Rifle"))
    assert w.layout == "banded"
    row = w.row_for(23)
    assert row is not None and (row.low, row.high) == (21, 25)
    assert row.cell("defense") == "15" and row.cell("lethal") == "7 (x3)"
    assert w.row_for(0) is not None and w.row_for(100) is not None and w.row_for(101) is None
    r = run("profile_row", weapon=w.id, ap=23)
    assert r.steps[0].startswith("23 AP → row 21 - 25: ")
    # Rusty Pistol, banded too: 7 AP lies in "6 - 10"
    rp = h.profile(wid("Rusty Pistol"))
    r7 = rp.row_for(7)
    assert rp.layout == "banded" and r7 is not None and (r7.low, r7.high) == (6, 10)
    assert r7.cell("defense") == "15"  # "6 - 10 8 15"


def test_banded_damage_is_read_from_its_heading_and_says_so() -> None:
    # the banded layout has "Lethal Attack" cells such as "7 (x3)" that § Attack Actions
    # never explains: read from the heading "Damage (Hits)" (7 a hit, 3 hits), with a note
    r = run("attack", weapon=wid("Rusty Assault Rifle"), ap=23, attacks=1, targets=1)
    assert r.value("Damage per Attack") == 21  # "21 - 25 17 7 (x3) 6 (x1) +2 15"
    assert any(n.startswith(h.NOT_IN_SOURCE + "the banded profiles' columns have no rules")
               for n in r.notes)
    blank = run("attack", weapon=wid("Rusty Pistol"), ap=38, attacks=1)  # "36 - 40 45"
    assert blank.summary.endswith("damage not in the source for 38 AP")
    with pytest.raises(KeyError):
        blank.value("Damage per Attack")
    # its Defense and its profile-wide Move still apply: "Move / Stealth: -8"
    d = run("defense", weapon=wid("Rusty Assault Rifle"), ap=23, actions=2, damage=40, hits=1)
    assert d.value("Negates up to") == 30
    m = run("move", weapon=wid("Rusty Pistol"), ap=7, agi=4)  # "Move: -5m"
    assert m.value("Move (m)") == 15


def test_scores_outside_the_table_are_reported_not_invented() -> None:
    w = wid("Heavy Combat Pistol")
    above = run("profile_row", weapon=w, ap=31)
    assert above.values == (("AP score", 31, "count"),) and above.highlight == ()
    assert "ends at 30 AP" in above.notes[0] and above.notes[0].startswith("not in the source")
    below = run("profile_row", weapon=w, ap=0)
    assert "starts at 1 AP" in below.notes[0]
    # attacks and moves off the table say so too
    assert run("attack", weapon=w, ap=40, attacks=1, targets=1).notes
    assert "ends at 30 AP" in run("move", weapon=w, ap=40, agi=4).notes[0]


def test_blank_and_odd_cells_as_printed() -> None:
    # Micro Minigun "4 16 3 -20": no Range, and a Defense of 3 as printed
    r = run("profile_row", weapon=wid("Micro Minigun"), ap=4)
    assert r.value("Defense") == "3" and r.value("Damage") == "16"
    assert any("Range" in n and "blank" in n for n in r.notes)


def test_combat_skill_traits() -> None:
    # § Weapons and Combat Skills: Pistols "ACU or AGI rank", Assault Rifles "ACU or STR
    # rank", Grenades and Melee "AGI or STR rank"
    assert h.linked_traits(h.profile(wid("Heavy Combat Pistol"))) == ("ACU", "AGI")
    assert h.linked_traits(h.profile(wid("Light Assault Rifle"))) == ("ACU", "STR")
    assert h.linked_traits(h.profile(wid("Rusty SMG"))) == ("ACU", "STR")
    assert h.linked_traits(h.profile(wid("Scrap Grenade"))) == ("AGI", "STR")
    assert h.linked_traits(h.profile(wid("Krav Maga"))) == ("AGI", "STR")
    assert h.trait_bonus(("ACU", "AGI"), {"ACU": 3, "AGI": 4, "STR": 9})[0] == 4


def test_combat_test_odds_per_row() -> None:
    w = wid("Heavy Combat Pistol")
    r = run("combat_test", weapon=w, skill=1, acuity=3, agility=2, strength=0)
    rows = {o.outcome.split(":")[0]: o for o in r.odds[0].rows}
    # one die + ACU 3: 3 AP half the time, 4 AP a third, 5 AP a sixth
    assert rows["3 AP"].exactly == Fraction(1, 2) and rows["3 AP"].at_least == 1
    assert rows["4 AP"].exactly == Fraction(1, 3) and rows["5 AP"].at_least == Fraction(1, 6)
    # surprise adds ACU (§ Surprise!: "ACU 5 ... +5AP")
    s = run("combat_test", weapon=w, skill=0, acuity=5, agility=0, strength=0, surprise=True)
    assert s.odds[1].rows[0].outcome == "10 AP" and s.odds[1].rows[0].exactly == 1
    rolled = run("combat_test", weapon=w, skill=4, acuity=3, agility=2, strength=0,
                 roll=True, seed=9)
    score = rolled.value("AP score")
    assert score == sum(h.face_ap()[d.value - 1] for d in rolled.dice) + 3
    assert rolled.highlight == (Highlight(h.profile(w).table, score - 1),)


def test_combat_test_rows_beyond_30_ap_are_flagged() -> None:
    r = run("combat_test", weapon=wid("Heavy Combat Pistol"), skill=10, acuity=20,
            agility=0, strength=0)
    last = r.odds[0].rows[-1]
    assert last.outcome.startswith("above 30 AP")
    assert last.exactly == h.SkillTest(10, 20).distribution().p(lambda s: s > 30)


# --- § Attack Actions, § Point Blank Range -------------------------------------------------

def test_attack_single_and_multiple_targets() -> None:
    # Light Combat Shotgun row "10 15 10 -10 25": at 10AP the Damage cell reads 15.
    # "hitting the same target twice would deal (15+15) = 30 damage total"
    w = wid("Light Combat Shotgun")
    one = run("attack", weapon=w, ap=10, attacks=2, targets=1)
    assert one.value("Damage per Attack") == 15 and one.value("Target 1") == 30
    # "2 targets and you have 2 Attack actions ... the targets take 15 damage each"
    two = run("attack", weapon=w, ap=10, attacks=2, targets=2)
    assert (two.value("Target 1"), two.value("Target 2")) == (15, 15)
    # "If a third target appeared, you wouldn't be able to hit all 3 with only 2 Attacks."
    with pytest.raises(RulesError, match="more targets than you have Attacks"):
        run("attack", weapon=w, ap=10, attacks=2, targets=3)
    assert not one.value("Ignores Defense")


def test_attack_limited_by_the_magazine() -> None:
    # Heavy Combat Pistol "Magazine: 3Shots"
    with pytest.raises(RulesError, match="at most 3 with that weapon's Magazine"):
        run("attack", weapon=wid("Heavy Combat Pistol"), ap=10, attacks=4, targets=1)


def test_point_blank_and_half_damage() -> None:
    w = wid("Heavy Combat Pistol")
    # within 2 m: +5AP, so 12 AP reads row 17 (Damage 22), ignoring Defense
    pb = run("attack", weapon=w, ap=12, mode="point_blank", attacks=1, targets=1)
    assert pb.value("AP used") == 17 and pb.value("Damage per Attack") == 22
    assert pb.value("Ignores Defense")
    # pistol-whip: +5AP first, then half, fractions up: row 21 Damage 25 → 13
    struck = run("attack", weapon=w, ap=16, mode="struck", attacks=1, targets=1)
    assert struck.value("AP used") == 21 and struck.value("Damage per Attack") == 13
    # improvised weapon on the Simple Weapon profile: 12 → 17 AP, Damage 22 → 11
    imp = run("attack", weapon=wid("Simple Weapon"), ap=12, mode="improvised", attacks=1,
              targets=1)
    assert imp.value("Damage per Attack") == 11
    with pytest.raises(RulesError):
        run("attack", weapon=w, ap=12, mode="improvised", attacks=1, targets=1)


def test_melee_and_unarmed_always_point_blank() -> None:
    # "Normal Attacks while Unarmed or with Melee weapons always gain this benefit"
    # Advanced Weapon row 15: "15 30 24 -5 Melee / 5"; Kick-Boxing row 15: "15 10 15 Base Melee"
    adv = run("attack", weapon=wid("Advanced Weapon"), ap=10, attacks=1, targets=1)
    assert adv.value("AP used") == 15 and adv.value("Damage per Attack") == 30
    assert adv.value("Ignores Defense")
    kick = run("attack", weapon=wid("Kick-Boxing"), ap=10, attacks=1, targets=1)
    assert kick.value("Damage per Attack") == 10
    # a thrown Melee weapon over 2 m: "the range of the Attack considered as normal"
    thrown = run("attack", weapon=wid("Advanced Weapon"), ap=10, mode="thrown", attacks=1,
                 targets=1)
    assert thrown.value("AP used") == 10 and thrown.value("Damage per Attack") == 25


def test_grenade_damage_per_target() -> None:
    # Scrap Grenade "12 30/25/20/15/10 12 Base 35"; grenades ignore Defense
    w = wid("Scrap Grenade")
    r = run("attack", weapon=w, ap=12, attacks=1, targets=3)
    assert [r.value(f"Target {i}") for i in (1, 2, 3)] == [30, 25, 20]
    assert r.value("Total damage") == 75 and r.value("Ignores Defense")
    with pytest.raises(RulesError):
        run("attack", weapon=w, ap=12, attacks=1, targets=6)
    with pytest.raises(RulesError, match="at most 1 with that weapon's Magazine"):
        run("attack", weapon=w, ap=12, attacks=2, targets=1)


# --- § Wounding Attacks -----------------------------------------------------------------

def test_wounding_penalties_and_damage() -> None:
    w = wid("Heavy Combat Pistol")
    # Down: -5AP → 20 AP becomes 15 AP: "15 20 25 -5 15" → Damage 20
    down = run("wounding", weapon=w, ap=20, condition="Down", end_dice=1, end_bonus=0)
    assert down.value("Wounding Attack AP") == 15 and down.value("Damage") == 20
    # Shatter Head: -15AP, double damage: 20 → 5 AP, Damage 12 → 24
    head = run("wounding", weapon=w, ap=20, condition="Shatter Head", end_dice=1,
               end_bonus=0)
    assert head.value("Wounding Attack AP") == 5 and head.value("Damage") == 24
    # Stagger: "-" (no penalty)
    stag = run("wounding", weapon=w, ap=20, condition="Stagger", end_dice=1, end_bonus=0)
    assert stag.value("Wounding Attack AP") == 20
    assert [c.penalty for c in h.conditions()] == [0, 5, 5, 5, 10, 15]


def test_wounding_opposed_odds_hand_counted() -> None:
    # Wounding Attack 1 AP against one Endurance die, no bonus: higher wins.
    win, lose, tie = h.opposed(1, h.SkillTest(1, 0).distribution())
    assert (win, lose, tie) == (Fraction(1, 2), Fraction(1, 6), Fraction(1, 3))
    r = run("wounding", weapon=wid("Heavy Combat Pistol"), ap=6, condition="Down",
            end_dice=1, end_bonus=0)
    assert r.value("P(condition applied)") == Fraction(1, 2)
    assert any("equal" in n for n in r.notes)


# --- § Defense Actions, § Dive! ----------------------------------------------------------

def test_defense_taken_twice() -> None:
    # Light Combat Shotgun at 10AP: Defense 10; "taking it twice would negate the next
    # (10x2) = 20 damage"
    w = wid("Light Combat Shotgun")
    once = run("defense", weapon=w, ap=10, actions=1, damage=15, hits=1)
    assert once.value("Defense") == 10 and once.value("Damage taken") == 5
    twice = run("defense", weapon=w, ap=10, actions=2, damage=15, hits=2)
    assert twice.value("Negates up to") == 20 and twice.value("Damage taken") == 10
    assert h.defend(10, 2, [15], False) == h.DefenseOutcome(20, 15, 0, 5)


def test_defense_ignored() -> None:
    # Point Blank, Melee/Unarmed and Grenade Attacks ignore Defense
    for kind in ("point_blank", "melee", "grenade"):
        r = run("defense", weapon=wid("Light Combat Shotgun"), ap=10, actions=2, damage=15,
                hits=1, ignored=kind)
        assert r.value("Negated") == 0 and r.value("Damage taken") == 15


def test_dive_examples() -> None:
    # "STR 2 and AGI 3 ... (3x1) = 3m of movement and (3x2) = +6 armor"
    assert h.Dive.of(2, 3) == h.Dive(3, 6)
    # "STR 5 and AGI 3 ... (5x1) = 5m and gain (5x2) = +10 armor"
    r = run("dive", strength=5, agility=3)
    assert (r.value("Dive"), r.value("Armor")) == (5, 10)
    assert "STR is higher at rank 5" in r.steps[0]


# --- § The Move Action -------------------------------------------------------------------

def test_move_examples() -> None:
    # "AGI 4, then your base move is (4x5m) = 20m"
    assert h.base_move(4) == 20
    # Heavy Combat Pistol row 1 "1 9 11 -10 10": "(20m-10m) = 10m"
    r = run("move", weapon=wid("Heavy Combat Pistol"), ap=1, agi=4)
    assert r.value("Modifier (m)") == -10 and r.value("Move (m)") == 10
    base = run("move", weapon=wid("Heavy Combat Pistol"), ap=17, agi=4)
    assert base.value("Move (m)") == 20
    # Unarmed can add: Kick-Boxing row 21 "+5"
    assert run("move", weapon=wid("Kick-Boxing"), ap=21, agi=4).value("Move (m)") == 25
    # "if you scored 5AP on your Endurance test, you can move an additional 5m"
    assert h.pushed_move(10, 5) == 15
    e = run("move", weapon=wid("Heavy Combat Pistol"), ap=1, agi=4, endurance=True,
            end_dice=3, end_bonus=2, roll=True, seed=3)
    score = sum(h.face_ap()[d.value - 1] for d in e.dice) + 2
    assert e.value("Move with Endurance (m)") == 10 + score
    # "you need to have the Endurance Skill unlocked before you can use it actively"
    with pytest.raises(RulesError, match="Endurance Skill unlocked"):
        run("move", weapon=wid("Heavy Combat Pistol"), ap=1, agi=4, endurance=True,
            end_dice=0, end_bonus=5)


def test_move_endurance_odds() -> None:
    r = run("move", weapon=wid("Heavy Combat Pistol"), ap=17, agi=4, endurance=True,
            end_dice=1, end_bonus=0)
    assert {o.outcome: o.exactly for o in r.odds[0].rows} == {
        "20 m": Fraction(1, 2), "21 m": Fraction(1, 3), "22 m": Fraction(1, 6)}


# --- § Reload Actions ---------------------------------------------------------------------

def test_reload() -> None:
    # "if a weapon has Reload 4 ... taking it twice would add (4x2) = 8 Attacks"
    assert h.reload_magazine(0, 10, 4, 2) == 8
    # Heavy Combat Pistol "Magazine: 3Shots Reload: +2Shots": filled "but no more"
    w = wid("Heavy Combat Pistol")
    assert run("reload", weapon=w, loaded=0, actions=1).value("Loaded") == 2
    assert run("reload", weapon=w, loaded=0, actions=2).value("Loaded") == 3
    with pytest.raises(RulesError):
        run("reload", weapon=w, loaded=4, actions=1)
    # Rusty Assault Rifle: "Half Reload: +2 Attacks ... Full Reload: +4 Attacks", no Reload
    with pytest.raises(RulesError, match="Half Reload"):
        run("reload", weapon=wid("Rusty Assault Rifle"), loaded=0, actions=1)
    # Scrap Grenade "Reload: None"
    with pytest.raises(RulesError, match="no Reload"):
        run("reload", weapon=wid("Scrap Grenade"), loaded=0, actions=1)


# --- § Starting Combat, § Surprise! -------------------------------------------------------

def test_turn_order_odds() -> None:
    # one Awareness die + ACU 0 against no Skill and ACU 1
    r = run("turn_order", my_dice=1, my_acu=0, their_dice=0, their_acu=1)
    assert r.value("P(you first)") == Fraction(1, 6)
    assert r.value("P(equal)") == Fraction(1, 3) and r.value("P(they first)") == Fraction(1, 2)
    # Surprise: ACU 3 → +3 AP on the Awareness test: 3 + 3 = 6 beats a flat 5
    s = run("turn_order", my_dice=0, my_acu=3, my_surprise=True, their_dice=0, their_acu=5)
    assert s.value("P(you first)") == 1
    rolled = run("turn_order", my_dice=3, my_acu=2, their_dice=3, their_acu=2, roll=True,
                 seed=11)
    assert len(rolled.dice) == 6


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 12), st.integers(0, 10), st.data())
def test_rolled_scores_lie_in_the_exact_distribution(dice: int, bonus: int,
                                                     data: st.DataObject) -> None:
    faces = data.draw(st.lists(st.integers(1, 6), min_size=dice, max_size=dice))
    test = h.CombatTest(dice, bonus)
    dist = test.distribution()
    assert dist.probability(test.score(faces)) > 0
    assert dist.total == 6**dice and dist.mean() == Fraction(2 * dice, 3) + bonus


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(h.profiles())), st.integers(-5, 110))
def test_lookup_finds_the_row_holding_the_score(weapon: str, ap: int) -> None:
    w = h.profile(weapon)
    row, step = h.lookup(w, ap)
    if row is None:
        assert not any(r.low <= ap <= r.high for r in w.rows)
        assert step.startswith("not in the source")
    else:
        assert row.low <= ap <= row.high and step.startswith(f"{ap} AP → row ")


# --- the registry ---------------------------------------------------------------------------

def test_every_calculator_runs_on_its_defaults() -> None:
    from rules_pkg import calculators

    mine = [c for c in calculators() if c.game == "horizon"]
    assert len(mine) >= 11
    for c in mine:
        assert c.source.startswith("Horizon: Out of the Ashes combat reference § ")
        r = c.run()
        assert r.summary
        if c.rolls:
            assert c.run(roll=True, seed=1) == c.run(roll=True, seed=1)
        r.to_dict()
