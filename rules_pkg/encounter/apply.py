"""'Apply to …': the event a calculator's result proposes for a combatant.

A proposal is an event without its target (the page adds the combatant chosen). Damage
is applied as a Hit, so the target's own armour, SP or Defense is used by the game's rule;
a result that already accounts for the armour is applied as it stands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import registry
from ..errors import RulesError
from . import events as ev
from .apply_cyberpunk_red import HANDLERS as CPR
from .proposal import Proposal, Values
from .proposal import as_int as _int
from .proposal import dice_of as _dice
from .proposal import values_of as _values


def _fl_attack(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = _values(result)
    if calc == "forbidden_lands.attack":
        through, lost = _int(vals.get("Damage to Strength")), _int(vals.get("Armour rating lost"))
    else:
        through, lost = _int(vals.get("Damage through")), _int(vals.get("Armour rating lost"))
    if through is None or lost is None:
        return []
    changes = tuple(x for x in (("strength", -through), ("armour", -lost)) if x[1])
    return [Proposal(f"{through} damage to Strength, armour -{lost}",
             ev.Apply("", str(result.get("summary", ""))[:150], changes))]


def _fl_broken(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    value = _int(_values(result).get("Attribute"))
    attr = str(inputs.get("attribute", "Strength")).lower()
    if value is None:
        return []
    return [Proposal(f"{attr.title()} {value}",
             ev.Apply("", str(result.get("summary", ""))[:150], sets=((attr, value),)))]


def _horizon(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = _values(result)
    summary = str(result.get("summary", ""))[:150]
    if calc == "horizon.attack":
        dmg = _int(vals.get("Target 1"))
        if dmg is None:
            return []
        bypass = bool(vals.get("Ignores Defense"))
        return [Proposal(f"{dmg} damage" + (" (ignores Defense)" if bypass else ""),
                 ev.Hit("", dmg, bypass=bypass, source=summary))]
    if calc == "horizon.wounding":
        dmg = _int(vals.get("Damage"))
        if dmg is None or "Outcome" not in vals:
            return []
        cond = str(inputs.get("condition", "")) if vals["Outcome"] == "applied" else ""
        return [Proposal(f"{dmg} damage" + (f", {cond}" if cond else ""),
                 ev.Hit("", dmg, source=summary, condition=cond))]
    if calc == "horizon.defense":
        pool = _int(vals.get("Negates up to"))
        return [] if pool is None else [Proposal(f"Defense +{pool}", ev.Apply(
            "", summary, (("defense", pool),)))]
    if calc == "horizon.reload":
        loaded = _int(vals.get("Loaded"))
        return [] if loaded is None else [Proposal(f"Magazine {loaded}", ev.Apply(
            "", summary, sets=(("magazine", loaded),)))]
    if calc in ("horizon.combat_test", "horizon.skill_test"):
        ap = _int(vals.get("AP score"))
        return [] if ap is None else [Proposal(f"AP {ap}", ev.Apply(
            "", summary, sets=(("ap", ap),)))]
    return []


def _mecha(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = _values(result)
    if calc == "mecha.entangle":  # § Entangling & Disarming: the winner entangles
        lost = _int(vals.get("Actions lost"))
        return [] if lost is None else [Proposal(
            f"Entangled ({lost} action(s) lost)", ev.SetCondition("", "Entangled"))]
    if calc == "mecha.break_away":  # § Breaking Away: out of close combat
        return [Proposal("Broke away: no longer Entangled", ev.ClearCondition(
            "", "Entangled"), "actor")] if vals.get("Broke away") is True else []
    dmg = _int(vals.get("Damage"))
    if dmg is None:
        return []
    return [Proposal(f"{dmg} damage (armour rolled)",
             ev.Hit("", dmg, bypass=True, source=str(result.get("summary", ""))[:150]))]


def _d100(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    summary = str(result.get("summary", ""))[:150]
    if calc == "d100.cover":
        dmg = _int(_values(result).get("Damage to the character"))
        return [] if not dmg else [Proposal(f"{dmg} damage through cover", ev.Hit("", dmg,
                                                                          source=summary))]
    if calc == "d100.helpless_damage":
        rolled = _dice(result, "damage")
        if not rolled:
            return []
        dmg = sum(rolled) + (_int(inputs.get("bonus")) or 0)
        return [Proposal(f"{dmg} damage", ev.Hit("", max(0, dmg), source=summary))]
    if calc == "d100.crippled":
        return _d100_crippled(inputs, result)
    if calc == "d100.hallucinating":  # § Hallucinating: 1d10 rounds; Hordes are Stunned
        rounds = _int(_values(result).get("Rounds"))
        what = "Stunned" if inputs.get("horde") else "Hallucinating"
        return [] if not rounds else [Proposal(f"{what} for {rounds} rounds", ev.SetCondition(
            "", what, rounds))]
    name = {"d100.burning": "Burning", "d100.blood_loss": "Blood Loss"}.get(calc)
    return [Proposal(name, ev.SetCondition("", name))] if name else []


def _d100_crippled(inputs: Values, result: Values) -> list[Proposal]:
    """§ Crippled: a failed Toughness test deals 1d10 ignoring AP and TB (0 wounds: Blood
    Loss instead of Crippled); hordes instantly gain Blood Loss."""
    if inputs.get("horde"):
        return [Proposal("Blood Loss", ev.SetCondition("", "Blood Loss"))]
    rolled = _dice(result, "damage")
    if rolled:
        return [Proposal(f"{rolled[0]} damage (Crippled, ignores AP and TB)", ev.Hit(
            "", rolled[0], location="crippled", bypass=True,
            source=str(result.get("summary", ""))[:150]))]
    if _dice(result, "toughness"):
        return []  # passed: nothing happens
    return [Proposal("Crippled", ev.SetCondition("", "Crippled"))]


HANDLERS: dict[str, Callable[[str, Values, Values], list[Proposal]]] = {
    **CPR,
    "forbidden_lands.attack": _fl_attack, "forbidden_lands.armour": _fl_attack,
    "forbidden_lands.broken": _fl_broken,
    "horizon.attack": _horizon, "horizon.wounding": _horizon, "horizon.defense": _horizon,
    "horizon.reload": _horizon, "horizon.combat_test": _horizon, "horizon.skill_test": _horizon,
    "mecha.attack": _mecha, "mecha.damage": _mecha, "mecha.entangle": _mecha,
    "mecha.break_away": _mecha,
    "d100.cover": _d100, "d100.helpless_damage": _d100, "d100.burning": _d100,
    "d100.blood_loss": _d100, "d100.crippled": _d100, "d100.hallucinating": _d100,
}


def proposals(calc_id: str, inputs: Values, result: Values) -> list[Proposal]:
    """What a calculator's result can do to a combatant (empty: nothing to apply)."""
    handler = HANDLERS.get(calc_id)
    if handler is None or not isinstance(inputs, dict) or not isinstance(result, dict):
        return []
    try:  # the form's text, typed by the calculator's own inputs
        typed = registry.get(calc_id).validate(
            {k: v for k, v in inputs.items() if k not in ("seed", "roll")})
    except RulesError:
        return []
    return handler(calc_id, typed, result)


def with_target(event: ev.Event, target: str) -> ev.Event:
    from dataclasses import replace
    from typing import cast

    return cast(ev.Event, replace(cast(Any, event), target=target))
