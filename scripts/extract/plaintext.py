"""Generic plain-text dialect: the fallback for any .txt (or unknown) rules document.

Rules, in order (a RuleChain over lines; the first that claims a line wins):
  blank       skip blank lines
  hinted      a line the hints file names in [headings] becomes a heading
  tab_table   2+ consecutive lines with TABs -> Table (+ footnotes right after it)
  space_table 3+ lines that all split into the same 2+ cells on runs of 2+ spaces -> Table
  list        bullet (-, *, +, •, ❖, ▪) or numbered (1. 1) a.) lines -> ListBlock, nested by indent
  heading     a short line alone between blank lines, without final punctuation -> heading
  paragraph   everything else, up to the next blank line or block start
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .build import DocBuilder, heading_hint
from .lines import (
    Line,
    RuleChain,
    check_text,
    footnotes_after,
    space_table_at,
    split_lines,
    split_space_row,
    split_tab_row,
    tab_table_at,
    table_rows,
)
from .model import Document, ListBlock, ListItem, Paragraph, Table

BULLET = re.compile(r"^(\s*)([-*+•●▪◦❖➢►\u2013])\s+(\S.*)$")
NUMBER = re.compile(r"^(\s*)(\d{1,3}|[a-zA-Z])([.)])\s+(\S.*)$")
MAX_HEADING = 60


@dataclass
class State:
    lines: list[Line]
    b: DocBuilder
    hints: Mapping[str, Any]


def list_marker(text: str) -> tuple[int, bool, str, int] | None:
    """(indent, ordered, item text, number) of a list line, else None."""
    m = BULLET.match(text)
    if m:
        return len(m.group(1).expandtabs(4)), False, m.group(3).strip(), 0
    m = NUMBER.match(text)
    if m and (m.group(2).isdigit() or len(text.strip()) > 3):
        num = int(m.group(2)) if m.group(2).isdigit() else ord(m.group(2).lower()) - 96
        return len(m.group(1).expandtabs(4)), True, m.group(4).strip(), num
    return None


MAX_DEPTH = 16  # deeper lists are flattened at this depth (and reported): no reader nests further


def nest_items(flat: list[tuple[int, str, tuple[int, int]]], warn: Any) -> list[ListItem]:
    """Nest (indent, text, lines) items by indentation, without recursion (any depth is safe)."""
    # node: [text, lines, children]; stack of (indent, node)
    root: list[list[Any]] = []
    stack: list[tuple[int, list[Any]]] = []
    warned = False
    for indent, text, lines in flat:
        while stack and stack[-1][0] >= indent:
            stack.pop()
        node: list[Any] = [text, lines, []]
        if len(stack) >= MAX_DEPTH:
            if not warned:
                warn(lines[0], f"list nested deeper than {MAX_DEPTH} levels; deeper items kept "
                               f"at level {MAX_DEPTH}")
                warned = True
            stack[MAX_DEPTH - 1][1][2].append(node)
            continue
        (stack[-1][1][2] if stack else root).append(node)
        stack.append((indent, node))
    return [_freeze(n) for n in root]


def _freeze(node: list[Any]) -> ListItem:
    return ListItem(node[0], node[1], tuple(_freeze(c) for c in node[2]))  # depth <= MAX_DEPTH


def _blank(st: State, i: int) -> int | None:
    return i + 1 if st.lines[i].blank else None


def _hinted(st: State, i: int) -> int | None:
    ln = st.lines[i]
    level = heading_hint(st.hints, ln.text)
    if level is None:
        return None
    st.b.heading(level, ln.text.strip(), ln.no)
    return i + 1


def _table(st: State, i: int, j: int, split: Any) -> int:
    rows = table_rows(st.lines[i:j], split)
    a, k = footnotes_after(st.lines, j)
    notes = tuple(ln.text.strip() for ln in st.lines[a:k])
    last = st.lines[(k if k > a else j) - 1].no
    header = rows[0].cells
    st.b.add(Table(st.b.table_id(header=header), header, tuple(rows[1:]), (st.lines[i].no, last),
                   notes=notes))
    return max(j, k)


def _tab_table(st: State, i: int) -> int | None:
    j = tab_table_at(st.lines, i)
    return _table(st, i, j, split_tab_row) if j > i else None


def _space_table(st: State, i: int) -> int | None:
    if i > 0 and not st.lines[i - 1].blank:
        return None  # a table starts a block
    j = space_table_at(st.lines, i)
    return _table(st, i, j, split_space_row) if j > i else None


def _list(st: State, i: int) -> int | None:
    first = list_marker(st.lines[i].text)
    if first is None:
        return None
    # flat (indent, ordered, text, (first line, last line), number) items, then nest by indent
    flat: list[list[Any]] = []
    j = i
    while j < len(st.lines):
        ln = st.lines[j]
        if ln.blank:
            # a list continues over one blank line if the next line is an item
            if j + 1 < len(st.lines) and list_marker(st.lines[j + 1].text):
                j += 1
                continue
            break
        m = list_marker(ln.text)
        if m and flat and m[0] <= flat[0][0] and m[1] != flat[0][1]:
            break  # bullets -> numbers at the top level: a new list
        if m:
            flat.append([m[0], m[1], m[2], [ln.no, ln.no], m[3]])
        elif flat and "\t" not in ln.text and heading_hint(st.hints, ln.text) is None:
            flat[-1][2] += "\n" + ln.text.strip()  # continuation line
            flat[-1][3][1] = ln.no
        else:
            break
        j += 1
    items = nest_items([(f[0], f[2], (f[3][0], f[3][1])) for f in flat], st.b.warn)
    start = flat[0][4] if flat[0][1] else 1
    st.b.add(ListBlock(tuple(items), (flat[0][3][0], flat[-1][3][1]), ordered=bool(flat[0][1]),
                       start=start))
    return j


def _heading_text(t: str) -> str:
    return t.rstrip(":").strip() or t


def is_heading_line(st: State, i: int) -> bool:
    t = st.lines[i].text.strip()
    before = i == 0 or st.lines[i - 1].blank
    after = i + 1 >= len(st.lines) or st.lines[i + 1].blank
    return (before and after and 0 < len(t) <= MAX_HEADING and len(t.split()) <= 8
            and t[-1] not in ".,;!?…" and (t[0].isupper() or t[0].isdigit())
            and "\t" not in t)


def _heading(st: State, i: int) -> int | None:
    if not is_heading_line(st, i):
        return None
    text = st.lines[i].text.strip()
    first_text = next((k for k, ln in enumerate(st.lines) if not ln.blank), 0)
    st.b.heading(1 if i == first_text else 2, _heading_text(text), st.lines[i].no)
    return i + 1


def _paragraph(st: State, i: int) -> int | None:
    j = i + 1
    while j < len(st.lines) and not st.lines[j].blank:
        t = st.lines[j].text
        if list_marker(t) or tab_table_at(st.lines, j) > j or heading_hint(st.hints, t):
            break
        j += 1
    text = "\n".join(ln.text.strip() for ln in st.lines[i:j])
    st.b.add(Paragraph(text, (st.lines[i].no, st.lines[j - 1].no), inline="text"))
    return j


def rules() -> RuleChain[State]:
    chain: RuleChain[State] = RuleChain()
    for name, rule in [("blank", _blank), ("hinted", _hinted), ("tab_table", _tab_table),
                       ("space_table", _space_table), ("list", _list), ("heading", _heading),
                       ("paragraph", _paragraph)]:
        chain.push(name, rule)
    return chain


def extract(text: str, source: str, hints: Mapping[str, Any]) -> Document:
    check_text(text, source)
    lines = split_lines(text)
    st = State(lines, DocBuilder(source, hints), hints)
    rules().run(st, 0, len(lines))
    return st.b.finish()
