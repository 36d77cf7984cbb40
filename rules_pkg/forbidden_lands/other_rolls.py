"""Other rolls from the tables: Flee and the Social Actions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Annotated, Any

from ..errors import RulesError
from ..kernel import Each, In
from ..registry import Input
from ..result import Highlight, Result
from .check import check
from .dice import PUSH_CHOICES
from .sheet import (
    SHEET,
    STANDARD_MODS,
    STANDARD_PUSH,
    T_FLEE,
    T_NON_ATTACK,
    T_SOCIAL_ACTIONS,
    T_SOCIAL_MODS,
    TABLES,
    _slug,
    attribute_in,
    dice_in,
    modifier,
)


# -- other rolls from the tables ------------------------------------------------------------
def _flee_parts() -> tuple[list[tuple[int, str, int]], list[tuple[int, str, int]]]:
    ranges: list[tuple[int, str, int]] = []
    zones: list[tuple[int, str, int]] = []
    for i, r in enumerate(TABLES[T_FLEE].rows()):
        mod = modifier(r[1]) or 0
        (zones if "zone" in r[0].lower() else ranges).append((i, r[0], mod))
    return ranges, zones


def _flee_choices(zone: bool) -> tuple[tuple[str, str], ...]:
    part = _flee_parts()[1 if zone else 0]
    base = (("neither", "Neither"),) if zone else ()
    return base + tuple((_slug(name), f"{name} ({mod:+d})") for _, name, mod in part)


@SHEET.calculator(title="Flee",
                  at=f"Non-Attack (Flee), § Fleeing Modifiers + {STANDARD_MODS}; {STANDARD_PUSH}",
                  tables=(T_FLEE,))
def flee(
    *,
    agility: Annotated[int, attribute_in("Agility (base dice)")] = 3,
    move: Annotated[int, dice_in("Move (skill dice)")] = 1,
    gear: Annotated[int, dice_in("Gear bonus")] = 0,
    range: Annotated[str, In(
        "Range to the nearest enemy",
        choices=_flee_choices(False),
    )] = _flee_choices(False)[0][0],
    zone: Annotated[str, In("Zone", choices=_flee_choices(True))] = "neither",
    push: Annotated[str, In("Push the roll?", choices=PUSH_CHOICES)] = "no",
    rng: random.Random | None = None,
) -> Result:
    """Reference Tables § Non-Attack (Flee: slow, Move, no enemies at Arm's Length) and
    § Fleeing Modifiers. The sheet pairs Move with Agility (Dodge: Agility + Move)."""
    ranges, zones = _flee_parts()
    mod, highlights, steps = 0, [Highlight(T_NON_ATTACK, TABLES[T_NON_ATTACK].index("Flee"))], []
    for choice, part in ((range, ranges), (zone, zones)):
        if choice == "neither":
            continue
        match = [p for p in part if _slug(p[1]) == choice]
        if not match:
            raise RulesError(f"{choice!r} is not on the Fleeing Modifiers table")
        i, name, m = match[0]
        mod += m
        highlights.append(Highlight(T_FLEE, i))
        steps.append(f"{name}: {m:+d}.")
    result = check(agility, move, gear, mod, push, 1, rng)
    steps.insert(0, "Flee is a slow action; it needs no enemies at Arm's Length. "
                    f"Success: you leave combat. Roll Agility + Move, modification {mod:+d}.")
    return Result(("Flee: " + result.summary), result.values, tuple(steps) + result.steps,
                  result.odds, result.dice, tuple(highlights), result.notes)


def _social_mods() -> list[tuple[int, int, str]]:
    return [(i, modifier(r[0]) or 0, r[1]) for i, r in enumerate(TABLES[T_SOCIAL_MODS].rows())]


def _social_mod_inputs() -> list[Input]:
    """One input per row of § Social Modifiers (a count where the row says 'for each point')."""
    out = []
    for i, m, text in _social_mods():
        if "for each point" in text.lower():
            out.append(Input(f"mod_{i}", f"Reputation above your opponent's ({m:+d} each)",
                             default=0, min=0, max=6))
        else:
            out.append(Input(f"mod_{i}", f"{m:+d}: {text}", "bool", False))
    return out


def _social_action_choices() -> tuple[tuple[str, str], ...]:
    return tuple((_slug(r[0]), f"{r[0]}: {r[2]}") for r in TABLES[T_SOCIAL_ACTIONS].rows())


@SHEET.calculator(title="Taunt, persuade or bluff",
                  at=f"Social Actions, § Social Modifiers + {STANDARD_MODS}; {STANDARD_PUSH}",
                  tables=(T_SOCIAL_ACTIONS, T_SOCIAL_MODS))
def social(
    *,
    action: Annotated[str, In("Social action", choices=_social_action_choices())
                      ] = _social_action_choices()[0][0],
    empathy: Annotated[int, attribute_in("Empathy (base dice)")] = 3,
    skill: Annotated[int, dice_in("Performance or Manipulation (skill dice)")] = 1,
    bonus: Annotated[int, dice_in("Bonus (gear dice)")] = 0,
    mods: Annotated[Mapping[str, Any], Each(_social_mod_inputs)],
    push: Annotated[str, In("Push the roll?", choices=PUSH_CHOICES)] = "no",
    rng: random.Random | None = None,
) -> Result:
    """Reference Tables § Social Actions (Empathy + skill + bonus) and § Social Modifiers."""
    rows = TABLES[T_SOCIAL_ACTIONS].rows()
    match = [i for i, r in enumerate(rows) if _slug(r[0]) == action]
    if not match:
        raise RulesError(f"{action!r} is not a social action on the sheet")
    highlights = [Highlight(T_SOCIAL_ACTIONS, match[0])]
    total, steps = 0, [f"{rows[match[0]][0]} (slow action): roll {rows[match[0]][2]}."]
    for i, m, text in _social_mods():
        raw = mods.get(f"mod_{i}", 0)
        if raw is True or (not isinstance(raw, bool) and raw > 0):
            times = 1 if isinstance(raw, bool) else int(raw)
            total += m * times
            highlights.append(Highlight(T_SOCIAL_MODS, i))
            steps.append(f"{m:+d}{f' x {times}' if times > 1 else ''}: {text}")
    unknown = set(mods) - {f"mod_{i}" for i, _, _ in _social_mods()}
    if unknown:
        raise RulesError(f"unknown input(s): {', '.join(sorted(unknown))}")
    result = check(empathy, skill, bonus, total, push, 1, rng)
    steps.append(f"Total modification {total:+d} (to the skill dice).")
    return Result(result.summary, result.values, tuple(steps) + result.steps, result.odds,
                  result.dice, tuple(highlights), result.notes)
