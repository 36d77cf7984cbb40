"""The cheat sheet: numbers and rows read from the extracted data."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import data
from ..dice import Distribution
from ..errors import RulesError

GAME = "cyberpunk_red"
SRC = "Cyberpunk RED Combat Cheat Sheet"
NO_CRIT_10 = (
    "The sheet does not mention RED's critical success/failure on a d10 roll of "
    "10 or 1, so the d10 is rolled once, as written."
)

# -- reading numbers from the extracted document ---------------------------------------------


def section_text(section_id: str) -> str:
    """All text of a section of the sheet and its subsections (data.section_text)."""
    return data.section_text(GAME, section_id)


def number(section_id: str, pattern: str, group: int = 1) -> data.Prose:
    """Declare a number the sheet writes in prose (data.Prose: read with `.read()`)."""
    return data.prose(GAME, section_id, pattern, group)


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
    m = re.search(r"(\d+)\s*d\s*(\d+)", text, re.IGNORECASE)
    if not m:
        raise RulesError(f"cyberpunk_red data: no dice in {text!r}")
    return Dice(int(m.group(1)), int(m.group(2)))


def dice_of(spec: data.Prose) -> Dice:
    """The NdS dice a declared number's two groups read."""
    return Dice(*spec.read_dice())


def rows(table_id: str) -> list[tuple[str, ...]]:
    return [tuple(str(c) for c in r["cells"]) for r in data.table(GAME, table_id)["rows"]]


def _int(text: str) -> int:
    m = re.search(r"\d+", text)
    if not m:
        raise RulesError(f"cyberpunk_red data: no number in {text!r}")
    return int(m.group(0))
