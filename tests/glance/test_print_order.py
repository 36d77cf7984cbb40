"""Printed cheat sheets read in order (issue #11): "Columns read in order, and no table is
split across columns."

Chromium prints each sheet to PDF; before printing, the test puts an invisible-to-layout
marker (absolutely positioned, so nothing moves) at the top of every block of the sheet
and at the bottom of every table (with its notes). poppler's pdftohtml reads back where
each marker printed: page, column and height. Then:

* the blocks, taken page by page, band by band (a two-column run or a page-wide table),
  column by column, top to bottom, come in the page's source order;
* the bands of a page stack: each starts below the one before;
* every table starts and ends on the same page and in the same column (the print CSS
  forbids breaking inside one), its notes included;
* a heading prints in the same column as the block under it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from xml.etree import ElementTree

import pytest

from .conftest import DESKTOP, NewPage

pytestmark = pytest.mark.browser

GAMES = ["cyberpunk-red", "d100", "forbidden-lands", "horizon", "mecha"]
MARK = re.compile(r"QZ(\d{3})([az])")

# Every block of each band (.ts-cs-cols: two columns; .ts-cs-wide: the page's width) gets
# a marker "QZ<nnn>a" at its top left; a table's last piece (its notes, or the table) also
# gets "QZ<nnn>z" at its bottom left, nnn being the table's first block.
MARKERS_JS = """() => {
  const bands = [...document.querySelectorAll('.ts-cheat > .ts-cs-cols, .ts-cheat > .ts-cs-wide')];
  const units = [];
  const mark = (el, n, end) => {
    if (getComputedStyle(el).position === 'static') el.style.position = 'relative';
    const m = document.createElement('span');
    m.textContent = 'QZ' + String(n).padStart(3, '0') + end;
    m.style.cssText = 'position:absolute;left:0;font:5px/1 monospace;color:#000;' +
      'white-space:nowrap;' + (end === 'a' ? 'top:0' : 'bottom:0');
    el.appendChild(m);
  };
  bands.forEach((band, b) => {
    const kids = [...band.children];
    kids.forEach((el, i) => {
      if (el.classList.contains('ts-table-notes')) return;  // part of the table above it
      const n = units.length;
      const table = el.matches('.ts-table-wrap') || !!el.querySelector('.ts-table-wrap');
      units.push({n, band: b, wide: band.classList.contains('ts-cs-wide'), table,
                  heading: el.matches('h2, h3, h4'),
                  text: el.innerText.trim().split('\\n')[0].slice(0, 60)});
      mark(el, n, 'a');
      if (table) {
        const next = kids[i + 1];
        mark(next && next.classList.contains('ts-table-notes') ? next : el, n, 'z');
      }
    });
  });
  return units;
}"""


@dataclass(frozen=True)
class Spot:
    page: int
    left: float
    top: float


def printed_marks(pdf: Path) -> tuple[dict[str, list[Spot]], float]:
    """Where each marker printed, and the page's width (in pdftohtml's units)."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", str(pdf)],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    root = ElementTree.fromstring(xml.encode())
    spots: dict[str, list[Spot]] = {}
    width = 0.0
    for page in root.iter("page"):
        width = float(page.get("width", 0))
        for t in page.iter("text"):
            for m in MARK.finditer("".join(t.itertext())):
                spots.setdefault(m.group(0), []).append(
                    Spot(int(page.get("number", 0)), float(t.get("left", 0)),
                         float(t.get("top", 0))))
    return spots, width


@pytest.mark.parametrize("game", GAMES)
def test_cheat_sheet_reads_in_order(new_page: NewPage, base_url: str, game: str,
                                    tmp_path: Path) -> None:
    page = new_page(DESKTOP)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # no calculators here
    page.goto(f"{base_url}{game}/cheat-sheet/", wait_until="domcontentloaded")
    page.emulate_media(media="print")
    units = page.evaluate(MARKERS_JS)
    assert len(units) > 5, units
    pdf = tmp_path / f"{game}.pdf"
    pdf.write_bytes(page.pdf(format="A4", print_background=True, prefer_css_page_size=True))
    spots, width = printed_marks(pdf)
    mid = width / 2

    def at(u: dict, end: str) -> Spot:
        key = f"QZ{u['n']:03d}{end}"
        found = spots.get(key, [])
        assert len(found) == 1, f"{game}: marker of {u['text']!r} printed {len(found)} times"
        return found[0]

    def column(u: dict, s: Spot) -> int:
        return 0 if u["wide"] else int(s.left >= mid)

    def where(u: dict, s: Spot) -> str:
        return f"{u['text']!r} (page {s.page}, column {column(u, s) + 1}, top {s.top:.0f})"

    tops = {u["n"]: at(u, "a") for u in units}
    # Reading order: page, band, column, height.
    order = sorted(units, key=lambda u: (tops[u["n"]].page, u["band"],
                                         column(u, tops[u["n"]]), tops[u["n"]].top))
    for before, after in pairwise(order):
        assert before["n"] < after["n"], (
            f"{game}: {where(after, tops[after['n']])} reads after "
            f"{where(before, tops[before['n']])}, but comes before it in the sheet")
    # The bands of a page stack, each below the one before it.
    for p in {s.page for s in tops.values()}:
        bands: dict[int, list[float]] = {}
        for u in units:
            if tops[u["n"]].page == p:
                bands.setdefault(u["band"], []).append(tops[u["n"]].top)
        ranges = [(min(ts), max(ts)) for _, ts in sorted(bands.items())]
        for (_, low), (high, _) in pairwise(ranges):
            assert low < high, f"{game}: page {p}: two bands of the sheet overlap"
    # A heading prints with the first block under it, never alone at a column's foot.
    for u, nxt in pairwise(units):
        if u["heading"] and nxt["band"] == u["band"]:
            here, there = tops[u["n"]], tops[nxt["n"]]
            assert (here.page, column(u, here)) == (there.page, column(nxt, there)), (
                f"{game}: the heading {where(u, here)} is left apart from what follows it, "
                f"{where(nxt, there)}")
    # No table is split across columns or pages.
    tables = [u for u in units if u["table"]]
    assert tables
    for u in tables:
        top, end = tops[u["n"]], at(u, "z")
        assert (top.page, column(u, top)) == (end.page, column(u, end)), (
            f"{game}: the table {where(u, top)} ends on page {end.page}, "
            f"column {column(u, end) + 1}: it is split")
