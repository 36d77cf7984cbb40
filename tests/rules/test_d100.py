"""d100 rules: known answers from the sheet, hand-counted odds, seeded sampling, bad input."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_pkg import RulesError, data, get
from rules_pkg import d100 as d

# -- the modifier parser (rules_pkg.data, the one reader) --------------------------------


def test_signed_numbers_reads_penalties_and_bonuses() -> None:
    text = "take a -30 penalty, whilst WS attacks take a +20 bonus"
    assert data.signed_numbers(text) == [-30, 20]
    assert data.signed_numbers("a Ballistic Skill+20 test, +10 for Mastery") == [20, 10]
    assert data.signed_numbers("Hordes gain +1 Dos instead.") == [1]
    # minus sign, en dash
    assert data.signed_numbers("a \u221230 penalty and \u201310") == [-30, -10]
    # unsigned numbers are not modifiers
    assert data.signed_numbers("AP of 8 or over; 96 or higher") == []


def test_number_after_picks_the_number_after_its_anchor() -> None:
    text = "Weapon Skill tests take a -20 penalty; Ballistic Skill tests take a -30 penalty."
    assert data.number_after(text, "Weapon Skill tests take a") == -20
    assert data.number_after(text, "Ballistic Skill tests take a") == -30
    assert data.number_after("range from -10 to -30", "range from", 1) == -30
    with pytest.raises(RulesError, match="not found"):
        data.number_after(text, "Perception")
    with pytest.raises(RulesError, match="no modifier after"):
        data.number_after("take a penalty", "take a")


# -- modifiers read from the extracted rows -------------------------------------------------


@pytest.mark.parametrize(
    ("key", "kind", "value", "table", "row"),
    [
        ("flying", "bs", -30, "combat-circumstances", 0),
        ("running", "bs", -20, "combat-circumstances", 1),
        ("running", "ws", 20, "combat-circumstances", 1),
        ("armour_penalty", "stealth", -30, "combat-circumstances", 2),
        ("higher_ground", "parry", 10, "combat-circumstances", 7),
        ("fog", "bs", -20, "combat-circumstances", 8),
        ("fog", "concealment", 10, "combat-circumstances", 8),
        ("low_light", "ws", -10, "combat-circumstances", 9),
        ("darkness", "ws", -20, "combat-circumstances", 10),
        ("darkness", "bs", -30, "combat-circumstances", 10),
        ("darkness", "perception", -30, "combat-circumstances", 10),
        ("darkness", "concealment", 20, "combat-circumstances", 10),
        ("shooting_into_melee", "bs", -20, "combat-circumstances", 15),
        ("pinned", "bs", -20, "ranged-attack-distance", 5),
        ("pinning_recovery", "willpower", 30, "ranged-attack-distance", 5),
        ("dazed", "ws", 10, "status-modifiers", 0),
        ("fatigue", "toughness", -10, "status-modifiers", 1),
        ("prone_target", "grapple", 20, "status-modifiers", 3),
        ("prone_target", "bs", -10, "status-modifiers", 3),
        ("prone_self", "agility", -20, "status-modifiers", 3),
        ("stunned", "bs", 20, "status-modifiers", 5),
        ("unaware", "ws", 30, "status-modifiers", 6),
        ("blind", "ws", -30, "status-effects", 1),
        ("deaf", "hearing", -30, "status-effects", 5),
        ("frenzy", "willpower", 10, "status-effects", 8),
        ("immobilised", "parry", -20, "status-effects", 11),
    ],
)
def test_modifiers_come_from_their_rows(
    key: str, kind: str, value: int, table: str, row: int
) -> None:
    m = d.modifiers()[key]
    assert m.value(kind) == value
    assert (m.row.table, m.row.index) == (table, row)


def test_range_and_scaled_modifiers() -> None:
    rm = d.range_modifiers()
    assert [(rm[b].value("bs"), rm[b].horde_dos) for b in d.RANGE_BANDS] == [
        (30, 3), (10, 1), (-10, None), (-30, None)]
    assert d.modifiers()["higher_ground"].horde_dos == 1
    assert d.scaled()["dtv"].per_point == -5
    size = d.scaled()["size"]
    assert (size.baseline, size.below, size.above) == (4, -10, 10)
    assert d.weather_range() == (-30, -10)
    assert d.ganging_up() == {"2": 10, "3": 20}
    assert d.hard_target() == -40


def test_the_two_helpless_rows_disagree_and_only_they_do() -> None:
    # Status Modifiers says BS +20, Status Effects says +30: reported, not "fixed".
    assert d.helpless_bs()["modifiers"][1] == 20
    assert d.helpless_bs()["effects"][1] == 30
    assert d.cross_check() == ["Helpless BS: +20 in Status Modifiers, +30 in Status Effects"]


# -- degrees of success ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "rolled", "degrees"),
    [(45, 45, 1), (45, 12, 4), (45, 1, 5), (45, 46, -1), (45, 50, -2), (45, 96, -6),
     (45, 100, -7), (105, 5, 11), (0, 1, -1), (-20, 55, -6)],
)
def test_degrees_by_tens_digits(target: int, rolled: int, degrees: int) -> None:
    assert d.degrees(target, rolled) == degrees


def test_degrees_clamp_the_target_the_same_way_both_sides() -> None:
    # issue #29 item 4: -200 against 100 gave 11 DoF but 200 against 01 gave 21 DoS; the
    # target's tens digit is now the die's own 0-10 both ways, and the answer says so
    assert d.degrees(-200, 100) == -11 and d.degrees(200, 1) == 11
    assert d.degrees(150, 1) == d.degrees(100, 1) == 11
    assert d.degrees(-50, 100) == d.degrees(0, 100) == -11
    r = get("d100.degrees").run(target=200, rolled=1)
    assert r.value("Degrees") == 11 and "above 100 as 100" in r.notes[-1]
    assert not any("above 100" in n for n in get("d100.degrees").run(target=55).notes)


@given(st.integers(d.MIN_TARGET, d.MAX_TARGET), st.integers(1, 100))
def test_degrees_are_those_of_the_target_clamped_to_the_die(target: int, rolled: int) -> None:
    """Any target counts as the die's 0-100 would: at most 11 DoS and at most 11 DoF."""
    clamped = min(max(target, 0), 100)
    assert d.degrees(target, rolled) == d.degrees(clamped, rolled)
    assert -11 <= d.degrees(target, rolled) <= 11


def test_hand_counted_distribution_for_target_15() -> None:
    # rolls 01-09: 2 DoS (9 ways); 10-15: 1 DoS (6); 16-19: 1 DoF (4); 20-29: 2 DoF (10) …
    # 90-99: 9 DoF (10); 100: 10 DoF (1).
    counts = d.test_distribution(15).counts()
    expected = {2: 9, 1: 6, -1: 4, **{-k: 10 for k in range(2, 10)}, -10: 1}
    assert counts == expected


def test_ballistic_test_jams_on_96_plus() -> None:
    r = get("d100.test").run(characteristic=50, kind="bs")
    assert r.value("P(success)") == Fraction(50, 100)
    assert r.value("P(jam)") == Fraction(5, 100)
    # a target of 100+ still cannot succeed on 96-100: those rolls jam
    r = get("d100.test").run(characteristic=100, kind="bs", unaware=True)
    assert r.value("Target") == 130
    assert r.value("P(success)") == Fraction(95, 100)
    # Weapon Skill tests do not jam
    r = get("d100.test").run(characteristic=100, kind="ws", unaware=True)
    assert r.value("P(success)") == 1


def test_odds_of_each_degree_are_exact_and_cumulative() -> None:
    r = get("d100.test").run(characteristic=15, kind="ws")
    (odds,) = r.odds
    rows = {row.outcome: row for row in odds.rows}
    assert rows["2 DoS"].exactly == Fraction(9, 100)
    assert rows["1 DoS"].at_least == Fraction(15, 100)
    assert rows["10 DoF"].exactly == Fraction(1, 100)
    assert rows["1 DoF"].at_least == Fraction(85, 100)
    assert sum(row.exactly for row in odds.rows) == 1


def test_stacking_is_shown_line_by_line() -> None:
    r = get("d100.test").run(characteristic=40, kind="bs", darkness=True, prone_target=True,
                             range_band="short", size=6)
    assert r.value("Target") == 40 - 30 - 10 + 10 + 20
    assert "Darkness: -30 → 10" in r.steps
    assert "Prone: -10 → 0" in r.steps
    assert "Short Distance: +10 → 10" in r.steps
    assert "Size 6: +10 \u00d7 2 categories from 4 = +20 → 30" in r.steps
    tables = {(h.table, h.row) for h in r.highlight}
    assert ("combat-circumstances", 10) in tables and ("status-modifiers", 4) in tables
    assert ("combat-circumstances", 17) in tables  # Weapon Jams


def test_modifiers_only_apply_to_their_tests() -> None:
    run = get("d100.test").run
    assert run(characteristic=40, kind="ws", flying=True).value("Target") == 40
    assert run(characteristic=40, kind="stealth", armour_penalty=True).value("Target") == 10
    assert run(characteristic=40, kind="perception", fog=True).value("Target") == 20
    assert run(characteristic=40, kind="concealment", darkness=True).value("Target") == 60
    assert run(characteristic=40, kind="willpower", fatigue=True).value("Target") == 30
    assert run(characteristic=40, kind="ws", dtv=2).value("Target") == 30
    assert run(characteristic=40, kind="bs", dtv=2).value("Target") == 40
    assert run(characteristic=40, kind="bs", size=2).value("Target") == 20
    assert run(characteristic=40, kind="ws", ganging="3").value("Target") == 60
    assert run(characteristic=40, kind="bs", weather=-20).value("Target") == 20


def test_special_cases_in_the_rows() -> None:
    run = get("d100.test").run
    # Shooting into Melee is ignored if the target is stunned (the +20 still applies)
    assert run(characteristic=40, kind="bs", shooting_into_melee=True, stunned=True).value(
        "Target") == 60
    # Prone target: no BS penalty at Point Blank (+30)
    assert run(characteristic=40, kind="bs", prone_target=True, range_band="point_blank").value(
        "Target") == 70
    # Running + Hard Target: -40 for BS and flat for WS
    assert run(characteristic=40, kind="bs", running=True, hard_target=True).value("Target") == 0
    assert run(characteristic=40, kind="ws", running=True, hard_target=True).value("Target") == 40
    # Helpless BS from either row
    assert run(characteristic=40, kind="bs", helpless=True).value("Target") == 60
    assert run(characteristic=40, kind="bs", helpless=True, helpless_rule="effects").value(
        "Target") == 70


def test_automatic_results() -> None:
    run = get("d100.test").run
    helpless = run(characteristic=45, kind="ws", helpless=True)
    assert helpless.value("P(success)") == 1
    assert [(row.outcome, row.exactly) for row in helpless.odds[0].rows] == [("4 DoS", 1)]
    six = run(characteristic=45, kind="ws", helpless=True, wsb=6)
    assert six.odds[0].rows[0].outcome == "6 DoS"
    # "Auto-fail BS tests", "automatically fail any dodge attempts": no roll, no percentage
    for blind in (run(characteristic=90, kind="bs", blind=True),
                  run(characteristic=90, kind="dodge", immobilised=True)):
        assert blind.value("Result") == "automatic failure" and not blind.odds
        assert "no roll" in blind.summary and "%" not in blind.summary


def test_horde_dos_instead_of_modifiers() -> None:
    run = get("d100.test").run
    r = run(characteristic=40, kind="bs", horde=True, higher_ground=True, range_band="point_blank")
    assert r.value("Target") == 40
    # every success gains +1 +3 DoS; 96+ just misses
    (odds,) = r.odds
    rows = {row.outcome: row.exactly for row in odds.rows}
    # target 40: 01-09 are 5 DoS, 10-19 4, 20-29 3, 30-39 2, 40 is 1; each +4 for the Horde
    assert rows["9 DoS"] == Fraction(9, 100)
    assert rows["6 DoS"] == Fraction(10, 100)
    assert rows["5 DoS"] == Fraction(1, 100)
    assert rows["miss on 96+ (Hordes do not jam)"] == Fraction(5, 100)
    ganging = run(characteristic=40, kind="ws", horde=True, ganging="2", running=True)
    assert ganging.value("Target") == 60  # Running's +20 only
    assert "Ganging Up (Hordes): Hordes do not gain Ganging Up Bonuses." in ganging.notes
    assert any(n.startswith("Running (Hordes): As normal, but Hordes only trigger")
               for n in ganging.notes)


def test_rolled_result_and_seeded_roll() -> None:
    r = get("d100.test").run(characteristic=45, kind="ws", rolled=12)
    assert r.value("Result") == "4 DoS"
    r1 = get("d100.test").run(characteristic=45, kind="bs", roll=True, seed=7)
    r2 = get("d100.test").run(characteristic=45, kind="bs", roll=True, seed=7)
    assert r1.dice == r2.dice and len(r1.dice) == 1


def test_d100_test_odds_match_sampling(chi2) -> None:  # type: ignore[no-untyped-def]
    """10^5 seeded rolls, scored by an independent reading of the rules, against the odds."""
    (odds,) = d.test(characteristic=47, kind="bs", darkness=True).odds  # target 17
    rng = random.Random(20261122)

    def one() -> str:
        r = rng.randint(1, 100)
        if r >= 96:
            return "jam (automatic miss)"
        if r <= 17:
            return f"{1 + 1 - r // 10} DoS"
        return f"{1 + r // 10 - 1} DoF"

    pmf = {r.outcome: r.exactly for r in odds.rows}
    stat, df, crit = chi2([one() for _ in range(100_000)], pmf)
    assert stat < crit, (stat, df, crit)


def test_d100_test_rolls_through_the_calculator(chi2) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    samples = [d.test(characteristic=62, kind="ws", rng=rng).value("Result") for _ in range(5000)]
    (odds,) = d.test(characteristic=62, kind="ws").odds
    stat, df, crit = chi2(samples, {r.outcome: r.exactly for r in odds.rows})
    assert stat < crit, (stat, df, crit)


# -- jams -----------------------------------------------------------------------------------


def test_clearing_a_jam() -> None:
    run = get("d100.jam_clear").run
    assert run(bs=40).value("Target") == 60
    assert run(bs=40, specialised=True, mastery=True).value("Target") == 80
    assert run(bs=40, proficient=False).value("Target") == 20
    assert run(bs=40, fatigue=True).value("Target") == 50
    assert run(bs=40).value("P(cleared)") == Fraction(60, 100)
    with pytest.raises(RulesError, match="imply proficiency"):
        run(bs=40, proficient=False, mastery=True)


def test_missile_and_grenade_jams() -> None:
    r = get("d100.missile_jam").run()
    assert r.value("P(dud)") == Fraction(9, 10)
    assert r.value("P(explodes)") == Fraction(1, 10)
    assert r.value("P(explodes per attack)") == Fraction(1, 200)
    assert get("d100.missile_jam").run(horde=True).value("P(explodes)") == 0


# -- range bands ----------------------------------------------------------------------------


def test_quick_reference_as_written() -> None:
    qr = d.quick_reference()
    assert qr["assault"] == {"short": None, "extreme": 2, "maximum": 3}
    assert qr["very_long"] == {"short": 8, "extreme": 23, "maximum": 45}


@pytest.mark.parametrize("cls", [c for c, _ in d.WEAPON_CLASSES])
def test_the_rules_reproduce_every_quick_reference_figure(cls: str) -> None:
    """Short = half the Range rounded up, Extreme = 1.5x rounded up, Maximum = 3x."""
    rv = d.class_range(cls)
    qr = d.quick_reference()[cls]
    assert qr["maximum"] == 3 * rv
    assert qr["extreme"] == math.ceil(1.5 * rv)
    if qr["short"] is None:  # "n/a for Assault Weapons": its half-range is Point Blank
        assert math.ceil(rv / 2) <= d.point_blank()
    else:
        assert qr["short"] == math.ceil(rv / 2)
        assert d.range_band(qr["short"], rv) == "short"
        assert d.range_band(qr["short"] + 1, rv) in ("normal", "long")
    assert d.range_band(qr["extreme"], rv) == "extreme"
    assert d.range_band(qr["maximum"], rv) == "extreme"
    assert d.range_band(qr["maximum"] + 1, rv) == "out_of_range"


@pytest.mark.parametrize(
    ("distance", "band"),
    [(1, "point_blank"), (3, "short"), (4, "normal"), (6, "normal"), (7, "long"),
     (8, "long"), (9, "extreme"), (18, "extreme"), (19, "out_of_range")],
)
def test_medium_weapon_bands(distance: int, band: str) -> None:
    assert d.range_band(distance, d.class_range("medium")) == band


def test_range_calculator() -> None:
    r = get("d100.range").run(distance=3, weapon_class="medium")
    assert (r.value("Band"), r.value("Modifier")) == ("Short Distance", 10)
    assert r.highlight[0].table == "ranged-attack-distance" and r.highlight[0].row == 1
    r = get("d100.range").run(distance=1, weapon_class="close", horde=True)
    assert r.value("Horde DoS") == 3
    assert get("d100.range").run(distance=50, weapon_class="long").value("Band") == "out of range"
    assert get("d100.range").run(distance=13, weapon_range=10).value("Band") == "Long Distance"


# -- cover ----------------------------------------------------------------------------------


def test_the_sheets_cover_examples() -> None:
    # "a weapon with Pen 3, Acid 2 and Blast 1 will deplete Cover by 6"
    assert d.ranged_depletion(pen=3, blast=1, acid=2) == 6
    # "a Pen 3 weapon wielded by an SB 4 character with a charge of 2 DoS will deplete Cover by 8"
    assert d.melee_depletion(pen=3, sb=4, charge=True, dos=2) == 8
    assert d.melee_depletion(pen=3, sb=4, charge=False, dos=2) == 7
    assert d.melee_depletion(pen=3, sb=4, charge=True, dos=5) == 9


def test_cover_depletes_only_when_damage_exceeds_it() -> None:
    run = get("d100.cover").run
    r = run(attack="ranged", damage=12, cover_ap=8, pen=3, blast=1, acid=2)
    assert (r.value("Damage to the character"), r.value("Cover AP after")) == (4, 2)
    r = run(attack="ranged", damage=8, cover_ap=8, pen=3, blast=1, acid=2)
    assert (r.value("Damage to the character"), r.value("Cover AP after")) == (0, 8)
    r = run(attack="melee", damage=15, cover_ap=10, pen=3, sb=4, charge=True, dos=2)
    assert (r.value("Depletion"), r.value("Cover AP after")) == (8, 2)
    r = run(attack="melee", damage=15, cover_ap=5, pen=3, sb=4, charge=True, dos=2)
    assert r.value("Cover AP after") == 0
