"""The mecha game (non-mecha combat): the odds that an attack takes this target out (#28).

Out of the fight: Vitality 0 on the tracker's vitality wound scale (§ 5 Check Wounds gives
no scale; the tracker's sheet sizes it). One attack is the attack calculator's own answer
for this target: the contest (its "P(attack succeeds)") and, on a hit, the damage after the
target's own armour dice ("Damage after armour (given a hit)": d10s less the armour roll);
that lands through the tracker's own hit rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice import Distribution
from ..takeout import Blow, Plan, Typical, Way, calc_run, odds_table, tracker_hit, validated

GAME = "mecha"
DOC = "mecha-d10-non-mecha-combat.md"
OUT_RULE = (f"Vitality 0: out of the fight ({DOC} § 5 Check Wounds; the scale's size is "
            "the tracker's, not in the source)")


def _out(c: Any) -> bool:
    return bool(c.value("vitality") == 0)


def _lost(before: Any, after: Any) -> int:
    return int(before.value("vitality") - after.value("vitality"))


def _wear(c: Any) -> tuple[tuple[str, int], ...]:
    return ()


def attack(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    armour = target.value("armour_dice") if target is not None else 0
    v = validated("mecha.attack", {**inputs, "armour_dice": armour})
    r = calc_run("mecha.attack", v)
    margin = odds_table(r, "Margin of success (0 = the attack fails)")
    p_hit = margin.p(lambda m: m > 0)
    if "Damage after armour (given a hit)" in {o.title for o in r.odds}:
        # the target's armour dice never change: the calculator takes them off each hit
        after = odds_table(r, "Damage after armour (given a hit)")
        counts: dict[Any, int] = {(Blow(d, bypass=True) if d else None): c * p_hit.numerator
                                  for d, c in after}
        counts[None] = counts.get(None, 0) + after.total * (p_hit.denominator - p_hit.numerator)
        blows: Distribution[Any] = Distribution.from_counts(counts)
    else:
        blows = Distribution.constant(None)
    land = tracker_hit(GAME)
    return Plan(((Fraction(1), blows),), lambda c, b: Distribution.constant(land(c, b)),
                _out, _lost, _wear, OUT_RULE, "Vitality lost", p_hit=p_hit, notes=
                ("The target's armour roll is the calculator's, with the target's own armour "
                 "dice; hits past the Success Based Damage table count as the table's hits.",
                 "A hit the armour stops entirely does no harm."))


ATTACKS = {"mecha.attack": Way(attack, sheet_fills=("armour_dice",))}


TYPICAL = (
    Typical("Skill 6 vs 5, +1 weapon", "mecha.attack", (),
            "Vitality 20, no armour", (("vitality", 20),)),
    Typical("Skill 6 vs 5, +1 weapon", "mecha.attack", (),
            "Vitality 20, 2 armour dice", (("vitality", 20), ("armour_dice", 2))),
    Typical("Skill 8 vs 5, +2 weapon", "mecha.attack", (("attack_score", 8), ("weapon_dice", 2)),
            "Vitality 20, 2 armour dice", (("vitality", 20), ("armour_dice", 2))),
)
