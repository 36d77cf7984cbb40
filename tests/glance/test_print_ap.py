"""Horizon's cheat sheet carries every weapon's AP table, whole, checked against the
source cell by cell (issue #11: "The Horizon cheat sheet carries every weapon's AP table in
a compact form (for example, one line per 5-AP band)").

Each profile table is read back from the source text itself, at the line the extraction
recorded for each row (and the row's tokens must be the extracted cells, so the two agree).
A table with a row per AP score (AP 1-30) prints one cell per 5-AP band: each column's
range over the band, whose ends are values of the band and which holds every value in it
(a grenade's "25/20/15/10/5" damage per target: one range per target; a melee weapon's
"Melee / 3" range closes up to "Melee/3", " / " parting the columns). A table the source
already gives in 5-AP bands (the rusty weapons, to AP 100) prints each band's cells as
they are: its first six bands with the other weapons, the rest in "Past AP 30"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import rules_pkg

from .conftest import DESKTOP, NewPage

pytestmark = pytest.mark.browser

DASH = "\u2013"
ROOT = Path(rules_pkg.__file__).parent.parent
DOC = json.loads((ROOT / "rules_pkg" / "data" / "horizon.json").read_text("utf-8"))
SOURCE = (ROOT / DOC["source"]).read_text("utf-8").splitlines() if DOC.get("source") else []


def _tables(sections: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in sections:
        out.update({b["id"]: b for b in s.get("blocks", []) if b.get("type") == "table"})
        out.update(_tables(s.get("sections", [])))
    return out


TABLES = _tables(DOC["sections"])
WEAPONS = DOC["records"]["weapon_profiles"]


def source_rows(table: Any) -> list[list[str]]:
    """The table's rows as the source lines have them; checks the extracted cells agree."""
    rows = []
    for row in table["rows"]:
        tokens = SOURCE[row["line"] - 1].split()
        assert tokens == " ".join(row["cells"]).split(), (table["id"], row["line"])
        rows.append(row["cells"])
    return rows


def per_ap(table: Any) -> bool:
    return table["header"][0] == "AP"


def covers(printed: str, values: list[str]) -> bool:
    """`printed` is the range of `values` (see the module docstring)."""
    if "/" in values[0]:
        parts = printed.split("/")
        cols = list(zip(*(v.split("/") for v in values), strict=True))
        return len(parts) == len(cols) and all(map(covers, parts, (list(c) for c in cols)))
    ends = printed.split(DASH)
    lo, hi = ends[0], ends[-1]
    if len(ends) > 2 or not (lo in values and hi in values):
        return False
    if all(re.fullmatch(r"-?\d+", v) for v in values):
        return all(int(lo) <= int(v) <= int(hi) for v in values) and (len(ends) == 2) == (lo != hi)
    return values[0] == lo and values[-1] == hi and set(values) == {lo, hi}


def as_printed(cells: list[str]) -> str:
    return " / ".join(c or DASH for c in cells[1:])


def name(w: Any) -> str:
    return f'{w["name"]} ({w["tier"]})'


def test_the_source_tables_are_what_the_test_reads() -> None:
    assert SOURCE and len(WEAPONS) == 36
    for w in WEAPONS:
        t = TABLES[w["table"]]
        rows = source_rows(t)
        first = [r[0] for r in rows]
        if per_ap(t):  # AP 1-30, a row each: six bands cover it all
            assert first == [str(n) for n in range(1, 31)], w["name"]
        else:  # already banded, "0 - 5" to "96 - 100"
            assert first == [f"{lo} - {lo + 4 if lo else 5}" for lo in (0, *range(6, 100, 5))]


def test_horizon_sheet_has_every_weapons_ap_table(new_page: NewPage, base_url: str) -> None:
    page = new_page(DESKTOP)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)
    page.goto(f"{base_url}horizon/cheat-sheet/", wait_until="domcontentloaded")
    tables = page.locator('.ts-cheat table[data-table^="cheat-ap-bands"]')
    assert tables.count() == 3
    header = tables.first.locator("thead th").all_inner_texts()
    assert header[1:] == [f"AP {b}".replace("-", DASH) for b in (
        "0/1-5", "6-10", "11-15", "16-20", "21-25", "26-30")]
    printed = {cells[0].split("\n")[0]: cells[1:] for cells in tables.locator("tbody tr")
               .evaluate_all("rs => rs.map(r => [...r.cells].map(c => c.innerText))")}
    assert len(printed) == len(WEAPONS)
    # Hand Cannon, AP 1-5 in the source: Damage 13-16, Defense 16-20, Move -10, Range 10
    assert printed["Hand Cannon (4)"][0] == f"13{DASH}16 / 16{DASH}20 / -10 / 10"
    beyond = page.locator('.ts-cheat table[data-table="cheat-ap-beyond"]')
    past = beyond.locator("tbody tr").evaluate_all(
        "rs => rs.map(r => [...r.cells].map(c => c.innerText))")
    past_names = [h.split("\n")[0] for h in beyond.locator("thead th").all_inner_texts()[1:]]
    checked = 0
    for w in WEAPONS:
        t = TABLES[w["table"]]
        rows, bands = source_rows(t), printed[name(w)]
        assert len(bands) == 6, name(w)
        if per_ap(t):
            for b, cell in enumerate(bands):
                band = rows[5 * b:5 * b + 5]
                parts = cell.split(" / ")
                assert len(parts) == len(t["header"]) - 1, (name(w), cell)
                for k, part in enumerate(parts, start=1):
                    values = [r[k].replace(" / ", "/") for r in band]  # "Melee / 3"
                    assert covers(part, values), f"{name(w)} AP band {b + 1}, " \
                        f"{t['header'][k]}: printed {part!r}, the source has {values}"
                    checked += len(values)
        else:  # banded: the first six as they are, the rest past AP 30
            assert bands == [as_printed(r) for r in rows[:6]], name(w)
            col = past_names.index(name(w)) + 1
            assert [r[0] for r in past] == [r[0].replace(" - ", DASH) for r in rows[6:]]
            assert [r[col] for r in past] == [as_printed(r) for r in rows[6:]], name(w)
            checked += sum(len(r) - 1 for r in rows)
    # every cell of every weapon's table: 34 tables of 30 x 4, and two of 20 x 4 and 20 x 5
    assert checked == sum(len(r["cells"]) - 1 for w in WEAPONS
                          for r in TABLES[w["table"]]["rows"])
