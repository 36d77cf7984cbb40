"""Assemble a Document from a flat stream of headings and blocks (shared by the dialects).

A dialect walks its source top to bottom and calls `heading()` / `add()`;
`DocBuilder` nests sections by level, hands out unique section and table ids,
and computes each section's line range. Stable API for other dialects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

from .clean import clean_line
from .files import unshown
from .model import Block, Document, Lint, Section, Table
from .util import UniqueIds, slugify


@dataclass
class _Open:
    id: str
    title: str
    level: int
    line: int
    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)


def _last_line(blocks: list[Block], sections: list[Section], default: int) -> int:
    ends = [b.lines[1] for b in blocks] + [s.lines[1] for s in sections]
    return max([default, *ends])


def heading_hint(hints: Mapping[str, Any], text: str) -> int | None:
    """Level a hints file gives this exact line (`[headings] "Text" = level`), if any."""
    table = hints.get("headings", {})
    if isinstance(table, Mapping):
        level = table.get(text.strip())
        if isinstance(level, int) and 1 <= level <= 6:
            return level
    return None


def default_title(source: str) -> str:
    stem = clean_line(unshown(PurePosixPath(source).stem))
    words = stem.replace("-", " ").replace("_", " ").strip()
    return words.title() or "Document"


class DocBuilder:
    def __init__(self, source: str, hints: Mapping[str, Any]) -> None:
        self.source = source
        self.hints = hints
        self.section_ids = UniqueIds()
        self.table_ids = UniqueIds()
        self.stack: list[_Open] = []
        self.top: list[Section] = []
        self.first_title = ""
        self.lint: list[Lint] = []

    # -- structure -----------------------------------------------------------------
    def heading(self, level: int, title: str, line: int) -> None:
        title = title.strip()
        level = max(1, min(level, 6))
        while self.stack and self.stack[-1].level >= level:
            self._close()
        if not self.first_title and level == 1:
            self.first_title = title
        self.stack.append(_Open(self.section_ids(title), title, level, line))

    def add(self, block: Block) -> None:
        if not self.stack:  # text before the first heading: a section named after the document
            title = self.title()
            # id "intro", not the title's slug: the heading that may follow keeps its own id
            self.stack.append(_Open(self.section_ids("intro"), title, 1, block.lines[0]))
        self.stack[-1].blocks.append(block)

    def table_id(self, hint: str = "", header: tuple[str, ...] = ()) -> str:
        """A stable table id: the hint, else a title-only header ('Success Based Damage' | ''),
        else the current section's title, else 'table'; renamed by hints `[table_ids] old = "new"`.
        """
        titled = [h for h in header if h.strip()]
        if not hint and len(header) >= 2 and len(titled) == 1:
            hint = titled[0]
        base = hint or (self.stack[-1].title if self.stack else "") or "table"
        tid = self.table_ids(base, "table")
        renames = self.hints.get("table_ids", {})
        new = renames.get(tid) if isinstance(renames, Mapping) else None
        return new if isinstance(new, str) and new else tid

    def warn(self, line: int, message: str) -> None:
        self.lint.append(Lint(self.source, line, message))

    def _close(self) -> None:
        o = self.stack.pop()
        sec = Section(o.id, o.title, o.level, (o.line, _last_line(o.blocks, o.sections, o.line)),
                      tuple(o.blocks), tuple(o.sections))
        (self.stack[-1].sections if self.stack else self.top).append(sec)

    # -- result --------------------------------------------------------------------
    def title(self) -> str:
        t = self.hints.get("title")
        if isinstance(t, str) and t.strip():
            return t.strip()
        return self.first_title or default_title(self.source)

    def game(self) -> str:
        g = self.hints.get("game")
        if isinstance(g, str) and g:
            return g
        return slugify(PurePosixPath(self.source).stem, "document")

    def finish(self, records: Mapping[str, Any] | None = None) -> Document:
        while self.stack:
            self._close()
        return Document(self.source, self.game(), self.title(), tuple(self.top),
                        dict(records or {}), tuple(self.lint))


def walk_tables(sections: tuple[Section, ...]) -> list[tuple[Section, Table]]:
    """Every table with the section that holds it, in document order."""
    out: list[tuple[Section, Table]] = []
    for s in sections:
        out.extend((s, b) for b in s.blocks if isinstance(b, Table))
        out.extend(walk_tables(s.sections))
    return out


def with_lint(doc: Document, extra: list[Lint]) -> Document:
    return replace(doc, lint=doc.lint + tuple(extra))
