"""The structured model every source document is extracted into.

Pages (scripts/site) and rules (rules_pkg, via rules_pkg/data/<game>.json)
both read this model; nothing is typed twice. Every block keeps the 1-based,
inclusive range of source lines it came from, so a lint message or a table
row can always be traced back to the document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

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
