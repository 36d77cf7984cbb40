"""Cyberpunk RED: the odds that an attack takes this target out (issue #28).

Out of the fight: HP below 1, Mortally Wounded (the encounter's wound states, the RED
rulebook's threshold; the sheet's § Death Save starts there). Each attack is the
calculator's own outcome function (`core.strike`: the margin over the defence, then the
damage dice and two 6s on a hit), and each hit lands through the tracker's own hit rule
(§ Taking damage: SP subtracted, ablation by 1, head x2, Critical Injury +5 direct).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice import Distribution, expand
from ..errors import RulesError
from ..takeout import Blow, Plan, Way, blows_of, tracker_hit, validated
from .core import Defender, Shooter, beat_roll, strike
from .ranged import aim_penalty, autofire_caps

GAME = "cyberpunk_red"
DOC = "cyberpunk-red-combat-cheat-sheet.txt"
OUT_RULE = (f"HP below 1: Mortally Wounded, Death Saves from then on ({DOC} § Death Save; "
            "the wound state's threshold is the RED rulebook's, not in the sheet)")
ARMOUR = (("sp_body", "Body SP"), ("sp_head", "Head SP"))


def _out(c: Any) -> bool:
    return bool(c.value("hp") < 1 or c.has("Dead"))


def _lost(before: Any, after: Any) -> int:
    return int(before.value("hp") - after.value("hp"))


def _wear(c: Any) -> tuple[tuple[str, int], ...]:
    return tuple((label, c.value(key)) for key, label in ARMOUR)


def _plan(outcome: Any, blow: Any, notes: tuple[str, ...] = ()) -> Plan:
    land = tracker_hit(GAME)

    def one(c: Any, b: Blow) -> Any:
        return Distribution.constant(land(c, b))

    return Plan(((Fraction(1), blows_of(expand(outcome), blow)),), one, _out, _lost, _wear,
                OUT_RULE, "HP", notes)


def _defence(v: Mapping[str, Any], target: Any, what: str) -> Any:
    d = Defender(v["defence"], v["dv"], v["def_ref"], v["def_dex"], v["def_evasion"])
    if target is not None and v["defence"] == "dodge":
        d = Defender("dodge", v["dv"], target.value("ref"), v["def_dex"], v["def_evasion"])
    return d.against(what)


def ranged(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    """§ Resolving Ranged Combat: REF + Weapon Skill + 1d10 beats the DV (or a dodge); an
    Aimed Shot at the head takes its penalty and doubles what gets through."""
    v = validated("cyberpunk_red.ranged", inputs)
    if v["aim"] not in ("none", "head"):
        raise RulesError("the odds take an Aimed Shot at the head or none")
    base = Shooter(v["ref"], v["skill"], v["modifier"]).base
    head = v["aim"] == "head"
    if head:
        base += aim_penalty()
    program = strike(_defence(v, target, "a Ranged Attack").beat(base), v["dice"])
    loc = "head" if head else "body"
    return _plan(program, lambda o: None if o[1] is None else
                 Blow(o[1][0], o[1][1], loc))


def autofire(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    """§ Auto fire mode: 2d6 x the amount the DV is beaten by, up to the weapon's cap."""
    v = validated("cyberpunk_red.autofire", inputs)
    cap = autofire_caps()[v["weapon"]]
    base = Shooter(v["ref"], v["skill"], v["modifier"]).base
    program = strike(_defence(v, target, "Autofire").beat(base), 2)
    return _plan(program, lambda o: None if o[1] is None else
                 Blow(o[1][0] * min(o[0], cap), o[1][1], "body"),
                 ("Autofire: each attack costs 10 bullets; the tracker's Bullets are not "
                  "checked here.",))


def melee(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    """§ Melee combat: DEX + Melee + 1d10 against DEX + Evasion + 1d10; the weapon ignores
    half the SP (the tracker's reading, as the calculator's default)."""
    v = validated("cyberpunk_red.melee", inputs)
    if v["aim"] not in ("none", "head"):
        raise RulesError("the odds take an Aimed Shot at the head or none")
    head = v["aim"] == "head"
    a = v["dex"] + v["skill"] + v["modifier"] + (aim_penalty() if head else 0)
    program = strike(beat_roll(a, v["def_dex"] + v["def_evasion"]), v["dice"])
    loc = "head" if head else "body"
    return _plan(program, lambda o: None if o[1] is None else
                 Blow(o[1][0], o[1][1], loc, melee=True))


SP = ("sp", "sp_body", "sp_head")
ATTACKS = {"cyberpunk_red.ranged": Way(ranged, sheet_fills=SP),
           "cyberpunk_red.autofire": Way(autofire, sheet_fills=SP),
           "cyberpunk_red.melee": Way(melee, sheet_fills=SP)}
