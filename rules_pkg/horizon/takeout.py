"""Horizon: Out of the Ashes: the odds that a turn's Attacks take this target out (#28).

The combat chapter gives no health track (the tracker tallies the damage taken), so what
takes a target out is the Director's number, asked and said to be so. The AP score is the
combat test's own distribution (rolled once for the round: every Attack of the turn uses
it), or the attacker's score already rolled; each Attack's damage is the attack
calculator's own answer for that score (its weapon profile row, Point Blank, Aim), and it
lands through the tracker's own hit rule (Defense negates it unless the Attack ignores it).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice import Distribution
from ..registry import Input
from ..takeout import (
    Blow,
    Plan,
    Typical,
    Way,
    calc_run,
    extras,
    odds_table,
    tracker_hit,
    validated,
    value_of,
)

GAME = "horizon"
DOC = "horizon-out-of-the-ashes-combat.txt"
EXTRA = (
    Input("score", "AP score already rolled (0 = roll the combat test)", "int", 0, 0, 99,
          help="the attacker's combat test this round"),
    Input("out_at", "Damage that takes the target out", "int", 20, 1, 999,
          help="not in the source: the combat chapter has no health track"),
)
TEST = ("weapon", "skill", "acuity", "agility", "strength", "surprise")


def _lost(before: Any, after: Any) -> int:
    return int(after.value("damage") - before.value("damage"))


def _wear(c: Any) -> tuple[tuple[str, int], ...]:
    return (("Defense left", c.value("defense")),)


def attack(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    test = validated("horizon.combat_test", {k: x for k, x in inputs.items() if k in TEST})
    extra = extras(inputs, EXTRA)
    aim = validated("horizon.attack", {k: x for k, x in inputs.items()
                                       if k in ("weapon", "mode", "aim")} | {"attacks": 1})
    score = extra["score"] or (attacker.value("ap") if attacker is not None else 0)
    scores: Distribution[int] = (Distribution.constant(score) if score else
                                 odds_table(calc_run("horizon.combat_test", test), "AP score"))
    turns = []
    total = scores.total
    for s, c in scores:
        r = calc_run("horizon.attack", {**aim, "ap": s, "targets": 1})
        names = {v[0] for v in r.values}
        dmg = int(value_of(r, "Damage per Attack")) if "Damage per Attack" in names else 0
        blow = Blow(dmg, bypass=bool(value_of(r, "Ignores Defense"))) if dmg > 0 else None
        turns.append((Fraction(c, total), Distribution.constant(blow)))
    out_at = extra["out_at"]
    land = tracker_hit(GAME)
    return Plan(tuple(turns), lambda c, b: Distribution.constant(land(c, b)),
                lambda c: bool(c.value("damage") >= out_at), _lost, _wear,
                f"Damage taken reaches {out_at}: the Director's number, not in the source "
                f"({DOC} has no health track)", "Damage taken",
                ("One combat test for the round: every Attack of the turn uses its AP score.",))


ATTACKS = {"horizon.attack": Way(attack, EXTRA, attacks=2, sheet_fills=("ap",))}


TYPICAL = (
    Typical("Light Combat Pistol: 3 dice + ACU 3", "horizon.attack",
            (("skill", 3), ("acuity", 3), ("out_at", 20)),
            "Defense 0, out at 20", (("defense", 0),)),
    Typical("Light Combat Pistol: 3 dice + ACU 3", "horizon.attack",
            (("skill", 3), ("acuity", 3), ("out_at", 20)),
            "Defense 10, out at 20", (("defense", 10),)),
    Typical("Light Combat Pistol, Point Blank: 3 dice + ACU 3", "horizon.attack",
            (("skill", 3), ("acuity", 3), ("mode", "point_blank"), ("out_at", 20)),
            "Defense 10, out at 20", (("defense", 10),)),
)
