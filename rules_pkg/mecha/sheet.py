"""The source numbers: its tables, declared and read through rules_pkg.data, and the few it
states in lists."""

from __future__ import annotations

from functools import cache

from .. import data
from ..errors import RulesError

GAME = "mecha"
DOC = "Mecha d10 Non-Mecha Combat"
SIDES = 10
MAX_DAMAGE_DICE = 60  # the most d10s one damage roll may hold (checked before any work)
MAX_ARMOUR_DICE = 10
MAX_SCORE = 30  # the largest skill / Reflex / feat score accepted

# Numbers the source states in its lists (Combat Actions), not in tables: each declared
# once as the words around it (data.prose, checked by tests/rules/test_specs.py) and read
# when the game is imported.
_AIM = (data.prose(GAME, "aiming", r"One action spent aiming = \+(\d+) bonus"),
        data.prose(GAME, "aiming", r"Two actions spent aiming = \+(\d+) bonus"))
_COVER = (data.prose(GAME, "cover", r"Light cover gives a test penalty of (-\d+)"),
          data.prose(GAME, "cover", r"Heavy cover gives a test penalty of (-\d+)"))
_SIGHT = (data.prose(GAME, "blindfighting", r"sight difficult [^=]*= (-\d+) penalty"),
          data.prose(GAME, "blindfighting", r"truly obscuring [^=]*= (-\d+) penalty"))
_AUTO_FIRE = data.prose(GAME, "automatic-weapons-fire", r"defend against with a (-\d+) penalty")
_ENTANGLED = data.prose(GAME, "entangling-disarming", r"suffers a (-\d+) test penalty")
_PER_LOST = data.prose(GAME, "entangling-disarming", r"1 action for every (\d+) points")
_BREAK_AWAY = data.prose(GAME, "breaking-away", r"Roll one die (\d+)-\d+ = Break away")

AIM_BONUS = {0: 0, 1: _AIM[0].read(), 2: _AIM[1].read()}  # § Aiming: one action, two
COVER = {"none": 0, "light": _COVER[0].read(), "heavy": _COVER[1].read()}  # § Cover
SIGHT = {"clear": 0, "difficult": _SIGHT[0].read(), "obscuring": _SIGHT[1].read()}
AUTO_FIRE_DEFENCE = _AUTO_FIRE.read()  # § Automatic Weapons fire: all targets defend with
ENTANGLED = _ENTANGLED.read()  # § Entangling: to all physical actions while entangled
BREAK_AWAY_FROM = _BREAK_AWAY.read()  # § Breaking Away: one less chance per extra opponent
ACTIONS_PER_LOST = _PER_LOST.read()  # § Entangling: 1 action lost per N points beaten by


# -- the extracted tables, declared by the words their title starts with ------------------------
# (looked up by content so a re-extraction that renames ids still finds them)
TABLES: dict[str, data.Table] = {k: data.table_spec(GAME, title, cols, rows, by_title=True,
                                                     skip=skip)
                                  for k, title, cols, rows, skip in (
    ("types", "TYPE OF COMBAT", ("text", "text", "text"), 3, 0),
    ("actions", "Multiple Action", ("number", "number"), 2, 1),
    ("range", "Range", ("text", "number"), 4, 0),
    ("success", "Success Based", ("span", "number"), 2, 1),
    ("strength", "Strength Based", ("span", "number"), 2, 1),
    ("called", "Target Size", ("text", "number", "number"), 1, 0))}


@cache
def table_ids() -> dict[str, str]:
    return {k: t.id for k, t in TABLES.items()}


number, span = data.number, data.span  # the one reader of a cell's number (rules_pkg.data)


def banded(key: str, value: int) -> tuple[int, int]:
    """(row index, number) of the band holding `value` in a banded table, or RulesError."""
    for i, r in enumerate(TABLES[key].rows()):
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
    for i, r in enumerate(TABLES["actions"].rows()):
        if r[0].strip() == str(actions):
            return i, number(r[1])
    raise RulesError(f"the source gives no penalty for {actions} actions")


def max_success_margin() -> int:
    return max(b[1] for r in TABLES["success"].rows() if (b := span(r[0])))


def max_success_dice() -> int:
    return max(number(r[1]) for r in TABLES["success"].rows() if span(r[0]))


def _choices(key: str) -> tuple[tuple[str, str], ...]:
    return tuple((str(i), f"{r[0]} ({r[1]})") for i, r in enumerate(TABLES[key].rows()))
