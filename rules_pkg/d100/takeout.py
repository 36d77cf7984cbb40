"""The d100 game: the odds that an attack takes this target's last Wound (issue #28).

Out of the fight: Wounds 0 (a horde: Magnitude 0), the tracker's reading of § Status
Effects. The hit is the test calculator's own P(success) (the characteristic with every
circumstance and status that applies, jams included); the weapon's damage dice are not in
the source, so they are asked; each hit lands through the tracker's own hit rule (damage
minus AP and Toughness Bonus comes off Wounds).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice import Distribution, dice_sum
from ..registry import Input
from ..takeout import Blow, Plan, Typical, Way, calc_run, tracker_hit, validated, value_of

GAME = "d100"
DOC = "d100-combat-circumstances-and-status-effects.txt"
OUT_RULE = f"Wounds 0 (a horde: Magnitude 0), as the tracker reads {DOC} § Status Effects"
DAMAGE = (
    Input("damage_dice", "Weapon damage dice", "int", 1, 1, 10,
          help="the weapon's damage is not in the source"),
    Input("damage_sides", "Sides of each die", "int", 10, 2, 20),
    Input("damage_bonus", "Damage bonus", "int", 3, -10, 30),
)


def _pool(c: Any) -> str:
    return "magnitude" if c.kind == "horde" else "wounds"


def _out(c: Any) -> bool:
    return bool(c.value(_pool(c)) == 0)


def _lost(before: Any, after: Any) -> int:
    return int(before.value(_pool(before)) - after.value(_pool(after)))


def _wear(c: Any) -> tuple[tuple[str, int], ...]:
    return (("Armour (AP)", c.value("ap")),)


def damage(v: Mapping[str, Any]) -> Distribution[int]:
    """The weapon's dice plus its bonus (no less than 0)."""
    bonus: int = v["damage_bonus"]
    return dice_sum(v["damage_sides"], v["damage_dice"]).map(lambda d: max(0, d + bonus))


def attack(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    v = validated("d100.test", inputs, DAMAGE)
    test = {k: x for k, x in v.items() if k not in {i.name for i in DAMAGE}}
    p = value_of(calc_run("d100.test", test), "P(success)")
    if not isinstance(p, Fraction):  # a test the statuses bar (e.g. Blind and BS): no hit
        p = Fraction(0)
    dmg = damage(v)
    total = dmg.total
    counts: dict[Any, int] = {Blow(d): c * p.numerator for d, c in dmg}
    counts[None] = total * (p.denominator - p.numerator)
    land = tracker_hit(GAME)
    return Plan(((Fraction(1), Distribution.from_counts(counts)),),
                lambda c, b: Distribution.constant(land(c, b)), _out, _lost, _wear,
                OUT_RULE, "Wounds lost",
                ("The weapon's damage dice are not in the source: enter them.",
                 "Righteous Fury and the Helpless target's doubled dice are not worked in."))


ATTACKS = {"d100.test": Way(attack, DAMAGE)}


TYPICAL = (
    Typical("BS 40, 1d10+3", "d100.test", (("characteristic", 40),),
            "12 Wounds, AP 0, TB 3", (("wounds", 12), ("ap", 0), ("tb", 3))),
    Typical("BS 40, 1d10+3", "d100.test", (("characteristic", 40),),
            "12 Wounds, AP 4, TB 3", (("wounds", 12), ("ap", 4), ("tb", 3))),
    Typical("WS 50, 2d10+4", "d100.test",
            (("characteristic", 50), ("kind", "ws"), ("damage_dice", 2), ("damage_bonus", 4)),
            "12 Wounds, AP 4, TB 3", (("wounds", 12), ("ap", 4), ("tb", 3))),
)
