"""The d100 modifier matrix: each circumstance and status x each test kind, from the sheet.

Every non-empty cell below is a test that cites the source line (and checks the quoted words
are on it). Every other cell is checked empty: the modifier must not reach that test. A Parry
is a Weapon Skill test and a Dodge an Agility test, so what the sheet gives to "Weapon Skill
tests" or "Agility tests" reaches them too; what it gives to attacks "to hit" a target does not
(but it reaches a Grapple, a WS test to hit: line 36).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules_pkg import d100 as d

SOURCE = (Path(__file__).parents[2] / "sources" /
          "d100-combat-circumstances-and-status-effects.txt").read_text("utf-8").splitlines()
ALL = [k for k, _ in d.KINDS]
WS = ["ws", "parry", "grapple"]
AG = ["agility", "dodge"]
BASE = 50
# A grapple is a WS test to hit (issue #29): Prone gives it "a total of +20" (line 36), a
# to-hit bonus, so every modifier to WS attacks to hit a target reaches it as well.
HIT_WS = ["ws", "grapple"]
HIT = [*HIT_WS, "bs"]

# (inputs, test kinds, expected: a modifier, "fails" or "cannot"; source line, its words)
CELLS: list[tuple[dict[str, Any], list[str], int | str, int, str]] = [
    ({"flying": True}, ["bs"], -30, 6, "BS attacks against the character take a -30"),
    ({"running": True}, ["bs"], -20, 7, "BS attacks against the character take a -20"),
    ({"running": True}, HIT_WS, +20, 7, "WS attacks take a +20"),
    ({"armour_penalty": True}, ["stealth"], -30, 8, "-30 penalty to Stealth"),
    ({"dtv": 1}, [*WS, *AG, "charge_run"], -5, 12,
     "-5 penalty to Weapon Skill and Agility tests per point"),
    ({"higher_ground": True}, [*WS, "bs"], +10, 13, "This includes parry tests"),
    ({"fog": True}, ["bs"], -20, 14, "Ballistic skill tests against targets in fog"),
    ({"fog": True}, ["perception"], -20, 14, "Perception tests using sight also take a -20"),
    ({"fog": True}, ["concealment"], +10, 14, "Concealment tests within fog/smoke/shadow take"),
    ({"low_light": True}, [*WS, "bs"], -10, 15, "Weapon Skill and Ballistic Skill tests"),
    ({"low_light": True}, ["perception"], -10, 15, "Perception tests using sight also take a -10"),
    ({"low_light": True}, ["concealment"], +10, 15, "Concealment tests within Low Light"),
    ({"darkness": True}, WS, -20, 16, "Weapon Skill tests take a -20 penalty"),
    ({"darkness": True}, ["bs"], -30, 16, "Ballistic Skill tests take a -30 penalty"),
    ({"darkness": True}, ["perception"], -30, 16, "Perception tests using sight also take a -30"),
    ({"darkness": True}, ["concealment"], +20, 16, "Concealment tests within Darkness take a +20"),
    ({"weather": -20}, [*WS, "bs"], -20, 17, "WS and BS tests made during strong weather"),
    ({"ganging": "2"}, WS, +10, 19, "they gain a +10 bonus to WS tests"),
    ({"ganging": "3"}, WS, +20, 19, "3 to 1 or more, they gain +20 instead"),
    ({"shooting_into_melee": True}, ["bs"], -20, 21, "against targets in melee take a -20"),
    ({"gun_in_melee": True, "range_band": "point_blank"}, ["bs"], 0, 20,
     "they do not gain any bonuses due to range"),
    ({"gun_in_melee": True, "range_band": "long"}, ["bs"], -10, 20,
     "Only pistols can be used in melee"),
    ({"range_band": "point_blank"}, ["bs"], +30, 26, "take a bonus +30 bonus to hit"),
    ({"range_band": "short"}, ["bs"], +10, 27, "take a +10 bonus to hit"),
    ({"range_band": "long"}, ["bs"], -10, 28, "take a -10 penalty to hit"),
    ({"range_band": "extreme"}, ["bs"], -30, 29, "take a -30 penalty to hit"),
    ({"pinned": True}, ["bs"], -20, 31, "They suffer a -20 penalty to Ballistic Skill tests"),
    ({"dazed": True}, HIT, +10, 33, "Attack tests to hit a dazed target take a +10"),
    ({"fatigue": True}, ALL, -10, 34, "you take a -10 penalty to all tests"),
    ({"helpless": True}, ["bs"], +20, 35, "BS tests instead gain a +20 bonus"),
    ({"prone_target": True}, ["ws"], +10, 36, "to hit a prone target take a +10 bonus"),
    ({"prone_target": True}, ["grapple"], +20, 36, "grapple tests gain a total of +20"),
    ({"prone_target": True}, ["bs"], -10, 36, "Ballistic Skill tests instead take a -10"),
    ({"prone_self": True}, WS, -10, 36, "-10 penalty to Weapon Skill tests (including Parry)"),
    ({"prone_self": True}, AG, -20, 36, "a -20 penalty to agility tests"),
    ({"size": 5}, HIT, +10, 37, "for every category above 4, attacks to hit them"),
    ({"size": 3}, HIT, -10, 37, "For every category below 4, attacks to hit them"),
    ({"stunned": True}, HIT, +20, 38, "to hit a stunned target take a +20"),
    ({"unaware": True}, HIT, +30, 39, "Attacks against an Unaware target take a +30"),
    ({"unaware_self": True}, ["parry", "dodge"], "cannot", 39, "such as dodge or parry"),
    ({"blind": True}, ["bs"], "fails", 47, "Auto-fail BS tests"),
    ({"blind": True}, WS + AG, -30, 47, "You take -30 to Weapon Skill or Agility tests"),
    ({"blind": True}, ["perception"], "fails", 47, "You automatically fail Perception tests"),
    ({"blind": True}, ["charge_run"], -10, 47,
     "charge, run or boosted jump you must test Agility-10"),
    ({"deaf": True}, ["hearing_alone"], "fails", 51, "auto-fail any test that relies on hearing"),
    ({"deaf": True}, ["hearing"], -30, 51, "in combination with something else it takes a -30"),
    ({"frenzy": True}, ["ws", "grapple", "willpower"], +10, 54, "You gain a +10 to WS and WP"),
    ({"frenzy": True}, ["parry", "dodge"], "cannot", 54, "cannot parry, dodge"),
    ({"helpless_self": True}, ["ws", "bs", "grapple", "parry", "dodge"], "cannot", 56,
     "You cannot act"),
    ({"immobilised": True}, ["parry"], -20, 57, "You take a -20 penalty to parries"),
    ({"immobilised": True}, ["dodge"], "fails", 57, "automatically fail any dodge attempts"),
    ({"stunned_self": True}, ["ws", "bs", "grapple", "parry", "dodge"], "cannot", 59,
     "You cannot take any actions"),
]
# A WS test against a Helpless target succeeds without a roll (line 35): another test.
SPECIAL = {("helpless", "ws"), ("helpless", "grapple")}


def answer(inputs: dict[str, Any], kind: str) -> int | str:
    r = d.test(characteristic=BASE, kind=kind, **inputs)
    result = dict((n, v) for n, v, _ in r.values)
    if "Target" not in result:
        assert "P(success)" not in result and not r.odds, "a barred test shows no percentage"
        return {"automatic failure": "fails", "not allowed": "cannot"}[result["Result"]]
    return int(result["Target"]) - BASE


@pytest.mark.parametrize(("inputs", "kinds", "expected", "line", "words"), CELLS,
                         ids=[f"line{c[3]}-{next(iter(c[0]))}-{c[2]}" for c in CELLS])
def test_cell(inputs: dict[str, Any], kinds: list[str], expected: int | str, line: int,
              words: str) -> None:
    assert words.lower() in SOURCE[line - 1].lower(), f"line {line} no longer says {words!r}"
    for kind in kinds:
        assert answer(inputs, kind) == expected, f"{inputs} on a {kind} test"


def test_every_other_cell_is_empty() -> None:
    inputs_of = {}
    for inputs, _, _, _, _ in CELLS:
        inputs_of[tuple(sorted(inputs.items()))] = inputs
    for key, inputs in inputs_of.items():
        filled = {k for c in CELLS if tuple(sorted(c[0].items())) == key for k in c[1]}
        for kind in set(ALL) - filled:
            if (next(iter(inputs)), kind) in SPECIAL:
                continue
            assert answer(inputs, kind) == 0, f"{inputs} reaches a {kind} test"


def test_the_matrix_covers_every_status_input() -> None:
    statuses = {i.name for i in d.test.calculator.inputs if i.kind == "bool"}
    covered = {k for c in CELLS for k in c[0]}
    untested = statuses - covered - {"horde", "hard_target", "pinning_recovery",
                                     "burning_horde"}
    assert "gun_in_melee" in covered
    assert not untested, f"status inputs with no cell: {sorted(untested)}"


def test_a_grapple_is_a_ws_test_to_hit() -> None:
    """Issue #29 item 1, characteristic 50: Running +20 (line 7), Dazed +10 (33), Size -10 a
    category (37), Stunned +20 (38), Unaware +30 (39) reach a grapple as Prone's "total of
    +20" (36) does, and the answer says why, citing Prone."""
    assert "grapple tests gain a total of +20" in SOURCE[35]
    for inputs, target in (({"running": True}, 70), ({"dazed": True}, 60), ({"size": 3}, 40),
                           ({"stunned": True}, 70), ({"unaware": True}, 80),
                           ({"running": True, "hard_target": True}, 50)):
        r = d.test(characteristic=BASE, kind="grapple", **inputs)
        assert r.value("Target") == target, inputs
        assert any("total of +20" in n and "to hit" in n for n in r.notes), inputs
    # line 35: "Weapon Skill tests to hit a helpless ... target automatically succeed,
    # gaining a number of DoS equal to your WSB"
    r = d.test(characteristic=BASE, kind="grapple", helpless=True)
    assert r.value("P(success)") == 1
    assert [o.outcome for o in r.odds[0].rows] == ["5 DoS"]
    assert not any("to hit" in n for n in d.test(characteristic=BASE, kind="grapple").notes)
