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

Values = dict[str, Any]
Proposal = tuple[str, ev.Event]  # (button label, event with target "")


def _values(result: Values) -> Values:
    return {str(v[0]): v[1] for v in result.get("values", []) if isinstance(v, list) and v}


def _dice(result: Values, kind: str) -> list[int]:
    return [int(d["value"]) for d in result.get("dice", [])
            if isinstance(d, dict) and d.get("kind") == kind]


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _cpr_hit(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = _values(result)
    rolled = _dice(result, "damage")
    if calc == "cyberpunk_red.damage":
        damage = _int(inputs.get("rolled")) or sum(rolled)
        if not damage or "HP lost" not in vals:
            return []
        critical = bool(inputs.get("sixes")) or sum(1 for d in rolled if d == 6) >= 2
        loc, melee = str(inputs.get("location", "body")), bool(inputs.get("melee"))
    else:
        if not rolled or not str(result.get("summary", "")).startswith("Hit"):
            return []
        damage, critical = sum(rolled), sum(1 for d in rolled if d == 6) >= 2
        loc = "head" if inputs.get("aim") == "head" else "body"
        melee = calc == "cyberpunk_red.melee"
    hit = ev.Hit("", damage, location=loc, melee=melee, critical=critical,
                 source=str(result.get("summary", ""))[:150])
    return [(f"{damage} damage ({loc}{', melee' if melee else ''}"
             f"{', Critical Injury' if critical else ''})", hit)]


def _cpr_ammo(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    if not result.get("dice"):
        return []
    return [("10 bullets spent", ev.Apply("", f"{calc}: 10 bullets", (("bullets", -10),)))]


def _cpr_fire(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    level = str(inputs.get("severity", "Mild"))
    radiation = inputs.get("radiation")
    if radiation == "hot":
        level = "Mild"
    elif radiation == "extreme":
        level = "Deadly"
    return [(f"On Fire ({level})", ev.SetCondition("", "On Fire", None, level))]


def _cpr_grapple(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    body = _int(inputs.get("body"))
    if not body:
        return []
    return [(f"{body} direct to HP", ev.Hit("", body, bypass=True,
                                            source=str(result.get("summary", ""))[:150]))]


def _fl_attack(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = _values(result)
    if calc == "forbidden_lands.attack":
        through, lost = _int(vals.get("Damage to Strength")), _int(vals.get("Armour rating lost"))
    else:
        through, lost = _int(vals.get("Damage through")), _int(vals.get("Armour rating lost"))
    if through is None or lost is None:
        return []
    changes = tuple(x for x in (("strength", -through), ("armour", -lost)) if x[1])
    return [(f"{through} damage to Strength, armour -{lost}",
             ev.Apply("", str(result.get("summary", ""))[:150], changes))]


def _fl_broken(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    value = _int(_values(result).get("Attribute"))
    attr = str(inputs.get("attribute", "Strength")).lower()
    if value is None:
        return []
    return [(f"{attr.title()} {value}",
             ev.Apply("", str(result.get("summary", ""))[:150], sets=((attr, value),)))]


def _horizon(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = _values(result)
    summary = str(result.get("summary", ""))[:150]
    if calc == "horizon.attack":
        dmg = _int(vals.get("Target 1"))
        if dmg is None:
            return []
        bypass = bool(vals.get("Ignores Defense"))
        return [(f"{dmg} damage" + (" (ignores Defense)" if bypass else ""),
                 ev.Hit("", dmg, bypass=bypass, source=summary))]
    if calc == "horizon.wounding":
        dmg = _int(vals.get("Damage"))
        if dmg is None or "Outcome" not in vals:
            return []
        cond = str(inputs.get("condition", "")) if vals["Outcome"] == "applied" else ""
        return [(f"{dmg} damage" + (f", {cond}" if cond else ""),
                 ev.Hit("", dmg, source=summary, condition=cond))]
    if calc == "horizon.defense":
        pool = _int(vals.get("Negates up to"))
        return [] if pool is None else [(f"Defense +{pool}", ev.Apply(
            "", summary, (("defense", pool),)))]
    if calc == "horizon.reload":
        loaded = _int(vals.get("Loaded"))
        return [] if loaded is None else [(f"Magazine {loaded}", ev.Apply(
            "", summary, sets=(("magazine", loaded),)))]
    if calc in ("horizon.combat_test", "horizon.skill_test"):
        ap = _int(vals.get("AP score"))
        return [] if ap is None else [(f"AP {ap}", ev.Apply("", summary, sets=(("ap", ap),)))]
    return []


def _mecha(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    dmg = _int(_values(result).get("Damage"))
    if dmg is None:
        return []
    return [(f"{dmg} damage (armour rolled)",
             ev.Hit("", dmg, bypass=True, source=str(result.get("summary", ""))[:150]))]


def _d100(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    summary = str(result.get("summary", ""))[:150]
    if calc == "d100.cover":
        dmg = _int(_values(result).get("Damage to the character"))
        return [] if not dmg else [(f"{dmg} damage through cover", ev.Hit("", dmg,
                                                                          source=summary))]
    if calc == "d100.helpless_damage":
        rolled = _dice(result, "damage")
        if not rolled:
            return []
        dmg = sum(rolled) + (_int(inputs.get("bonus")) or 0)
        return [(f"{dmg} damage", ev.Hit("", max(0, dmg), source=summary))]
    name = {"d100.burning": "Burning", "d100.blood_loss": "Blood Loss",
            "d100.crippled": "Crippled"}.get(calc)
    return [(name, ev.SetCondition("", name))] if name else []


HANDLERS: dict[str, Callable[[str, Values, Values], list[Proposal]]] = {
    "cyberpunk_red.damage": _cpr_hit, "cyberpunk_red.ranged": _cpr_hit,
    "cyberpunk_red.melee": _cpr_hit, "cyberpunk_red.autofire": _cpr_ammo,
    "cyberpunk_red.suppressive": _cpr_ammo, "cyberpunk_red.fire": _cpr_fire,
    "cyberpunk_red.grapple_action": _cpr_grapple,
    "forbidden_lands.attack": _fl_attack, "forbidden_lands.armour": _fl_attack,
    "forbidden_lands.broken": _fl_broken,
    "horizon.attack": _horizon, "horizon.wounding": _horizon, "horizon.defense": _horizon,
    "horizon.reload": _horizon, "horizon.combat_test": _horizon, "horizon.skill_test": _horizon,
    "mecha.attack": _mecha, "mecha.damage": _mecha,
    "d100.cover": _d100, "d100.helpless_damage": _d100, "d100.burning": _d100,
    "d100.blood_loss": _d100, "d100.crippled": _d100,
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
