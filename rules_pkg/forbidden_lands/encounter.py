"""Forbidden Lands in an encounter: attributes as damage pools, an armour rating that
degrades, Broken at zero, initiative cards kept for the whole combat."""

from __future__ import annotations

import random

from .. import registry
from ..encounter import events as ev
from ..encounter.common import Log, Rules, lose, set_value
from ..encounter.events import Hit
from ..encounter.model import Combatant, Condition, ConditionDef, Sheet, Stat, replace
from ..encounter.proposal import (
    Handler,
    Inputs,
    Proposal,
    Values,
    as_int,
    dice_of,
    read,
    summary_of,
    values_of,
)
from ..errors import RulesError
from .attack import armour_result, damage_before_armour
from .dice import RolledDie, tally

DOC = "forbidden-lands-combat-quick-reference.md"
ATTRIBUTES = ("strength", "agility", "wits", "empathy")
# § Apply Damage, "If an attribute reaches zero" (and § Broken Effects)
BROKEN = {
    "strength": "knocked prone, roll a Critical Injury of the damage type; may only Crawl",
    "agility": "collapses from exhaustion, prone; may only Crawl",
    "wits": "rolls a critical injury on the horror table (unless reached by pushing); "
            "may only Run",
    "empathy": "a violent outburst (attack near) or withdraws (no actions) until EMP "
               "is regained",
}
CARDS = 10
PRONE_AT_ZERO = ("strength", "agility")  # "Knocked prone", "Collapse ..., prone"
SAVE_MAX = 30

_stats: list[Stat] = []
for _a in ATTRIBUTES:
    _stats.append(Stat(f"{_a}_max", f"{_a.title()} (full)", 3, 1, 10,
                       f"{DOC} § Apply Damage", tracked=False))
    _stats.append(Stat(_a, _a.title(), 3, 0, f"{_a}_max", f"{DOC} § Apply Damage"))
SHEET = Sheet(
    game="forbidden_lands", title="Forbidden Lands",
    stats=(*_stats,
           Stat("armour", "Armour rating", 0, 0, 10, f"{DOC} § Armor Save"),
           Stat("helmet", "Helmet rating", 0, 0, 5, f"{DOC} § Armor Save")),
    conditions=(
        ConditionDef("Prone", "must Get Up (fast action) to stand", f"{DOC} § Non-Attack"),
        ConditionDef("Grappled", "only Grapple Attack and Break Free are allowed",
                     f"{DOC} § Attacks"),
        ConditionDef("Hungry", "cannot recover Strength; 1 damage to Strength per week",
                     f"{DOC} § HUNGRY"),
        ConditionDef("Thirsty", "cannot recover attributes; 1 damage to Strength and "
                     "Agility every day", f"{DOC} § THIRSTY"),
        ConditionDef("Sleepy", "cannot recover Wits; 1 damage to Wits each day",
                     f"{DOC} § SLEEPY"),
        ConditionDef("Cold", "roll ENDURANCE regularly; cannot recover Strength or Wits",
                     f"{DOC} § COLD"),
    ),
    initiative=(f"Initiative cards 1-10, the lowest acts first; Surprise: draw 2 cards and "
                f"keep the better; the same cards are kept for the whole combat "
                f"({DOC} § Start of Combat, § End Round)"),
    hit=(f"Armour save: roll a gear die per point of armour and helmet, each ✘ subtracts 1 "
         f"damage, each ☠ and each point through lowers the rating by 1; the rest is "
         f"damage to the attribute ({DOC} § Armor Save, § Apply Damage)"),
    notes=("Not in the sheet: whether the armour or the helmet loses the rating; here the "
           "armour does, then the helmet.",),
    cards=CARDS,
    surprise=f"Surprise: draw 2 initiative cards, choose better ({DOC} § Start of Combat)",
)


def initiative(cs: tuple[Combatant, ...], rng: random.Random, surprise: frozenset[str],
               log: Log, taken: frozenset[int]) -> dict[str, int]:
    """Cards from those left in the deck (FL:65: the others keep theirs); Surprise draws
    two and keeps the better (FL:8)."""
    needed = len(cs) + len(surprise & {c.id for c in cs})
    left = CARDS - len(taken)
    if needed > left:
        raise RulesError(f"there are {CARDS} initiative cards, {left} left in the deck; "
                         f"{needed} are needed")
    deck = [n for n in range(1, CARDS + 1) if n not in taken]
    rng.shuffle(deck)
    out = {}
    for c in cs:
        if c.id in surprise:
            a, b = deck.pop(), deck.pop()
            out[c.id] = min(a, b)
            log.step(f"{c.name} draws {a} and {b} (Surprise) and keeps {min(a, b)}")
        else:
            out[c.id] = deck.pop()
            log.step(f"{c.name} draws {out[c.id]}")
    return out


def hit(sheet: Sheet, c: Combatant, e: Hit, rng: random.Random, log: Log) -> Combatant:
    attr = e.location or "strength"
    if attr not in ATTRIBUTES:
        raise RulesError(f"damage goes to an attribute ({', '.join(ATTRIBUTES)}), "
                         f"not {attr[:20]!r}")
    damage = e.damage
    armour, helmet = c.value("armour"), c.value("helmet")
    if e.bypass or not damage:
        log.step("no armour save" if e.bypass else "no damage")
    elif armour + helmet:
        if len(e.dice) == armour + helmet:  # the save as rolled at the table or by a calculator
            got = tally(RolledDie("gear", f) for f in e.dice)
            through, lost = armour_result(armour + helmet, damage, got[0], got[3])
            log.step(f"armour save {armour} + helmet {helmet}: rolled "
                     f"{' '.join(map(str, e.dice))}: {got[0]} ✘, {got[3]} ☠ → {through} of "
                     f"{damage} damage through")
            damage = through
        else:
            if e.dice:
                log.note(f"{len(e.dice)} armour dice were given, but {c.name} rolls "
                         f"{armour + helmet}: rolled here instead")
            rolled = min(damage, SAVE_MAX)  # the calculator's limit; the rest goes through
            save = registry.get("forbidden_lands.armour").run(
                damage=rolled, armour=armour, helmet=helmet, roll=True,
                seed=rng.randrange(2**32))
            for s in save.steps[1:]:
                log.step(s)
            damage = int(save.value("Damage through")) + damage - rolled
            lost = int(save.value("Armour rating lost"))
        # § Armor Save 1: "Combine armor & helmet rating": a point lost past the armour's
        # own rating comes off the helmet
        from_armour = min(lost, armour)
        c = set_value(sheet, c, "armour", armour - from_armour, log)
        c = set_value(sheet, c, "helmet", helmet - (lost - from_armour), log)
    before = c.value(attr)
    c = lose(sheet, c, attr, damage, log)
    if before > 0 and c.value(attr) == 0:
        log.step(f"{attr.title()} reaches zero: Broken, {BROKEN[attr]} ({DOC} § Apply Damage)")
        if attr in PRONE_AT_ZERO and not c.has("Prone"):  # FL:56-57 "Knocked prone"
            c = replace(c, conditions=(*c.conditions, Condition("Prone", None, "", log.round)))
    return c


def status(c: Combatant) -> tuple[str, ...]:
    return tuple(f"Broken ({a.title()})" for a in ATTRIBUTES if c.value(a) == 0)


def out(c: Combatant) -> str:
    """Broken (§ Apply Damage): out of the fight until an attribute is regained."""
    return ", ".join(status(c))


def bring_back(sheet: Sheet, c: Combatant, log: Log) -> Combatant:
    for a in ATTRIBUTES:
        if c.value(a) == 0:
            c = set_value(sheet, c, a, 1, log)
            log.step(f"the GM's call: {a.title()} 0 → 1")
    return c


# --- "Apply to …" -------------------------------------------------------------------
def _attack(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """The damage before armour, as a hit on the target's own armour and helmet (§ Armor
    Save, lines 40-45): the calculator's armour dice are used when the target's rating
    has as many, else the target's own are rolled."""
    vals = values_of(result)
    saved = tuple(d for d in dice_of(result, "armour gear"))
    if calc == "forbidden_lands.attack":
        hits = as_int(vals.get("Attack ✘ left"))
        if not hits or "Damage to Strength" not in vals:
            return []
        bonus = int(bool(inputs.get("heavy_swing"))) + int(bool(inputs.get("aim")))
        damage = damage_before_armour(int(inputs["weapon_damage"]), hits, bonus)
    else:
        damage = as_int(inputs.get("damage")) or 0
        if "Damage through" not in vals or not damage:
            return []
    return [Proposal(f"{damage} damage to Strength, before armour", ev.Hit(
        "", damage, location="strength", source=summary_of(result), dice=saved))]


def _broken(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """The damage taken, by its amount (the form's "current" is not the target's)."""
    attr = str(inputs.get("attribute", "Strength")).lower()
    damage = as_int(inputs.get("damage"))
    if not damage or as_int(values_of(result).get("Attribute")) is None:
        return []
    return [Proposal(f"{attr.title()} -{damage}", ev.Hit(
        "", damage, location=attr, bypass=True, source=summary_of(result)))]


APPLY: dict[str, Handler] = {"forbidden_lands.attack": _attack,
                             "forbidden_lands.armour": _attack,
                             "forbidden_lands.broken": _broken}
ACTOR: dict[str, Inputs] = {"forbidden_lands.broken": read(current="strength")}
TARGET: dict[str, Inputs] = {"forbidden_lands.armour": read("armour", "helmet"),
                             "forbidden_lands.attack": read("armour", "helmet")}

RULES = Rules(SHEET, initiative, hit, status, lowest_first=True, out=out, bring_back=bring_back,
              apply=APPLY, actor=ACTOR, target=TARGET)
