"""Cyberpunk RED: the odds that an attack takes this target out (issue #28).

Out of the fight: HP below 1, Mortally Wounded (the encounter's wound states, the RED
rulebook's threshold; the sheet's § Death Save starts there). Each attack is composed as the
calculators compose it (`Defence.margin`/`margin_opposed`, then `dice_with_crit` on a hit:
the exact side of `core.strike`, the outcome function their rolls run), and each hit lands
through the tracker's own hit rule (§ Taking damage: SP subtracted, ablation by 1, head x2,
Critical Injury +5 direct).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice import Distribution
from ..errors import RulesError
from ..takeout import Blow, Plan, Typical, Way, tracker_hit, validated
from .core import Defender, Shooter, dice_with_crit, margin_opposed
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


def _plan(margin: Distribution[int], n: int, blow: Any, notes: tuple[str, ...] = ()) -> Plan:
    """The attack as `core.strike` rolls it and the calculators compose it exactly: the
    margin over the defence, then on a hit the damage dice and two 6s (dice_with_crit)."""
    land = tracker_hit(GAME)

    def one(c: Any, b: Blow) -> Any:
        return Distribution.constant(land(c, b))

    attack = margin.combine(dice_with_crit(n), lambda m, r: blow(m, r) if m > 0 else None)
    return Plan(((Fraction(1), attack),), one, _out, _lost, _wear, OUT_RULE, "HP lost", notes)


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
    loc = "head" if head else "body"
    return _plan(_defence(v, target, "a Ranged Attack").margin(base), v["dice"],
                 lambda m, r: Blow(r[0], r[1], loc))


def autofire(inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    """§ Auto fire mode: 2d6 x the amount the DV is beaten by, up to the weapon's cap."""
    v = validated("cyberpunk_red.autofire", inputs)
    cap = autofire_caps()[v["weapon"]]
    base = Shooter(v["ref"], v["skill"], v["modifier"]).base
    return _plan(_defence(v, target, "Autofire").margin(base), 2,
                 lambda m, r: Blow(r[0] * min(m, cap), r[1], "body"),
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
    loc = "head" if head else "body"
    return _plan(margin_opposed(a, v["def_dex"] + v["def_evasion"]), v["dice"],
                 lambda m, r: Blow(r[0], r[1], loc, melee=True))


SP = ("sp", "sp_body", "sp_head")
ATTACKS = {"cyberpunk_red.ranged": Way(ranged, sheet_fills=SP),
           "cyberpunk_red.autofire": Way(autofire, sheet_fills=SP),
           "cyberpunk_red.melee": Way(melee, sheet_fills=SP)}


TYPICAL = (
    Typical("REF 6 + Handgun 4, 3d6, DV 13", "cyberpunk_red.ranged",
            (("ref", 6), ("skill", 4), ("dv", 13), ("dice", 3)),
            "HP 25, body SP 7", (("hp_max", 25), ("hp", 25), ("sp_body", 7))),
    Typical("REF 6 + Handgun 4, 3d6, DV 13", "cyberpunk_red.ranged",
            (("ref", 6), ("skill", 4), ("dv", 13), ("dice", 3)),
            "HP 40, body SP 11", (("hp", 40), ("sp_body", 11))),
    Typical("Autofire 4, SMG, DV 15", "cyberpunk_red.autofire", (("dv", 15),),
            "HP 25, body SP 7", (("hp_max", 25), ("hp", 25), ("sp_body", 7))),
    Typical("DEX 6 + Melee 4, 3d6 (vs DEX 6 + Evasion 4)", "cyberpunk_red.melee",
            (("dice", 3),), "HP 25, body SP 7", (("hp_max", 25), ("hp", 25), ("sp_body", 7))),
)
