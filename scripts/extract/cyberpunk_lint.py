"""Cyberpunk RED: lint of the extracted tables, values that break their own column's
pattern, reported with file and line (never corrected)."""

from __future__ import annotations

import itertools
import re
from collections import Counter

from .model import Lint, Table


def _shape(cell: str) -> str:
    return re.sub(r"\d+", "9", cell)


def _first_number(cell: str) -> int | None:
    m = re.search(r"\d+", cell)
    return int(m.group(0)) if m else None


def lint_table(source: str, t: Table) -> list[Lint]:
    """Values that break their own column's pattern (never corrected, only reported).

    unbalanced  a cell with a ')' or '(' that is not closed
    shape       one cell shaped differently from the >= 3 others of its column ("5HP" among "N HP")
    repeat      a column that rises/falls with a column that rises strictly, except for one
                row that repeats the row above (Strong 2d6, Deadly 2d6 while DV 13 -> 15)
    """
    out: list[Lint] = []
    for c, h in enumerate(t.header):
        if h.count("(") != h.count(")"):
            out.append(Lint(source, t.lines[0], f'header cell "{h}" of table "{t.id}" has an '
                            "unbalanced bracket", t.id, -1, c))
    ncols = len(t.header)
    for r, row in enumerate(t.rows):
        for c, cell in enumerate(row.cells):
            if cell.count("(") != cell.count(")"):
                out.append(Lint(source, row.line, f'cell "{cell}" of table "{t.id}" has an '
                                "unbalanced bracket", t.id, r, c))
    for c in range(ncols):
        cells = [row.cells[c] for row in t.rows if c < len(row.cells)]
        shapes = Counter(_shape(x) for x in cells)
        if len(cells) >= 4 and len(shapes) == 2:
            usual, n = shapes.most_common(1)[0]
            if n >= len(cells) - 1:
                for r, row in enumerate(t.rows):
                    if c < len(row.cells) and _shape(row.cells[c]) != usual:
                        out.append(Lint(source, row.line,
                                        f'"{row.cells[c]}" breaks the pattern of column '
                                        f'"{t.header[c]}" of table "{t.id}" ("{usual}", 9 = a '
                                        "number)", t.id, r, c))
    out.extend(_repeat_check(source, t))
    return out


def _repeat_check(source: str, t: Table) -> list[Lint]:
    if len(t.rows) < 3:
        return []
    cols: dict[int, list[int]] = {}
    for c in range(len(t.header)):
        nums = [_first_number(row.cells[c]) if c < len(row.cells) else None for row in t.rows]
        if all(n is not None for n in nums):
            cols[c] = [n for n in nums if n is not None]
    strict = [c for c, v in cols.items()
              if all(b > a for a, b in itertools.pairwise(v))
              or all(b < a for a, b in itertools.pairwise(v))]
    out = []
    for c, v in cols.items():
        steps = [b - a for a, b in itertools.pairwise(v)]
        ties = [i for i, s in enumerate(steps) if s == 0]
        moving = [s for s in steps if s != 0]
        same_way = moving and (all(s > 0 for s in moving) or all(s < 0 for s in moving))
        others = [o for o in strict if o != c]
        if len(ties) == 1 and same_way and others:
            r = ties[0] + 1
            row, ref = t.rows[r], others[0]
            out.append(Lint(source, row.line,
                            f'"{row.cells[c]}" in column "{t.header[c]}" of table "{t.id}" '
                            f"repeats the row above while column \"{t.header[ref]}\" goes from "
                            f'"{t.rows[r - 1].cells[ref]}" to "{row.cells[ref]}"', t.id, r, c))
    return out
