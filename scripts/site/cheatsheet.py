"""A game's cheat sheet: the rules lists, the small tables and a compact table of its
records (e.g. Horizon's weapon profiles), chosen to print on at most two A4 pages.

Printed height is estimated in "column lines" (two columns, 7.5 pt, see
docs/assets/stylesheets/print.css); blocks are taken by usefulness (records,
short rules lists, small tables, long lists, big tables, short paragraphs) until
the budget is spent, and shown in document order (records last). tests/site
checks the real PDF page count.
"""

from __future__ import annotations

import html
import math
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scripts.site import render
from scripts.site.cheatsheet_extra import band_tables, beyond_table, odds_table
from scripts.site.render import Json, PageCtx

SITE_TOML = Path(__file__).with_name("site.toml")
BUDGET = 285.0  # column lines; 2 pages x 2 columns x ~88 lines, minus room for breaks
COL_CHARS = 62  # characters of 7.5 pt text per line in one column
TABLE_CHARS = (74, 150)  # characters of 6.8 pt table text across one column / the page
WIDE_COLS = 5  # tables with more columns span both columns
SKIP_FIELDS = {"line", "lines", "table", "tables", "source", "section", "id", "rows"}


@dataclass(frozen=True)
class Pick:
    order: int  # position in the document
    path: tuple[str, ...]  # section titles above the block
    block: Json
    cost: float


def _text_lines(text: str, width: float) -> int:
    return max(1, math.ceil(len(text) / max(width, 4.0)))


def block_cost(block: Json) -> float:
    kind = block.get("type")
    if kind == "list":
        def items(its: list[Json], indent: int) -> float:
            return sum(_text_lines(i["text"], COL_CHARS - 3 - indent) + items(i.get("children", []),
                                                                              indent + 3)
                       for i in its)
        return items(block["items"], 0) + 0.6
    if kind == "table":
        return table_cost(block.get("header", []), [r["cells"] for r in block["rows"]])
    return _text_lines(block["text"], COL_CHARS) + 0.6


def is_wide(header: list[str], rows: list[list[str]]) -> bool:
    """Many columns, or long text per row: the table spans the page, not a column."""
    ncols = max([1, len(header), *(len(r) for r in rows)])
    avg = sum(len(c) for r in rows for c in r) / max(len(rows), 1)
    return ncols > WIDE_COLS or avg > COL_CHARS * 1.5


def table_cost(header: list[str], rows: list[list[str]]) -> float:
    """Column lines of a table; auto layout gives long cells the room, so count by row text."""
    ncols = max([1, len(header), *(len(r) for r in rows)])
    wide = is_wide(header, rows)
    width = TABLE_CHARS[wide] - 2 * ncols
    lines = 0.0
    for r in (header, *rows):
        if r:
            by_text = math.ceil(sum(len(c) for c in r) * 1.1 / max(width, 8))
            lines += max(1, by_text) + 0.2
    # 6.8 pt table lines are ~0.87 of a 7.5 pt text line; a wide table uses both columns.
    return (lines * 0.87 + 1.0) * (2 if wide else 1)


def _walk(sections: list[Json],
          path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Json, str]]:
    for s in sections:
        here = (*path, s["title"])
        for b in s.get("blocks", []):
            yield here, b, s["id"]
        yield from _walk(s.get("sections", []), here)


def _rank(block: Json, cost: float) -> int:
    """(record tables first), 0 short rules lists, 1 small tables, 2 long lists,
    3 big tables, 4 short paragraphs."""
    kind = block.get("type")
    if kind == "list":
        return 0 if cost <= 20 else 2
    if kind == "table":
        return 1 if cost <= 45 else 3
    return 4 if len(block.get("text", "")) <= 320 else 9


@cache
def site_config(path: Path = SITE_TOML) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def _columns(game: str, kind: str) -> list[str] | None:
    cols = site_config().get(game, {}).get("records", {}).get(kind, {}).get("columns")
    return [str(c) for c in cols] if isinstance(cols, list) else None


def record_tables(doc: Json) -> list[Json]:
    """Each kind of record (a list of flat-ish dicts) as one compact table of its scalar fields."""
    tables: list[Json] = []
    for kind, recs in sorted(doc.get("records", {}).items()):
        if not isinstance(recs, list) or not recs or not all(isinstance(r, dict) for r in recs):
            continue
        if len({r.get("table") for r in recs}) == 1 and recs[0].get("table"):
            continue  # every record restates one table, which the sheet shows as it is
        fields = _columns(str(doc.get("game")), kind) or _fields(recs)
        if not fields:
            continue
        rows = [{"cells": [_cell(r.get(f)) for f in fields], "line": _line(r)} for r in recs]
        tables.append({"type": "table", "id": f"records-{kind}", "inline": "text", "notes": [],
                       "caption": kind.replace("_", " ").capitalize(),
                       "header": [f.replace("_", " ").capitalize() for f in fields],
                       "rows": rows, "lines": [rows[0]["line"], rows[-1]["line"]],
                       "_records": recs})
    return tables


def _fields(recs: list[Json]) -> list[str]:
    """Scalar fields as the source words them, in first-seen order.

    A field "<name>_<x>" next to a field "<name>" is the parsed number of that value
    (cost_bars for cost "1Bar"): the sheet shows the source's wording only.
    """
    fields: list[str] = []
    for r in recs:
        for k, v in r.items():
            if k not in fields and k not in SKIP_FIELDS and (v is None or isinstance(v, str | int)):
                fields.append(k)
    keep = [f for f in fields if not ("_" in f and f.rsplit("_", 1)[0] in fields)]
    # Fields every record shares add nothing to a comparison table.
    return [f for f in keep if len({str(r.get(f)) for r in recs}) > 1 or len(recs) == 1]


def _cell(v: Any) -> str:
    return "" if v is None else str(v)


def _line(rec: Json) -> int:
    for key in ("line", "lines"):
        v = rec.get(key)
        if isinstance(v, int):
            return v
        if isinstance(v, list) and v and isinstance(v[0], int):
            return v[0]
    return 0


def choose(doc: Json, budget: float = BUDGET) -> tuple[list[Pick], list[Json]]:
    """The blocks (and record tables) that fit, by rank, in document order."""
    records = [(t, block_cost(t)) for t in record_tables(doc)]
    # Sections a record table sums up (one weapon profile each) are left to that table.
    summed = {r.get("section") for t, _ in records for r in t["_records"]}
    cands: list[tuple[int, Pick]] = []
    for order, (path, block, sid) in enumerate(_walk(doc["sections"], ())):
        if sid in summed:
            continue
        cost = block_cost(block)
        cands.append((_rank(block, cost), Pick(order, path, block, cost)))
    spent, picked, recs = 0.0, [], []
    heads: set[tuple[str, ...]] = set()
    for rank in (0, 1, 2, 3, 4):
        if rank == 0:  # a game's records (its weapons) are what the table needs most
            for t, cost in records:
                if spent + cost + 1.5 <= budget:
                    recs.append(t)
                    spent += cost + 1.5
        for r, pick in cands:
            head = 0.0 if pick.path in heads else 1.6
            if r == rank and spent + pick.cost + head <= budget:
                picked.append(pick)
                heads.add(pick.path)
                spent += pick.cost + head
    return sorted(picked, key=lambda p: p.order), recs


def render_cheatsheet(game_id: str, doc: Json, placement: tuple[Any, Any, Any]) -> str:
    """A game's cheat sheet from its extracted document (the game's id and data: what
    pages.py's Game holds, passed as they are so this module needs nothing of pages.py)."""
    title = " ".join(str(doc.get("title") or game_id).split())
    ctx = PageCtx(game_id, render.glossary(game_id), list(doc.get("lint", [])), lambda tid: [])
    ctx.used_ids.add("cheat-sheet")
    spec = site_config().get(game_id, {}).get("odds")
    odds = odds_table(game_id, spec) if isinstance(spec, dict) else None
    bands = band_tables(doc)
    beyond = beyond_table(doc) if bands else None
    # their cells wrap more than block_cost() assumes (measured: about twice as tall)
    extra = sum(2 * block_cost(t) + 1.5 for t in (odds, *bands, beyond) if t)
    picks, recs = choose(doc, BUDGET - extra)
    if bands:  # it carries every weapon: their record table would repeat the names
        recs = [t for t in recs if not any(r.get("table") for r in t["_records"])]
    wrap, roots = 0, doc["sections"]
    while len(roots) == 1 and roots[0].get("sections"):  # the document's title section(s)
        wrap, roots = wrap + 1, roots[0]["sections"]
    parts = [f"# {render.heading_text(title)}: cheat sheet {{#cheat-sheet}}",
             '<p class="ts-screen-only">The key rules lists and small tables of '
             f'<a href="../">{html.escape(title)}</a>, made to print on two A4 pages. '
             "Everything else is on the full pages.</p>"]
    runs: list[tuple[bool, list[str]]] = []  # (wide, html parts)

    def table(block: Json) -> str:  # a table with its notes: one unbreakable piece in print
        return f'<div class="ts-cs-table">\n{render.render_table(block, ctx, compact=True)}\n</div>'

    def put(wide: bool, part: str) -> None:
        if not runs or runs[-1][0] != wide or wide:
            runs.append((wide, []))
        runs[-1][1].append(part)

    if odds:  # the core roll's odds, computed now by rules_pkg
        put(False, f'<h2 class="ts-cs-h">{html.escape(odds["caption"])}</h2>\n'
            + table({**odds, "caption": ""}))
    last: tuple[str, ...] = ()
    for p in picks:
        wide = p.block.get("type") == "table" and is_wide(
            p.block.get("header") or [], [r["cells"] for r in p.block["rows"]])
        head = ""
        if p.path != last:
            # The nearest titled section, with its parent for context (not the title wrapper).
            label = " \u203a ".join(p.path[max(len(p.path) - 2, min(wrap, len(p.path) - 1)):])
            head = f'<h2 class="ts-cs-h">{html.escape(label)}</h2>\n'
            last = p.path
        if p.block.get("type") == "table":
            put(wide, head + table(p.block))
        else:
            put(False, head + render.render_block(p.block, ctx))
    for t in recs:
        head = f'<h2 class="ts-cs-h">{html.escape(t["caption"])}</h2>\n'
        put(True, head + table(t))
    for band in bands:  # every weapon's AP table, one line each
        head = f'<h2 class="ts-cs-h">{html.escape(band["caption"])}</h2>\n'
        put(True, head + table({**band, "caption": ""}))
    if beyond:  # the bands past AP 30 of the tables that go on
        put(False, f'<h2 class="ts-cs-h">{html.escape(beyond["caption"])}</h2>\n'
            + table({**beyond, "caption": ""}))
    body = [f'<div class="{"ts-cs-wide" if wide else "ts-cs-cols"}">\n' + "\n".join(ps) + "\n</div>"
            for wide, ps in runs]
    if 'class="ts-flag"' in "".join(body):
        body.append('<p class="ts-cs-foot">* The source gives this value as shown, but it '
                    "looks odd (the site's lint report says why).</p>")
    parts.append(render.no_blank_lines('<div class="ts-cheat">\n' + "\n".join(body) + "\n</div>"))
    front = render.front_matter({"title": render.nav_title(f"{title}: cheat sheet"),
                                 "search": {"exclude": True}, "hide": ["toc"]})
    return front + render.page_markdown(parts)
