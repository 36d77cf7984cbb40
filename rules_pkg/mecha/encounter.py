"""The mecha game's non-mecha combat in an encounter: a vitality wound scale, an armour
roll, initiative rolled again at the start of every round."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

from .. import dice
from ..encounter import events as ev
from ..encounter.common import MINUS, Log, Rules, in_turn, lose, set_value
from ..encounter.events import Hit
from ..encounter.model import Combatant, Condition, ConditionDef, Encounter, Sheet, Stat
from ..encounter.proposal import (
    Handler,
    Inputs,
    Proposal,
    Values,
    as_int,
    dice_of,
    plural,
    read,
    summary_of,
    values_of,
)
from ..encounter.seeded import generator
from .initiative import score

DOC = "mecha-d10-non-mecha-combat.md"
ACTIONS = f"{DOC} § Combat Actions"
ROBBED = "Robbed of an action"
SHEET = Sheet(
    game="mecha", title="Mecha (non-mecha combat)",
    stats=(
        Stat("vitality_max", "Vitality (full)", 20, 1, 200, f"{DOC} § 5 Check Wounds",
             tracked=False),
        Stat("vitality", "Vitality", 20, 0, "vitality_max", f"{DOC} § 5 Check Wounds"),
        Stat("armour_dice", "Armour dice", 0, 0, 10, f"{DOC} § 5 Check Wounds",
             tracked=False),
        Stat("reflex", "Reflex", 5, 0, 30, f"{DOC} § 1 Determine initiative", tracked=False),
        # lines 81-86: "Repeat each stage for all characters taking a second action", "... a
        # third action": one, two or three actions, one per pass of the round
        Stat("actions", "Actions per round", 1, 1, 3, f"{DOC}:81-86 § 6 Additional Actions",
             tracked=False),
        Stat("strength", "Strength", 5, 1, 15, f"{DOC} § Strength Based Damage",
             tracked=False),
        Stat("actions_lost", "Actions lost (entangled)", 0, 0, 99,
             f"{DOC} § Entangling & Disarming"),
    ),
    conditions=(
        ConditionDef("Entangled", "-4 to all physical actions; robbed of 1 action per 5 "
                     "points of the Strength feat margin", f"{DOC} § Entangling & Disarming"),
        ConditionDef("Aiming", "+4 to the next attack contest (two actions: +6); lost when "
                     "defending", ACTIONS),
        ConditionDef("Light cover", "attackers take -2", ACTIONS),
        ConditionDef("Heavy cover", "attackers take -4", ACTIONS),
        ConditionDef("Critical failure", "lose the next two actions or one full turn, "
                     "whichever is greater", ACTIONS, rounds=1, loses_turn=True),
        ConditionDef(ROBBED, "an action an entangling attack took: this one passes",
                     f"{DOC}:160 § Entangling & Disarming", rounds=1, loses_turn=True),
    ),
    initiative=(f"Initiative: 1 die + Reflex, highest first, determined again at the start of "
                f"every round; then a pass for those taking a second action, and a third "
                f"({DOC} § 1 Determine initiative, § 6 Additional Actions, lines 81-86)"),
    hit=(f"Armour roll: roll the armour dice and subtract their total from the damage; the "
         f"rest goes to the vitality wound scale ({DOC} § 5 Check Wounds)"),
    notes=("Not in the source: the size of the vitality wound scale. The source says "
           "\"apply remaining damage to defender's vitality wound scale\" and gives no scale, "
           "so each character's is sized by hand (Vitality (full)); 0 is out of the fight.",
           "Not in the source: how equal initiatives are ordered; here the combatant added "
           "first acts first."),
)


def _score(c: Combatant, rng: random.Random, surprise: frozenset[str]) -> tuple[int, str]:
    """The initiative calculator's own dice program (mecha/initiative.py), seeded as its
    roll is (one seed drawn from the fight's dice), so a log replays to the same numbers;
    but not its exact odds, which every combatant's roll of every round worked out again
    (issue 24: a 40-combatant fight took seconds a round), nor its faces kept (the step
    says the die here), nor the opponent's die it draws after (a fresh generator each: the
    first die is the same without it). Its die is randint(1, sides), as dice.seeded rolls
    it, without that wrapper's frames (a long replay rolls ~12,000 of these)."""
    reflex = c.value("reflex")
    n = score(reflex)(partial(generator(rng.randrange(2**32)).randint, 1))
    return n, f"1 die ({n - reflex}) + Reflex {reflex} = {n}"


initiative = in_turn(_score, "The source has no Surprise rule: ignored.")


def hit(sheet: Sheet, c: Combatant, e: Hit, rng: random.Random, log: Log) -> Combatant:
    """§ 5 Check Wounds (line 68): the target's own armour dice, as rolled by a calculator
    or at the table when there are as many, else rolled here."""
    n = 0 if e.bypass else c.value("armour_dice")  # no armour dice: no draw from rng
    if n and len(e.dice) == n:
        rolled = list(e.dice)
    else:
        if n and e.dice:
            log.note(f"{len(e.dice)} armour dice were given, but {c.name} rolls {n}: "
                     "rolled here instead")
        rolled = list(dice.roll(rng, 10, n))
    damage = max(0, e.damage - sum(rolled))
    if e.bypass:
        log.step("armour already rolled (or ignored)")
    elif n:
        log.step(f"armour roll {n}d10: {' + '.join(map(str, rolled))} = {sum(rolled)}; "
                 f"{e.damage} {MINUS} {sum(rolled)} → {damage}")
    return lose(sheet, c, "vitality", damage, log)


def status(c: Combatant) -> tuple[str, ...]:
    return ("Out of the fight",) if c.value("vitality") == 0 else ()


def out(c: Combatant) -> str:
    return "vitality 0" if c.value("vitality") == 0 else ""


def start_turn(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
               log: Log) -> Combatant:
    """§ Entangling & Disarming (line 160): "Target is robbed of 1 action for every 5 points
    attacker beat strength test by. Loss of actions is cumulative over turns": each action
    the target would take, while any are owed (Actions lost), passes, one owed fewer. The
    turn is lost through the core's rule (a condition that loses the turn, for this one)."""
    owed = c.value("actions_lost")
    if owed <= 0:
        return c
    log.step(f"{c.name} is robbed of this action (entangled, {DOC}:160): "
             f"Actions lost {owed} {MINUS} 1 → {owed - 1}")
    return replace(c.with_value("actions_lost", owed - 1),
                   conditions=(*c.conditions, Condition(ROBBED, 1, since=enc.round)))


def bring_back(sheet: Sheet, c: Combatant, log: Log) -> Combatant:
    if c.value("vitality") == 0:
        log.step("the GM's call: Vitality 0 → 1")
        c = set_value(sheet, c, "vitality", 1, log)
    return c


# --- "Apply to …" -------------------------------------------------------------------
def _proposals(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = values_of(result)
    if calc == "mecha.entangle":  # § Entangling & Disarming, line 160: lost actions add up
        lost = as_int(vals.get("Actions lost"))
        if lost is None or inputs.get("choice") != "entangle":
            return []
        return [Proposal(f"Entangled, {plural(lost, 'action')} lost", ev.Apply(
            "", summary_of(result), (("actions_lost", lost),) if lost else (),
            conditions=("Entangled",)))]
    if calc == "mecha.break_away":  # § Breaking Away: out of close combat
        return [Proposal("Broke away: no longer Entangled", ev.ClearCondition(
            "", "Entangled"), "actor")] if vals.get("Broke away") is True else []
    rolled = dice_of(result, "damage")
    if not rolled or as_int(vals.get("Damage")) is None:
        return []
    # the damage before armour; the target's own armour dice come off it (§ 5 Check Wounds)
    armour = tuple(dice_of(result, "armour"))
    return [Proposal(f"{sum(rolled)} damage, before armour", ev.Hit(
        "", sum(rolled), source=summary_of(result), dice=armour))]


APPLY: dict[str, Handler] = {c: _proposals for c in (
    "mecha.attack", "mecha.damage", "mecha.entangle", "mecha.break_away")}
ACTOR: dict[str, Inputs] = {
    "mecha.initiative": read("reflex"),
    "mecha.attack": read("strength"),
    "mecha.damage": read("strength"),
}
TARGET: dict[str, Inputs] = {"mecha.attack": read("armour_dice"),
                             "mecha.damage": read("armour_dice")}

def gained(sheet: Sheet, c: Combatant, name: str, log: Log) -> Combatant:
    """§ Critical Failures (line 153): "Lose the next two actions or one full turn,
    whichever is greater": with one action a pass, its next max(2, actions) turns."""
    if name != "Critical failure":
        return c
    n = max(2, c.value("actions"))
    log.step(f"{c.name} loses its next {n} actions: two actions or a full turn of "
             f"{plural(c.value('actions'), 'action')}, whichever is greater ({DOC}:153)")
    return replace(c, conditions=tuple(replace(x, rounds=n) if x.name == name else x
                                       for x in c.conditions))


def passes(c: Combatant) -> int:
    """§ 6 Additional Actions (lines 83-86): every character acts in descending order of
    initiative, then again for those taking a second action, then a third."""
    return c.value("actions")


RULES = Rules(SHEET, initiative, hit, status, reroll_each_round=True, out=out,
              start_turn=start_turn,
              bring_back=bring_back, gained=gained, passes=passes, apply=APPLY, actor=ACTOR,
              target=TARGET)
