"""Generic table lint: values that look wrong are reported with file and line, never "fixed".

Run on every table of every document (sources/README.md: "Where a value looks
wrong … the build reports it"). Each check is deliberately conservative so a
report is worth reading:

  width      a row with a different number of cells than the header
  blank      an empty body cell
  kind       one text value in a column that is otherwise numeric (>= 3 numbers)
  order      one step backwards in a numeric column that otherwise rises (or falls)
             strictly in >= 3 steps, in a table keyed by an ordered first column
  duplicate  two tables in one section with the same header and rows
  siblings   tables with the same header whose row count differs from the others'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from .build import walk_tables
from .model import Document, Lint, Table

MINUS = "\u2212\u2013"  # minus sign, en dash: typeset minus signs
_N = rf"[+\-{MINUS}]?\d+(?:[.,]\d+)?%?\+?"
NUMBER = re.compile(rf"^[+\-{MINUS}]?\d+(?:[.,]\d+)?")  # the leading number of a cell
# a whole cell that is a number: "3", "-2", "+1", "50%", "11+", ranges "1-5" / "6 - 10" /
# "7 to 10", pairs "-3/+3"
STRICT_NUMBER = re.compile(rf"^{_N}(?:\s*(?:[-/{MINUS}]|to)\s*{_N})?$")
DICE = re.compile(r"^\d*[dD]\d+(?:\s*[+-]\s*\d+)?$")  # "2d6", "d10", "1d6+2"
# a number then words: "-1 Die", "-3 (requires Aim)", "5 to 6 or 4 w/ Cyberarms"
NUMBER_WORDS = re.compile(rf"^[+\-{MINUS}]?\d+(?:[.,]\d+)?\s")
# neutral fillers that belong to any column
NONE_VALUES = {"-", "\u2013", "\u2014", "\u2212", "n/a", "na", "none", "x", "\u2717", "\u2718"}
KIND_WORDS = {"number": "numeric", "dice": "dice"}


def kind(cell: str) -> str:
    """blank | none | number | dice | number-words | text."""
    c = cell.strip()
    if not c:
        return "blank"
    if c.lower() in NONE_VALUES:
        return "none"
    if STRICT_NUMBER.match(c):
        return "number"
    if DICE.match(c):
        return "dice"
    return "number-words" if NUMBER_WORDS.match(c) else "text"


def number(cell: str) -> float:
    m = NUMBER.match(cell.strip())
    assert m is not None
    return float(re.sub(f"[{MINUS}]", "-", m.group(0)).replace(",", "."))


def _label(t: Table, r: int) -> str:
    row = t.rows[r]
    first = next((c for c in row.cells if c.strip()), "")
    return f'"{first[:40]}"' if first else f"{r + 1}"


def _col(t: Table, c: int) -> str:
    name = t.header[c] if c < len(t.header) else ""
    return f'"{name}"' if name else f"{c + 1}"


def _subheader(t: Table) -> bool:
    """A second header row: the header has a blank cell and row 0 is all text (mecha's layout)."""
    if not t.rows or "" not in t.header:
        return False
    return all(kind(c) == "text" for c in t.rows[0].cells)


def _cell(source: str, t: Table, r: int, c: int, message: str) -> Lint:
    return Lint(source, t.rows[r].line, message, t.id, r, c)


def lint_table(source: str, t: Table) -> list[Lint]:
    out: list[Lint] = []
    width = len(t.header)
    # a column blank in more than a quarter of its rows is sparse by design (e.g. a "Special"
    # column filled in one row): its blanks are layout, not gaps
    blanks = Counter(c for row in t.rows for c, v in enumerate(row.cells) if not v.strip())
    sparse = {c for c, n in blanks.items() if n * 4 > len(t.rows)}
    for r, row in enumerate(t.rows):
        if len(row.cells) != width:
            n = len(row.cells)
            out.append(Lint(source, row.line, f"row {_label(t, r)} of table \"{t.id}\" has "
                            f"{n} cell{'s' * (n != 1)} where the header has {width}", t.id, r, -1))
        for c, cell in enumerate(row.cells[:width]):  # extra cells: the width finding says it
            if not cell.strip() and c not in sparse:
                out.append(_cell(source, t, r, c, f"column {_col(t, c)} is blank in row "
                                 f"{_label(t, r)} of table \"{t.id}\""))
    first = 1 if _subheader(t) else 0
    body = list(range(first, len(t.rows)))
    ncols = max([width, *(len(row.cells) for row in t.rows)])
    keyed = _strictly_monotonic([t.rows[r].cells[0] for r in body if t.rows[r].cells])
    for c in range(ncols):
        cells = [(r, t.rows[r].cells[c]) for r in body if c < len(t.rows[r].cells)]
        out.extend(_kind_check(source, t, c, cells))
        if c == 0 or keyed:
            out.extend(_order_check(source, t, c, cells))
    return out


def _kind_check(source: str, t: Table, c: int, cells: list[tuple[int, str]]) -> list[Lint]:
    """One plain-text value ("2O") in a column of >= 3 whole numbers (or dice): report it.

    'number-words' cells ("-1 Die") and fillers ("-", "X") are neither evidence nor outliers.
    """
    kinds = [(r, v, kind(v)) for r, v in cells]
    texts = [(r, v) for r, v, k in kinds if k == "text"]
    for k, word in KIND_WORDS.items():
        if sum(1 for _, _, kk in kinds if kk == k) >= 3 and len(texts) == 1:
            r, v = texts[0]
            return [_cell(source, t, r, c, f'column {_col(t, c)} is "{v}" where the column is '
                          f"{word}")]
    return []


def _numbers(values: Sequence[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """The whole-number cells of a column, if they are >= 3/4 of its filled cells, else None."""
    filled = [(r, v) for r, v in values if kind(v) not in ("none", "blank")]
    nums = [(r, v) for r, v in filled if kind(v) == "number"]
    return nums if filled and len(nums) * 4 >= len(filled) * 3 else None


def _strictly_monotonic(values: Sequence[str]) -> bool:
    nums = _numbers(list(enumerate(values)))
    if nums is None or len(nums) < 3 or len(nums) != len([v for v in values if v.strip()]):
        return False
    steps = [b - a for a, b in pairwise(number(v) for _, v in nums)]
    return all(s > 0 for s in steps) or all(s < 0 for s in steps)


def _order_check(source: str, t: Table, c: int, cells: list[tuple[int, str]]) -> list[Lint]:
    vals = _numbers(cells)
    if vals is None or len(vals) < 4:
        return []
    steps = [b - a for a, b in pairwise(number(v) for _, v in vals)]
    up = [i for i, s in enumerate(steps) if s > 0]
    down = [i for i, s in enumerate(steps) if s < 0]
    for main, odd, word in ((up, down, "rises"), (down, up, "falls")):
        if len(main) >= 3 and len(odd) == 1 and len(main) + 1 == len(steps):
            i = odd[0]
            r, v = vals[i + 1]
            prev = vals[i][1]
            return [_cell(source, t, r, c, f'column {_col(t, c)} goes from "{prev}" to "{v}" '
                          f"where it otherwise {word}")]
    return []


def lint_document(doc: Document) -> list[Lint]:
    out: list[Lint] = []
    pairs = walk_tables(doc.sections)
    for _, t in pairs:
        out.extend(lint_table(doc.source, t))
    # identical tables within one section
    by_section: dict[str, list[Table]] = {}
    for s, t in pairs:
        by_section.setdefault(s.id, []).append(t)
    for tables in by_section.values():
        first: dict[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], Table] = {}
        for t in tables:  # by content, so 10,000 tables in a section stay fast
            twin = first.setdefault((t.header, tuple(r.cells for r in t.rows)), t)
            if twin is not t and t.rows:
                out.append(Lint(doc.source, t.lines[0], f'table "{t.id}" is identical to table '
                                f'"{twin.id}" (line {twin.lines[0]})', t.id))
    out.extend(_siblings(doc.source, [t for _, t in pairs]))
    return out


def _siblings(source: str, tables: list[Table]) -> list[Lint]:
    groups: dict[tuple[str, ...], list[Table]] = {}
    for t in tables:
        if len(t.header) >= 2 and any(h.strip() for h in t.header):
            groups.setdefault(t.header, []).append(t)
    out = []
    for group in groups.values():
        if len(group) == 2 and len(group[0].rows) != len(group[1].rows):
            a, b = group  # no majority to compare against: report the pair on the second
            out.append(Lint(source, b.lines[0], f'table "{b.id}" has {len(b.rows)} rows where '
                            f'"{a.id}" with the same header has {len(a.rows)}', b.id))
        if len(group) < 3:
            continue
        counts = Counter(len(t.rows) for t in group)
        usual, n = counts.most_common(1)[0]
        if n * 2 <= len(group):
            continue
        for t in group:
            if len(t.rows) != usual:
                out.append(Lint(source, t.lines[0], f'table "{t.id}" has {len(t.rows)} rows where '
                                f"{n} of its {len(group) - 1} siblings with the same header have "
                                f"{usual}", t.id))
    return out
