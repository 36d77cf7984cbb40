"""Dialect "space-table": tables flattened to single-space separated text.

Written for sources/d100-combat-circumstances-and-status-effects.txt, where a
table is a header line ("Circumstance Details Horde Details") followed by one
line per row in which the cells are simply joined with spaces:

    Flying Whenever a character uses the Flying action, … take a -30 penalty. As normal.

The columns cannot be found by whitespace, so each column is recognised by
what it says (all file-specific words live in the hints file):

  name      the first cell: a row name the hints list (longest match), else the
            longest title-cased prefix ending before a sentence-starting word
            (a guess, reported as lint)
  free      the cell after the name runs up to the next column's start
  starts    a later column begins at the first sentence (after the previous
            column's start) that opens with one of its patterns, e.g. the horde
            column at "As normal" or "Hordes …", a duration at "Until …"

Lines inside a table that are a short title-cased phrase with no sentence
("Ranged Attack Distance") are group headings: they become sub-sections, each
holding a table that continues the header of the table above.

Line rules, in order (a RuleChain; the first rule that claims a line wins):
  blank, drop (hinted page furniture such as "-- Back to Top --"), hinted
  (`[headings]`), title (the first line), table (a hinted header line plus its
  rows), heading (a short line alone between blank lines), paragraph.
Every cell is an exact substring of its source line; nothing is corrected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .build import DocBuilder, heading_hint
from .lines import Line, RuleChain, check_text, split_lines
from .model import Document, Lint, Paragraph, Row, Table
from .util import slugify

MAX_NAME_WORDS = 6
MAX_HEADING = 60
# Words that start a sentence in any English rules text; the hints add the document's own.
STARTERS = frozenset({
    "A", "An", "The", "If", "In", "When", "Whenever", "While", "Whilst", "You", "Your", "It",
    "They", "There", "Those", "Only", "This", "These", "Any", "All", "Each", "Every", "Both",
    "Attacks", "Attack", "Characters", "Enemies", "Take", "Test"})
CONNECTORS = frozenset({"in", "into", "and", "of", "or", "the", "on", "at", "to", "for", "with",
                        "vs"})
# a sentence ends with . ! or ? (optionally closed by a quote/bracket) followed by space
SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s+")
# a weaker boundary: a bracketed aside closed without a full stop, then a capital
# ("… 8km for Very Long) Hordes gain …"); splits there are reported as uncertain
WEAK_END = re.compile(r"(?<![.!?])\)\s+(?=[A-Z])")


@dataclass(frozen=True)
class Column:
    title: str
    starts: tuple[re.Pattern[str], ...] = ()  # empty: the cell right after the name


@dataclass(frozen=True)
class TableSpec:
    id: str
    columns: tuple[Column, ...]
    names: tuple[str, ...]  # known row names, longest first
    groups: Mapping[str, str]  # group heading -> table id

    @property
    def header(self) -> tuple[str, ...]:
        return tuple(c.title for c in self.columns)

    @property
    def header_line(self) -> str:
        return " ".join(self.header)


@dataclass
class State:
    lines: list[Line]
    b: DocBuilder
    hints: Mapping[str, Any]
    specs: tuple[TableSpec, ...]
    drop: tuple[re.Pattern[str], ...]
    starters: frozenset[str]  # the document's own sentence-starting words (hints)
    title_done: bool = False


# --- hints ---------------------------------------------------------------------------


def _patterns(raw: Any, where: str) -> tuple[re.Pattern[str], ...]:
    out = []
    for p in raw if isinstance(raw, list) else []:
        try:
            out.append(re.compile(str(p)))
        except re.error as e:
            # the pipeline reports a failing dialect and falls back to plain text
            raise ValueError(f"hints: {where} has an invalid pattern {p!r} ({e})") from None
    return tuple(out)


def table_specs(hints: Mapping[str, Any]) -> tuple[TableSpec, ...]:
    """`[[tables]]` of the hints file: id, columns (title + start patterns), names, groups."""
    specs = []
    for i, t in enumerate(hints.get("tables", []) if isinstance(hints.get("tables"), list) else []):
        if not isinstance(t, Mapping):
            continue
        cols = []
        raw_cols, raw_names = t.get("columns"), t.get("names")
        for c in raw_cols if isinstance(raw_cols, list) else []:
            if isinstance(c, Mapping) and isinstance(c.get("title"), str):
                cols.append(Column(c["title"], _patterns(c.get("starts"), f"tables[{i}].columns")))
            elif isinstance(c, str):
                cols.append(Column(c))
        if len(cols) < 2:
            continue
        names = tuple(sorted({str(n) for n in (raw_names if isinstance(raw_names, list) else [])},
                             key=len, reverse=True))
        groups = t.get("groups", {})
        specs.append(TableSpec(str(t.get("id") or f"table-{i + 1}"), tuple(cols), names,
                               {str(k): str(v) for k, v in groups.items()}
                               if isinstance(groups, Mapping) else {}))
    return tuple(specs)


# --- cell splitting -------------------------------------------------------------------


def sentence_starts(text: str) -> tuple[list[int], set[int]]:
    """Offsets where a sentence begins (0, after '. ', '! ', '? ', '.) ' …), and the weak ones.

    A weak start follows a closing bracket with no full stop before it.
    """
    strong = {m.end() for m in SENTENCE_END.finditer(text) if m.end() < len(text)}
    weak = {m.end() for m in WEAK_END.finditer(text) if m.end() < len(text)} - strong
    return sorted({0} | strong | weak), weak


def _titleish(word: str) -> bool:
    core = word.lstrip("(\"'")
    return bool(core) and (core[0].isupper() or core[0].isdigit())


def guess_name(text: str, starters: frozenset[str], hinted: frozenset[str] = frozenset()) -> int:
    """Length of the row name at the start of `text` by shape alone (0 if none).

    The name is a run of title-cased words (small connectors allowed inside)
    followed by a capitalised word. Of the possible ends, the best is the one
    followed by a word that starts sentences in English (`starters`) or that
    repeats the name's last word ("Cover Cover offers …"); next, one followed by
    a word this document starts cells with (`hinted`); then the shortest.
    """
    words = text.split(" ")
    limit = min(MAX_NAME_WORDS, len(words) - 1)
    best, best_score, end = 0, -1, 0
    for k in range(1, limit + 1):
        word = words[k - 1]
        if not (_titleish(word) or (k > 1 and word in CONNECTORS)):
            break
        end += len(word) + (1 if k > 1 else 0)
        nxt = words[k]
        if word in CONNECTORS or not _titleish(nxt):
            continue
        score = 2 if nxt in starters or nxt == word else 1 if nxt in hinted else 0
        if score > best_score:
            best, best_score = end, score
    return best


def name_end(text: str, spec: TableSpec, starters: frozenset[str]) -> tuple[int, bool]:
    """(length of the name cell, whether it was a hinted name rather than a guess)."""
    for n in spec.names:
        if text.startswith(n) and (len(text) == len(n) or text[len(n)] == " "):
            return len(n), True
    return guess_name(text, STARTERS, starters), False


@dataclass(frozen=True)
class Split:
    cells: tuple[str, ...]
    problems: tuple[tuple[int, str], ...]  # (column, message)


def split_row(text: str, spec: TableSpec, starters: frozenset[str]) -> Split:
    """Cut one flattened row into the spec's columns; every cell is a substring of `text`."""
    problems: list[tuple[int, str]] = []
    n, known = name_end(text, spec, starters)
    if not known:
        problems.append((0, f'row name "{text[:n]}" is not in the hints; guessed from its shape'))
    rest_at = n + 1 if n < len(text) else n
    rest = text[rest_at:]
    starts, weak = sentence_starts(rest)
    bounds: list[int | None] = [0]
    for ci, col in enumerate(spec.columns[2:], 2):
        prev = next((b for b in reversed(bounds) if b is not None), 0)
        hit = next((s for s in starts if s > prev and any(p.match(rest, s) for p in col.starts)),
                   None)
        if hit is None and not col.starts:
            problems.append((ci, f'column "{col.title}" has no start patterns in the hints'))
        elif hit is None:
            problems.append((ci, f'no sentence starts column "{col.title}"; cell left blank'))
        elif hit in weak:
            problems.append((ci, f'column "{col.title}" starts after ")" with no full stop '
                                 f'before it; check the split'))
        bounds.append(hit)
    cells = [text[:n].strip()]
    found = [(i, b) for i, b in enumerate(bounds) if b is not None]
    for k, (i, b) in enumerate(found):
        end = found[k + 1][1] if k + 1 < len(found) else len(rest)
        while len(cells) < i + 1:
            cells.append("")
        cells.append(rest[b:end].strip())
    while len(cells) < len(spec.columns):
        cells.append("")
    for ci, cell in enumerate(cells):
        if cell.count("(") != cell.count(")"):  # a cut inside a bracketed aside
            problems.append((ci, f'cell "{cell[:40]}" has an unbalanced bracket; check the split'))
    return Split(tuple(cells), tuple(problems))


def is_group_line(text: str) -> bool:
    """A short title-cased phrase with no sentence in it ('Ranged Attack Distance')."""
    t = text.strip()
    words = t.split()
    return (0 < len(words) <= MAX_NAME_WORDS and t[-1] not in ".!?:;,"
            and _titleish(words[0]) and all(_titleish(w) or w in CONNECTORS for w in words))


# --- line rules ----------------------------------------------------------------------


def _blank(st: State, i: int) -> int | None:
    return i + 1 if st.lines[i].blank else None


def _drop(st: State, i: int) -> int | None:
    t = st.lines[i].text.strip()
    return i + 1 if any(p.search(t) for p in st.drop) else None


def _hinted(st: State, i: int) -> int | None:
    level = heading_hint(st.hints, st.lines[i].text)
    if level is None:
        return None
    st.b.heading(level, st.lines[i].text.strip(), st.lines[i].no)
    return i + 1


def _title(st: State, i: int) -> int | None:
    if st.title_done:
        return None
    st.title_done = True
    t = st.lines[i].text.strip()
    if len(t) > MAX_HEADING or t[-1] in ".!?,;":
        return None
    st.b.heading(1, t.rstrip(":").strip() or t, st.lines[i].no)
    return i + 1


def _emit(st: State, spec: TableSpec, tid: str, rows: list[Row], first: int, last: int) -> None:
    if rows:
        st.b.add(Table(tid, spec.header, tuple(rows), (first, last)))


def _table(st: State, i: int) -> int | None:
    text = st.lines[i].text.strip()
    spec = next((s for s in st.specs if s.header_line == text), None)
    if spec is None:
        return None
    tid, first = st.b.table_ids(spec.id, "table"), st.lines[i].no
    rows: list[Row] = []
    j = i + 1
    while j < len(st.lines) and not st.lines[j].blank:
        ln = st.lines[j]
        t = ln.text.strip()
        if any(p.search(t) for p in st.drop):
            break
        if is_group_line(t) or t in spec.groups:
            # a group heading inside the table: close this part, continue under a sub-section
            _emit(st, spec, tid, rows, first, st.lines[j - 1].no)
            if not rows:
                st.b.warn(ln.no, f'table "{tid}" has no rows before group "{t}"')
            st.b.heading(3, t, ln.no)
            tid = st.b.table_ids(spec.groups.get(t) or slugify(t, "table"), "table")
            first, rows = ln.no + 1, []
            j += 1
            continue
        split = split_row(t, spec, st.starters)
        for col, message in split.problems:
            st.b.lint.append(_lint(st, ln.no, f'{message} (table "{tid}")', tid, len(rows), col))
        rows.append(Row(split.cells, ln.no, (ln.no, ln.no)))
        j += 1
    _emit(st, spec, tid, rows, first, st.lines[j - 1].no)
    return j


def _lint(st: State, line: int, message: str, table: str, row: int, col: int) -> Lint:
    return Lint(st.b.source, line, message, table, row, col)


def _heading(st: State, i: int) -> int | None:
    t = st.lines[i].text.strip()
    before = i == 0 or st.lines[i - 1].blank
    after = i + 1 >= len(st.lines) or st.lines[i + 1].blank
    if not (before and after and len(t) <= MAX_HEADING and t[-1] not in ".,;!?"
            and _titleish(t.split()[0])):
        return None
    st.b.heading(2, t.rstrip(":").strip() or t, st.lines[i].no)
    return i + 1


def _paragraph(st: State, i: int) -> int | None:
    j = i + 1
    while (j < len(st.lines) and not st.lines[j].blank
           and not any(s.header_line == st.lines[j].text.strip() for s in st.specs)):
        j += 1
    text = "\n".join(ln.text.strip() for ln in st.lines[i:j])
    st.b.add(Paragraph(text, (st.lines[i].no, st.lines[j - 1].no)))
    return j


def rules() -> RuleChain[State]:
    chain: RuleChain[State] = RuleChain()
    for name, rule in [("blank", _blank), ("drop", _drop), ("hinted", _hinted),
                       ("title", _title), ("table", _table), ("heading", _heading),
                       ("paragraph", _paragraph)]:
        chain.push(name, rule)
    return chain


def extract(text: str, source: str, hints: Mapping[str, Any]) -> Document:
    check_text(text, source)
    starters = hints.get("sentence_starters")
    st = State(split_lines(text), DocBuilder(source, hints), hints, table_specs(hints),
               _patterns(hints.get("drop_lines"), "drop_lines"),
               frozenset(str(s) for s in (starters if isinstance(starters, list) else [])))
    rules().run(st, 0, len(st.lines))
    return st.b.finish()
