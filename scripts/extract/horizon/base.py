"""Horizon: hints, the tokens the block rules emit, the rules' state and small cell helpers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..build import DocBuilder
from ..lines import Line
from ..model import Block, Lines, Lint
from ..plaintext import list_marker

MAX_HEADING = 100  # a longer line is prose
ROW = re.compile(r"^\d+(?:\.\d+)?(?:\s|$)")  # a profile row starts with its AP score
BAND = re.compile(r"^(\d+ - \d+)(?:\s+(.*))?$")  # banded layout: "0 - 5 2(3) x2 …"
INLINE_LABEL = re.compile(r"(?:^|(?<=\s))([A-Z][A-Za-z]*(?: / [A-Z][A-Za-z]*)?):(?=\s|$)")
LABEL_ROW = re.compile(r"^([^:]{1,40}):\s+(\S+(?:\s+\S+)+)$")  # "Die result: 1 2 3 4 5 6"
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


# --- hints -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableHint:
    id: str
    header: tuple[str, ...]
    row: re.Pattern[str]

    @property
    def header_line(self) -> str:
        return " ".join(self.header)


@dataclass(frozen=True)
class Hints:
    chrome: frozenset[str] = frozenset()
    profile_heading: re.Pattern[str] | None = None
    table_prefix: str = "profile-"
    columns: tuple[tuple[str, ...], ...] = ()  # header names as word tuples, longest first
    header_groups: tuple[tuple[str, ...], ...] = ()
    column_aliases: Mapping[str, str] = field(default_factory=dict)
    value_numbers: Mapping[str, float] = field(default_factory=dict)
    field_aliases: Mapping[str, str] = field(default_factory=dict)
    tables: tuple[TableHint, ...] = ()
    skills: Mapping[str, str] = field(default_factory=dict)


def _words(names: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(sorted((tuple(n.split()) for n in names if n.split()), key=len, reverse=True))


def read_hints(raw: Mapping[str, Any]) -> Hints:
    p: Mapping[str, Any] = raw.get("profiles", {}) or {}
    heading = p.get("heading")
    return Hints(
        chrome=frozenset(str(x).strip() for x in raw.get("chrome", [])),
        profile_heading=re.compile(heading) if isinstance(heading, str) else None,
        table_prefix=str(p.get("table_prefix", "profile-")),
        columns=_words(p.get("columns", [])),
        header_groups=_words(p.get("header_groups", [])),
        column_aliases=dict(p.get("column_aliases", {})),
        value_numbers={str(k): float(v) for k, v in dict(p.get("value_numbers", {})).items()},
        field_aliases=dict(p.get("field_aliases", {})),
        tables=tuple(TableHint(str(t["id"]), tuple(t["header"]), re.compile(t["row"]))
                     for t in raw.get("tables", [])),
        skills=dict(raw.get("skills", {})),
    )


# --- tokens the block rules emit ---------------------------------------------------------


@dataclass(frozen=True)
class HeadingTok:
    title: str
    lines: Lines
    repeated: bool  # printed twice: a collapsible section of the wiki


@dataclass(frozen=True)
class BlockTok:
    block: Block


@dataclass
class RawProfile:
    """One weapon profile as read, before its row cells are placed in columns."""

    heading: HeadingTok
    name: str
    tier: int
    name_line: Line | None
    fields: list[tuple[str, str, int]]  # (label as written, value as written, line)
    header: tuple[str, ...]
    header_lines: Lines
    notes: tuple[str, ...]
    layout: str  # "ap" | "banded"
    rows: list[tuple[Line, str, list[str]]]  # (line, key cell, the other cells in order)
    last: int


Token = HeadingTok | BlockTok | RawProfile


@dataclass
class State:
    lines: list[Line]
    hints: Hints
    b: DocBuilder
    tokens: list[Token] = field(default_factory=list)
    lint: list[Lint] = field(default_factory=list)

    def warn(self, line: int, message: str, table: str = "", row: int = -1,
             column: int = -1) -> None:
        self.lint.append(Lint(self.b.source, line, message, table, row, column))


# --- small helpers -----------------------------------------------------------------------


def _next_nonblank(lines: Sequence[Line], i: int) -> int:
    while i < len(lines) and lines[i].blank:
        i += 1
    return i


def _is_bullet(text: str) -> bool:
    return list_marker(text) is not None


def segment_header(words: Sequence[str],
                   h: Hints) -> tuple[tuple[str, ...], tuple[str, ...], list[str]]:
    """Group header words into (columns, spanning groups, unknown words), longest name first."""
    cols: list[str] = []
    groups: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(words):
        for names, out in ((h.header_groups, groups), (h.columns, cols)):
            hit = next((n for n in names if tuple(words[i:i + len(n)]) == n), None)
            if hit:
                out.append(" ".join(hit))
                i += len(hit)
                break
        else:  # an unknown word is its own column (and reported)
            cols.append(words[i])
            unknown.append(words[i])
            i += 1
    return tuple(cols), tuple(groups), unknown


def is_header_line(text: str, h: Hints) -> bool:
    words = text.split()
    return bool(words) and bool(h.columns) and not segment_header(words, h)[2]


def cells_of(text: str) -> list[str]:
    """Row tokens grouped into cells: 'x2' and '(x3)' belong to the number before them,
    '/' joins its neighbours ('Melee / 3'). Other tokens are one cell each."""
    toks = text.split()
    out: list[str] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if out and re.fullmatch(r"x\d+|\(x\d+\)", t):
            out[-1] += " " + t
        elif out and t == "/" and i + 1 < len(toks):
            out[-1] += " / " + toks[i + 1]
            i += 1
        else:
            out.append(t)
        i += 1
    return out


def shape(value: str) -> str:
    """A value's pattern: every number becomes 9 ('2(3) x2' -> '9(9) x9', '-5' -> '-9')."""
    return re.sub(r"\d+(?:\.\d+)?", "9", value)


def fits(cell: str, shapes: set[str]) -> bool:
    """Could this cell belong to a column whose full rows have these shapes? A bare
    number fits a column of compound values that start with a number ('8' ~ '2(3) x2')."""
    if not shapes:
        return True  # nothing known about the column
    s = shape(cell)
    return any(c == s or (c.startswith(s) and not c[len(s)].isalnum()) for c in shapes)


def num(value: str, words: Mapping[str, float]) -> float | None:
    """The number a cell stands for: its first number ('25/20/…' -> 25, 'Melee / 3' -> 3),
    or a hinted word ('Base' -> 0); None for blanks and other words."""
    v = value.strip()
    if v in words:
        return words[v]
    m = NUMBER.search(v)
    return float(m.group(0)) if m else None


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


def count_of(value: str) -> int | None:
    """'3Shots' -> 3, '+2Shots' -> 2, '4 Attacks' -> 4, '1Throw' -> 1; 'None', '' -> None."""
    m = re.fullmatch(r"\+?(\d+)\s*[A-Za-z]*", value.strip())
    return int(m.group(1)) if m else None


def amount_of(value: str) -> int | float | None:
    """'3' -> 3, '0.5' -> 0.5, '18Bar' -> 18, '0.5Bar' -> 0.5; 'None', '' -> None."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[A-Za-z]*", value.strip())
    if not m:
        return None
    x = float(m.group(1))
    return int(x) if x == int(x) else x
