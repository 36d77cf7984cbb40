"""What a calculator answers: a Result (summary, values of a kind, steps, odds, dice,
highlighted table rows, notes) and its JSON form for the browser (shapes.ResultDict)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from .dice import Distribution
from .shapes import FracDict, ResultDict, ValueEntry, ValueKind

VALUE_KINDS: tuple[ValueKind, ...] = ("probability", "mean", "count", "dice", "text")
_DICE_TEXT = re.compile(r"^\d*d\d+([+-]\d+)?$")


@dataclass(frozen=True)
class Die:
    """One die as rolled, for display: e.g. Die(6, 6, '✘', 'base')."""

    sides: int
    value: int
    label: str = ""  # what the face means in the game: "✘", "☠", "+2 AP" …
    kind: str = ""  # which pool it belongs to: "base", "skill", "gear" …


@dataclass(frozen=True)
class Highlight:
    """A table row the result used: table id (from the extracted data) and row index."""

    table: str
    row: int


@dataclass(frozen=True)
class OddsRow:
    outcome: str
    exactly: Fraction
    at_least: Fraction | None = None


@dataclass(frozen=True)
class Odds:
    title: str
    rows: tuple[OddsRow, ...]

    @staticmethod
    def of(dist: Distribution[Any], title: str,
           label: Callable[[Any], str] = str, cumulative: bool = True) -> Odds:
        """Exact odds of a distribution, with P(at least) for ordered outcomes."""
        # One pass over the integer counts: the tail count gives P(at least) exactly,
        # without summing fractions row by row (quadratic on long tables).
        total = dist.total
        rows: list[OddsRow] = []
        tail = total
        for o, c in dist.items:
            rows.append(OddsRow(label(o), Fraction(c, total),
                                Fraction(tail, total) if cumulative else None))
            tail -= c
        return Odds(title, tuple(rows))


@dataclass(frozen=True)
class Result:
    """What a calculator returns: values, explanation steps, odds, dice, highlights."""

    summary: str  # one line: the answer
    # named values with their kind, e.g. (("Damage", 22, "count"),); a value given as a
    # pair gets its kind from value_kind()
    values: tuple[tuple[Any, ...], ...] = ()
    steps: tuple[str, ...] = ()  # the explanation in the game's own words
    odds: tuple[Odds, ...] = ()
    dice: tuple[Die, ...] = ()
    highlight: tuple[Highlight, ...] = ()
    notes: tuple[str, ...] = ()  # e.g. "not in the source: …"

    def __post_init__(self) -> None:
        typed = tuple(v if len(v) == 3 else (v[0], v[1], value_kind(v[0], v[1]))
                      for v in self.values)
        for name, _, kind in typed:
            if kind not in VALUE_KINDS:
                raise ValueError(f"value {name!r}: {kind!r} is not a kind of value")
        object.__setattr__(self, "values", typed)

    def value(self, name: str) -> Any:
        for k, v, *_ in self.values:
            if k == name:
                return v
        raise KeyError(name)

    def kind(self, name: str) -> ValueKind:
        for k, _, kind in self.values:
            if k == name:
                return cast(ValueKind, kind)
        raise KeyError(name)

    def to_dict(self) -> ResultDict:
        """JSON-ready form for the browser (fractions as 'n/d' plus a float)."""
        return {
            "summary": self.summary,
            # a list in Python, an array in JSON: typed as the triple it is (shapes.py)
            "values": [cast(ValueEntry, [k, _jsonable(v), kind]) for k, v, kind in self.values],
            "steps": list(self.steps),
            "odds": [{"title": o.title, "rows": [
                {"outcome": r.outcome, "exactly": _frac(r.exactly),
                 "at_least": None if r.at_least is None else _frac(r.at_least)}
                for r in o.rows]} for o in self.odds],
            "dice": [{"sides": d.sides, "value": d.value, "label": d.label, "kind": d.kind}
                     for d in self.dice],
            "highlight": [{"table": h.table, "row": h.row} for h in self.highlight],
            "notes": list(self.notes),
        }


def value_kind(name: str, value: Any) -> ValueKind:
    """The kind of a value given without one: a fraction named "P(...)" is a probability,
    any other fraction a mean; whole numbers are counts; dice notation is dice; the rest text."""
    if isinstance(value, Fraction):
        return "probability" if name.startswith("P(") else "mean"
    if isinstance(value, bool) or value is None:
        return "text"
    if isinstance(value, int):
        return "count"
    if isinstance(value, list | tuple) and all(isinstance(x, int) for x in value):
        return "count"
    if isinstance(value, str) and _DICE_TEXT.match(value.strip()):
        return "dice"
    return "text"


def _frac(f: Fraction) -> FracDict:
    return {"text": f"{f.numerator}/{f.denominator}", "value": float(f)}


def _jsonable(v: Any) -> Any:
    if isinstance(v, Fraction):
        return _frac(v)
    if isinstance(v, bool | int | float | str) or v is None:
        return v
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    return str(v)
