"""The source numbers: its tables read from the extracted data, and the few it states in lists."""

from __future__ import annotations

import re
from functools import cache

from .. import data
from ..errors import RulesError

GAME = "mecha"
DOC = "Mecha d10 Non-Mecha Combat"
SIDES = 10
MAX_DAMAGE_DICE = 60  # the most d10s one damage roll may hold (checked before any work)
MAX_ARMOUR_DICE = 10
MAX_SCORE = 30  # the largest skill / Reflex / feat score accepted

# Numbers the source states in its lists (Combat Actions), not in tables.
AIM_BONUS = {0: 0, 1: 4, 2: 6}  # § Aiming: one action +4, two actions +6
COVER = {"none": 0, "light": -2, "heavy": -4}  # § Cover: to those attacking you
SIGHT = {"clear": 0, "difficult": -2, "obscuring": -4}  # § Blindfighting
AUTO_FIRE_DEFENCE = -2  # § Automatic Weapons fire, 2: all targets defend with -2
ENTANGLED = -4  # § Entangling: -4 to all physical actions while entangled
BREAK_AWAY_FROM = 6  # § Breaking Away: 6-10 breaks away; one less chance per extra opponent
ACTIONS_PER_LOST = 5  # § Entangling: 1 action lost per 5 points the strength test is beaten by


# -- reading the extracted tables -------------------------------------------------------------
def _table_id(keyword: str) -> str:
    """The id of the table whose title (header or first row) starts with `keyword`.

    Looked up by content so a re-extraction that renames ids still finds the table.
    """
    for tid, t in data.tables(GAME).items():
        cells = [*t["header"][:1], *(t["rows"][0]["cells"][:1] if t["rows"] else [])]
        if any(c.strip().lower().startswith(keyword.lower()) for c in cells):
            return tid
    raise RulesError(f"no {keyword!r} table in the {GAME} data")


@cache
def table_ids() -> dict[str, str]:
    return {k: _table_id(v) for k, v in (
        ("types", "TYPE OF COMBAT"), ("actions", "Multiple Action"), ("range", "Range"),
        ("success", "Success Based"), ("strength", "Strength Based"), ("called", "Target Size"))}


def _rows(key: str) -> list[tuple[str, ...]]:
    return [tuple(r["cells"]) for r in data.table(GAME, table_ids()[key])["rows"]]


_INT = re.compile(r"^\s*([+\-]?\d+)")
_SPAN = re.compile(r"^\s*(\d+)\s*[-\u2013]\s*(\d+)\s*$")


def number(cell: str) -> int:
    """'+2' -> 2, '-1 Die' -> -1, '0' -> 0."""
    m = _INT.match(cell)
    if not m:
        raise RulesError(f"cannot read a number from {cell!r}")
    return int(m.group(1))


def span(cell: str) -> tuple[int, int] | None:
    """'6-10' -> (6, 10); a non-range cell (a sub-header) -> None."""
    m = _SPAN.match(cell)
    return (int(m.group(1)), int(m.group(2))) if m else None


def banded(key: str, value: int) -> tuple[int, int]:
    """(row index, number) of the band holding `value` in a banded table, or RulesError."""
    for i, r in enumerate(_rows(key)):
        band = span(r[0])
        if band and band[0] <= value <= band[1]:
            return i, number(r[1])
    raise RulesError(f"{value} is outside the {table_ids()[key]} table (not in the source)")


def success_dice(margin: int) -> tuple[int, int]:
    """§ 4 Roll Damage, Success Based Damage: result greater than the defender's by …"""
    return banded("success", margin)


def strength_dice(strength: int) -> tuple[int, int]:
    """§ 5 Check Wounds, Strength Based Damage: Strength -> ± dice."""
    return banded("strength", strength)


def action_penalty(actions: int) -> tuple[int, int]:
    """§ 2 Declare Number of Actions, Multiple Action Penalty (per action)."""
    for i, r in enumerate(_rows("actions")):
        if r[0].strip() == str(actions):
            return i, number(r[1])
    raise RulesError(f"the source gives no penalty for {actions} actions")


def max_success_margin() -> int:
    return max(b[1] for r in _rows("success") if (b := span(r[0])))


def max_success_dice() -> int:
    return max(number(r[1]) for r in _rows("success") if span(r[0]))


def _choices(key: str) -> tuple[tuple[str, str], ...]:
    return tuple((str(i), f"{r[0]} ({r[1]})") for i, r in enumerate(_rows(key)))
