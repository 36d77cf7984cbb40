"""The sheet: table ids, the small parser of modifier numbers, rows of the extracted tables."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .. import data
from ..errors import RulesError
from ..registry import Highlight

GAME = "d100"
SOURCE = "d100 Combat Circumstances and Status Effects"
CIRC = f"{SOURCE} § Combat Circumstances"
STATUS = f"{SOURCE} § Status Effects"
# the extracted table ids (scripts/extract/d100.py)
TABLES_ALL = (
    "combat-circumstances",
    "ranged-attack-distance",
    "status-modifiers",
    "status-effects",
)
DOS_RULE = "standard d100 rule (DH2e): DoS/DoF = 1 + difference of the tens digits"

# -- the small parser: modifier numbers out of cell text ----------------------------------

# A signed number as the sheet writes it: "-30 penalty", "+20 bonus", "Skill+20", "+1 Dos".
_SIGNED = re.compile(r"([+\-\u2212\u2013])\s?(\d+)")


def signed_numbers(text: str) -> list[int]:
    """Every signed number in `text`, in order: "take a -30 penalty ... +10 bonus" -> [-30, 10]."""
    return [(-1 if m.group(1) != "+" else 1) * int(m.group(2)) for m in _SIGNED.finditer(text)]


def number_after(text: str, anchor: str, nth: int = 0) -> int:
    """The nth signed number after the first occurrence of `anchor` (case-insensitive)."""
    at = text.lower().find(anchor.lower())
    if at < 0:
        raise RulesError(f"d100 data: {anchor!r} not found in {text[:60]!r}…")
    found = signed_numbers(text[at + len(anchor) :])
    if len(found) <= nth:
        raise RulesError(f"d100 data: no modifier after {anchor!r} in {text[:60]!r}…")
    return found[nth]


def plain_number(text: str, pattern: str) -> int:
    """An unsigned number picked by a regex with one group, e.g. r"(\\d+) or higher"."""
    m = re.search(pattern, text, re.IGNORECASE)
    if not m:
        raise RulesError(f"d100 data: {pattern!r} not found in {text[:60]!r}…")
    return int(m.group(1))


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


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


@cache
def _rows() -> dict[str, Row]:
    """Every row of every d100 table by its (normalised) first cell."""
    out: dict[str, Row] = {}
    for tid, t in data.tables(GAME).items():
        for i, r in enumerate(t["rows"]):
            cells = tuple(str(c) for c in r["cells"])
            if not cells or not cells[0].strip():
                continue
            key = _norm(cells[0])
            # a status listed in both tables: keep the first (Combat Circumstances) row,
            # and the Status Effects one under "<name> effect".
            if key in out:
                key = f"{key} effect"
            out[key] = Row(tid, i, cells[0].strip(), " ".join(cells[1:]), cells)
    return out


def row(name: str) -> Row:
    """The row called `name` (first cell), e.g. row("Darkness"); the Status Effects
    duplicate of a name is row("Dazed effect")."""
    try:
        return _rows()[_norm(name)]
    except KeyError:
        raise RulesError(f"d100 data: no row {name!r} in the extracted tables") from None
