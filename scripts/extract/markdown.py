"""Markdown dialect: markdown-it-py ("js-default": CommonMark + pipe tables, HTML off).

A chain of named rules in the spirit of markdown-it-py, all keeping source line maps:
  carve_tab_tables  runs of TAB-separated lines (Forbidden Lands' tables) are cut out
                    of the text before markdown-it sees it (blanked, so line numbers hold)
  markdown_it       block tokens only: the "inline" core rule is disabled, so inline
                    Markdown stays as its source text (rendered later by the site)
  events            top-level tokens -> headings, paragraphs, lists, pipe tables
  hinted_headings   a paragraph or one-item list the hints file names in [headings]
                    becomes a heading (mecha's headings are plain lines)
  footnotes         a paragraph right after a table that starts like a footnote
                    ('*text', '\\*text', '¹ …') -> Table.notes
  coverage          any non-blank line no block kept (e.g. past markdown-it's nesting
                    limit) is kept as a plain-text paragraph and reported
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .build import DocBuilder, heading_hint
from .lines import (
    Line,
    check_text,
    is_footnote,
    split_lines,
    split_tab_row,
    tab_table_at,
)
from .model import Document, ListBlock, Paragraph, Row, Table
from .plaintext import nest_items

MAX_NESTING = 100  # markdown-it's own default for js-default; deeper content is kept as text


def parser() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "maxNesting": MAX_NESTING})
    # keep inline Markdown as its source text; also no emphasis work, so 10^5 '*' stay fast
    md.disable("inline")
    return md


@dataclass
class Event:
    """One top-level block in source order (line = 1-based first line)."""

    line: int
    kind: str  # heading | paragraph | list | table | text
    payload: Any
    end: int = 0


@dataclass
class Carved:
    lines: list[Line]  # the table's lines (header first)


@dataclass
class State:
    lines: list[Line]
    hints: Mapping[str, Any]
    b: DocBuilder
    events: list[Event] = field(default_factory=list)
    covered: set[int] = field(default_factory=set)  # 1-based lines some block kept
    text: list[str] = field(default_factory=list)  # the lines markdown-it reads (tables blanked)


# --- rule: carve TAB tables ------------------------------------------------------------


def carve_tab_tables(st: State) -> list[str]:
    """Blank out TAB tables (outside code fences) and queue them as table events."""
    out = [ln.text for ln in st.lines]
    fence = ""
    i = 0
    while i < len(st.lines):
        t = st.lines[i].text
        m = re.match(r"^ {0,3}(`{3,}|~{3,})", t)
        if m:
            fence = "" if fence and m.group(1)[0] == fence[0] else (fence or m.group(1))
        if fence or t.startswith(("\t", "    ")):
            i += 1
            continue
        j = tab_table_at(st.lines, i)
        if j > i:
            st.events.append(Event(st.lines[i].no, "table", Carved(st.lines[i:j]),
                                   st.lines[j - 1].no))
            st.covered.update(range(st.lines[i].no, st.lines[j - 1].no + 1))
            for k in range(i, j):
                out[k] = ""
            i = j
        else:
            i += 1
    return out


# --- rule: markdown-it tokens -> events --------------------------------------------------


def _span(tok: Token) -> tuple[int, int]:
    assert tok.map is not None
    return tok.map[0] + 1, max(tok.map[0] + 1, tok.map[1])


def _trim(st: State, a: int, b: int) -> tuple[int, int]:
    while b > a and st.lines[b - 1].blank:
        b -= 1
    return a, b


def _close(tokens: list[Token], i: int) -> int:
    """Index of the token closing tokens[i] (same nesting)."""
    depth = 0
    for k in range(i, len(tokens)):
        depth += tokens[k].nesting
        if depth == 0:
            return k
    return len(tokens) - 1


def token_events(st: State, tokens: list[Token]) -> None:
    deepest = max((t.level for t in tokens), default=0)
    if deepest >= MAX_NESTING - 2:
        st.b.warn(1, f"blocks nested past markdown-it's limit (maxNesting {MAX_NESTING}); "
                     "the deepest text is kept as plain paragraphs")
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open" and tok.map:
            a, b = _span(tok)
            st.events.append(Event(a, "heading", (int(tok.tag[1:]), tokens[i + 1].content), b))
            st.covered.update(range(a, b + 1))
            i = _close(tokens, i) + 1
        elif tok.type == "paragraph_open" and tok.map:
            a, b = _trim(st, *_span(tok))
            st.events.append(Event(a, "paragraph", tokens[i + 1].content, b))
            st.covered.update(range(a, b + 1))
            i = _close(tokens, i) + 1
        elif tok.type in ("bullet_list_open", "ordered_list_open") and tok.map:
            j = _close(tokens, i)
            list_event(st, tokens[i : j + 1])
            i = j + 1
        elif tok.type == "table_open" and tok.map:
            a, b = _trim(st, *_span(tok))
            st.events.append(Event(a, "table", "pipe", b))
            st.covered.update(range(a, b + 1))
            i = _close(tokens, i) + 1
        elif tok.type in ("fence", "code_block") and tok.map:
            a, b = _trim(st, *_span(tok))
            st.events.append(Event(a, "text", tok.content.rstrip("\n"), b))
            st.covered.update(range(a, b + 1))
            i += 1
        elif tok.type == "hr" and tok.map:
            st.covered.update(range(_span(tok)[0], _span(tok)[1] + 1))
            i += 1
        else:  # blockquote_open etc.: walk into it, its blocks count as top-level ones
            i += 1


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def list_event(st: State, tokens: list[Token]) -> None:
    """A list (with nested lists) -> flat (indent, text, lines) items -> nested ListItems."""
    top = tokens[0]
    flat: list[list[Any]] = []  # [indent, text parts, first, last]
    open_items: list[list[Any]] = []
    for tok in tokens:
        if tok.type == "list_item_open" and tok.map:
            first = tok.map[0] + 1
            col = _indent(st.lines[first - 1].text.replace("\t", "    "))
            parent = open_items[-1][0] if open_items else -1
            same_line = bool(open_items) and open_items[-1][2] == first
            indent = parent + 1 if same_line else max(col, parent + 1 if parent >= 0 else col)
            item: list[Any] = [indent, [], first, first]
            flat.append(item)
            open_items.append(item)
        elif tok.type == "list_item_close" and open_items:
            open_items.pop()
        elif tok.type in ("inline", "fence", "code_block") and tok.map and open_items:
            a, b = _trim(st, *_span(tok))
            open_items[-1][1].append(tok.content.rstrip("\n"))
            open_items[-1][3] = max(open_items[-1][3], b)
            st.covered.update(range(a, b + 1))
    # markdown-it nests only by content column; a sibling written one space deeper
    # (mecha: " - Degree of success…") is nested by nest_items' indent rule
    items = nest_items([(f[0], "\n".join(f[1]), (f[2], f[3])) for f in flat], st.b.warn)
    a = _span(top)[0]
    b = max([a, *(f[3] for f in flat)])
    start = int(str(top.attrs.get("start", 1))) if top.type == "ordered_list_open" else 1
    st.events.append(Event(a, "list", (items, top.type == "ordered_list_open", start), b))


# --- rule: coverage ----------------------------------------------------------------------


# a line of bare list/quote markers ("-", "1.", "> -") carries no text to lose
MARKERS_ONLY = re.compile(r"^(?:\s*(?:[-*+>]|\d{1,9}[.)]))+\s*$")


def coverage(st: State) -> None:
    """Non-blank lines no block kept become plain-text paragraphs (and a report line)."""
    missing = [ln for ln in st.lines if not ln.blank and ln.no not in st.covered
               and not MARKERS_ONLY.match(ln.text)]
    run: list[Line] = []
    for ln in [*missing, None]:
        if run and (ln is None or ln.no != run[-1].no + 1):
            text = "\n".join(x.text.strip() for x in run)
            if text.strip() not in ("", "|"):
                st.events.append(Event(run[0].no, "text", text, run[-1].no))
            run = []
        if ln is not None:
            run.append(ln)
    if missing:
        st.b.warn(missing[0].no, f"{len(missing)} line(s) no Markdown block kept (from line "
                                 f"{missing[0].no}); kept as plain text")


# --- events -> builder -------------------------------------------------------------------


def split_pipe_row(text: str) -> tuple[str, ...]:
    """Cells of a pipe-table row as the source has them (escaped '\\|' stays in its cell)."""
    t = text.strip()
    if t.startswith("|"):
        t = t[1:]
    if t.endswith("|") and not t.endswith("\\|"):
        t = t[:-1]
    return tuple(c.strip() for c in re.split(r"(?<!\\)\|", t))


def _table_from_lines(st: State, kind: str, a: int, b: int) -> Table:
    lines = st.lines[a - 1 : b]
    if kind == "pipe":
        header = split_pipe_row(lines[0].text)
        body = lines[2:]  # lines[1] is the |---|---| delimiter row
        rows = tuple(Row(split_pipe_row(ln.text), ln.no, (ln.no, ln.no)) for ln in body)
    else:
        header = split_tab_row(lines[0].text)
        rows = tuple(Row(split_tab_row(ln.text), ln.no, (ln.no, ln.no)) for ln in lines[1:])
    return Table(st.b.table_id(header=header), header, rows, (a, b), inline="markdown")


def _hinted(st: State, text: str) -> int | None:
    return heading_hint(st.hints, text) if "\n" not in text.strip() else None


def emit(st: State) -> None:
    events = sorted(st.events, key=lambda e: e.line)
    # the first level-1 heading titles the document (and any text before it)
    st.b.first_title = next((e.payload[1].strip() for e in events
                             if e.kind == "heading" and e.payload[0] == 1), "")
    k = 0
    while k < len(events):
        e = events[k]
        k += 1
        if e.kind == "heading":
            level, title = e.payload
            st.b.heading(level, title, e.line)
        elif e.kind == "paragraph":
            level = _hinted(st, e.payload)
            if level is not None:
                st.b.heading(level, e.payload.strip(), e.line)
            else:
                st.b.add(Paragraph(e.payload, (e.line, e.end), inline="markdown"))
        elif e.kind == "list":
            items, ordered, start = e.payload
            raw = st.lines[e.line - 1].text.strip()
            level = _hinted(st, raw) if len(items) == 1 and not items[0].children else None
            if level is not None:
                st.b.heading(level, raw, e.line)
            else:
                st.b.add(ListBlock(tuple(items), (e.line, e.end), ordered=ordered,
                                   inline="markdown", start=start))
        elif e.kind == "table":
            table = _table_from_lines(st, "pipe" if e.payload == "pipe" else "tab", e.line, e.end)
            # footnotes: the next block is a paragraph that starts like a footnote, <= 1 blank away
            nxt = events[k] if k < len(events) else None
            if (nxt is not None and nxt.kind == "paragraph" and nxt.line - e.end <= 2
                    and is_footnote(st.lines[nxt.line - 1].text)):
                notes = tuple(ln.text.strip() for ln in st.lines[nxt.line - 1 : nxt.end])
                table = Table(table.id, table.header, table.rows, (table.lines[0], nxt.end),
                              notes=notes, inline="markdown")
                k += 1
            st.b.add(table)
        elif e.kind == "text":
            st.b.add(Paragraph(e.payload, (e.line, e.end), inline="text"))


def _markdown_it(st: State) -> None:
    token_events(st, parser().parse("\n".join(st.text)))


def _carve(st: State) -> None:
    st.text = carve_tab_tables(st)


# the named, ordered core chain (markdown-it-py's Core ruler in miniature); a new layout
# adds its rule here, e.g. CORE.insert(1, ("my_rule", fn))
CORE: list[tuple[str, Callable[[State], None]]] = [
    ("carve_tab_tables", _carve),
    ("markdown_it", _markdown_it),
    ("coverage", coverage),
    ("emit", emit),
]


def extract(text: str, source: str, hints: Mapping[str, Any]) -> Document:
    check_text(text, source)
    lines = split_lines(text)
    st = State(lines, hints, DocBuilder(source, hints), text=[ln.text for ln in lines])
    for _, rule in CORE:
        rule(st)
    return st.b.finish()
