"""A calculator run "as" a combatant: its inputs taken from the combatant's sheet.

`inputs_for(calc, actor, target)` gives the inputs the actor's and the target's numbers
and statuses decide (a Blind d100 character's test already carries Blind); the rest of
the form keeps what the player typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .model import Combatant

Inputs = dict[str, Any]


def _target_sp(c: Combatant) -> Inputs:
    return {"sp": c.value("sp_body"), "sp_body": c.value("sp_body"),
            "sp_head": c.value("sp_head")}


def _d100_self(c: Combatant) -> Inputs:
    out: Inputs = {}
    for cond, name in (("Blind", "blind"), ("Deaf", "deaf"), ("Pinned", "pinned"),
                       ("Frenzy", "frenzy"), ("Immobilised", "immobilised"),
                       ("Prone", "prone_self")):
        out[name] = c.has(cond) is not None
    out["fatigue"] = c.value("fatigue") > 0
    out["horde"] = c.kind == "horde"
    return out


def _d100_target(c: Combatant) -> Inputs:
    out: Inputs = {}
    for cond, name in (("Dazed", "dazed"), ("Stunned", "stunned"), ("Helpless", "helpless"),
                       ("Prone", "prone_target")):
        out[name] = c.has(cond) is not None
    return out


def _values(*keys: str, **renamed: str) -> Callable[[Combatant], Inputs]:
    """Inputs read straight off a combatant's values: each key as the input of that name,
    or `input="value key"` where the names differ."""
    pairs = [(k, k) for k in keys] + list(renamed.items())
    return lambda c: {name: c.value(key) for name, key in pairs}


ACTOR: dict[str, Callable[[Combatant], Inputs]] = {
    "cyberpunk_red.ranged": _values("ref"),
    "cyberpunk_red.autofire": _values("ref", "bullets"),
    "cyberpunk_red.suppressive": _values("ref", "bullets"),
    "cyberpunk_red.death_save": lambda c: {"body": c.value("body"),
                                           "penalty": c.counter("death_save_penalty")},
    "cyberpunk_red.brawling": _values("body"),
    "cyberpunk_red.grapple_action": _values("body"),
    "forbidden_lands.broken": _values(current="strength"),
    "horizon.reload": _values(loaded="magazine"),
    "horizon.attack": _values("ap"),
    "horizon.wounding": _values("ap"),
    "horizon.defense": _values("ap"),
    "horizon.move": _values("ap"),
    "mecha.initiative": _values("reflex"),
    "mecha.attack": _values("strength"),
    "mecha.damage": _values("strength"),
    "d100.test": _d100_self,
    "d100.blood_loss": lambda c: {"toughness": c.value("toughness"),
                                  "horde": c.kind == "horde",
                                  "magnitude": c.value("magnitude")},
    "d100.fatigue": _values("fatigue", "tb"),
}
TARGET: dict[str, Callable[[Combatant], Inputs]] = {
    "cyberpunk_red.damage": _values(sp="sp_body"),
    "cyberpunk_red.ranged": _target_sp,
    "cyberpunk_red.melee": _target_sp,
    "cyberpunk_red.autofire": _target_sp,
    "cyberpunk_red.shotgun_shell": _target_sp,
    "cyberpunk_red.explosive": _target_sp,
    "cyberpunk_red.grapple_action": _values("hp"),
    "forbidden_lands.armour": _values("armour", "helmet"),
    "forbidden_lands.attack": _values("armour", "helmet"),
    "mecha.attack": _values("armour_dice"),
    "mecha.damage": _values("armour_dice"),
    "d100.test": _d100_target,
}


def inputs_for(calc: str, actor: Combatant | None, target: Combatant | None) -> Inputs:
    out: Inputs = {}
    if actor is not None and calc in ACTOR:
        out.update(ACTOR[calc](actor))
    if target is not None and calc in TARGET:
        out.update(TARGET[calc](target))
    return out
