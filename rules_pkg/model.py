"""The structured model every source document is extracted into: one set of types.

scripts/extract builds these dataclasses and writes them as rules_pkg/data/<game>.json
(scripts/extract/serialize.py: a dataclass becomes a dict of its fields, a tuple a list);
pages (scripts/site) and rules (rules_pkg.data) read that JSON, typed by the *Data
TypedDicts below, its exact form: tests/extract/test_model.py checks each has its
dataclass's fields, so the writer and the readers cannot drift. Stdlib only (rules_pkg
runs in Pyodide); scripts import it, never the other way. Every block keeps the 1-based,
inclusive range of source lines it came from, so a lint message or a table row can
always be traced back to the document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

Lines = tuple[int, int]  # (first, last), 1-based, inclusive


@dataclass(frozen=True)
class Paragraph:
    text: str
    lines: Lines
    # "markdown": inline Markdown to render (HTML off); "text": plain text to escape.
    inline: Literal["markdown", "text"] = "text"
    type: Literal["paragraph"] = "paragraph"


@dataclass(frozen=True)
class ListItem:
    text: str
    lines: Lines
    children: tuple[ListItem, ...] = ()


@dataclass(frozen=True)
class ListBlock:
    items: tuple[ListItem, ...]
    lines: Lines
    ordered: bool = False
    inline: Literal["markdown", "text"] = "text"
    start: int = 1  # number of the first item of an ordered list ("2." starts at 2)
    type: Literal["list"] = "list"


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    line: int  # the source line the row starts on
    lines: Lines = (0, 0)  # full range when a row spans several lines


@dataclass(frozen=True)
class Table:
    id: str  # stable, unique within the document; rules_pkg refers to tables by it
    header: tuple[str, ...]
    rows: tuple[Row, ...]
    lines: Lines
    caption: str = ""
    notes: tuple[str, ...] = ()  # footnotes that belong to the table
    inline: Literal["markdown", "text"] = "text"
    type: Literal["table"] = "table"


Block = Paragraph | ListBlock | Table


@dataclass(frozen=True)
class Section:
    id: str  # slug, unique within the document
    title: str
    level: int  # 1 = top level
    lines: Lines
    blocks: tuple[Block, ...] = ()
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Lint:
    file: str  # path relative to the repo, e.g. sources/x.txt
    line: int
    message: str
    table: str = ""  # table id the value belongs to, if any
    row: int = -1  # row index in that table, if any
    column: int = -1  # column index in that row, if any

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Document:
    source: str  # path relative to the repo
    game: str  # game id: horizon, forbidden_lands, cyberpunk_red, mecha, d100, or a slug
    title: str
    sections: tuple[Section, ...]
    records: dict[str, Any] = field(default_factory=dict)  # domain records, e.g. weapon_profiles
    lint: tuple[Lint, ...] = ()


# -- the JSON form of the model, as rules_pkg/data/<game>.json holds it and rules_pkg reads it --
class ParagraphData(TypedDict):
    text: str
    lines: list[int]
    inline: Literal["markdown", "text"]
    type: Literal["paragraph"]


class ListItemData(TypedDict):
    text: str
    lines: list[int]
    children: list[ListItemData]


class ListBlockData(TypedDict):
    items: list[ListItemData]
    lines: list[int]
    ordered: bool
    inline: Literal["markdown", "text"]
    start: int
    type: Literal["list"]


class RowData(TypedDict):
    cells: list[str]
    line: int
    lines: list[int]


class TableData(TypedDict):
    id: str
    header: list[str]
    rows: list[RowData]
    lines: list[int]
    caption: str
    notes: list[str]
    inline: Literal["markdown", "text"]
    type: Literal["table"]


BlockData = ParagraphData | ListBlockData | TableData


class SectionData(TypedDict):
    id: str
    title: str
    level: int
    lines: list[int]
    blocks: list[BlockData]
    sections: list[SectionData]


class LintData(TypedDict):
    file: str
    line: int
    message: str
    table: str
    row: int
    column: int


class DocumentData(TypedDict):
    source: str
    game: str
    title: str
    sections: list[SectionData]
    records: dict[str, Any]
    lint: list[LintData]


# each dataclass and its JSON form (tests/extract/test_model.py checks their fields match)
JSON_FORMS: tuple[tuple[type, type], ...] = (
    (Paragraph, ParagraphData), (ListItem, ListItemData), (ListBlock, ListBlockData),
    (Row, RowData), (Table, TableData), (Section, SectionData), (Lint, LintData),
    (Document, DocumentData))
