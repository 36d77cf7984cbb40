"""Two things every printed cheat sheet gains (issue #11), both computed at build time:

* `band_table`: a game whose records each have a banded profile table (Horizon's weapons:
  30 AP rows, Move and Range constant in each 5-AP band) gets every profile in one
  compact table, one row per weapon and one column per band: Damage and Defense as
  ranges, then Move and Range.
* `beyond_table`: the bands past AP 30 of the profiles that go on (Horizon's rusty
  weapons, to AP 100), so that the sheet carries every AP table whole.
* `odds_table`: one compact odds table for the game's core roll, made by running its
  calculator (rules_pkg) over a grid declared in site.toml `[<game>.odds]`, e.g. Forbidden
  Lands' chance of at least one ✘ by pool size, pushed and not.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import rules_pkg
from scripts.site.render import Json

DASH = "\u2013"  # en dash, for ranges
BAND = 5  # AP rows per band in a banded profile (Move and Range change only between bands)


def _tables_by_id(sections: list[Json]) -> dict[str, Json]:
    out: dict[str, Json] = {}
    for s in sections:
        for b in s.get("blocks", []):
            if b.get("type") == "table" and b.get("id"):
                out[b["id"]] = b
        out.update(_tables_by_id(s.get("sections", [])))
    return out


def _span(values: list[str]) -> str:
    """The values of one column over a band as a range; values of several numbers (a
    grenade's damage per target, "25/20/15/10/5") as one range per number."""
    parts = [v.split("/") for v in values]
    if "/" in values[0] and all(len(p) == len(parts[0]) for p in parts):
        return "/".join(_span(list(col)) for col in zip(*parts, strict=True))
    nums = [int(v) for v in values if v.lstrip("-").isdigit()]
    if len(nums) != len(values):
        return values[0] if len(set(values)) == 1 else f"{values[0]}{DASH}{values[-1]}"
    lo, hi = min(nums), max(nums)
    return str(lo) if lo == hi else f"{lo}{DASH}{hi}"


def _band_cells(t: Json) -> list[str] | None:
    """A profile table as one cell per 5-AP band (to AP 30): each column's span, " / "."""
    head = [h.lower() for h in t["header"]]
    cells = [r["cells"] for r in t["rows"]]
    if not head or not head[0].startswith("ap"):
        return None
    if head[0] == "ap" and len(cells) >= 30:  # one row per AP score
        groups = [cells[i:i + BAND] for i in range(0, 30, BAND)]
    else:  # already banded ("0 - 5", "6 - 10", …): its first six rows
        groups = [[row] for row in cells[:6]]
    out = []
    for band in groups:
        # " / " parts the cell's columns: a value's own ("Melee / 3": melee, or thrown
        # 3 m) closes up to "Melee/3"
        spans = [_span([c[k].replace(" / ", "/") for c in band if k < len(c) and c[k]]
                       or [DASH]) for k in range(1, len(t["header"]))]
        out.append(" / ".join(spans))
    return out


def _banded(t: Json) -> bool:
    """A profile table whose rows are already 5-AP bands ("0 - 5", "6 - 10", …)."""
    head = [h.lower() for h in t["header"]]
    return bool(head) and head[0].startswith("ap") and head[0] != "ap"


def _name(rec: Json) -> str:
    return f'{rec.get("name")} ({rec.get("tier")})' if rec.get("tier") else str(rec["name"])


def beyond_table(doc: Json) -> Json | None:
    """The bands past AP 30 of the profiles that go on (Horizon: the rusty weapons' banded
    tables run to AP 100; the others stop at 30): a row per band, a column per weapon,
    each cell that row's columns as the source has them (a blank as a dash)."""
    tables = _tables_by_id(doc.get("sections", []))
    cols: list[tuple[Json, Json]] = []
    for recs in doc.get("records", {}).values():
        for rec in recs if isinstance(recs, list) else []:
            t = tables.get(str(rec.get("table"))) if isinstance(rec, dict) else None
            if t and _banded(t) and len(t["rows"]) > 6:
                cols.append((rec, t))
    if not cols:
        return None
    labels: list[str] = []  # the bands, in the order the tables give them
    for _, t in cols:
        labels += [r["cells"][0] for r in t["rows"][6:] if r["cells"][0] not in labels]
    rows = []
    for label in labels:
        cells = [" ".join(label.split()).replace(" - ", DASH)]
        for _, t in cols:
            row = next((r["cells"] for r in t["rows"][6:] if r["cells"][0] == label), None)
            cells.append(" / ".join(c or DASH for c in row[1:]) if row else "")
        rows.append({"cells": cells, "line": 0})
    return {"type": "table", "id": "cheat-ap-beyond", "inline": "text",
            "caption": "Past AP 30: " + ", ".join(_name(r) for r, _ in cols),
            "header": ["AP", *(f"{_name(r)}\n" + " / ".join(t["header"][1:]) for r, t in cols)],
            "rows": rows, "lines": [0, 0], "notes": [
                "Only these profiles go on past AP 30 in the source; a dash: the source "
                "leaves the cell blank."]}


def band_tables(doc: Json) -> list[Json]:
    """band_table() per group of records (Horizon: 12 weapons each), so that no table is
    taller than a printed page (a table is never split)."""
    recs = [r for recs in doc.get("records", {}).values() if isinstance(recs, list)
            for r in recs if isinstance(r, dict) and r.get("table")]
    groups: dict[str, list[Json]] = {}
    for r in recs:
        groups.setdefault(str(r.get("group") or ""), []).append(r)
    out = []
    for name, members in groups.items():
        t = band_table(doc, members)
        if t:
            t["id"] = f"cheat-ap-bands-{len(out) + 1}"
            t["caption"] = f"{name}: {t['caption']}" if name else t["caption"]
            out.append(t)
    return out


def band_table(doc: Json, recs: list[Json]) -> Json | None:
    """These weapon profiles' AP tables in one compact table: a row per weapon, a column
    per 5-AP band (to AP 30), each cell the profile's columns in order as ranges."""
    tables = _tables_by_id(doc.get("sections", []))
    rows: list[Json] = []
    common: dict[tuple[str, ...], int] = {}
    for rec in recs:
        t = tables.get(str(rec.get("table")))
        if t:
            key = tuple(t["header"][1:])
            common[key] = common.get(key, 0) + 1
    if not common:
        return None
    usual = max(common, key=lambda k: common[k])
    for rec in recs:
        t = tables.get(str(rec.get("table")))
        bands = _band_cells(t) if t else None
        if not t or not bands:
            continue
        name = _name(rec)
        if tuple(t["header"][1:]) != usual:  # say which columns this one has
            name += "\n" + " / ".join(t["header"][1:])
        rows.append({"cells": [name, *bands], "line": t["lines"][0] if t.get("lines") else 0})
    if len(rows) < 2:
        return None
    header = ["Weapon (tier)", *(f"AP {lo + 1 if lo else '0/1'}{DASH}{lo + BAND}"
                                 for lo in range(0, 30, BAND))]
    return {"type": "table", "id": "cheat-ap-bands", "inline": "text",
            "caption": "by AP band: " + " / ".join(usual),
            "header": header, "rows": rows, "notes": [
                "Each cell: the range of each column over the band; the full tables are on "
                "the weapons' pages."], "lines": [0, 0]}


def _shown(v: Any, name: str) -> str:
    if isinstance(v, Fraction):
        if name.startswith("P("):
            pct = float(v) * 100
            return "0 %" if v == 0 else "< 1 %" if pct < 1 else f"{pct:.0f} %"
        return f"{float(v):.1f}"
    return str(v)


def odds_table(game: str, spec: dict[str, Any]) -> Json:
    """The grid of `spec` run through the game's calculator (see the module docstring)."""
    calc = rules_pkg.get(str(spec["calc"]))
    fixed = dict(spec.get("fixed", {}))
    row_input = str(spec["row"])
    rows: list[Json] = []
    for r in spec["rows"]:
        cells = [str(r)]
        for col in spec["cols"]:
            result = calc.run(**{**fixed, row_input: r, **col.get("inputs", {})})
            cells.append(_shown(result.value(col["value"]), col["value"]))
        rows.append({"cells": cells, "line": 0})
    return {"type": "table", "id": f"cheat-odds-{game}", "inline": "text",
            "caption": str(spec["title"]),
            "header": [str(spec["row_label"]), *(str(c["label"]) for c in spec["cols"])],
            "rows": rows, "notes": [f"Computed by the site's rules engine ({calc.id})."],
            "lines": [0, 0]}
