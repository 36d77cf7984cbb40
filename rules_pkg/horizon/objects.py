"""§ Pick Up / Carry / Drop / Throw and § Using Endurance to Move, Carry and Throw."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from .. import data
from ..errors import RulesError
from ..kernel import Bound, Faces, In, Roll, calculator, rolled
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


# --- picking up and dropping in a turn (issue #29 item 3) --------------------------------------
S_PICK_UP = "pick-up-carry-drop-throw"
S_IMPROVISED = "improvised-weapons"
# "Picking up any object normally requires 1 action during combat and can only be done during
# your turn" (horizon…txt:1883); "this can be instant if not in combat" (:1870)
PICK_UP_ACTIONS = data.prose(GAME, S_PICK_UP, r"Picking up any object normally requires (\d+) "
                             r"action during combat")
ONLY_YOUR_TURN = data.words(GAME, S_PICK_UP, "can only be done during your turn")
LIGHT_NO_ACTION = data.words(GAME, S_PICK_UP, "picking it up requires no action")  # :1885
OUT_OF_COMBAT = data.words(GAME, S_IMPROVISED, "this can be instant if not in combat")
DROP_INSTANT = data.words(GAME, S_PICK_UP, "Dropping any object can be performed instantly")


@calculator(title="Pick up and drop objects in a turn",
            source=SOURCE + "Pick Up / Carry / Drop / Throw (Picking Up, Light Objects, "
                            "Dropping); Improvised Weapons",
            sections=(S_PICK_UP,))
def pick_up(
    *,
    actions: Annotated[int, In("Actions this turn", 0, MAX_ACTIONS,
                               help="Characters normally make 2 actions per turn")] = 2,
    objects: Annotated[int, In("Objects you pick up", 0, MAX_ACTIONS)] = 1,
    light: Annotated[int, In("Of them, light or easy to grab (the Director's call)", 0,
                             MAX_ACTIONS, max_by=Bound(("objects",), "the objects you pick up",
                                                       per=1))] = 0,
    drops: Annotated[int, In("Objects you drop", 0, MAX_ACTIONS)] = 0,
    in_combat: Annotated[bool, In("In combat")] = True,
    your_turn: Annotated[bool, In("During your turn")] = True,
) -> Result:
    """In combat each object picked up takes 1 action, during your turn only; one the
    Director rules light or easy to grab takes none; out of combat it is instant; dropping
    is always instant (and the object takes 1 action to pick up again)."""
    for spec in (ONLY_YOUR_TURN, LIGHT_NO_ACTION, OUT_OF_COMBAT, DROP_INSTANT):
        spec.check()
    cost = PICK_UP_ACTIONS.read()
    paid = objects - light if in_combat else 0
    used = paid * cost
    steps = [f"Dropping {drops} object(s): instant, no action"]
    if not in_combat:
        steps.insert(0, f"Out of combat picking up is instant: {objects} object(s), no action")
    else:
        steps.insert(0, f"{paid} object(s) \u00d7 {cost} action + {light} light or easy to grab "
                        f"(no action) = {used} action(s) of {actions}")
    problems = []
    if in_combat and objects and not your_turn:
        problems.append("in combat, picking up can only be done during your turn")
    if used > actions:
        problems.append(f"{used - actions} action(s) short")
    ok = not problems
    notes = ["You can reach about 1 m: nothing further can be picked up (Reach, same section)."]
    if drops:
        notes.append("A dropped object takes 1 action to pick up again.")
    summary = (f"Allowed: {used} action(s), {actions - used} left" if ok
               else "Not allowed: " + "; ".join(problems))
    return Result(summary, (("Actions used", used), ("Actions left", max(actions - used, 0)),
                            ("Allowed", ok)), tuple(steps), notes=tuple(notes))
