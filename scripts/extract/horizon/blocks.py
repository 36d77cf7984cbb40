"""Horizon: block rules, a RuleChain over the export's lines that emits tokens."""

from __future__ import annotations

from ..lines import Line, RuleChain
from ..model import ListBlock, Paragraph, Row, Table
from ..plaintext import list_marker, nest_items
from .base import (
    BAND,
    INLINE_LABEL,
    LABEL_ROW,
    MAX_HEADING,
    ROW,
    BlockTok,
    HeadingTok,
    RawProfile,
    State,
    _is_bullet,
    _next_nonblank,
    cells_of,
    is_header_line,
    segment_header,
)

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
