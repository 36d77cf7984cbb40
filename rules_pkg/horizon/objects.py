"""§ Pick Up / Carry / Drop / Throw and § Using Endurance to Move, Carry and Throw."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from .. import data
from ..errors import RulesError
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Highlight, Odds, OddsRow, Result
from .sheet import GAME, HELPER_AP, MAX_ACTIONS, NOT_IN_SOURCE, SOURCE, dice_in, rank_in
from .skills import SkillTest, _ap_odds, _dice

# --- move, carry and throw objects ------------------------------------------------------------

TASKS = (("move", "Move"), ("carry", "Carry"), ("throw", "Throw"))


@dataclass(frozen=True)
class HeavyObject:
    """A row of § Using Endurance to Move, Carry and Throw: AP needed, or None for none."""

    name: str
    index: int
    table: str
    move: int | None
    carry: int | None
    throw: int | None


def _ap_or_none(cell: str) -> int | None:
    m = re.match(r"^\s*(\d+)\s*AP\s*$", cell, re.I)
    if m:
        return int(m.group(1))
    if cell.strip().lower() == "none":
        return None
    raise RulesError(f"unreadable Endurance requirement {cell!r} in the source table")


# § Using Endurance to Move, Carry and Throw: Example Objects | Endurance to Move | to Carry |
# to Throw ("10AP", or "None")
OBJECTS = data.table_spec(GAME, "Example Objects", ("text",) * 4, 9, by_title=True)


@cache
def heavy_objects() -> tuple[HeavyObject, ...]:
    out = []
    for i, c in enumerate(OBJECTS.rows()):
        out.append(HeavyObject(c[0], i, OBJECTS.id, _ap_or_none(c[1]),
                               _ap_or_none(c[2]), _ap_or_none(c[3])))
    return tuple(out)


def _object_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple((str(o.index), o.name) for o in heavy_objects())
    except (RulesError, IndexError, KeyError):
        return ()


def helped_difficulty(ap: int, helpers: int) -> int:
    """§ Pick Up / Carry / Drop / Throw, HELPERS: each helper takes -5 AP off the difficulty
    (20 AP, one helper → 15 AP, two → 10 AP); everyone must pass the reduced test."""
    if helpers < 0:
        raise RulesError("helpers cannot be negative")
    return ap - HELPER_AP * helpers


_OBJ = _object_choices()


@calculator(
    title="Move, carry or throw an object (Endurance)",
    source=SOURCE + "Pick Up / Carry / Drop / Throw; Using Endurance to Move, Carry and Throw",
    tables=("*endurance*",))
def heavy_object(
    *,
    item: Annotated[str, In("Object", choices=_OBJ)] = _OBJ[0][0] if _OBJ else "",
    task: Annotated[str, In("Task", choices=TASKS)] = "carry",
    helpers: Annotated[int, In("Helpers", 0, MAX_ACTIONS, help="at the Director's discretion")] = 0,
    end_dice: Annotated[int, dice_in("Your Endurance rank (dice)")] = 2,
    end_bonus: Annotated[int, rank_in("Your Endurance Trait bonus")] = 2,
    strength: Annotated[int, rank_in(
        "Highest STR among the carriers", help="how far a throw goes, in m")] = 3,
    rng: random.Random | None = None,
) -> Result:
    """§ Pick Up / Carry / Drop / Throw: the table's Endurance test (a guideline for the
    Director), -5 AP per helper; a throw goes as many metres as the highest STR carrying."""
    objs = heavy_objects()
    try:
        obj = objs[int(item)]
    except (ValueError, IndexError):
        raise RulesError(f"no object {item!r} in the Endurance table") from None
    need: int | None = getattr(obj, task)
    steps = [f"{obj.name}: Endurance to {task}: " + (f"{need}AP" if need else "None")]
    values: list[tuple[str, Any]] = []
    notes = ["the table is a guideline; the difficulty is at the Director's discretion"]
    if task == "throw":
        steps.append(f"thrown distance: the highest STR rank among the people carrying it, "
                     f"{strength} m")
        values.append(("Throw distance (m)", strength))
    if need is None:
        return Result(f"{obj.name}: no Endurance test to {task}", tuple(values),
                      tuple(steps), highlight=(Highlight(obj.table, obj.index),),
                      notes=tuple(notes))
    target = helped_difficulty(need, helpers)
    if helpers:
        chain = " → ".join(f"{need - HELPER_AP * k}AP" for k in range(helpers + 1))
        steps.append(f"{helpers} helper{'s' * (helpers != 1)}, -5AP each: {chain}; all "
                     f"{helpers + 1} people need to pass the {target}AP test")
    test = SkillTest(end_dice, end_bonus)
    dist = test.distribution()
    p = dist.at_least(target)
    notes.append("a test is read as passed when its AP score reaches the difficulty")
    if target <= 0:
        notes.append(f"{NOT_IN_SOURCE}a difficulty of {target}AP after helpers")
    values += [("Difficulty (AP)", target), ("P(you pass)", p)]
    odds = (Odds("Your Endurance test", (OddsRow(f"pass ({target}AP or more)", p),
                                         OddsRow("fail", 1 - p))),
            _ap_odds(dist, "Endurance AP"))

    def say(score: int, rolled_faces: Faces) -> Roll:
        faces = [f for _, f in rolled_faces]
        verdict = "pass" if score >= target else "fail"
        return Roll(f"{obj.name}, {task}: {score} AP against {target}AP: {verdict}",
                    _dice(faces, "endurance"), (("Your Endurance", score),),
                    steps=(f"your Endurance: {test.explain(faces)}: {verdict}",))

    return rolled(Result(
        f"{obj.name}, {task}: {target}AP; you pass with probability {float(p):.1%}",
        tuple(values), tuple(steps), odds, (), (Highlight(obj.table, obj.index),),
        tuple(notes)), rng, test.ap, say)
