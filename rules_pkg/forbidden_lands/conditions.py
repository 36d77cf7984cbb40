"""Attributes at zero (Broken) and the conditions: HUNGRY, THIRSTY, SLEEPY, COLD."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ..dice import Distribution
from ..errors import RulesError
from ..kernel import In
from ..result import Highlight, Odds, Result
from .dice import DicePool, _p
from .sheet import SHEET, STANDARD_ENDURANCE, T_BROKEN, T_ZERO, TABLES, attribute_in, dice_in

# -- attributes at zero and conditions ----------------------------------------------------------
ATTRIBUTES = ("Strength", "Agility", "Wits", "Empathy")


@SHEET.calculator(title="Damage to an attribute and being Broken",
                  at="Apply Damage (if an attribute reaches zero), § Broken Effects",
                  tables=(T_BROKEN, T_ZERO))
def broken(
    *,
    attribute: Annotated[str, In(
        "Attribute",
        choices=tuple((a, a) for a in ATTRIBUTES),
    )] = "Strength",
    current: Annotated[int, dice_in("Current value")] = 3,
    damage: Annotated[int, In("Damage taken", 0, 30)] = 1,
    from_push: Annotated[bool, In("The damage came from your own pushed roll")] = False,
) -> Result:
    """Combat Order § Apply Damage and Reference Tables § Broken Effects."""
    if attribute not in ATTRIBUTES:
        raise RulesError(f"{attribute!r} is not an attribute")
    left = max(0, current - damage)
    steps = [f"{attribute} {current} - {damage} damage = {left}."]
    if left > 0:
        return Result(f"{attribute} {left}: not Broken", (("Attribute", left), ("Broken", False)),
                      tuple(steps))
    zi, bi = TABLES[T_ZERO].index(attribute), TABLES[T_BROKEN].index(attribute)
    broken = TABLES[T_BROKEN]
    z, b = TABLES[T_ZERO].rows()[zi], dict(zip(broken.header(), broken.rows()[bi], strict=False))
    steps.append(f"{attribute} reached zero: {z[1]}. Allowed actions: {z[2]}.")
    crit = b.get("Critical", "")
    if crit and crit != "NA":
        if from_push:
            steps.append(f"Critical ({crit}): none — no critical if self-inflicted with a "
                         "pushed roll.")
        else:
            steps.append(f"Critical: {crit}.")
    steps.append(f"Broken: {b.get('Actions', '')} — {b.get('Effect', '')}".rstrip(" —"))
    return Result(f"{attribute} is Broken: {z[1]}", (("Attribute", 0), ("Broken", True)),
                  tuple(steps), highlight=(Highlight(T_ZERO, zi), Highlight(T_BROKEN, bi)))


CONDITIONS = (("hungry", "HUNGRY (no food)"), ("thirsty", "THIRSTY (no water)"),
              ("sleepy", "SLEEPY (no sleep)"))


@dataclass(frozen=True)
class ConditionDay:
    day: int
    strength: int
    agility: int
    wits: int
    event: str


def condition_timeline(condition: str, days: int, strength: int, agility: int,
                       wits: int) -> tuple[ConditionDay, ...]:
    """Day by day, per § HUNGRY / § THIRSTY / § SLEEPY. The condition begins after the first
    day without food, water or sleep; its damage falls at the end of each further week
    (HUNGRY) or day (THIRSTY, SLEEPY) spent in the condition."""
    out: list[ConditionDay] = []
    broken_day: int | None = None
    period = 7 if condition == "hungry" else 1
    for day in range(1, days + 1):
        event = ""
        if day == 1:
            event = f"{condition.upper()}"
        elif (day - 1) % period == 0:
            if broken_day is not None and day - broken_day >= period:
                out.append(ConditionDay(day, strength, agility, wits, "dies"))
                break
            if condition == "hungry":
                strength = max(0, strength - 1)
            elif condition == "thirsty":
                strength, agility = max(0, strength - 1), max(0, agility - 1)
            else:
                wits = max(0, wits - 1)
            event = "1 damage"
            if broken_day is None and min(strength, agility, wits) == 0:
                broken_day = day
                event += "; Broken" + (" — you collapse and sleep at least a Quarter Day"
                                       if condition == "sleepy" else "")
                if condition == "sleepy":
                    out.append(ConditionDay(day, strength, agility, wits, event))
                    break
        out.append(ConditionDay(day, strength, agility, wits, event))
    return tuple(out)


@SHEET.calculator(title="Hungry, thirsty, sleepy: damage over days",
                  at="HUNGRY, § THIRSTY, § SLEEPY")
def conditions(
    *,
    condition: Annotated[str, In("Condition", choices=CONDITIONS)] = "hungry",
    days: Annotated[int, In("Days without", 1, 120)] = 8,
    strength: Annotated[int, attribute_in("Strength")] = 4,
    agility: Annotated[int, attribute_in("Agility")] = 3,
    wits: Annotated[int, attribute_in("Wits")] = 3,
) -> Result:
    """§ HUNGRY: 1 Strength per week; Broken → dies after another week without food.
    § THIRSTY: 1 Strength and 1 Agility every day; Broken → dies after another day.
    § SLEEPY: 1 Wits each day; Broken Wits → you collapse and sleep a Quarter Day."""
    if condition not in dict(CONDITIONS):
        raise RulesError(f"{condition!r} is not a condition")
    line = condition_timeline(condition, days, strength, agility, wits)
    last = line[-1]
    steps = [f"Day {d.day}: Str {d.strength}, Agi {d.agility}, Wits {d.wits}"
             + (f" — {d.event}" if d.event else "") for d in line if d.event]
    dead = last.event == "dies"
    summary = (f"Dies on day {last.day}" if dead else
               f"After {last.day} days: Strength {last.strength}, Agility {last.agility}, "
               f"Wits {last.wits}")
    notes = ["You recover no Strength while HUNGRY (other attributes recover), no attribute "
             "while THIRSTY, no Wits while SLEEPY, except through magic.",
             "The sheet does not say on which day within a week HUNGRY damage falls; here at "
             "the end of each full week in the condition."]
    return Result(summary, (("Strength", last.strength), ("Agility", last.agility),
                            ("Wits", last.wits), ("Dead", dead), ("Days", last.day)),
                  tuple(steps), notes=tuple(notes))


@SHEET.calculator(title="COLD: Endurance rolls over time", at=f"COLD + {STANDARD_ENDURANCE}")
def cold(
    *,
    strength: Annotated[int, attribute_in("Strength (base dice)")] = 4,
    endurance: Annotated[int, dice_in("Endurance (skill dice)")] = 1,
    gear: Annotated[int, dice_in("Gear bonus")] = 0,
    rolls: Annotated[int, In("Rolls required", 1, 48)] = 6,
    strength_loss: Annotated[int, In(
        "Strength lost per failed roll",
        0,
        6,
        help="not on the sheet: use your rules",
    )] = 1,
    wits_loss: Annotated[int, In(
        "Wits lost per failed roll",
        0,
        6,
        help="not on the sheet: use your rules",
    )] = 1,
    wits: Annotated[int, attribute_in("Wits")] = 3,
) -> Result:
    """§ COLD: roll ENDURANCE at each interval, same effect on each failure; Broken Strength
    while COLD → you die the next time you have to roll. Exact odds by a Markov chain whose
    states carry integer counts (each roll multiplies the total by 6^dice)."""
    DicePool(strength, endurance, gear)  # limit check before any work
    top = strength + endurance + gear
    State = tuple[int, int, str]  # (strength, wits, "ok" | "broken" | "dead")
    dist: dict[State, int] = {(strength, wits, "ok"): 1}
    for _ in range(rolls):
        nxt: dict[State, int] = {}
        for (s, w, status), c in dist.items():
            if status != "ok":  # broken: dead at this roll; dead stays dead
                key = (s, w, "dead")
                nxt[key] = nxt.get(key, 0) + c * 6 ** top
                continue
            n = s + endurance + gear
            fail = 5 ** n * 6 ** (top - n)  # no ✘ on n dice, scaled to 6^top
            ok_key = (s, w, "ok")
            nxt[ok_key] = nxt.get(ok_key, 0) + c * (6 ** top - fail)
            s2, w2 = max(0, s - strength_loss), max(0, w - wits_loss)
            key = (s2, w2, "broken" if s2 == 0 else "ok")
            nxt[key] = nxt.get(key, 0) + c * fail
        dist = nxt
    d = Distribution.from_counts(dist)
    p_dead = d.p(lambda o: o[2] == "dead")
    steps = (f"Roll Strength + Endurance + gear each time ({strength} + {endurance} + {gear} "
             "dice at full Strength); a roll fails on no ✘.",
             f"Each failure: -{strength_loss} Strength, -{wits_loss} Wits (your rules' effect).",
             "Strength Broken while COLD: you die the next time you have to roll.")
    odds = (Odds.of(d.map(lambda o: o[0]), "Strength after the rolls", str),
            Odds.of(d.map(lambda o: o[2]), "Outcome", str, cumulative=False))
    notes = (f"Not in the sheet: {STANDARD_ENDURANCE}, so the roll is Strength + Endurance + "
             "gear dice.",
             "The sheet does not give the effect of a failed ENDURANCE roll: set it above.",
             "You cannot recover Strength or Wits until you warm up.")
    return Result(f"P(dead) = {_p(p_dead)}", (("P(dead)", p_dead),
                                             ("P(Strength Broken)", d.p(lambda o: o[0] == 0))),
                  steps, odds, notes=notes)
