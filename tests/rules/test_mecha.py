"""The d10 mecha game's personal-scale combat: known answers from the source, exact
odds checked by hand and against seeded samples."""

from __future__ import annotations

import random
from fnmatch import fnmatchcase
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from rules_pkg import LimitError, RulesError, data, get
from rules_pkg import mecha as m

F = Fraction


def calc(name: str) -> rules_pkg.Calculator:
    return rules_pkg.get(f"mecha.{name}")


def section_text(title: str) -> str:
    """Every list item and paragraph of the section with this title, as one string."""
    def walk(sections: list[dict[str, Any]]) -> dict[str, Any] | None:
        for s in sections:
            if s["title"].strip().lower() == title.lower():
                return s
            found = walk(s.get("sections", []))
            if found:
                return found
        return None

    def items(xs: list[dict[str, Any]]) -> list[str]:
        return [t for x in xs for t in (x["text"], *items(x.get("children", [])))]

    sec = walk(data.document("mecha")["sections"])
    assert sec is not None, title
    out: list[str] = []
    for b in sec["blocks"]:
        out += items(b["items"]) if b["type"] == "list" else [b.get("text", "")]
    return "\n".join(out)


# -- the numbers the rules use come from the source ---------------------------------------
def test_list_constants_are_the_sources_numbers() -> None:
    aiming = section_text("Aiming")
    assert "One action spent aiming = +4" in aiming and "Two actions spent aiming = +6" in aiming
    assert m.AIM_BONUS == {0: 0, 1: 4, 2: 6}
    cover = section_text("Cover")
    assert "Light cover gives a test penalty of -2" in cover
    assert "Heavy cover gives a test penalty of -4" in cover
    assert m.COVER == {"none": 0, "light": -2, "heavy": -4}
    blind = section_text("Blindfighting")
    assert "= -2 penalty" in blind and "= -4 penalty" in blind
    assert m.SIGHT == {"clear": 0, "difficult": -2, "obscuring": -4}
    auto = section_text("Automatic Weapons fire")
    assert "defend against with a -2 penalty" in auto and m.AUTO_FIRE_DEFENCE == -2
    ent = section_text("Entangling & Disarming")
    assert "-4 test penalty" in ent and m.ENTANGLED == -4
    assert "1 action for every 5 points" in ent and m.ACTIONS_PER_LOST == 5
    brk = section_text("Breaking Away")
    assert "6-10 = Break away" in brk and m.BREAK_AWAY_FROM == 6


def test_tables_found_and_patterns_match() -> None:
    ids = set(data.tables("mecha"))
    assert set(m.table_ids().values()) <= ids
    for c in rules_pkg.calculators():
        if c.game == "mecha":
            for pattern in c.tables:
                assert any(fnmatchcase(t, pattern) for t in ids), (c.id, pattern)


def test_success_based_damage_table() -> None:
    assert [m.success_dice(x)[1] for x in (1, 5, 6, 10, 11, 15, 16, 20)] == [1, 1, 2, 2, 3, 3,
                                                                           4, 4]
    assert m.max_success_margin() == 20
    with pytest.raises(RulesError, match="not in the source"):
        m.success_dice(21)


def test_strength_based_damage_table() -> None:
    assert [m.strength_dice(s)[1] for s in (1, 3, 4, 7, 8, 9, 10, 12, 14, 15)] == [
        -1, -1, 0, 0, 1, 1, 2, 3, 4, 4]
    with pytest.raises(RulesError):
        m.strength_dice(16)


def test_multiple_action_penalty_table() -> None:
    assert [m.action_penalty(n)[1] for n in (1, 2, 3)] == [0, -2, -4]
    with pytest.raises(RulesError):
        m.action_penalty(4)


# -- the contest --------------------------------------------------------------------------
def test_ties_fail() -> None:
    c = m.Contest(0, 0).distribution()
    # Of 100 pairs, the attacker is strictly higher in 45; 10 ties fail.
    assert c.p(lambda o: o[0] == m.HIT) == F(45, 100)
    assert m.Contest(0, 0).outcome(5, 5) == (m.MISS, 0)
    assert m.Contest(3, 0).outcome(5, 7) == (m.HIT, 1)


def test_contest_matches_samples(chi2: Any) -> None:
    contest = m.Contest(4, 2)
    rng = random.Random(424242)
    samples = [contest.outcome(rng.randint(1, 10), rng.randint(1, 10)) for _ in range(100_000)]
    stat, df, critical = chi2(samples, contest.distribution().pmf())
    assert stat < critical, (stat, df, critical)


def test_critical_failures() -> None:
    c = m.Contest(0, 20, fumble_face=1)
    assert c.outcome(1, 10) == (m.FUMBLE, 0)
    # A defence critical failure counts as zero: 2 + 0 beats it by 2.
    assert c.outcome(2, 1) == (m.HIT, 2)


def test_modifiers_shift_the_contest() -> None:
    base = calc("attack").run(combat="2", attack_score=5, defence_score=5, range="1")
    aimed = calc("attack").run(combat="2", attack_score=5, defence_score=5, range="1", aim="1")
    assert aimed.value("P(attack succeeds)") == m.Contest(9, 5).distribution().p(
        lambda o: o[0] == m.HIT)
    assert base.value("P(attack succeeds)") == F(45, 100)
    # Short range +2, two actions -2, heavy cover -4, obscuring -4 -> -8 in all.
    hard = calc("attack").run(combat="2", attack_score=5, defence_score=5, range="0",
                              actions="2", cover="heavy", attacker_sight="obscuring")
    assert hard.value("P(attack succeeds)") == m.Contest(-3, 5).distribution().p(
        lambda o: o[0] == m.HIT)
    # A called shot at a tiny target: -8 to the test (from the table).
    tiny = calc("attack").run(combat="2", attack_score=5, defence_score=5, range="1",
                              called="2")
    assert tiny.value("P(attack succeeds)") == m.Contest(-3, 5).distribution().p(
        lambda o: o[0] == m.HIT)


def test_auto_fire_targets_defend_at_minus_two_and_uses_all_actions() -> None:
    r = calc("attack").run(combat="2", mode="auto10", attack_score=5, defence_score=5,
                           range="1")
    assert r.value("P(attack succeeds)") == m.Contest(5, 3).distribution().p(
        lambda o: o[0] == m.HIT)
    with pytest.raises(RulesError, match="all a character's actions"):
        calc("attack").run(combat="2", mode="auto5", actions="2")
    with pytest.raises(RulesError):
        calc("attack").run(combat="0", mode="burst")


# -- damage ---------------------------------------------------------------------------------
def test_plus_one_weapon_hitting_with_five_rounds() -> None:
    """Source: 'with a +1 weapon that hits with 5 rounds calculate success damage + 1 then
    add a further four damage dice'."""
    spec = m.DamageSpec(weapon=1, strength=0, extra_rounds=4)
    for success in (1, 2, 3, 4):
        assert spec.dice(success) == success + 1 + 4
    r = calc("damage").run(margin=3, weapon_dice=1, mode="rounds", rounds=5)
    assert r.value("Damage dice") == 1 + 1 + 4


def test_three_round_burst_adds_the_weapon_once_more() -> None:
    r = calc("damage").run(margin=7, weapon_dice=2, mode="burst")
    assert r.value("Damage dice") == 2 + 2 + 2


def test_strength_and_called_shot_dice() -> None:
    r = calc("damage").run(margin=12, weapon_dice=0, hand_weapon=True, strength=10,
                           called="1")
    assert r.value("Damage dice") == 3 + 2 + 2


def test_damage_dice_sums_and_armour() -> None:
    two = m.d10_sum(2)
    assert two.probability(2) == F(1, 100) and two.probability(11) == F(10, 100)
    # 5 damage against one armour die: nothing gets through on 5-10.
    after = m.after_armour(rules_pkg.Distribution.constant(5), 1)
    assert after.probability(0) == F(6, 10) and after.probability(4) == F(1, 10)
    none = calc("damage").run(margin=1, weapon_dice=-1)
    assert none.value("Damage dice") == 0 and none.value("Mean damage") == 0


def test_auto_fire_rounds_from_the_rate() -> None:
    half = m.rounds_distribution("auto5")
    assert half is not None and half.pmf() == {k: F(1, 5) for k in range(1, 6)}
    full = m.rounds_distribution("auto10")
    assert full is not None and full.pmf() == {k: F(1, 10) for k in range(1, 11)}


def test_auto_fire_damage_dice_distribution() -> None:
    # Defender can never be beaten by more than 5 here: 1 success die each hit.
    contest = m.Contest(0, 5).distribution()
    n = m.damage_dice_distribution(contest, m.DamageSpec(1, 0), m.rounds_distribution("auto5"))
    assert n is not None
    # success 1 + weapon 1 + (rounds - 1): rounds 1-5 -> 2..6 dice, each 1/5.
    assert n.pmf() == {k: F(1, 5) for k in range(2, 7)}


def test_damage_matches_samples(chi2: Any) -> None:
    rng = random.Random(77)
    exact = m.after_armour(m.d10_sum(3), 1)
    samples = [max(0, sum(rng.randint(1, 10) for _ in range(3)) - rng.randint(1, 10))
               for _ in range(100_000)]
    stat, df, critical = chi2(samples, exact.pmf())
    assert stat < critical, (stat, df, critical)


def test_damage_limit_checked() -> None:
    with pytest.raises(LimitError):
        m.d10_sum(m.MAX_DAMAGE_DICE + 1)
    with pytest.raises(LimitError):
        m.after_armour(m.d10_sum(1), m.MAX_ARMOUR_DICE + 1)


def test_margins_past_the_table_are_reported_not_invented() -> None:
    r = calc("attack").run(combat="2", attack_score=30, defence_score=0, range="1")
    assert any("stops at 20" in n for n in r.notes)


# -- the other calculators ----------------------------------------------------------------
@pytest.mark.parametrize(("opponents", "need", "p"), [(1, "6-10", F(1, 2)), (2, "7-10", F(2, 5)),
                                                      (3, "8-10", F(3, 10)), (5, "10", F(1, 10)),
                                                      (6, "no roll", F(0))])
def test_break_away(opponents: int, need: str, p: Fraction) -> None:
    r = calc("break_away").run(opponents=opponents)
    assert r.value("Break away on") == need and r.value("P(break away)") == p


def test_initiative() -> None:
    r = calc("initiative").run(reflex=5, other_reflex=5)
    assert r.value("P(you first)") == F(45, 100) and r.value("P(tie)") == F(1, 10)
    assert calc("initiative").run(reflex=15, other_reflex=5).value("P(you first)") == 1
    rolled = calc("initiative").run(reflex=3, other_reflex=4, roll=True, seed=9)
    a, b = (d.value for d in rolled.dice)
    assert rolled.value("Your initiative") == a + 3
    assert rolled.value("Opponent's initiative") == b + 4


def test_entangle() -> None:
    r = calc("entangle").run(attacker_strength=10, target_strength=0)
    lost = {row.outcome: row.exactly for row in r.odds[1].rows}
    # Win by d = 10 + a - b; actions lost d // 5. P(lost >= 3) = P(a - b >= 5) = 15/100.
    assert sum(v for k, v in lost.items() if int(k) >= 3) == F(15, 100)
    assert r.value("P(attacker wins)") == 1  # 10 + a always beats 0 + b
    even = calc("entangle").run(attacker_strength=5, target_strength=5, choice="disarm")
    assert even.value("P(attacker wins)") == F(45, 100)


def test_attack_highlights_the_rows_it_used() -> None:
    r = calc("attack").run(combat="2", range="3", actions="2", called="1", attack_score=5)
    ids = m.table_ids()
    used = {(h.table, h.row) for h in r.highlight}
    assert (ids["range"], 3) in used and (ids["called"], 1) in used
    rows = m.TABLES["actions"].rows()
    assert any(t == ids["actions"] and rows[i][0] == "2" for t, i in used)
    assert m.TABLES["range"].rows()[3][0] == "Extreme"


def test_auto_fire_pipeline_matches_samples(chi2: Any) -> None:
    """Auto fire, rate 1-5, +1 weapon, one armour die: the calculator's exact damage (given a
    hit) against 10^5 seeded hits rolled step by step as the source describes."""
    r = calc("attack").run(combat="2", mode="auto5", attack_score=6, defence_score=5,
                           range="1", weapon_dice=1, armour_dice=1)
    exact = {row.outcome: row.exactly for row in
             next(o for o in r.odds if o.title == "Damage after armour (given a hit)").rows}
    rng = random.Random(5150)
    samples: list[str] = []
    while len(samples) < 100_000:
        margin = (rng.randint(1, 10) + 6) - (rng.randint(1, 10) + 5 - 2)  # defend at -2
        if margin <= 0:
            continue
        rounds = (rng.randint(1, 10) + 1) // 2  # half a die: 1-5
        n = m.success_dice(margin)[1] + 1 + 1 * (rounds - 1)
        total = sum(rng.randint(1, 10) for _ in range(n)) - rng.randint(1, 10)
        samples.append(str(max(0, total)))
    stat, df, critical = chi2(samples, exact)
    assert stat < critical, (stat, df, critical)


def test_which_skills_defend_each_type_of_combat() -> None:
    # source lines 11-15: the DEFENDING SKILL column and "*fighting may be used to defend
    # against armed fighting if defender has natural weapons."
    run = get("mecha.skills").run
    assert run(combat="0").value("Defending skills") == "Fighting, Armed Fighting, Dodge"
    assert run(combat="1").value("Defending skills") == "Armed Fighting, Dodge"
    assert run(combat="1", natural_weapons=True).value("Defending skills") == \
        "Fighting, Armed Fighting, Dodge"
    assert run(combat="2", natural_weapons=True).value("Defending skills") == "Dodge"
    assert run(combat="2").value("Attacking skill") == "Marksman or Support Weapons"


def test_suppressive_fire_cannot_be_aimed() -> None:
    """Issue #29 item 4: suppressive fire "aimed twice" was accepted. § Suppressive Fire
    (mecha…md:119): "Make a normal attack roll - although do not target anyone"; § Aiming
    (:92-93) gives its bonus to the next attack contest."""
    lines = (Path(__file__).parents[2] / "sources" / "mecha-d10-non-mecha-combat.md").read_text(
        "utf-8").splitlines()
    assert "do not target anyone" in lines[118] and "Two actions spent aiming" in lines[92]
    attack = get("mecha.attack")
    firefight = next(v for v, label in attack.inputs[0].choices if "irefight" in label)
    for aim in ("1", "2"):
        with pytest.raises(RulesError, match=r"^Actions spent aiming: suppressive fire cannot"):
            attack.run(combat=firefight, mode="suppressive", aim=aim)
    attack.run(combat=firefight, mode="suppressive")
    attack.run(combat=firefight, mode="single", aim="2")
