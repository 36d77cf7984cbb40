"""The one reader of numbers in the sources' text: a table cell's number, range or
modifier, a signed number after its anchor, a number word. Pure text functions, used by
rules_pkg.data's declared specs (Table, Entry) and, as data.number etc., by the rules on
the cells of declared tables."""

from __future__ import annotations

import re

from .errors import RulesError

_INT = re.compile(r"^\s*([+\-]?\d+)")
_SPAN = re.compile(r"^\s*(\d+)\s*[-\u2013]\s*(\d+)\s*$")
_MODIFIER = re.compile(r"^\s*([+\-]\s*\d+|\d+)")


def number(cell: str) -> int:
    """A cell's leading number: '+2' -> 2, '-1 Die' -> -1, '0' -> 0."""
    m = _INT.match(cell)
    if not m:
        raise RulesError(f"cannot read a number from {cell!r}")
    return int(m.group(1))


def span(cell: str) -> tuple[int, int] | None:
    """'6-10' -> (6, 10); a cell that is not a range (a sub-header) -> None."""
    m = _SPAN.match(cell)
    return (int(m.group(1)), int(m.group(2))) if m else None


def modifier(cell: str) -> int | None:
    """A modifier cell: '+2' -> 2, '-1' -> -1, 'OK'/'-'/'' -> 0, 'X' (not allowed) -> None."""
    text = cell.strip()
    if text.upper() == "X":
        return None
    if text in {"", "OK", "-"}:
        return 0
    m = _MODIFIER.match(text)
    if not m:
        raise RulesError(f"cannot read the modifier {cell!r} from the sheet")
    return int(m.group(1).replace(" ", ""))


# An AP score or a band of them, as Horizon's profiles print them: "17", "17 AP", "0 - 5",
# "10AP - 14AP".
_BAND = re.compile(r"^\s*(\d+)\s*(?:AP)?\s*(?:-\s*(\d+)\s*(?:AP)?)?\s*$")
_DICE = re.compile(r"(\d+)\s*d\s*(\d+)", re.IGNORECASE)


def band(cell: str) -> tuple[int, int] | None:
    """'17' -> (17, 17), '0 - 5' -> (0, 5); a cell that is neither -> None."""
    m = _BAND.match(cell)
    return (int(m.group(1)), int(m.group(2) or m.group(1))) if m else None


def amount(cell: str) -> int:
    """The one whole number of a cell that says what it counts: 'DV 11', '50 HP', '5HP',
    '2 Damage direct to HP'. A cell with none, or with two, is refused."""
    found = re.findall(r"\d+", cell)
    if len(found) != 1:
        raise RulesError(f"cannot read one amount from {cell!r}")
    return int(found[0])


def dice(cell: str) -> tuple[int, int]:
    """(N, sides) of the NdS a cell names: '2d6 Damage direct to HP' -> (2, 6)."""
    m = _DICE.search(cell)
    if not m:
        raise RulesError(f"no dice like '2d6' in {cell!r}")
    return int(m.group(1)), int(m.group(2))


def _band_cell(cell: str) -> tuple[int, int]:
    found = band(cell)
    if found is None:
        raise RulesError(f"cannot read an AP score or band like '0 - 5' from {cell!r}")
    return found


def _span_cell(cell: str) -> tuple[int, int]:
    found = span(cell)
    if found is None:
        raise RulesError(f"cannot read a range like '6-10' from {cell!r}")
    return found


# A signed number as a sheet writes it: "-30 penalty", "+20 bonus", "Skill+20", "+1 Dos".
_SIGNED = re.compile(r"([+\-\u2212\u2013])\s?(\d+)")


def signed_numbers(text: str) -> list[int]:
    """Every signed number in `text`, in order: "take a -30 penalty ... +10 bonus" -> [-30, 10]."""
    return [(-1 if m.group(1) != "+" else 1) * int(m.group(2)) for m in _SIGNED.finditer(text)]


def number_after(text: str, anchor: str, nth: int = 0) -> int:
    """The nth signed number after the first occurrence of `anchor` (case-insensitive)."""
    at = text.lower().find(anchor.lower())
    if at < 0:
        raise RulesError(f"{anchor!r} not found in {text[:60]!r}…")
    found = signed_numbers(text[at + len(anchor) :])
    if len(found) <= nth:
        raise RulesError(f"no modifier after {anchor!r} in {text[:60]!r}…")
    return found[nth]


_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}  # "two gear rows"
