"""Dialect "cheatsheet-prose": run-on cheat-sheet prose with flattened lists and tables.

Written for sources/cyberpunk-red-combat-cheat-sheet.txt, a web export in which
each paragraph is one long line and the original bullets, sub-headings and
small tables were joined with runs of spaces and no-break spaces:

    Walking: 2.5 MPH 4 KPH \u00a0 Running: 5 MPH 11 KPH \u00a0 When in combat …

Line rules (a RuleChain over lines; the first rule that claims a line wins):
  blank     skip blank lines (spaces and no-break spaces only)
  stop      a hinted line (`stop_at`, e.g. the web page's "Comments") ends the document
  hinted    a line the hints name in `[headings]`
  title     the first line -> level-1 heading
  heading   a short line alone between blank lines ("Movement:", "Cover") -> level 2
  content   any other line: cut into pieces, then the piece rules below

A content line is cut into segments at separator runs (whitespace containing a
no-break space, or 2+ spaces not after a comma), and a segment is cut again
where a hinted table row starts (`row_start`, e.g. "Mild: " inside one segment).
Piece rules, in order:
  table_header  a piece matching a table's `header` pattern right before its first row
  table_row     a piece matching a table's `row` pattern; consecutive rows form one table
  ordered_item  "1. …" -> item of an ordered list
  label         "Auto fire mode:" alone -> level-3 heading, or the caption of the table
                that follows it, or (a sentence such as "Whenever you take damage:")
                the lead-in of a list
  labelled      "Head: text" -> item of a list when a lead-in ("… the following areas:")
                or a list of such items precedes it; otherwise a level-3 heading "Head"
                followed by the paragraph "text"
  list_item     a plain piece right after a lead-in -> item of that list
  paragraph     anything else
All row patterns, header words and table ids come from the hints file; every
cell is an exact substring of its source line. Nothing is corrected: odd values
are reported as lint (see `lint_tables`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .build import DocBuilder, heading_hint
from .cyberpunk_lint import lint_table
from .lines import Line, RuleChain, check_text, split_lines
from .model import Document, Lint, ListBlock, ListItem, Paragraph, Row, Table

MAX_HEADING = 60
MAX_LABEL_WORDS = 5
# A colon-ended piece that opens with one of these is a sentence introducing a list, not a title…
LEAD_WORDS = frozenset({"How", "When", "Whenever", "If", "While", "Where", "What", "Why", "Which",
                        "To", "For"})
# ... or that holds one of these (titles are noun phrases: "Type of Cover", "Auto fire mode")
LEAD_MARKS = frozenset({"is", "are", "be", "can", "may", "must", "should", "will", "you", "your",
                        "follows", "following"})
WS = re.compile(r"\s+")  # \s includes the no-break space
ORDERED = re.compile(r"(\d{1,3})\.\s+(?=\S)")
# "Head: text": a label of at most 4 words, each starting with a capital, slash-joined allowed
LABELLED = re.compile(r"([A-Z][\w'/-]*(?: [\w'/()-]+){0,3}): (\S.*)", re.S)


@dataclass(frozen=True)
class TableSpec:
    id: str
    header: tuple[str, ...]  # used when the source gives no header piece
    row: re.Pattern[str]  # its groups, in order, are the cells
    head: re.Pattern[str] | None = None  # a header piece right before the first row
    row_start: re.Pattern[str] | None = None  # where a row starts inside a longer segment


@dataclass(frozen=True)
class Piece:
    text: str
    line: int


@dataclass
class OpenTable:
    spec: TableSpec
    header: tuple[str, ...]
    first: int
    caption: str = ""
    rows: list[Row] = field(default_factory=list)


@dataclass
class OpenList:
    kind: str  # "ordered", "labelled" or "plain"
    items: list[ListItem] = field(default_factory=list)
    start: int = 1


@dataclass
class State:
    lines: list[Line]
    b: DocBuilder
    hints: Mapping[str, Any]
    specs: tuple[TableSpec, ...]
    stop: frozenset[str]
    title_done: bool = False
    # piece-level state, reset per content line
    pieces: list[Piece] = field(default_factory=list)
    table: OpenTable | None = None
    items: OpenList | None = None
    lead_in: int = 0  # line of a pending lead-in paragraph ("… the following:"), 0 if none
    caption: str = ""
    lint: list[Lint] = field(default_factory=list)


# --- hints ---------------------------------------------------------------------------


def _compile(raw: Any, where: str) -> re.Pattern[str] | None:
    if not isinstance(raw, str) or not raw:
        return None
    try:
        return re.compile(raw)
    except re.error as e:
        # the pipeline reports a failing dialect and falls back to plain text
        raise ValueError(f"hints: {where} is not a valid regular expression ({e})") from None


def table_specs(hints: Mapping[str, Any]) -> tuple[TableSpec, ...]:
    """`[[tables]]` of the hints file: id, header, row / header / row_start patterns."""
    raw = hints.get("tables")
    specs = []
    for i, t in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(t, Mapping):
            continue
        where = f"tables[{i}]"
        row = _compile(t.get("row"), f"{where}.row")
        raw_header = t.get("header")
        header = tuple(str(h) for h in (raw_header if isinstance(raw_header, list) else []))
        if row is None or row.groups < 1:
            continue
        specs.append(TableSpec(str(t.get("id") or f"table-{i + 1}"), header, row,
                               _compile(t.get("header_row"), f"{where}.header_row"),
                               _compile(t.get("row_start"), f"{where}.row_start")))
    return tuple(specs)


# --- cutting a line into pieces -------------------------------------------------------


def segments(text: str) -> list[str]:
    """Cut a line at separator runs: whitespace holding a no-break space, or 2+ spaces.

    Two plain spaces after a comma or before a small letter stay inside the text
    ("square,  not an individual"): a typo, not a separator. Linear time.
    """
    out, start = [], 0
    for m in WS.finditer(text):
        run = m.group(0)
        nxt = text[m.end():m.end() + 1]
        prev = text[m.start() - 1:m.start()]
        if "\u00a0" in run or (len(run) >= 2 and prev not in ",;" and not nxt.islower()):
            out.append(text[start:m.start()])
            start = m.end()
    out.append(text[start:])
    return [s.strip() for s in out if s.strip()]


def cut_rows(segment: str, specs: tuple[TableSpec, ...]) -> list[str]:
    """Cut a segment where a hinted table row starts inside it ('… HP Strong: Gasoline …')."""
    cuts = {0}
    for spec in specs:
        if spec.row_start is not None:
            cuts.update(m.start() for m in spec.row_start.finditer(segment))
    bounds = [*sorted(cuts), len(segment)]
    parts = (segment[a:b].strip() for a, b in itertools.pairwise(bounds))
    return [p for p in parts if p]


def row_cells(spec: TableSpec, text: str) -> tuple[str, ...] | None:
    m = spec.row.fullmatch(text)
    if m is None:
        return None
    return tuple((g or "").strip() for g in m.groups())


def header_cells(spec: TableSpec, text: str) -> tuple[str, ...] | None:
    m = spec.head.fullmatch(text) if spec.head is not None else None
    return tuple((g or "").strip() for g in m.groups()) if m else None


def matching_spec(st: State, text: str) -> TableSpec | None:
    return next((s for s in st.specs if row_cells(s, text) is not None), None)


# --- piece rules -----------------------------------------------------------------------


def _close_table(st: State) -> None:
    t = st.table
    if t is None:
        return
    st.table = None
    if not t.rows:  # a header with no row under it
        st.b.add(Paragraph(" ".join(t.header), (t.first, t.first)))
        return
    tid = st.b.table_ids(t.spec.id, "table")
    st.b.add(Table(tid, t.header, tuple(t.rows), (t.first, t.rows[-1].line), caption=t.caption))


def _close_list(st: State) -> None:
    lst = st.items
    if lst is None:
        return
    st.items = None
    lines = (lst.items[0].lines[0], lst.items[-1].lines[1])
    st.b.add(ListBlock(tuple(lst.items), lines, ordered=lst.kind == "ordered", start=lst.start))


def _close_lead_in(st: State) -> None:
    if st.lead_in:
        st.lint.append(Lint(st.b.source, st.lead_in,
                            "a sentence ends with ':' to introduce a list, but no list follows"))
        st.lead_in = 0


def _close(st: State, keep_table: bool = False, keep_list: bool = False) -> None:
    if not keep_table:
        _close_table(st)
    if not keep_list:
        _close_list(st)


def _item(st: State, kind: str, p: Piece, start: int = 1, text: str = "") -> None:
    if st.items is None or st.items.kind != kind:
        _close(st)
        st.items = OpenList(kind, start=start)
    st.lead_in = 0
    st.items.items.append(ListItem(text or p.text, (p.line, p.line)))


def _table_header(st: State, k: int) -> int | None:
    p = st.pieces[k]
    if k + 1 >= len(st.pieces):
        return None
    nxt = st.pieces[k + 1]
    for spec in st.specs:
        cells = header_cells(spec, p.text)
        if (cells is not None and row_cells(spec, p.text) is None
                and row_cells(spec, nxt.text) is not None):
            _close(st)
            _close_lead_in(st)
            st.table = OpenTable(spec, cells, p.line, st.caption)
            st.caption = ""
            return k + 1
    return None


def _table_row(st: State, k: int) -> int | None:
    p = st.pieces[k]
    spec = matching_spec(st, p.text)
    if spec is None:
        return None
    cells = row_cells(spec, p.text)
    assert cells is not None
    if st.table is None or st.table.spec is not spec:
        _close(st)
        _close_lead_in(st)
        st.table = OpenTable(spec, spec.header or tuple(f"{i + 1}" for i in range(len(cells))),
                             p.line, st.caption)
        st.caption = ""
    st.table.rows.append(Row(cells, p.line, (p.line, p.line)))
    return k + 1


def _ordered_item(st: State, k: int) -> int | None:
    p = st.pieces[k]
    m = ORDERED.match(p.text)
    if m is None:
        return None
    _item(st, "ordered", p, int(m.group(1)), p.text[m.end():])  # the number is the list's
    return k + 1


def _starts_table(st: State, k: int) -> bool:
    if k >= len(st.pieces):
        return False
    t = st.pieces[k].text
    nxt = st.pieces[k + 1].text if k + 1 < len(st.pieces) else ""
    return matching_spec(st, t) is not None or any(
        header_cells(s, t) is not None and row_cells(s, nxt) is not None
        for s in st.specs)


def is_label(text: str) -> bool:
    words = text.split()
    return (text.endswith(":") and 0 < len(words) <= MAX_LABEL_WORDS and text[0].isupper()
            and not any(c in text[:-1] for c in ".!?:;"))


def _label(st: State, k: int) -> int | None:
    p = st.pieces[k]
    if not is_label(p.text):
        return None
    title = p.text[:-1].strip()
    _close(st)
    _close_lead_in(st)
    if _starts_table(st, k + 1):  # "Type of Cover:" names the table after it
        st.caption = title
    elif (p.text.split()[0] in LEAD_WORDS
          or not LEAD_MARKS.isdisjoint(w.lower() for w in re.findall(r"\w+", p.text))
          or (k + 1 < len(st.pieces) and ORDERED.match(st.pieces[k + 1].text))):
        st.b.add(Paragraph(p.text, (p.line, p.line)))
        st.lead_in = p.line
    else:
        st.b.heading(3, title, p.line)
    return k + 1


def _labelled(st: State, k: int) -> int | None:
    p = st.pieces[k]
    m = LABELLED.fullmatch(p.text)
    if m is None:
        return None
    if st.lead_in or (st.items is not None and st.items.kind == "labelled"):
        _item(st, "labelled", p)
        return k + 1
    _close(st)
    st.b.heading(3, m.group(1), p.line)
    st.b.add(Paragraph(m.group(2).strip(), (p.line, p.line)))
    return k + 1


def _list_item(st: State, k: int) -> int | None:
    if not (st.lead_in or (st.items is not None and st.items.kind == "plain")):
        return None
    _item(st, "plain", st.pieces[k])
    return k + 1


def _paragraph(st: State, k: int) -> int | None:
    p = st.pieces[k]
    _close(st)
    st.b.add(Paragraph(p.text, (p.line, p.line)))
    if p.text.endswith(":"):
        _close_lead_in(st)
        st.lead_in = p.line
    return k + 1


def piece_rules() -> RuleChain[State]:
    chain: RuleChain[State] = RuleChain()
    for name, rule in [("table_header", _table_header), ("table_row", _table_row),
                       ("ordered_item", _ordered_item), ("label", _label),
                       ("labelled", _labelled), ("list_item", _list_item),
                       ("paragraph", _paragraph)]:
        chain.push(name, rule)
    return chain


# --- line rules -----------------------------------------------------------------------


def _blank(st: State, i: int) -> int | None:
    return i + 1 if st.lines[i].blank else None


def _stop(st: State, i: int) -> int | None:
    return len(st.lines) if st.lines[i].text.strip() in st.stop else None


def _hinted(st: State, i: int) -> int | None:
    level = heading_hint(st.hints, st.lines[i].text)
    if level is None:
        return None
    st.b.heading(level, st.lines[i].text.strip().rstrip(":").strip(), st.lines[i].no)
    return i + 1


def _alone(st: State, i: int) -> bool:
    t = st.lines[i].text.strip()
    before = i == 0 or st.lines[i - 1].blank
    after = i + 1 >= len(st.lines) or st.lines[i + 1].blank
    return (before and after and len(t) <= MAX_HEADING and len(t.split()) <= 8
            and t[-1] not in ".,;!?" and (t[0].isupper() or t[0].isdigit())
            and len(segments(t)) == 1)  # a flattened list is no title


def _title(st: State, i: int) -> int | None:
    if st.title_done:
        return None
    st.title_done = True
    if not _alone(st, i):
        return None
    st.b.heading(1, st.lines[i].text.strip().rstrip(":").strip(), st.lines[i].no)
    return i + 1


def _heading(st: State, i: int) -> int | None:
    if not _alone(st, i):
        return None
    t = st.lines[i].text.strip()
    st.b.heading(2, t.rstrip(":").strip() or t, st.lines[i].no)
    return i + 1


def _content(st: State, i: int) -> int | None:
    ln = st.lines[i]
    st.pieces = [Piece(part, ln.no) for seg in segments(ln.text)
                 for part in cut_rows(seg, st.specs)]
    st.caption = ""
    piece_rules().run(st, 0, len(st.pieces))
    _close(st)
    _close_lead_in(st)  # a list never continues on another line of this layout
    return i + 1


def rules() -> RuleChain[State]:
    chain: RuleChain[State] = RuleChain()
    for name, rule in [("blank", _blank), ("stop", _stop), ("hinted", _hinted),
                       ("title", _title), ("heading", _heading), ("content", _content)]:
        chain.push(name, rule)
    return chain


def _walk(sections: Any) -> Any:
    for s in sections:
        for blk in s.blocks:
            if isinstance(blk, Table):
                yield blk
        yield from _walk(s.sections)


def extract(text: str, source: str, hints: Mapping[str, Any]) -> Document:
    check_text(text, source)
    stop = hints.get("stop_at", [])
    st = State(split_lines(text), DocBuilder(source, hints), hints, table_specs(hints),
               frozenset(str(s) for s in stop) if isinstance(stop, list) else frozenset())
    rules().run(st, 0, len(st.lines))
    st.b.lint.extend(st.lint)
    doc = st.b.finish()
    found = [x for t in _walk(doc.sections) for x in lint_table(source, t)]
    lint = sorted(doc.lint + tuple(found), key=lambda x: (x.line, x.table, x.row, x.column))
    return Document(doc.source, doc.game, doc.title, doc.sections, doc.records, tuple(lint))
