"""The cheat sheet: numbers and rows read from the extracted data."""

from __future__ import annotations

from dataclasses import dataclass

from .. import data
from ..dice import Distribution
from ..kernel import Document

GAME = "cyberpunk_red"
SRC = "Cyberpunk RED Combat Cheat Sheet"
# a calculator stands in the sections it cites `at` (kernel.Document)
SHEET = Document(GAME, SRC)
NO_CRIT_10 = (
    "The sheet does not mention RED's critical success/failure on a d10 roll of "
    "10 or 1, so the d10 is rolled once, as written."
)

# -- reading numbers from the extracted document ---------------------------------------------


def number(section_id: str, pattern: str, group: int = 1) -> data.Prose:
    """Declare a number the sheet writes in prose (data.Prose: read with `.read()`)."""
    return data.prose(GAME, section_id, pattern, group)


def words(section_id: str, words: str) -> data.Words:
    """Declare words a rule needs the sheet to say (data.Words: checked with `.check()`)."""
    return data.words(GAME, section_id, words)


def table(table_id: str, columns: tuple[str, ...], min_rows: int = 1) -> data.Table:
    """Declare a table of the sheet the rules read (data.Table: read with `.rows()`)."""
    return data.table_spec(GAME, table_id, columns, min_rows)


@dataclass(frozen=True)
class Dice:
    """NdS as the sheet writes it, e.g. "2d6"."""

    n: int
    sides: int

    def __str__(self) -> str:
        return f"{self.n}d{self.sides}"

    def dist(self) -> Distribution[int]:
        return Distribution.d(self.sides).repeat(self.n)


def parse_dice(text: str) -> Dice:
    """The NdS a cell names (data.dice)."""
    return Dice(*data.dice(text))


def dice_of(spec: data.Prose) -> Dice:
    """The NdS dice a declared number's two groups read."""
    return Dice(*spec.read_dice())

