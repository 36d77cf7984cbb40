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


ACTOR: dict[str, Callable[[Combatant], Inputs]] = {
    "cyberpunk_red.ranged": lambda c: {"ref": c.value("ref")},
    "cyberpunk_red.autofire": lambda c: {"ref": c.value("ref"),
                                         "bullets": c.value("bullets")},
    "cyberpunk_red.suppressive": lambda c: {"ref": c.value("ref"),
                                            "bullets": c.value("bullets")},
    "cyberpunk_red.death_save": lambda c: {"body": c.value("body"),
                                           "penalty": c.counter("death_save_penalty")},
    "cyberpunk_red.brawling": lambda c: {"body": c.value("body")},
    "cyberpunk_red.grapple_action": lambda c: {"body": c.value("body")},
    "forbidden_lands.broken": lambda c: {"current": c.value("strength")},
    "horizon.reload": lambda c: {"loaded": c.value("magazine")},
    "horizon.attack": lambda c: {"ap": c.value("ap")},
    "horizon.wounding": lambda c: {"ap": c.value("ap")},
    "horizon.defense": lambda c: {"ap": c.value("ap")},
    "horizon.move": lambda c: {"ap": c.value("ap")},
    "mecha.initiative": lambda c: {"reflex": c.value("reflex")},
    "mecha.attack": lambda c: {"strength": c.value("strength")},
    "mecha.damage": lambda c: {"strength": c.value("strength")},
    "d100.test": _d100_self,
    "d100.blood_loss": lambda c: {"toughness": c.value("toughness"),
                                  "horde": c.kind == "horde",
                                  "magnitude": c.value("magnitude")},
    "d100.fatigue": lambda c: {"fatigue": c.value("fatigue"), "tb": c.value("tb")},
}
TARGET: dict[str, Callable[[Combatant], Inputs]] = {
    "cyberpunk_red.damage": lambda c: {"sp": c.value("sp_body")},
    "cyberpunk_red.ranged": _target_sp,
    "cyberpunk_red.melee": _target_sp,
    "cyberpunk_red.autofire": _target_sp,
    "cyberpunk_red.shotgun_shell": _target_sp,
    "cyberpunk_red.explosive": _target_sp,
    "cyberpunk_red.grapple_action": lambda c: {"hp": c.value("hp")},
    "forbidden_lands.armour": lambda c: {"armour": c.value("armour"),
                                         "helmet": c.value("helmet")},
    "forbidden_lands.attack": lambda c: {"armour": c.value("armour"),
                                         "helmet": c.value("helmet")},
    "mecha.attack": lambda c: {"armour_dice": c.value("armour_dice")},
    "mecha.damage": lambda c: {"armour_dice": c.value("armour_dice")},
    "d100.test": _d100_target,
}


def inputs_for(calc: str, actor: Combatant | None, target: Combatant | None) -> Inputs:
    out: Inputs = {}
    if actor is not None and calc in ACTOR:
        out.update(ACTOR[calc](actor))
    if target is not None and calc in TARGET:
        out.update(TARGET[calc](target))
    return out
