"""Horizon: lint, what looks wrong in the export, reported with file and line (never changed)."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from ..model import Section, Table
from .base import NUMBER, RawProfile, State, _fmt, num
from .core import _canon

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
