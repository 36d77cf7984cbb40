"""Printed cheat sheets, checked as PDFs (issue #11): Chromium prints each to PDF
(Playwright's page.pdf), poppler-utils reads it back (pdfinfo, pdftotext).

Each sheet: at most two A4 pages, no table split across pages, no text under 7 pt, its
game's odds table (computed at build time by rules_pkg), lint flags as footnote marks.
(Reading order: test_print_order.py; Horizon's AP tables: test_print_ap.py.)"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from .conftest import DESKTOP, NewPage

pytestmark = pytest.mark.browser

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
