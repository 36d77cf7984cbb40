"""Reference Tables § Weapon Features: gear rows on the character sheet (Light, Heavy)."""

from __future__ import annotations

import re
from typing import Annotated

from ..errors import RulesError
from ..kernel import In, calculator
from ..registry import Highlight, Result
from .sheet import DOC, T_FEATURES, _row_index, _rows

_WORDS = {"two": 2, "one": 1}


def _feature(name: str) -> tuple[int, str]:
    i = _row_index(T_FEATURES, name)
    return i, " ".join(_rows(T_FEATURES)[i][1:])


def rows_per_heavy() -> int:
    """Heavy: "Takes up two gear rows on your character sheet." """
    m = re.search(r"Takes up (\w+) gear rows", _feature("Heavy")[1])
    if not m or m.group(1) not in _WORDS:
        raise RulesError("forbidden_lands data: the Heavy row no longer says how many gear rows")
    return _WORDS[m.group(1)]


def lights_per_row() -> int:
    """Light: "You can list two light items on one gear row on your character sheet." """
    m = re.search(r"list (\w+) light items on one gear row", _feature("Light")[1])
    if not m or m.group(1) not in _WORDS:
        raise RulesError("forbidden_lands data: the Light row no longer says how many per row")
    return _WORDS[m.group(1)]


@calculator(
    id="forbidden_lands.gear_rows",
    title="Gear rows: Light and Heavy items",
    source=f"{DOC} § Weapon Features (Light, Heavy)",
    tables=(T_FEATURES,),
)
def gear_rows(
    *,
    normal: Annotated[int, In("Ordinary items", 0, 50)] = 3,
    light: Annotated[int, In("Light items", 0, 50)] = 3,
    heavy: Annotated[int, In("Heavy items", 0, 50)] = 1,
) -> Result:
    """An ordinary item takes one gear row, two Light items share one, a Heavy item takes two."""
    per_light, per_heavy = lights_per_row(), rows_per_heavy()
    light_rows = -(-light // per_light)
    total = normal + light_rows + heavy * per_heavy
    steps = (f"Ordinary: {normal} row(s)",
             f"Light: {light} item(s), {per_light} to a row = {light_rows} row(s)",
             f"Heavy: {heavy} \u00d7 {per_heavy} rows = {heavy * per_heavy}",
             f"Total: {total} gear rows")
    return Result(f"{total} gear rows", (("Gear rows", total),), steps,
                  highlight=(Highlight(T_FEATURES, _feature("Light")[0]),
                             Highlight(T_FEATURES, _feature("Heavy")[0])),
                  notes=("How many gear rows a character has is not on the sheet.",))
