"""The data the build extracts from sources/, as shipped inside the package.

`rules_pkg/data/<game>.json` is written by `make data` (scripts/extract) and
committed as the reviewed golden output; rules read tables from it, never
re-typed. Loaded lazily so `import rules_pkg` stays fast.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .cells import _WORDS, _band_cell, _span_cell
from .cells import amount as amount  # the readers, re-exported as data.number etc.
from .cells import band as band
from .cells import dice as dice
from .cells import modifier as modifier
from .cells import number as number
from .cells import number_after as number_after
from .cells import signed_numbers as signed_numbers
from .cells import span as span
from .errors import RulesError
from .model import BlockData, DocumentData, SectionData, TableData


@cache
def document(game: str) -> DocumentData:
    try:
        text = resources.files("rules_pkg").joinpath("data", f"{game}.json").read_text("utf-8")
    except FileNotFoundError:
        raise RulesError(f"no extracted data for {game!r}: run `make data`") from None
    doc: DocumentData = json.loads(text)
    return doc


def _walk_tables(sections: list[SectionData]) -> Iterable[TableData]:
    for s in sections:
        for b in s["blocks"]:
            if b["type"] == "table":
                yield b
        yield from _walk_tables(s["sections"])


@cache
def tables(game: str) -> dict[str, TableData]:
    """Every table of a game's document, by table id."""
    return {t["id"]: t for t in _walk_tables(document(game)["sections"])}


def table(game: str, table_id: str) -> TableData:
    try:
        return tables(game)[table_id]
    except KeyError:
        raise RulesError(f"no table {table_id!r} in the {game} data") from None


def records(game: str, kind: str) -> list[Any]:
    recs: list[Any] = document(game).get("records", {}).get(kind, [])
    return recs


# -- prose: the text of a section, and numbers the rules read from it -----------------------------
def _texts(blocks: Iterable[BlockData]) -> Iterable[str]:
    for b in blocks:
        if b["type"] == "paragraph":
            yield b["text"]
        elif b["type"] == "list":
            stack = list(b["items"])
            while stack:
                it = stack.pop(0)
                yield it["text"]
                stack[:0] = it.get("children", [])
        elif b["type"] == "table":
            for r in b["rows"]:
                yield " ".join(r["cells"])


def _sections(ss: list[SectionData]) -> Iterable[SectionData]:
    for s in ss:
        yield s
        yield from _sections(s.get("sections", []))


@cache
def section_id(game: str, title: str) -> str:
    """The id of the section the source titles `title` (as a citation writes it: a trailing
    "(...)" may say which part of the section is meant). A title the source lacks fails."""
    by_title = {s["title"].casefold(): s["id"] for s in _sections(document(game)["sections"])}
    for t in (title, re.sub(r"\s*\([^()]*\)$", "", title)):
        if t.casefold() in by_title:
            return by_title[t.casefold()]
    raise RulesError(f"{game} data: no section titled {title!r}")


@cache
def section_text(game: str, section_id: str) -> str:
    """All text of a section and its subsections, whitespace normalised."""
    for s in _sections(document(game)["sections"]):
        if s["id"] == section_id:
            parts = list(_texts(s.get("blocks", [])))
            parts += [t for sub in _sections(s.get("sections", []))
                      for t in _texts(sub.get("blocks", []))]
            return re.sub(r"\s+", " ", " ".join(parts).replace("\u00a0", " "))
    raise RulesError(f"{game} data: no section {section_id!r}")


def prose_number(game: str, section_id: str, pattern: str, group: int = 1) -> int:
    """A number the source writes in prose, found by a regex in its section: a changed
    source fails here, loudly, naming the section and the words it looked for."""
    m = re.search(pattern, section_text(game, section_id), re.IGNORECASE)
    if not m:
        raise RulesError(f"{game} data: {pattern!r} not found in § {section_id}")
    return int(m.group(group))


# -- declared reads: a number the rules take from the source's prose -------------------------
@dataclass(frozen=True)
class Prose:
    """A number the source writes in prose, declared once where the rule uses it: the
    section and the words around it (a regex whose groups are the number, or N and sides
    of NdS dice). Every declaration is listed in SPECS, so one test reads them all against
    the data (tests/rules/test_specs.py) and a changed source fails there, by name."""

    game: str
    section: str
    pattern: str
    group: int = 1

    def read(self) -> int:
        return prose_number(self.game, self.section, self.pattern, self.group)

    def read_dice(self) -> tuple[int, int]:
        """(N, sides) of the NdS the pattern's two groups find."""
        return (prose_number(self.game, self.section, self.pattern, 1),
                prose_number(self.game, self.section, self.pattern, 2))


@dataclass(frozen=True)
class Words:
    """Words a rule stands on without reading a number from them ("cost double the
    squares"), declared once: `check()` fails, naming the section, when the source no
    longer says them. Listed in SPECS."""

    game: str
    section: str
    words: str

    def check(self) -> None:
        if self.words not in section_text(self.game, self.section):
            raise RulesError(f"{self.game} data: § {self.section} no longer says {self.words!r}")


# every spec declared (the games are imported by registry.calculators)
SPECS: list[Prose | Words | Table | Entry | Records] = []


def prose(game: str, section: str, pattern: str, group: int = 1) -> Prose:
    """Declare a number read from the source's prose (see Prose); listed in SPECS."""
    spec = Prose(game, section, pattern, group)
    SPECS.append(spec)
    return spec


def words(game: str, section: str, words: str) -> Words:
    """Declare words a rule needs its section to say (see Words); listed in SPECS."""
    spec = Words(game, section, words)
    SPECS.append(spec)
    return spec


# -- declared reads: a table the rules read, and its expected shape ----------------------------
def _table_titled(game: str, title: str) -> str:
    """The id of the table whose header or first row starts with `title`."""
    for tid, t in tables(game).items():
        cells = [*t["header"][:1], *(t["rows"][0]["cells"][:1] if t["rows"] else [])]
        if any(c.strip().lower().startswith(title.lower()) for c in cells):
            return tid
    raise RulesError(f"no {title!r} table in the {game} data")


# what each column kind of a declared table must hold (test_specs checks every cell)
CELL_KINDS: dict[str, Callable[[str], object]] = {
    "text": str, "number": number, "span": _span_cell, "modifier": modifier,
    "amount": amount, "dice": dice, "band": _band_cell}


@dataclass(frozen=True)
class Table:
    """A table the rules read, declared once: its id (or the words its title starts with,
    so a re-extraction that renames ids still finds it) and its shape, one kind per column
    (CELL_KINDS) and at least `min_rows` rows; the first `skip` rows are sub-headers;
    `more`: the kind of any further columns, for tables whose width varies (Horizon's
    banded profiles). Listed in SPECS; `rows()` checks the width and `check()` every
    cell, so a changed source fails by the table's name, never as a wrong row."""

    game: str
    key: str  # the table id, or its title's first words when `by_title`
    columns: tuple[str, ...]
    min_rows: int = 1
    by_title: bool = False
    skip: int = 0
    more: str = ""

    @property
    def id(self) -> str:
        return _table_titled(self.game, self.key) if self.by_title else self.key

    def raw(self) -> TableData:
        return table(self.game, self.id)

    def rows(self) -> list[tuple[str, ...]]:
        rows = [tuple(str(c) for c in r["cells"]) for r in self.raw()["rows"]]
        bad = [i for i, r in enumerate(rows) if len(r) != len(self.columns)
               and not (self.more and len(r) > len(self.columns))]
        if bad or len(rows) < self.min_rows:
            raise RulesError(f"{self.game} data: table {self.id!r} is no longer "
                             f"{len(self.columns)}{'+' if self.more else ''} cells x "
                             f"{self.min_rows}+ rows "
                             f"(rows {bad}, {len(rows)} rows)")
        return rows

    def check(self) -> None:
        """Every cell below the sub-headers reads as its column's kind."""
        for i, r in enumerate(self.rows()[self.skip:], self.skip):
            kinds = (*self.columns, *(self.more,) * (len(r) - len(self.columns)))
            for cell, kind in zip(r, kinds, strict=True):
                try:
                    CELL_KINDS[kind](cell)
                except RulesError as e:
                    raise RulesError(f"{self.game} data: table {self.id!r} row {i}: {e}") from None

    def header(self) -> tuple[str, ...]:
        return tuple(self.raw()["header"])

    def index(self, first_cell: str) -> int:
        """The index of the row whose first cell is `first_cell`."""
        for i, r in enumerate(self.rows()):
            if r[0] == first_cell:
                return i
        raise RulesError(f"{first_cell!r} is not a row of the {self.id} table")


def table_spec(game: str, key: str, columns: tuple[str, ...], min_rows: int = 1,
               *, by_title: bool = False, skip: int = 0, more: str = "") -> Table:
    """Declare a table the rules read (see Table); listed in SPECS."""
    if unknown := {*columns, *((more,) if more else ())} - set(CELL_KINDS):
        raise RulesError(f"unknown column kinds {sorted(unknown)} for table {key!r}")
    spec = Table(game, key, columns, min_rows, by_title, skip, more)
    SPECS.append(spec)
    return spec


# -- declared reads: a number written in a named row's text --------------------------------------
def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


@cache
def named_rows(specs: tuple[Table, ...]) -> dict[str, tuple[str, int, tuple[str, ...]]]:
    """Every row of the tables by its (normalised) first cell: (table id, index, cells).
    A name listed in two tables keeps the first, and the second is "<name> effect" (d100
    names a status in Status Modifiers and again in Status Effects)."""
    out: dict[str, tuple[str, int, tuple[str, ...]]] = {}
    for spec in specs:
        for i, cells in enumerate(spec.rows()):
            if not cells or not cells[0].strip():
                continue
            key = _norm(cells[0])
            out[f"{key} effect" if key in out else key] = (spec.id, i, cells)
    return out


def _game_tables(game: str) -> tuple[Table, ...]:
    return tuple(s for s in SPECS if isinstance(s, Table) and s.game == game)


def named_row(game: str, name: str,
              specs: tuple[Table, ...] | None = None) -> tuple[str, int, tuple[str, ...]]:
    """The row called `name` among the declared tables of `game` (or `specs`)."""
    try:
        return named_rows(specs or _game_tables(game))[_norm(name)]
    except KeyError:
        raise RulesError(f"{game} data: no row {name!r} in the extracted tables") from None


@dataclass(frozen=True)
class Entry:
    """A number written in the text of a row named by its first cell, declared once: the
    nth signed number after `anchor` ("take a -30"), or the unsigned group of `pattern`
    ("rolls a (\\d+) or higher", or its `group`). Listed in SPECS; a changed source fails
    by the row's name."""

    game: str
    row: str
    anchor: str = ""
    nth: int = 0
    pattern: str = ""
    group: int = 1
    cell: int = 0  # one cell of the row; 0: all its cells but the name

    def text(self) -> str:
        cells = named_row(self.game, self.row)[2]
        return cells[self.cell] if self.cell else " ".join(cells[1:])

    def maybe(self) -> int | None:
        """The number, or None when the pattern matched without its group (an "n/a")."""
        text = self.text()
        try:
            if self.pattern:
                m = re.search(self.pattern, text, re.IGNORECASE)
                if not m:
                    raise RulesError(f"{self.pattern!r} not found in {text[:60]!r}…")
                found = m.group(self.group)
                if found is None:
                    return None
                if found.lower() in _WORDS:
                    return _WORDS[found.lower()]
                if not found.isdigit():
                    raise RulesError(f"{found!r} is not a number ({self.pattern!r})")
                return int(found)
            return number_after(text, self.anchor, self.nth)
        except RulesError as e:
            raise RulesError(f"{self.game} data, row {self.row!r}: {e}") from None

    def read(self) -> int:
        value = self.maybe()
        if value is None:
            raise RulesError(f"{self.game} data, row {self.row!r}: no number for "
                             f"{self.pattern!r}")
        return value


def entry(game: str, row: str, anchor: str = "", nth: int = 0, *, pattern: str = "",
          group: int = 1, cell: int = 0) -> Entry:
    """Declare a number read from a named row's text (see Entry); listed in SPECS."""
    if bool(anchor) == bool(pattern):
        raise RulesError("an entry reads after an anchor or by a pattern, one of the two")
    spec = Entry(game, row, anchor, nth, pattern, group, cell)
    SPECS.append(spec)
    return spec


# -- declared reads: records the extraction made (Horizon's weapon profiles) --------------------
@dataclass(frozen=True)
class Records:
    """The records of one kind the extraction made of a source, declared once with the
    fields each must have and how many there are at least. Listed in SPECS; `all()` fails
    by the kind's name when the extraction no longer gives them."""

    game: str
    kind: str
    fields: tuple[str, ...]
    min_count: int = 1

    def all(self) -> list[dict[str, Any]]:
        recs = [r for r in records(self.game, self.kind) if isinstance(r, dict)]
        lacking = [i for i, r in enumerate(recs) if any(f not in r for f in self.fields)]
        if lacking or len(recs) < self.min_count:
            raise RulesError(f"{self.game} data: the {self.kind} records are no longer "
                             f"{self.min_count}+ with {', '.join(self.fields)} "
                             f"(records {lacking}, {len(recs)} records)")
        return recs


def records_spec(game: str, kind: str, fields: tuple[str, ...], min_count: int = 1) -> Records:
    """Declare records the rules read (see Records); listed in SPECS."""
    spec = Records(game, kind, fields, min_count)
    SPECS.append(spec)
    return spec
