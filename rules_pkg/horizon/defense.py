"""§ Defense Actions and § Dive!."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from .. import data
from ..errors import InputError, RulesError
from ..kernel import In, calculator
from ..result import Result
from .attacks import _hl
from .combat_test import Scored
from .profiles import parse_int
from .sheet import GAME, MAX_ACTIONS, NOT_IN_SOURCE, PROFILES, SOURCE, X, rank_in
from .skills import _check_rank

# --- defense and Dive! -------------------------------------------------------------------
S_DIVE = "dive"

IGNORED_BY = (("none", "an ordinary ranged Attack (Defense applies)"),
              ("point_blank", "Point Blank Range (2 m or less)"),
              ("melee", "a Melee or Unarmed Attack"),
              ("grenade", "a Grenade"))


@dataclass(frozen=True)
class DefenseOutcome:
    """§ Defense Actions: Defense negates up to value x actions of incoming damage."""

    pool: int
    negated: int
    taken: int
    left: int


def defend(value: int, actions: int, incoming: Sequence[int], ignored: bool) -> DefenseOutcome:
    """§ Defense Actions: "taking it twice would negate the next (10x2) = 20 damage"; it lasts
    until it has negated all it can. Attacks that ignore Defense pass it untouched."""
    pool = value * actions
    left = pool
    taken = 0
    for d in incoming:
        if d < 0:
            raise RulesError("incoming damage cannot be negative")
        blocked = 0 if ignored else min(left, d)
        left -= blocked
        taken += d - blocked
    return DefenseOutcome(pool, pool - left, taken, left)


@PROFILES.calculator(
    title="Defense: incoming damage negated",
    at="Defense Actions")
def defense(
    *,
    scored: Scored,
    actions: Annotated[int, In("Defense actions", 1, MAX_ACTIONS)] = 1,
    damage: Annotated[int, In("Incoming damage per Attack", 0, 10_000)] = 15,
    hits: Annotated[int, In("Incoming Attacks", 0, 100)] = 1,
    ignored: Annotated[str, In("Incoming Attacks are", choices=IGNORED_BY)] = "none",
) -> Result:
    """§ Defense Actions: the row's Defense, times the Defense actions taken, negates the
    next incoming damage; Point Blank, Melee/Unarmed and Grenade Attacks ignore it."""
    w = scored.profile()
    row, step = scored.row()
    if row is None:
        return scored.no_row(step)
    cell = row.cell("defense") or ""
    value = parse_int(cell)
    if value is None:
        return Result(f"{w.name}, {row.label}: Defense not in the source", steps=(step,),
                      notes=(f"{NOT_IN_SOURCE}the Defense cell is {cell!r}",),
                      highlight=_hl(row))
    out = defend(value, actions, [damage] * hits, ignored != "none")
    steps = [step, f"Defense {value} {X} {actions} action{'s' * (actions != 1)} = {out.pool} "
                   "damage negated at most (until your next turn)"]
    if ignored != "none":
        steps.append(f"{dict(IGNORED_BY)[ignored]} ignores Defense: it negates nothing; "
                     "Dive! armor is never ignored")
    else:
        steps.append(f"incoming {hits} {X} {damage} = {hits * damage}: {out.negated} negated, "
                     f"{out.taken} taken, {out.left} Defense left")
    values = (("Defense", value), ("Negates up to", out.pool), ("Negated", out.negated),
              ("Damage taken", out.taken), ("Defense left", out.left))
    return Result(f"Defense {value} {X} {actions} = {out.pool}: {out.taken} damage taken",
                  values, tuple(steps), highlight=_hl(row))


@dataclass(frozen=True)
class Dive:
    """§ Dive!: the higher of STR and AGI in metres, and twice that in bonus armor."""

    metres: int
    armor: int

    @staticmethod
    def of(strength: int, agility: int) -> Dive:
        _check_rank(strength, "STR")
        _check_rank(agility, "AGI")
        best = max(strength, agility)
        return Dive(best * 1, best * 2)


# § Dive!, USAGE (horizon…txt:1704): its action, and how often outside combat
DIVE_WHEN = (("your_turn", "During your turn"),
             ("off_turn", "In combat, when it isn't your turn"),
             ("outside", "Outside combat"))
DIVE_ACTION = data.prose(GAME, S_DIVE, r"it always consumes (\d+) of your actions for the round")
DIVE_BORROWS = data.prose(GAME, S_DIVE, r"\u201cborrows\u201d (\d+) action from your next turn")
DIVE_PER_SCENE = data.words(GAME, S_DIVE, "Outside combat, it can normally be used once per scene")


@calculator(title="Dive!", source=SOURCE + "Dive!")
def dive(
    *,
    strength: Annotated[int, rank_in("STR (Strength)")] = 2,
    agility: Annotated[int, rank_in("AGI (Agility)")] = 3,
    when: Annotated[str, In("When you Dive!", choices=DIVE_WHEN)] = "your_turn",
    actions: Annotated[int, In("Your actions a turn", 1, MAX_ACTIONS,
                               help="Characters normally make 2 actions per turn")] = 2,
    before: Annotated[int, In("Dive! uses before this one (since your turn, or this scene)",
                              0, MAX_ACTIONS)] = 0,
) -> Result:
    """§ Dive!: compare STR and AGI; Dive that many metres and gain twice that in armor,
    never ignored by anything. It consumes 1 action: off your turn it "borrows" 1 from your
    next turn; outside combat it is normally once per scene."""
    d = Dive.of(strength, agility)
    higher = "STR" if strength > agility else "AGI" if agility > strength else "STR and AGI"
    best = max(strength, agility)
    steps = [f"STR {strength}, AGI {agility}: {higher} is higher at rank {best}",
             f"({best}{X}1) = {d.metres} m of movement and ({best}{X}2) = +{d.armor} armor",
             "the armor is never ignored"]
    values: list[tuple[str, Any]] = [("Dive", d.metres), ("Armor", d.armor)]
    notes = ["how armor reduces damage is not in this source"]
    summary = f"Dive {d.metres} m, +{d.armor} armor"
    DIVE_PER_SCENE.check()
    if when == "outside":
        steps.append("outside combat the bonus ends as soon as you stand up; no action counted")
        if before:
            notes.append(f"Outside combat Dive! is normally once per scene: this is use "
                         f"{before + 1}, allowed only at the Director's discretion")
            summary += " (past once per scene: the Director's call)"
    else:
        cost = DIVE_ACTION.read() * (before + 1)
        steps.append("in combat it lasts until your next turn")
        if when == "off_turn":
            borrowed = DIVE_BORROWS.read() * (before + 1)
            left = actions - borrowed
            steps.append(f"not your turn: it borrows {borrowed} action(s) from your next turn "
                         f"({before + 1} Dive!), leaving {max(left, 0)} of {actions}")
            values.append(("Actions next turn", max(left, 0)))
            summary += f"; {max(left, 0)} action(s) next turn"
            if left < 0:
                notes.append(f"{NOT_IN_SOURCE}borrowing more actions than a turn has "
                             f"({borrowed} of {actions}): the rest is not said")
        else:
            left = actions - cost
            steps.append(f"your turn: it consumes {cost} of your {actions} action(s)")
            values.append(("Actions left this turn", max(left, 0)))
            summary += f"; {max(left, 0)} action(s) left this turn"
            if left < 0:
                raise InputError("before", f"{before + 1} Dive! take {cost} actions: more "
                                 f"than your {actions} this turn")
    return Result(summary, tuple(values), tuple(steps), notes=tuple(notes))
