"""The JSON shapes the browser reads from the registry: `Input.to_dict()`,
`Calculator.to_dict()` (registry.json) and `Result.to_dict()` (each reply).

Declared once, here, as TypedDicts: mypy (strict) checks each `to_dict` against its shape,
and `scripts/types_gen.py` writes them as TypeScript declarations for the calculators'
JSDoc types (`build/types/contracts.d.ts`, the `Registry` namespace), so the browser's code
is type-checked against what Python really sends.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

InputKind = Literal["int", "choice", "bool", "text"]
# What a value of a Result is, so the UI formats it (a mean is never shown as a percentage).
ValueKind = Literal["probability", "mean", "count", "dice", "text"]
# One value of a Result: [name, value, kind].
ValueEntry = tuple[str, Any, ValueKind]


class FracDict(TypedDict):
    """An exact fraction: "n/d", and its value as a float."""

    text: str
    value: float


class BoundDict(TypedDict):
    """A limit that follows other inputs (registry.Bound): a table keyed by their values,
    or per x one int input + plus."""

    on: list[str]
    why: str
    table: NotRequired[list[tuple[list[str], int]]]
    per: NotRequired[int]
    plus: NotRequired[int]


class UnlikeDict(TypedDict):
    """An input whose value this one may not hold too (registry.Unlike)."""

    on: str
    why: str


class InputDict(TypedDict):
    """One input of a calculator's form."""

    name: str
    label: str
    kind: InputKind
    default: Any
    min: NotRequired[int]
    max: NotRequired[int]
    choices: NotRequired[list[list[str]]]  # [value, label]
    help: NotRequired[str]
    from_table: NotRequired[str]
    min_by: NotRequired[BoundDict]
    max_by: NotRequired[BoundDict]
    unlike: NotRequired[UnlikeDict]


class CalculatorDict(TypedDict):
    """One calculator, as registry.json lists it."""

    id: str
    game: str
    title: str
    source: str
    description: str
    rolls: bool
    tables: list[str]
    sections: list[str]
    inputs: list[InputDict]


class OddsRowDict(TypedDict):
    outcome: str
    exactly: FracDict
    at_least: FracDict | None


class OddsDict(TypedDict):
    title: str
    rows: list[OddsRowDict]


class DieDict(TypedDict):
    sides: int
    value: int
    label: str
    kind: str


class HighlightDict(TypedDict):
    table: str
    row: int


class ResultDict(TypedDict):
    """A calculator's answer. Each value is [name, value, kind]; a value is an exact
    fraction (FracDict), a number, text, a bool, null or a list of them."""

    summary: str
    values: list[ValueEntry]
    steps: list[str]
    odds: list[OddsDict]
    dice: list[DieDict]
    highlight: list[HighlightDict]
    notes: list[str]
