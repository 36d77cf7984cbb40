"""The sheet: its constants, and its tables declared and read through rules_pkg.data."""

from __future__ import annotations

import re

from .. import data
from ..kernel import In, Part

GAME = "forbidden_lands"
DOC = "Forbidden Lands Combat Quick Reference"
# every rule cites the Quick Reference: a rule says only where in it (kernel.Part)
SHEET = Part(f"{DOC} § ")
MAX_POOL = 24  # the largest pool a form can ask for: 6 base + 6 skill + 6 gear + 6 mods
MAX_ARMOUR = 15  # armour + helmet gear dice
MAX_PART = 6  # base, skill or gear dice in a pool, each (see MAX_POOL)
SUCCESS, BANE = "✘", "☠"


# The inputs many rules share, each limit declared once.
def attribute_in(label: str) -> In:
    """An attribute (its base dice): 1 to MAX_PART."""
    return In(label, 1, MAX_PART)


def dice_in(label: str) -> In:
    """Base, skill or gear dice: 0 to MAX_PART."""
    return In(label, 0, MAX_PART)

# The extracted tables the rules read, one kind per column (data.CELL_KINDS): test_specs
# checks every cell, so a changed sheet fails there by the table's id.
_T, _M = "text", "modifier"
TABLES: dict[str, data.Table] = {s.key: s for s in (
    data.table_spec(GAME, "attacks", (_T, _T, _T, _T, _M, _M, _M, _M, _T), 9),
    data.table_spec(GAME, "non-attack", (_T,) * 5, 14),
    data.table_spec(GAME, "range-modifiers", (_T, _M), 5),
    data.table_spec(GAME, "fleeing-modifiers", (_T, _M), 5),
    data.table_spec(GAME, "social-actions", (_T, _T, _T), 3),
    data.table_spec(GAME, "social-modifiers", (_M, _T), 2),
    data.table_spec(GAME, "weapon-features", (_T, _T, _T), 7),
    data.table_spec(GAME, "broken-effects", (_T,) * 4, 4),
    data.table_spec(GAME, "apply-damage", (_T,) * 3, 4),
)}
T_ATTACKS, T_NON_ATTACK = "attacks", "non-attack"
T_RANGE, T_FLEE = "range-modifiers", "fleeing-modifiers"
T_SOCIAL_ACTIONS, T_SOCIAL_MODS = "social-actions", "social-modifiers"
T_FEATURES, T_BROKEN, T_ZERO = "weapon-features", "broken-effects", "apply-damage"

STANDARD_PUSH = ("Forbidden Lands standard rule (Player's Handbook, Pushing): a pushed roll "
                 "re-rolls every die not showing ✘ or ☠ (skill dice showing 1 are re-rolled); "
                 "each ☠ on base dice then costs 1 point of the attribute used, each ☠ on gear "
                 "dice lowers the gear bonus by 1")
STANDARD_ENDURANCE = "Forbidden Lands standard rule: ENDURANCE is a Strength skill"
STANDARD_MODS = ("Forbidden Lands standard rule (modifications): modifiers add or remove skill "
                 "dice only; below zero skill dice, roll negative dice whose ✘ cancel ✘ on "
                 "base/gear dice")


modifier = data.modifier  # a modifier cell: 'X' (not allowed) -> None; the one reader


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _clean(action: str) -> str:
    return action.rstrip("*").strip()


def outside_rules(pushed: bool, modified: bool) -> tuple[str, ...]:
    """Notes naming the standard rules a roll used that the sheet only refers to."""
    return ((f"Not in the sheet: {STANDARD_PUSH}.",) if pushed else ()) + (
        (f"Not in the sheet: {STANDARD_MODS}.",) if modified else ())
