"""Horizon: Out of the Ashes wiki export (dialect "horizon-wiki").

The export (sources/horizon-out-of-the-ashes-combat.txt) is plain text with no
heading marks. What the wiki's structure left behind, and how it is read:

  * a collapsible section prints its heading twice ("Priorities… (Lore)",
    blank, "Priorities… (Lore)"): one section spanning both lines;
  * a heading printed once between blank lines opens a topic ("Running
    Combat"); one in capitals is a sub-heading of the topic ("STEP 1 - …"); one
    followed by a weapon profile is a weapon category ("Pistols") inside the
    weapon group collapsible ("High-Caliber Weapons");
  * a weapon profile ("Weapon Profile - <Name> (Tier N)", hints `profiles.heading`)
    is a name line, fields ("Magazine: 3Shots Reload: …" on one line, or
    "Move:" / "-5m" one per line), a header and rows in one of two layouts:
    "ap" (one row per AP score) or "banded" (AP bands "0 - 5", blank cells
    simply missing from the row, so they are placed by each column's pattern);
  * bullets ("  • "), the rules' small space-separated tables (hints `[[tables]]`)
    and "Label: v1 v2 …" row pairs (the die-result table).

Block rules run as a RuleChain over the lines (after markdown-it-py's block
ruler) and emit tokens; core rules then align the profile rows, nest the
sections, build `records` and lint. Values are never changed: what looks wrong
is reported in Document.lint with file and line.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

from .build import DocBuilder
from .lines import Line, RuleChain, check_text, split_lines
from .model import (
    Block,
    Document,
    Lines,
    Lint,
    ListBlock,
    ListItem,
    Paragraph,
    Row,
    Section,
    Table,
)
from .plaintext import list_marker, nest_items
from .util import slugify

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


# --- block rules -------------------------------------------------------------------------


def _blank(st: State, i: int) -> int | None:
    return i + 1 if st.lines[i].blank else None


def _chrome(st: State, i: int) -> int | None:
    return i + 1 if st.lines[i].text.strip() in st.hints.chrome else None


def _repeat_of(st: State, i: int) -> int | None:
    """Index of the second printing of the heading at i (only blank lines between), if any."""
    j = _next_nonblank(st.lines, i + 1)
    if j > i + 1 and j < len(st.lines) and st.lines[j].text.strip() == st.lines[i].text.strip():
        return j
    return None


def _profile(st: State, i: int) -> int | None:
    """A weapon profile: heading (printed once or twice), name, fields, header, rows."""
    pat = st.hints.profile_heading
    text = st.lines[i].text.strip()
    m = pat.fullmatch(text) if pat else None
    if m is None:
        return None
    lines, h = st.lines, st.hints
    gd = m.groupdict()
    name = (gd.get("name") or text).strip()
    tier = int(gd["tier"]) if (gd.get("tier") or "").isdigit() else 0
    rep = _repeat_of(st, i)
    head = HeadingTok(text, (lines[i].no, lines[rep].no if rep else lines[i].no), rep is not None)
    j = _next_nonblank(lines, (rep if rep else i) + 1)
    n = len(lines)
    # name line, then (banded layout) the captions of the field boxes: lines without a colon
    plain: list[Line] = []
    while j < n and not lines[j].blank and ":" not in lines[j].text \
            and not ROW.match(lines[j].text) and not is_header_line(lines[j].text, h):
        plain.append(lines[j])
        j += 1
    fields: list[tuple[str, str, int]] = []
    while j < n and not lines[j].blank:
        t = lines[j].text.strip()
        labels = list(INLINE_LABEL.finditer(t))
        if t.endswith(":") and t.count(":") == 1 and len(labels) <= 1:  # "Move:" then "-5m"
            nxt = lines[j + 1].text.strip() if j + 1 < n else ""
            value_here = bool(nxt) and not nxt.endswith(":")  # '2', '4 Attacks' are values too
            fields.append((t[:-1].strip(), nxt if value_here else "", lines[j].no))
            j += 2 if value_here else 1
        elif labels and labels[0].start() == 0:  # "Magazine: 3Shots Reload: +2Shots …"
            for k, lab in enumerate(labels):
                end = labels[k + 1].start() if k + 1 < len(labels) else len(t)
                fields.append((lab.group(1), t[lab.end():end].strip(), lines[j].no))
            j += 1
        else:
            break
    header_start = j
    while j < n and not lines[j].blank and not ROW.match(lines[j].text):
        j += 1
    words = " ".join(ln.text for ln in lines[header_start:j]).split()
    cols, groups, unknown = segment_header(words, h)
    if unknown:
        st.warn(lines[header_start].no if header_start < n else lines[i].no,
                f"{name}: header words {unknown} are not known column names; "
                "each is read as a column")
    rows: list[tuple[Line, str, list[str]]] = []
    layout = "ap"
    while j < n and ROW.match(lines[j].text):
        t = lines[j].text.strip()
        b = BAND.match(t)
        if b:
            layout = "banded"
            rows.append((lines[j], b.group(1), cells_of(b.group(2) or "")))
        else:
            key, _, rest = t.partition(" ")
            rows.append((lines[j], key, cells_of(rest)))
        j += 1
    last = lines[j - 1].no
    width = 1 + max((len(c) for _, _, c in rows), default=0)
    if len(cols) < 2 and width > len(cols):  # no usable header: unnamed columns, reported
        st.warn(lines[header_start].no if header_start < n else last,
                f"{name}: profile has no column header; columns left unnamed")
        cols = cols + ("",) * (width - len(cols))
    name_line = plain[0] if plain else None
    st.tokens.append(RawProfile(
        head, name, tier, name_line, fields, cols,
        (lines[header_start].no, lines[max(header_start, j - len(rows) - 1)].no) if header_start < n
        else (last, last), groups, layout, rows, last))
    if not rows:
        st.warn(lines[i].no, f"{name}: profile has no table rows")
    return j


def _hinted_table(st: State, i: int) -> int | None:
    """A rules table named in hints `[[tables]]`: optional caption line, header line, rows."""
    lines = st.lines
    for th in st.hints.tables:
        if lines[i].text.strip() == th.header_line:
            caption, start = "", i
        elif i + 1 < len(lines) and lines[i + 1].text.strip() == th.header_line:
            caption, start = lines[i].text.strip(), i + 1
        else:
            continue
        tid = st.b.table_id(th.id)
        rows: list[Row] = []
        j = start + 1
        while j < len(lines) and not lines[j].blank:
            ln = lines[j]
            m = th.row.fullmatch(ln.text.strip())
            if m and len(m.groups()) == len(th.header):
                cells = tuple(g or "" for g in m.groups())
            else:  # kept whole in the first cell, reported
                cells = (ln.text.strip(), *([""] * (len(th.header) - 1)))
                st.warn(ln.no, f'row of table "{tid}" does not split into its '
                               f"{len(th.header)} columns; kept whole in the first", tid, len(rows))
            rows.append(Row(cells, ln.no, (ln.no, ln.no)))
            j += 1
        st.tokens.append(BlockTok(Table(tid, th.header, tuple(rows),
                                        (lines[i].no, lines[j - 1].no), caption=caption)))
        return j
    return None


def _label_table(st: State, i: int) -> int | None:
    """2+ lines 'Label: v1 v2 …' with the same number of values: a table read across
    ('Die result: 1 2 3 4 5 6' / 'Score: 0 0 0 +1AP +1AP +2AP')."""
    lines = st.lines
    if i > 0 and not lines[i - 1].blank:
        return None
    found: list[tuple[str, list[str], int]] = []
    j = i
    while j < len(lines) and (m := LABEL_ROW.match(lines[j].text.strip())):
        vals = m.group(2).split()
        if found and len(vals) != len(found[0][1]):
            break
        found.append((m.group(1).strip(), vals, lines[j].no))
        j += 1
    if len(found) < 2:
        return None
    header = (found[0][0], *found[0][1])
    rows = tuple(Row((lab, *vals), no, (no, no)) for lab, vals, no in found[1:])
    st.tokens.append(BlockTok(Table(st.b.table_id(found[0][0]), header, rows,
                                    (found[0][2], found[-1][2]))))
    return j


def _list(st: State, i: int) -> int | None:
    """Consecutive bullet lines ('  • ', nested by indentation) -> one ListBlock."""
    if list_marker(st.lines[i].text) is None:
        return None
    flat: list[tuple[int, str, tuple[int, int]]] = []
    j = i
    while j < len(st.lines) and (mk := list_marker(st.lines[j].text)) is not None:
        no = st.lines[j].no
        flat.append((mk[0], mk[2], (no, no)))
        j += 1
    items = nest_items(flat, lambda line, msg: st.warn(line, msg))
    st.tokens.append(BlockTok(ListBlock(tuple(items), (flat[0][2][0], flat[-1][2][1]))))
    return j


def _heading(st: State, i: int) -> int | None:
    """A short line alone between blank lines, without final . , ; : (printed once or twice)."""
    lines = st.lines
    t = lines[i].text.strip()
    before = i == 0 or lines[i - 1].blank
    after = i + 1 >= len(lines) or lines[i + 1].blank
    if not (before and after and len(t) <= MAX_HEADING and t[-1] not in ".,;:"
            and not _is_bullet(lines[i].text)):
        return None
    rep = _repeat_of(st, i)
    st.tokens.append(HeadingTok(t, (lines[i].no, lines[rep].no if rep else lines[i].no),
                                rep is not None))
    return (rep if rep else i) + 1


def _paragraph(st: State, i: int) -> int | None:
    j = i + 1
    while j < len(st.lines) and not st.lines[j].blank and not _is_bullet(st.lines[j].text):
        j += 1
    text = "\n".join(ln.text.strip() for ln in st.lines[i:j])
    st.tokens.append(BlockTok(Paragraph(text, (st.lines[i].no, st.lines[j - 1].no), "text")))
    return j


def block_rules() -> RuleChain[State]:
    chain: RuleChain[State] = RuleChain()
    for name, rule in [("blank", _blank), ("chrome", _chrome), ("profile", _profile),
                       ("hinted_table", _hinted_table), ("label_table", _label_table),
                       ("list", _list), ("heading", _heading), ("paragraph", _paragraph)]:
        chain.push(name, rule)
    return chain


# --- core: place banded / short rows' cells in their columns ------------------------------


def _canon(col: str, h: Hints) -> str:
    return h.column_aliases.get(col, col)


def column_pools(profiles: Sequence[RawProfile], h: Hints) -> dict[str, set[str]]:
    """Shapes each column name takes in full rows, over every profile of the document."""
    pools: dict[str, set[str]] = {}
    for p in profiles:
        cols = p.header[1:]
        for _, _, cells in p.rows:
            if len(cells) == len(cols):
                for c, v in zip(cols, cells, strict=True):
                    pools.setdefault(_canon(c, h), set()).add(shape(v))
    return pools


def _progression(values: Sequence[float | None]) -> bool:
    known = [v for v in values if v is not None]
    if len(known) < 3 or len(known) != len(values):
        return False
    steps = {b - a for a, b in pairwise(known)}
    return len(steps) == 1 and steps != {0}


@dataclass
class Placed:
    table: Table
    findings: list[tuple[int, str, int, int]]  # (line, message, row, column)


def place_rows(p: RawProfile, tid: str, pools: Mapping[str, set[str]], h: Hints) -> Placed:
    """Cells of each row in their columns. A full row is taken as it is; a short row's
    cells go to the columns whose pattern they fit (order kept). The last column is
    anchored when every row's last value follows one arithmetic step (Defense 10, 15, 20…).
    Where several placements fit, the leftmost is used and reported."""
    cols = p.header[1:]
    n = len(cols)
    short = [cells for _, _, cells in p.rows if len(cells) < n]
    anchor = bool(short) and _progression([num(c[-1], h.value_numbers) if c else None
                                           for _, _, c in p.rows])
    rows: list[Row] = []
    findings: list[tuple[int, str, int, int]] = []
    # ambiguous placements, grouped: (alternatives, chosen) -> [(row, line, values)]
    ambiguous: dict[tuple[str, str, int], list[tuple[int, int, str]]] = {}
    for r, (ln, key, cells) in enumerate(p.rows):
        placed = [""] * n
        if len(cells) == n:
            placed = list(cells)
        elif len(cells) > n:
            placed = [*cells[:n - 1], " ".join(cells[n - 1:])]
            findings.append((ln.no, f"{p.name}: row {key} has {len(cells)} values for {n} "
                                    f"columns; the extra ones are kept in {cols[-1]!r}", r, n))
        elif cells:
            shapes = [pools.get(_canon(c, h), set()) for c in cols]
            cands = [cb for cb in combinations(range(n), len(cells))
                     if all(fits(v, shapes[k]) for v, k in zip(cells, cb, strict=True))]
            anchored = [cb for cb in cands if cb[-1] == n - 1] if anchor else cands
            cands = anchored or cands
            if not cands:
                cands = [tuple(range(len(cells)))]
                findings.append((ln.no, f"{p.name}: the values of row {key} fit no column "
                                        "pattern; placed from the left", r, 1))
            elif len(cands) > 1:
                alts = [sorted({cb[k] for cb in cands}) for k in range(len(cells))]
                odd = [k for k in range(len(cells)) if len(alts[k]) > 1]
                what = "; ".join(" or ".join(repr(cols[c]) for c in alts[k]) for k in odd)
                chosen = ", ".join(repr(cols[cands[0][k]]) for k in odd)
                values = ", ".join(repr(cells[k]) for k in odd)
                col = 1 + cands[0][odd[0]]  # the table column the first such value went to
                ambiguous.setdefault((what, chosen, col), []).append((r, ln.no, values))
            for v, k in zip(cells, cands[0], strict=True):
                placed[k] = v
        rows.append(Row((key, *placed), ln.no, (ln.no, ln.no)))
    for (what, chosen, col), hits in ambiguous.items():
        listing = ", ".join(f"{values} (line {line})" for _, line, values in hits)
        rows_word = "short rows" if len(hits) > 1 else "short row"
        findings.append((hits[0][1], f"{p.name}: {len(hits)} {rows_word}"
                                     f" hold a value that could be {what}: {listing}; placed in "
                                     f"{chosen}, the leftmost column that fits", hits[0][0], col))
    table = Table(tid, p.header, tuple(rows), (p.header_lines[0], p.last),
                  caption=p.name_line.text.strip() if p.name_line else p.name, notes=p.notes)
    return Placed(table, findings)


# --- core: headings -> levels ----------------------------------------------------------


@dataclass
class Placement:
    level: int
    group: str = ""  # for profiles: the weapon group and category they sit in
    category: str = ""


def heading_levels(tokens: Sequence[Token]) -> dict[int, Placement]:
    """Levels of the heading tokens (by index): page title 1, topic 2; a collapsible or a
    sub-heading in capitals one below the open topic (or the title); a weapon category one
    below its group collapsible; a profile one below its category."""
    heads = [(k, t) for k, t in enumerate(tokens) if isinstance(t, (HeadingTok, RawProfile))]
    out: dict[int, Placement] = {}
    topic = 1  # level of the open topic (1: none yet, content sits under the page title)
    group: tuple[int, str] | None = None  # open collapsible (level, title)
    category: tuple[int, str] | None = None
    for n, (k, t) in enumerate(heads):
        if isinstance(t, RawProfile):
            parent = category[0] if category else (group[0] if group else topic)
            out[k] = Placement(parent + 1, group[1] if group else "",
                               category[1] if category else "")
            continue
        nxt = heads[n + 1][1] if n + 1 < len(heads) else None
        if n == 0:
            out[k] = Placement(1)
        elif t.repeated:
            out[k] = Placement(topic + 1)
            group, category = (topic + 1, t.title), None
        elif isinstance(nxt, RawProfile):  # a category heading: its profiles follow
            level = (group[0] if group else topic) + 1
            out[k] = Placement(level)
            category = (level, t.title)
        elif t.title.upper() == t.title and any(c.isalpha() for c in t.title):
            out[k] = Placement(topic + 1)
            group = category = None
        else:
            out[k] = Placement(2)
            topic, group, category = 2, None, None
    return out


# --- core: records -------------------------------------------------------------------


def _skill_rows(tables: Sequence[Table], h: Hints) -> list[dict[str, Any]]:
    sk = h.skills
    t = next((t for t in tables if t.id == sk.get("table")), None)
    if t is None:
        return []
    idx = {name: t.header.index(name) for name in t.header}
    out = []
    for row in t.rows:
        def cell(key: str, row: Row = row) -> str:
            col = sk.get(key, "")
            return row.cells[idx[col]] if col in idx and idx[col] < len(row.cells) else ""
        out.append({"category": cell("category"), "skill": cell("skill"),
                    "trait_bonus": cell("trait"), "line": row.line, "table": t.id})
    return out


def match_skill(category: str, skills: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The skill row of a category heading: same name, else one a prefix of the other
    ('Melee' ~ 'Melee weapons'), else the same first word ('SMGs (Sub-Machine Guns)' ~ 'SMGs')."""
    c = category.casefold().strip()
    tests: list[Callable[[str], bool]] = [
        lambda s: s == c,
        lambda s: s.startswith(c) or c.startswith(s),
        lambda s: s.split()[:1] == c.split()[:1],
    ]
    for test in tests:
        hits = [s for s in skills if s["category"] and test(str(s["category"]).casefold())]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return None  # ambiguous: the caller reports it
    return None


def profile_record(p: RawProfile, table: Table, section: str, pl: Placement, skill: str,
                   h: Hints) -> dict[str, Any]:
    fields: dict[str, str] = {}
    norm: dict[str, str] = {}
    for label, value, _ in p.fields:
        fields.setdefault(label, value)
        key = h.field_aliases.get(label)
        if key and key not in norm:
            norm[key] = value
    return {
        "id": slugify(p.name, "profile"), "name": p.name, "tier": p.tier,
        "group": pl.group, "category": pl.category, "skill": skill, "layout": p.layout,
        "table": table.id, "section": section, "lines": [p.heading.lines[0], p.last],
        "fields": fields,
        **{k: norm.get(k, "") for k in ("magazine", "reload", "weight", "cost", "rarity",
                                        "move", "range")},
        "magazine_count": count_of(norm.get("magazine", "")),
        "reload_count": count_of(norm.get("reload", "")),
        "weight_value": amount_of(norm.get("weight", "")),
        "cost_bars": amount_of(norm.get("cost", "")),
    }


# --- core: lint ------------------------------------------------------------------------


def _usual_step(values: Sequence[float]) -> float | None:
    ups = Counter(b - a for a, b in pairwise(values) if b > a)
    common = [d for d, k in ups.items() if k >= 2]
    return max(common) if common else None


def lint_columns(st: State, p: RawProfile, t: Table) -> None:
    """Each column's own pattern: keys count up, values never drop and rise in their
    usual steps, blank cells reported per column."""
    words = st.hints.value_numbers
    # the key column: AP 1, 2, 3 … or bands 0 - 5, 6 - 10 …
    prev_hi: float | None = None
    for r, row in enumerate(t.rows):
        nums = [float(x) for x in NUMBER.findall(row.cells[0])]
        lo, hi = (nums[0], nums[-1]) if nums else (None, None)
        if lo is not None and prev_hi is not None and lo != prev_hi + 1:
            st.warn(row.line, f"{p.name}: {t.header[0]} {row.cells[0]!r} does not follow "
                              f"{_fmt(prev_hi)}", t.id, r, 0)
        prev_hi = hi if hi is not None else prev_hi
    for c in range(1, len(t.header)):
        col = t.header[c]
        cells = [(r, row.cells[c]) for r, row in enumerate(t.rows) if c < len(row.cells)]
        blanks = [r for r, v in cells if not v.strip()]
        if blanks:
            where = ", ".join(str(t.rows[r].line) for r in blanks)
            st.warn(t.rows[blanks[0]].line,
                    f"{p.name}: {col} is blank in {len(blanks)} of {len(cells)} rows "
                    f"(lines {where})", t.id, blanks[0], c)
        vals = [(r, v, num(v, words)) for r, v in cells if v.strip()]
        known = [(r, v, x) for r, v, x in vals if x is not None]
        if len(known) < 4:
            continue
        step = _usual_step([x for _, _, x in known])
        ref: tuple[int, str, float] | None = None
        for k, (r, v, x) in enumerate(known):
            if ref is not None and x < ref[2]:
                st.warn(t.rows[r].line, f"{p.name}: {col} drops from {ref[1]} to {v} at "
                                        f"{t.header[0]} {t.rows[r].cells[0]}", t.id, r, c)
                nxt = known[k + 1][2] if k + 1 < len(known) else None
                if nxt is not None and nxt >= ref[2]:
                    continue  # a lone odd value: the next row is compared with the one before
            elif ref is not None and step is not None and x - ref[2] > max(2 * step, 2):
                st.warn(t.rows[r].line, f"{p.name}: {col} jumps from {ref[1]} to {v} at "
                                        f"{t.header[0]} {t.rows[r].cells[0]} (elsewhere it "
                                        f"rises by at most {_fmt(step)})", t.id, r, c)
            ref = (r, v, x)


def step_changes(t: Table) -> list[tuple[int, int, float]]:
    """(row, column, key) where a stepped column (changing in at most a quarter of the
    rows, like Move and Range) changes value, in an AP-per-row table."""
    out = []
    for c in range(1, len(t.header)):
        vals = [row.cells[c] if c < len(row.cells) else "" for row in t.rows]
        changes = [r for r in range(1, len(vals))
                   if vals[r] != vals[r - 1] and vals[r] and vals[r - 1]]
        if changes and len(changes) * 4 <= len(vals) - 1:
            for r in changes:
                key = NUMBER.match(t.rows[r].cells[0])
                if key:
                    out.append((r, c, float(key.group(0))))
    return out


def band_size(tables: Sequence[Table]) -> tuple[int, float] | None:
    """The band width most changes of stepped columns keep to (Move/Range change at AP 6, 11,
    16 …: width 5 from AP 1), if at least 90% of the changes agree."""
    keys = [k for t in tables for _, _, k in step_changes(t)]
    if len(keys) < 10:
        return None
    first = min(float(NUMBER.match(t.rows[0].cells[0]).group(0))  # type: ignore[union-attr]
                for t in tables if t.rows and NUMBER.match(t.rows[0].cells[0]))
    for width in range(10, 1, -1):
        if sum(1 for k in keys if (k - first) % width == 0) >= 0.9 * len(keys):
            return width, first
    return None


def lint_document(st: State, placed: Sequence[tuple[RawProfile, Table]],
                  records: Sequence[Mapping[str, Any]], skills: Sequence[Mapping[str, Any]],
                  sections: Sequence[Section]) -> None:
    for p, t in placed:
        lint_columns(st, p, t)
    # stepped columns change on the bands every other profile keeps to
    ap_tables = [t for p, t in placed if p.layout == "ap"]
    band = band_size(ap_tables)
    if band:
        width, first = band
        for p, t in placed:
            if p.layout != "ap":
                continue
            for r, c, key in step_changes(t):
                if (key - first) % width:
                    row = t.rows[r]
                    st.warn(row.line, f"{p.name}: {t.header[c]} changes from "
                                      f"{t.rows[r - 1].cells[c]} to {row.cells[c]} at "
                                      f"{t.header[0]} {row.cells[0]}, off the {width}-AP bands "
                                      "where the other changes fall", t.id, r, c)
    # row counts against siblings of the same layout
    for layout in ("ap", "banded"):
        group = [(p, t) for p, t in placed if p.layout == layout]
        counts = Counter(len(t.rows) for _, t in group)
        if len(group) >= 3:
            usual, k = counts.most_common(1)[0]
            for p, t in group:
                if len(t.rows) != usual:
                    st.warn(t.lines[0], f"{p.name}: {len(t.rows)} rows where {k} of the "
                                        f"{len(group)} {layout} profiles have {usual}", t.id)
    # identical profiles, duplicate names
    seen: dict[tuple[Any, ...], RawProfile] = {}
    names: dict[str, RawProfile] = {}
    for p, t in placed:
        sig = (t.header, tuple(r.cells for r in t.rows))
        if t.rows and sig in seen:
            q = seen[sig]
            st.warn(p.heading.lines[0], f"{p.name} (Tier {p.tier}) has exactly the same rows "
                                        f"as {q.name} (Tier {q.tier}, line "
                                        f"{q.heading.lines[0]})", t.id)
        seen.setdefault(sig, p)
        folded = p.name.casefold()
        if folded in names:
            st.warn(p.heading.lines[0], f"weapon name {p.name!r} is used twice (also line "
                                        f"{names[folded].heading.lines[0]})", t.id)
        names.setdefault(folded, p)
    _lint_fields(st, placed)
    # name line vs heading; tiers within a category; skills
    for p, t in placed:
        if p.name_line is None:
            st.warn(p.heading.lines[-1], f"{p.name}: profile has no name line under its "
                                         "heading; the heading's name is used", t.id)
        elif p.name_line.text.strip() != p.name:
            st.warn(p.name_line.no, f"{p.name}: the profile names itself "
                                    f"{p.name_line.text.strip()!r} under the heading "
                                    f"{p.heading.title!r}", t.id)
    by_cat: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for rec in records:
        by_cat.setdefault((rec["group"], rec["category"]), []).append(rec)
    for (_, cat), recs in by_cat.items():
        tiers = [int(r["tier"]) for r in recs]
        if tiers != list(range(1, len(tiers) + 1)):
            st.warn(recs[0]["lines"][0], f"{cat}: tiers run {tiers}, not 1 to {len(tiers)}")
        if skills and not recs[0]["skill"]:
            st.warn(recs[0]["lines"][0], f"{cat}: no combat skill for this category in the "
                                         f"skills table (or more than one)")
    for rec in records:
        if rec["skill"] and rec["group"]:
            grp = str(rec["group"]).split()[:1]
            if str(rec["skill"]).split()[:1] != grp:
                st.warn(rec["lines"][0], f"{rec['name']}: skill {rec['skill']!r} does not match "
                                         f"its group {rec['group']!r}")
    _lint_empty(st, sections)


def _lint_fields(st: State, placed: Sequence[tuple[RawProfile, Table]]) -> None:
    h = st.hints
    keyed: list[tuple[RawProfile, dict[str, tuple[str, str, int]]]] = []
    for p, _ in placed:
        norm: dict[str, tuple[str, str, int]] = {}
        for label, value, line in p.fields:
            key = h.field_aliases.get(label)
            if key is None:
                continue
            if key in norm:
                st.warn(line, f"{p.name}: {label!r} and {norm[key][0]!r} both give the {key}")
            norm.setdefault(key, (label, value, line))
        keyed.append((p, norm))
        blank = [(label, line) for label, value, line in p.fields if not value]
        if blank:
            st.warn(blank[0][1], f"{p.name}: blank field{'s' if len(blank) > 1 else ''} "
                                 + ", ".join(lab for lab, _ in blank))
    # a field most profiles have and this one lacks
    have = Counter(k for _, norm in keyed for k in norm)
    for p, norm in keyed:
        for key, k in have.items():
            if key not in norm and k * 2 > len(keyed):
                labels = ", ".join(label for label, _, _ in p.fields) or "none"
                st.warn(p.fields[0][2] if p.fields else p.heading.lines[0],
                        f"{p.name}: no {key} field ({k} of {len(keyed)} profiles have one; "
                        f"its fields: {labels})")
    # a word value seen once, close to a common one: a misspelling?
    for key in have:
        values = Counter(norm[key][1] for _, norm in keyed if key in norm)
        for p, norm in keyed:
            if key not in norm:
                continue
            label, v, line = norm[key]
            if values[v] != 1 or any(ch.isdigit() for ch in v) or not v:
                continue
            close = [w for w, k in values.items() if k >= 2 and w != v
                     and difflib.SequenceMatcher(None, v.casefold(), w.casefold()).ratio() >= 0.85]
            if close:
                st.warn(line, f"{p.name}: {label} {v!r} looks like a misspelling of {close[0]!r}")
    # a move field should be one of the moves the profile tables use
    moves = Counter(cell for p, t in placed for row in t.rows for c, cell in enumerate(row.cells)
                    if c and _canon(t.header[c], h) == "Move" and cell)
    for p, norm in keyed:
        if "move" in norm:
            label, v, line = norm["move"]
            bare = re.sub(r"(?<=\d)\s*m$", "", v.strip())
            if v and moves and bare not in moves:
                usual = ", ".join(sorted(moves, key=lambda m: num(m, h.value_numbers) or 0))
                st.warn(line, f"{p.name}: {label} {v!r} is not one of the moves the profiles "
                              f"use ({usual})")


def _lint_empty(st: State, sections: Sequence[Section]) -> None:
    for s in sections:
        if not s.blocks and not s.sections:
            st.warn(s.lines[0], f"section {s.title!r} is empty in the export")
        _lint_empty(st, s.sections)


# --- extract -----------------------------------------------------------------------------


def extract(text: str, source: str, hints: Mapping[str, Any]) -> Document:
    check_text(text, source)
    h = read_hints(hints)
    st = State(split_lines(text), h, DocBuilder(source, hints))
    block_rules().run(st, 0, len(st.lines))

    profiles = [t for t in st.tokens if isinstance(t, RawProfile)]
    pools = column_pools(profiles, h)
    levels = heading_levels(st.tokens)
    b = st.b
    placed: list[tuple[RawProfile, Table]] = []
    pending: list[tuple[RawProfile, Table, str, Placement]] = []
    tables: list[Table] = []
    for k, tok in enumerate(st.tokens):
        if isinstance(tok, HeadingTok):
            b.heading(levels[k].level, tok.title, tok.lines[0])
        elif isinstance(tok, BlockTok):
            b.add(tok.block)
            if isinstance(tok.block, Table):
                tables.append(tok.block)
        else:
            b.heading(levels[k].level, tok.heading.title, tok.heading.lines[0])
            section = b.stack[-1].id
            if tok.fields:
                items = tuple(ListItem(f"{label}: {value}" if value else f"{label}:", (ln, ln))
                              for label, value, ln in tok.fields)
                b.add(ListBlock(items, (tok.fields[0][2], tok.fields[-1][2])))
            res = place_rows(tok, b.table_id(h.table_prefix + slugify(tok.name, "profile")),
                             pools, h)
            for line, msg, r, c in res.findings:
                st.warn(line, msg, res.table.id, r, c)
            b.add(res.table)
            placed.append((tok, res.table))
            pending.append((tok, res.table, section, levels[k]))
    skills = _skill_rows(tables, h)
    records: list[dict[str, Any]] = []
    for p, t, section, pl in pending:
        sk = match_skill(pl.category, skills) if pl.category else None
        records.append(profile_record(p, t, section, pl, str(sk["skill"]) if sk else "", h))
    doc = b.finish({"weapon_profiles": records, "combat_skills": skills} if skills
                   else {"weapon_profiles": records})
    lint_document(st, placed, records, skills, doc.sections)
    lint = sorted(set(doc.lint) | set(st.lint), key=lambda x: (x.line, x.table, x.row, x.column,
                                                                 x.message))
    return Document(doc.source, doc.game, doc.title, doc.sections, doc.records, tuple(lint))
