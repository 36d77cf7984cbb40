"""Printed cheat sheets, checked as PDFs (issue #11): Chromium prints each to PDF
(Playwright's page.pdf), poppler-utils reads it back (pdfinfo, pdftotext).

Each sheet: at most two A4 pages, no table split across pages, no text under 7 pt, its
game's odds table (computed at build time by rules_pkg), lint flags as footnote marks;
Horizon's carries every weapon's AP table in compact form."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import rules_pkg

from .conftest import DESKTOP, NewPage

pytestmark = pytest.mark.browser

DASH = "\u2013"
GAMES = ["cyberpunk-red", "d100", "forbidden-lands", "horizon", "mecha"]
# pdftotext -bbox gives a word's box: ascent + descent, 1.117 em in the printed font
# (measured: 7 pt text is 7.82 pt tall). Text under 7 pt would be under 7.75.
MIN_BOX = 7.75
PAGES: dict[str, int] = {}  # figures for the report: cheat sheet -> pages


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout


def _page_texts(pdf: Path, pages: int) -> list[str]:
    return [" ".join(_run("pdftotext", "-layout", "-f", str(n), "-l", str(n), str(pdf), "-")
                     .split()) for n in range(1, pages + 1)]


@pytest.mark.parametrize("game", GAMES)
def test_cheat_sheet_pdf(new_page: NewPage, base_url: str, game: str, tmp_path: Path) -> None:
    page = new_page(DESKTOP)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # no calculators here
    page.goto(f"{base_url}{game}/cheat-sheet/", wait_until="domcontentloaded")
    page.emulate_media(media="print")
    pdf = tmp_path / f"{game}.pdf"
    pdf.write_bytes(page.pdf(format="A4", print_background=True, prefer_css_page_size=True))
    pages = int(re.search(r"Pages:\s+(\d+)", _run("pdfinfo", str(pdf))).group(1))  # type: ignore[union-attr]
    PAGES[game] = pages
    print(f"{game} cheat sheet: {pages} A4 pages")
    assert 1 <= pages <= 2
    # no text under 7 pt
    words = _run("pdftotext", "-bbox", str(pdf), "-")
    boxes = [float(b) - float(a) for a, b in re.findall(
        r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', words)]
    assert boxes and min(boxes) >= MIN_BOX, sorted(boxes)[:5]
    # no table split across pages: each table's first and last rows print on one page
    # (their first words: a long name wraps, and -layout interleaves wrapped cells)
    texts = _page_texts(pdf, pages)
    rows = page.locator(".ts-cheat table.ts-table").evaluate_all("""ts => ts.map(t => {
        const names = [...t.tBodies[0].rows].map(r => r.cells[0].innerText.split('\\n')[0]
          .trim().split(/\\s+/)[0]);
        return [names[0], names[names.length - 1]]; })""")
    assert rows
    for first, last in rows:
        on = [i for i, text in enumerate(texts) if first in text and last in text]
        assert on, f"{game}: a table from {first!r} to {last!r} is cut across pages"
    # the game's core roll odds, computed at build time
    assert "Computed by the site's rules engine" in " ".join(texts)
    # lint flags print as a footnote mark, never a box
    marks = page.locator(".ts-cheat .ts-flag").evaluate_all(
        "fs => fs.map(f => getComputedStyle(f, '::after').content)")
    assert all(m == '"*"' for m in marks)
    boxed = page.locator(".ts-cheat .ts-linted").evaluate_all(
        "cs => cs.filter(c => getComputedStyle(c).boxShadow !== 'none').length")
    assert boxed == 0


def test_horizon_sheet_has_every_weapons_ap_table(new_page: NewPage, base_url: str,
                                                 site_dir: Path) -> None:
    page = new_page(DESKTOP)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)
    page.goto(f"{base_url}horizon/cheat-sheet/", wait_until="domcontentloaded")
    weapons = json.loads((Path(rules_pkg.__file__).parent / "data" / "horizon.json")
                         .read_text("utf-8"))["records"]["weapon_profiles"]
    tables = page.locator('.ts-cheat table[data-table^="cheat-ap-bands"]')
    assert tables.count() >= 2
    names = tables.locator("tbody tr th, tbody tr td:first-child").all_inner_texts()
    for w in weapons:
        assert any(n.startswith(f'{w["name"]} ({w["tier"]})') for n in names), w["name"]
    header = tables.first.locator("thead th").all_inner_texts()
    assert header[1:] == [f"AP {b}".replace("-", DASH) for b in (
        "0/1-5", "6-10", "11-15", "16-20", "21-25", "26-30")]
    # Hand Cannon, AP 1-5 in the source: Damage 13-16, Defense 16-20, Move -10, Range 10
    cannon = tables.locator("tr", has_text="Hand Cannon (4)").first
    assert cannon.locator("td").first.inner_text() == f"13{DASH}16 / 16{DASH}20 / -10 / 10"
