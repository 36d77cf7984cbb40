"""The sheet: its constants and tables as read from the extracted data."""

from __future__ import annotations

import re

from .. import data
from ..errors import RulesError

GAME = "forbidden_lands"
DOC = "Forbidden Lands Combat Quick Reference"
MAX_POOL = 24  # the largest pool a form can ask for: 6 base + 6 skill + 6 gear + 6 mods
MAX_ARMOUR = 15  # armour + helmet gear dice
SUCCESS, BANE = "✘", "☠"

# Table ids of the extracted document (checked by tests against the data).
T_ATTACKS, T_NON_ATTACK = "attacks", "non-attack"
T_RANGE, T_FLEE = "range-modifiers", "fleeing-modifiers"
T_SOCIAL_ACTIONS, T_SOCIAL_MODS = "social-actions", "social-modifiers"
T_FEATURES, T_BROKEN, T_ZERO = "weapon-features", "broken-effects", "apply-damage"

STANDARD_PUSH = ("Forbidden Lands standard rule (Player's Handbook, Pushing): a pushed roll "
                 "re-rolls every die not showing ✘ or ☠ (skill dice showing 1 are re-rolled); "
                 "each ☠ on base dice then costs 1 point of the attribute used, each ☠ on gear "
                 "dice lowers the gear bonus by 1")
STANDARD_MODS = ("Forbidden Lands standard rule (modifications): modifiers add or remove skill "
                 "dice only; below zero skill dice, roll negative dice whose ✘ cancel ✘ on "
                 "base/gear dice")


# -- reading the extracted tables ---------------------------------------------------------
def _rows(table_id: str) -> list[tuple[str, ...]]:
    return [tuple(r["cells"]) for r in data.table(GAME, table_id)["rows"]]


def _header(table_id: str) -> tuple[str, ...]:
    return tuple(data.table(GAME, table_id)["header"])


def _row_index(table_id: str, first_cell: str) -> int:
    for i, row in enumerate(_rows(table_id)):
        if row[0] == first_cell:
            return i
    raise RulesError(f"{first_cell!r} is not a row of the {table_id} table")


_SIGNED = re.compile(r"^\s*([+\--]\s*\d+|\d+)")


def modifier(cell: str) -> int | None:
    """A modifier cell of the sheet: '+2' -> 2, '-1' -> -1, 'OK'/'-'/'0' -> 0, 'X' -> None.

    'X' means the reaction is not allowed (Reference Tables § Attacks).
    """
    text = cell.strip()
    if text.upper() == "X":
        return None
    if text in {"", "OK", "-"}:
        return 0
    m = _SIGNED.match(text)
    if not m:
        raise RulesError(f"cannot read the modifier {cell!r} from the sheet")
    return int(m.group(1).replace("-", "-").replace(" ", ""))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _clean(action: str) -> str:
    return action.rstrip("*").strip()


def outside_rules(pushed: bool, modified: bool) -> tuple[str, ...]:
    """Notes naming the standard rules a roll used that the sheet only refers to."""
    return ((f"Not in the sheet: {STANDARD_PUSH}.",) if pushed else ()) + (
        (f"Not in the sheet: {STANDARD_MODS}.",) if modified else ())
