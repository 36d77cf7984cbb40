"""Read a built page back: its tables (cells as text, flags apart), blocks and ids."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

_MD = MarkdownIt("js-default")


def expected_text(text: str, inline: str) -> str:
    """What a browser shows for a model text: Markdown rendered (tags dropped), else as is."""
    if inline == "markdown":
        text = html.unescape(re.sub(r"<[^>]*>", "", _MD.renderInline(text)))
    return norm(text)


def norm(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Table:
    id: str
    elem_id: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    row_attrs: list[dict[str, str]] = field(default_factory=list)
    linted: list[tuple[int, int, str]] = field(default_factory=list)  # (row, col, flag title)


class PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.ids: list[str] = []
        self.lines: list[tuple[str, int]] = []  # (ts class, data-line) of blocks
        self._cell: list[str] | None = None
        self._cell_linted = False
        self._in_flag = False
        self._flag_titles: list[str] = []
        self._in_thead = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        cls = a.get("class", "").split()
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "table" and "data-table" in a:
            self.tables.append(Table(a["data-table"], a.get("id", "")))
        elif (tag == "p" and "ts-para" in cls) or (tag == "div" and "ts-list" in cls):
            self.lines.append((cls[0], int(a.get("data-line", "0"))))
        if not self.tables:
            return
        t = self.tables[-1]
        if tag == "thead":
            self._in_thead = True
        elif tag == "tr" and not self._in_thead:
            t.row_attrs.append(a)
        elif tag in {"td", "th"}:
            self._cell, self._cell_linted, self._flag_titles = [], "ts-linted" in cls, []
        elif tag == "span" and "ts-flag" in cls and self._cell is not None:
            self._in_flag = True  # a flag holds only its symbol
            self._flag_titles.append(a.get("title", ""))

    def handle_endtag(self, tag: str) -> None:
        if self._in_flag and tag == "span":
            self._in_flag = False
            return
        if tag == "thead":
            self._in_thead = False
        if tag in {"td", "th"} and self._cell is not None and self.tables:
            t = self.tables[-1]
            text = norm("".join(self._cell))
            if self._in_thead:
                t.header.append(text)
            else:
                if len(t.rows) < len(t.row_attrs):
                    t.rows.append([])
                t.rows[-1].append(text)
                if self._cell_linted:
                    t.linted.extend((len(t.rows) - 1, len(t.rows[-1]) - 1, title)
                                    for title in self._flag_titles)
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._in_flag:
            self._cell.append(data)


def parse(path: Path) -> PageParser:
    p = PageParser()
    p.feed(path.read_text("utf-8"))
    p.close()
    return p


def content_pages(site: Path) -> list[Path]:
    """Every generated game page except cheat sheets (which repeat content on purpose)."""
    return sorted(p for p in site.rglob("*.html")
                  if "cheat-sheet" not in p.parts and p.parent != site
                  and p.relative_to(site).parts[0] not in {"assets", "search", "data"})


def _walk(sections: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for s in sections:
        yield s
        yield from _walk(s.get("sections", []))


def assert_tables_cell_by_cell(doc: dict[str, Any], site_dir: Path,
                               pages: dict[Path, PageParser]) -> None:
    """Every table of a game's model is on exactly one of its pages, header, rows and cells
    as the model has them (rows carry their index and source line), lint flags included."""
    slug = doc["game"].replace("_", "-")
    found = {t.id: t for p, parsed in pages.items() if p.relative_to(site_dir).parts[0] == slug
             for t in parsed.tables}
    counts = Counter(t.id for p, parsed in pages.items()
                     if p.relative_to(site_dir).parts[0] == slug for t in parsed.tables)
    lint = [i for i in doc.get("lint", []) if i.get("table")]
    n = 0
    for sec in _walk(doc["sections"]):
        for block in sec["blocks"]:
            if block["type"] != "table":
                continue
            n += 1
            tid, inline = block["id"], block.get("inline", "text")
            assert counts[tid] == 1, f"table {tid} appears {counts[tid]} times"
            table = found[tid]
            assert table.header == [expected_text(h, inline) for h in block["header"]], tid
            assert len(table.rows) == len(block["rows"]), tid
            for r, (row, attrs) in enumerate(zip(block["rows"], table.row_attrs, strict=True)):
                assert table.rows[r] == [expected_text(c, inline) for c in row["cells"]], (tid, r)
                assert attrs["data-row"] == str(r) and attrs["data-line"] == str(row["line"])
            for item in (i for i in lint if i["table"] == tid and i.get("row", -1) >= 0):
                col = max(item.get("column", -1), 0)
                assert any(r == item["row"] and c == col and item["message"] in title
                           for r, c, title in table.linted), f"no flag for {item}"
    assert len(found) == n, f"pages show tables the model does not have: {set(found) - set()}"
