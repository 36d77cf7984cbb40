"""Forbidden Lands: the odds that an attack Breaks this target (issue #28).

Out of the fight: Strength at zero, Broken (Combat Order § Apply Damage, "If an attribute
reaches zero"). One attack is the attack calculator's own answer (its "Damage before
armour": the attack, the target's reaction, the weapon's damage), worked out against no
armour; the target's own armour save is then rolled exactly as the armour calculator rolls
it (`attack.armour_result` over its gear dice), lowering the rating armour first, then
helmet (the tracker's reading), and the rest lands through the tracker's own hit rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice import Distribution
from ..takeout import (
    Blow,
    Plan,
    Typical,
    Way,
    calc_run,
    odds_table,
    tracker_hit,
    validated,
    value_of,
)
from .attack import ArmourSave, armour_result
from .dice import successes_and_banes

GAME = "forbidden_lands"
DOC = "forbidden-lands-combat-quick-reference.md"
ATTRIBUTE = "strength"  # the attack calculator's damage is "Damage to Strength"
OUT_RULE = f"Strength reaches zero: Broken ({DOC} § Apply Damage, § Broken Effects)"


def _out(c: Any) -> bool:
    return bool(c.value(ATTRIBUTE) == 0)


def _lost(before: Any, after: Any) -> int:
    return int(before.value(ATTRIBUTE) - after.value(ATTRIBUTE))


def _wear(c: Any) -> tuple[tuple[str, int], ...]:
    return (("Armour rating", c.value("armour")), ("Helmet rating", c.value("helmet")))


def armour_save(c: Any, damage: int) -> Distribution[tuple[int, int]]:
    """(damage through, rating lost) of the target's own armour save (§ Armor Save)."""
    save = ArmourSave(c.value("armour"), c.value("helmet"))
    return successes_and_banes(save.pool()).map(
        lambda o: armour_result(save.rating, damage, *o))


def attack(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    v = validated("forbidden_lands.attack", {**inputs, "armour": 0, "helmet": 0})
    r = calc_run("forbidden_lands.attack", v)
    before = odds_table(r, "Damage before armour")
    blows = before.map(lambda d: Blow(d, location=ATTRIBUTE, bypass=True) if d else None)
    land = tracker_hit(GAME)

    def one(c: Any, b: Blow) -> Distribution[Any]:
        if c.value("armour") + c.value("helmet") == 0:
            return Distribution.constant(land(c, b))

        def after(o: tuple[int, int]) -> Any:
            through, lost = o
            from_armour = min(lost, c.value("armour"))  # armour first, then the helmet
            worn = c.with_value("armour", c.value("armour") - from_armour).with_value(
                "helmet", c.value("helmet") - (lost - from_armour))
            return land(worn, Blow(through, location=ATTRIBUTE, bypass=True))

        return armour_save(c, b.damage).map(after)

    return Plan(((Fraction(1), blows),), one, _out, _lost, _wear, OUT_RULE, "Strength lost",
                p_hit=value_of(r, "P(attack succeeds)"),
                notes=("The sheet does not say whether the armour or the helmet loses the "
                       "rating: here the armour first, as the tracker does.",))


ATTACKS = {"forbidden_lands.attack": Way(attack, sheet_fills=("armour", "helmet"))}


TYPICAL = (
    Typical("Slash: STR 4, Melee 2, sword (bonus 1, damage 1)", "forbidden_lands.attack", (),
            "Strength 3, no armour", (("strength", 3),)),
    Typical("Slash: STR 4, Melee 2, sword (bonus 1, damage 1)", "forbidden_lands.attack", (),
            "Strength 4, armour 3", (("strength_max", 4), ("strength", 4), ("armour", 3))),
    Typical("Slash: STR 5, Melee 3, broadsword (bonus 2, damage 2)", "forbidden_lands.attack",
            (("attribute", 5), ("skill", 3), ("weapon_bonus", 2), ("weapon_damage", 2)),
            "Strength 4, armour 3", (("strength_max", 4), ("strength", 4), ("armour", 3))),
)
