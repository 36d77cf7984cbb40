"""'Apply to …' for the d100 game: what each calculator's result does to a combatant, and
the inputs a combatant's sheet gives a calculator run as it or against it."""

from __future__ import annotations

from ..encounter import events as ev
from ..encounter.model import Combatant
from ..encounter.proposal import (
    Handler,
    Inputs,
    Proposal,
    Values,
    as_int,
    dice_of,
    read,
    values_of,
)


def _proposals(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    summary = str(result.get("summary", ""))[:150]
    if calc == "d100.cover":
        dmg = as_int(values_of(result).get("Damage to the character"))
        return [] if not dmg else [Proposal(f"{dmg} damage through cover",
                                            ev.Hit("", dmg, source=summary))]
    if calc == "d100.helpless_damage":
        rolled = dice_of(result, "damage")
        if not rolled:
            return []
        dmg = sum(rolled) + (as_int(inputs.get("bonus")) or 0)
        return [Proposal(f"{dmg} damage", ev.Hit("", max(0, dmg), source=summary))]
    if calc == "d100.crippled":
        return _crippled(inputs, result)
    if calc == "d100.hallucinating":  # § Hallucinating: 1d10 rounds; Hordes are Stunned
        rounds = as_int(values_of(result).get("Rounds"))
        what = "Stunned" if inputs.get("horde") else "Hallucinating"
        return [] if not rounds else [Proposal(f"{what} for {rounds} rounds",
                                               ev.SetCondition("", what, rounds))]
    name = {"d100.burning": "Burning", "d100.blood_loss": "Blood Loss"}.get(calc)
    return [Proposal(name, ev.SetCondition("", name))] if name else []


def _crippled(inputs: Values, result: Values) -> list[Proposal]:
    """§ Crippled: a failed Toughness test deals 1d10 ignoring AP and TB (0 wounds: Blood
    Loss instead of Crippled); hordes instantly gain Blood Loss."""
    if inputs.get("horde"):
        return [Proposal("Blood Loss", ev.SetCondition("", "Blood Loss"))]
    rolled = dice_of(result, "damage")
    if rolled:
        return [Proposal(f"{rolled[0]} damage (Crippled, ignores AP and TB)", ev.Hit(
            "", rolled[0], location="crippled", bypass=True,
            source=str(result.get("summary", ""))[:150]))]
    if dice_of(result, "toughness"):
        return []  # passed: nothing happens
    return [Proposal("Crippled", ev.SetCondition("", "Crippled"))]


APPLY: dict[str, Handler] = {c: _proposals for c in (
    "d100.cover", "d100.helpless_damage", "d100.burning", "d100.blood_loss", "d100.crippled",
    "d100.hallucinating")}


def _self(c: Combatant) -> Values:
    out: Values = {}
    for cond, name in (("Blind", "blind"), ("Deaf", "deaf"), ("Pinned", "pinned"),
                       ("Frenzy", "frenzy"), ("Immobilised", "immobilised"),
                       ("Prone", "prone_self")):
        out[name] = c.has(cond) is not None
    out["fatigue"] = c.value("fatigue") > 0
    out["horde"] = c.kind == "horde"
    return out


def _target(c: Combatant) -> Values:
    out: Values = {}
    for cond, name in (("Dazed", "dazed"), ("Stunned", "stunned"), ("Helpless", "helpless"),
                       ("Prone", "prone_target")):
        out[name] = c.has(cond) is not None
    return out


ACTOR: dict[str, Inputs] = {
    "d100.test": _self,
    "d100.blood_loss": lambda c: {"toughness": c.value("toughness"),
                                  "horde": c.kind == "horde",
                                  "magnitude": c.value("magnitude")},
    "d100.fatigue": read("fatigue", "tb"),
}
TARGET: dict[str, Inputs] = {"d100.test": _target}
