"""Horizon: core rules: place banded rows' cells in their columns, heading levels, records."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from ..model import Row, Table
from ..util import slugify
from .base import HeadingTok, Hints, RawProfile, Token, amount_of, count_of, fits, num, shape

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
