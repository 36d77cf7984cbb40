"""Reference Tables § Weapon Features: gear rows on the character sheet (Light, Heavy)."""

from __future__ import annotations

from typing import Annotated

from .. import data
from ..kernel import In
from ..result import Highlight, Result
from .sheet import GAME, SHEET, T_FEATURES, TABLES

# § Weapon Features, Heavy: "Takes up two gear rows on your character sheet."; Light: "You
# can list two light items on one gear row on your character sheet."
rows_per_heavy = data.entry(GAME, "Heavy", pattern=r"Takes up (\w+) gear rows").read
lights_per_row = data.entry(GAME, "Light", pattern=r"list (\w+) light items on one gear row").read
MAX_ITEMS = 50  # the form's limit on each count of items


def _feature(name: str) -> int:
    return TABLES[T_FEATURES].index(name)


def items_in(label: str) -> In:
    """A count of items carried: 0 to MAX_ITEMS."""
    return In(label, 0, MAX_ITEMS)


@SHEET.calculator(title="Gear rows: Light and Heavy items", at="Weapon Features (Light, Heavy)",
                  tables=(T_FEATURES,))
def gear_rows(
    *,
    normal: Annotated[int, items_in("Ordinary items")] = 3,
    light: Annotated[int, items_in("Light items")] = 3,
    heavy: Annotated[int, items_in("Heavy items")] = 1,
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
                  highlight=(Highlight(T_FEATURES, _feature("Light")),
                             Highlight(T_FEATURES, _feature("Heavy"))),
                  notes=("How many gear rows a character has is not on the sheet.",))
