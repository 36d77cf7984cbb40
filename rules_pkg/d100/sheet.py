"""The sheet: table ids, and rows of the extracted tables by name (read through rules_pkg.data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from .. import data
from ..kernel import In, Part
from ..result import Highlight

GAME = "d100"
SOURCE = "d100 Combat Circumstances and Status Effects"
CIRC = f"{SOURCE} § Combat Circumstances"
STATUS = f"{SOURCE} § Status Effects"
# the extracted tables (scripts/extract/d100.py): Circumstance | Details | Horde Details,
# and Status Name | Effect | Horde Effect | Duration; their rows are read by name
TABLES = tuple(data.table_spec(GAME, tid, ("text",) * width) for tid, width in (
    ("combat-circumstances", 3), ("ranged-attack-distance", 3), ("status-modifiers", 3),
    ("status-effects", 4)))
TABLES_ALL = tuple(t.key for t in TABLES)
DOS_RULE = "standard d100 rule (DH2e): DoS/DoF = 1 + difference of the tens digits"

# the two tables most rules stand on: a rule of one says only where in it (kernel.Part)
CIRCUMSTANCES = Part(f"{CIRC} § ", ("combat-circumstances",))
STATUS_EFFECTS = Part(f"{STATUS} § ", ("status-effects",))

# inputs several rules share, each declared once
MAX_CHARACTERISTIC = 100  # the form's limit on a characteristic


def characteristic_in(label: str) -> In:
    """A characteristic (WS, BS, Toughness …): 0 to MAX_CHARACTERISTIC."""
    return In(label, 0, MAX_CHARACTERISTIC)


Horde = Annotated[bool, In("A Horde")]
AttackerHorde = Annotated[bool, In("Attacker is a Horde")]
ToughnessModifier = Annotated[int, In("Modifier to the Toughness test", -100, 100)]

# -- rows of the extracted tables -------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One extracted table row: which table, its index, and its text (all cells but the name)."""

    table: str
    index: int
    name: str
    text: str
    cells: tuple[str, ...]

    @property
    def highlight(self) -> Highlight:
        return Highlight(self.table, self.index)


def row(name: str) -> Row:
    """The row called `name` (first cell), e.g. row("Darkness"); the Status Effects
    duplicate of a name is row("Dazed effect")."""
    tid, i, cells = data.named_row(GAME, name, TABLES)
    return Row(tid, i, cells[0].strip(), " ".join(cells[1:]), cells)


def entry(name: str, anchor: str = "", nth: int = 0, *, pattern: str = "",
          group: int = 1, cell: int = 0) -> data.Entry:
    """Declare a number of the row called `name` (data.Entry): the nth signed number after
    `anchor`, or the group of `pattern`."""
    return data.entry(GAME, name, anchor, nth, pattern=pattern, group=group, cell=cell)


# Readings used by more than one module (the d100 test and the rule's own calculator), here
# so that importing one rule's module never registers another's calculators first (the
# registry's order is the pages' order of calculators by a table).
# § Weapon Jams: "the weapon jams if the attacker rolls a 96 or higher"
JAM_AT = entry("Weapon Jams", pattern=r"rolls a (\d+) or higher")
# § Burning: Hordes "also suffer a -20 penalty to Willpower tests"
BURN_HORDE_WILLPOWER = entry("Burning", "suffer a")
