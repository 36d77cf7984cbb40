"""d100 status effects (Burning, Blood Loss, Crippled, Fatigue, Helpless), bad input, and
§ Scattering, § Decay, § Hallucinating (issue #10 item 6): known answers quoted from
sources/d100-combat-circumstances-and-status-effects.txt; tests, degrees, jams, range and
cover are in test_d100.py.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from rules_pkg import RulesError, get
from rules_pkg import d100 as d

# -- status effects -------------------------------------------------------------------------


def test_burning_grows_by_one_each_round() -> None:
    r = get("d100.burning").run(round=3)
    this, _total = r.odds
    assert [row.outcome for row in this.rows] == [str(v) for v in range(3, 13)]
    assert r.value("Mean total") == Fraction(3 * 11, 2) + 0 + 1 + 2
    assert get("d100.burning").run(round=2, horde=True).value("Mean total") == 11
    with pytest.raises(RulesError, match="at most 30"):
        get("d100.burning").run(round=31)


def test_blood_loss_hand_counted() -> None:
    # Toughness 1: pass only on 01, else 1d5 decay takes it to 0 → dead.
    assert get("d100.blood_loss").run(toughness=1, rounds=1).value("P(dead)") == Fraction(99, 100)
    states = d.blood_loss_chain(30, 0, 1, 5)
    assert states == {30: 30 * 5, 29: 70, 28: 70, 27: 70, 26: 70, 25: 70}
    r = get("d100.blood_loss").run(toughness=30, rounds=1, horde=True, magnitude=3)
    assert r.value("P(destroyed)") == Fraction(70, 100) * Fraction(3, 5)


def test_blood_loss_matches_sampling(chi2) -> None:  # type: ignore[no-untyped-def]
    exact = d.blood_loss_chain(12, 0, 4, 5)
    total = sum(exact.values())
    pmf = {t: Fraction(c, total) for t, c in exact.items()}
    rng = random.Random(4242)

    def one() -> int:
        t = 12
        for _ in range(4):
            if t <= 0:
                return 0
            if rng.randint(1, 100) > t:
                t = max(0, t - rng.randint(1, 5))
        return t

    stat, df, crit = chi2([one() for _ in range(100_000)], pmf)
    assert stat < crit, (stat, df, crit)


def test_crippled() -> None:
    r = get("d100.crippled").run(toughness=30, wounds=3)
    assert r.value("P(damage)") == Fraction(70, 100)
    assert r.value("P(Blood Loss)") == Fraction(70, 100) * Fraction(8, 10)
    h = get("d100.crippled").run(horde=True)
    assert h.value("Blood Loss") is True


def test_fatigue_collapse() -> None:
    assert d.fatigue_collapse(5, 6, 3).collapses is False
    c = d.fatigue_collapse(6, 6, 3)
    # 10 - TB = 7 minutes, +10 per point above TB+1 = 4: 2 points → 27
    assert (c.collapses, c.minutes, c.penalty, c.rest_hours) == (True, 27, -10, 6)
    assert d.fatigue_collapse(2, 2, 3).minutes == 7
    assert d.fatigue_collapse(0, 6, 3).penalty == 0


def test_helpless_damage_rolls_the_dice_twice() -> None:
    r = get("d100.helpless_damage").run(dice=1, sides=10, bonus=3)
    assert r.value("Mean") == 11 + 3  # 2d10 + 3, the modifier once
    (odds,) = r.odds
    assert odds.rows[0].outcome == "5" and odds.rows[0].exactly == Fraction(1, 100)
    with pytest.raises(RulesError, match="at most 10"):
        d.helpless_damage(dice=11)  # a Python caller is checked as the form is


# -- bad input ------------------------------------------------------------------------------


def test_bad_input_messages() -> None:
    with pytest.raises(RulesError, match=r"Weather penalty \(0 = none\) must be at least -30"):
        get("d100.test").run(weather=-40)
    with pytest.raises(RulesError, match="ranges from -10 to -30"):
        d.test(characteristic=40, kind="bs", weather=-5)
    with pytest.raises(RulesError, match="not one of the choices"):
        get("d100.test").run(kind="charisma")
    with pytest.raises(RulesError, match=r"unknown input.*sunny"):
        d.test(characteristic=40, kind="bs", sunny=True)
    with pytest.raises(RulesError, match="1 to 100"):
        d.degrees(40, 0)
    with pytest.raises(RulesError, match="Your roll"):
        get("d100.test").run(rolled=101)
    with pytest.raises(RulesError, match="'thrown' is not one of the choices"):
        d.cover(attack="thrown")


def test_degrees_of_success_are_named_as_a_standard_rule() -> None:
    for r in (get("d100.test").run(), get("d100.degrees").run()):
        assert any("Degrees of success are not in the sheet" in n for n in r.notes)


# -- § Scattering, § Decay, § Hallucinating (issue #10 item 6) ----------------------------------
def test_scatter_1d5_km_plus_dof_for_non_thrown_blast() -> None:
    # "moves ... by 1d5km. Non-thrown blast weapons instead move 1d5km, plus another km per
    # degree of failure."
    thrown = get("d100.scatter").run(thrown=True, dof=3)
    assert [row.outcome for row in thrown.odds[0].rows] == ["1", "2", "3", "4", "5"]
    blast = get("d100.scatter").run(thrown=False, dof=3)
    assert blast.value("Mean distance (km)") == 6
    rolled = get("d100.scatter").run(thrown=False, dof=3, roll=True, seed=8)
    direction, km = (d.value for d in rolled.dice)
    assert rolled.value("Distance (km)") == km + 3 and rolled.value("Direction (d10)") == direction


def test_decay_five_per_hour_of_rest() -> None:
    # "Remove 5 Decay per 1 hour of rest."
    r = get("d100.decay").run(decay=12, hours=2)
    assert (r.value("Decay left"), r.value("Hours to recover")) == (2, 3)


def test_hallucinating_lasts_1d10_rounds_and_hordes_are_stunned() -> None:
    r = get("d100.hallucinating").run()
    assert r.value("Mean rounds") == Fraction(11, 2) and "Hallucinogenic" in r.summary
    assert "Stunned" in get("d100.hallucinating").run(horde=True).summary


SHEET_LINES = (Path(__file__).parents[2] / "sources" /
               "d100-combat-circumstances-and-status-effects.txt").read_text("utf-8").splitlines()


@pytest.mark.parametrize(("inputs", "line", "words", "said"), [
    # d100:26 "Point Blank Ranged attacks at a distance of 1km take a bonus +30 bonus to hit"
    ({"kind": "ws", "range_band": "point_blank"}, 26, "Ranged attacks at a distance of 1km",
     "Point Blank ignored"),
    ({"kind": "parry", "range_band": "long"}, 28, "Ranged attacks at a distance exceeding",
     "Long Distance ignored"),
    # d100:48 Burning, Horde effect: "They also suffer a -20 penalty to Willpower tests"
    ({"kind": "willpower", "burning_horde": True}, 48, "-20 penalty to Willpower tests",
     "the tester is not a Horde"),
    ({"kind": "ws", "horde": True, "burning_horde": True}, 48, "-20 penalty to Willpower",
     "its -20 is to Willpower tests"),
    # d100:31 Pinning: "then this becomes a Willpower+30 test"
    ({"kind": "bs", "pinning_recovery": True}, 31, "this becomes a Willpower+30 test",
     "Recovering from Pinning ignored"),
    # d100:20 Guns in Melee: "Only pistols can be used in melee"
    ({"kind": "ws", "gun_in_melee": True}, 20, "Only pistols can be used in melee",
     "Firing a gun in melee ignored"),
])
def test_an_input_for_another_test_is_said_to_be_ignored(inputs: dict[str, object], line: int,
                                                         words: str, said: str) -> None:
    """Issue #29 item 4: inputs that name another test were dropped in silence."""
    assert words in SHEET_LINES[line - 1]
    r = get("d100.test").run(characteristic=50, **inputs)
    assert r.value("Target") == 50  # nothing applied
    assert sum(said in n and "ignored" in n for n in r.notes) == 1, r.notes


def test_inputs_that_apply_are_not_said_to_be_ignored() -> None:
    for inputs in ({"kind": "bs", "range_band": "point_blank"},
                   {"kind": "willpower", "horde": True, "burning_horde": True},
                   {"kind": "willpower", "pinning_recovery": True}):
        r = get("d100.test").run(characteristic=50, **inputs)
        assert r.value("Target") != 50 and not any("ignored" in n for n in r.notes)


def test_cover_by_hit_location() -> None:
    """Issue #29 item 3, d100:9: the defender names the shielded body parts ("Attacks
    against those body parts hit cover instead"); Hordes attacking Hordes in cover roll to
    hit, "bypassing cover if the result is a hit to the head or arms"."""
    for words in d.COVER_WORDS:
        assert words in SHEET_LINES[8], words
    run = get("d100.cover_location").run
    assert run(location="body").value("Hits the cover") is True
    assert run(location="head").value("Hits the cover") is False
    assert run(location="left_leg", legs=False).value("Hits the cover") is False
    # body 31-70 and legs 71-00 shielded (the standard table): 70 of 100
    assert run().value("P(hits the cover)") == Fraction(70, 100)
    assert run(head=True, arms=True).value("P(hits the cover)") == 1
    assert any("valid ranged attacks" in n for n in run(arms=True).notes)
    hordes = run(hordes=True, location="right_arm", arms=True)
    assert hordes.value("Hits the cover") is False
    assert run(hordes=True, location="body", body=False).value("Hits the cover") is True
