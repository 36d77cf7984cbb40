"""Pages that scale: a document's sections are grouped into at most pages.MAX_PAGES pages
(sections as anchors inside them), so the site grows linearly with the headings; the
service worker's precache has a size budget. Targets (issue #9): a 2,000-heading document
builds in <= 30 s into <= 60 MB, a 5 MB document in <= 60 s; (issue #24) 24 small
documents beside the real ones build in <= 60 s into <= 60 MB, each game's page listing its
own pages and one link per other game. Time is CPU time of the
extraction and build-stage processes (this machine's cores are shared, wall time is not
the build's own)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pytest

from scripts.site import pages

from .bigdoc import headings_doc, sized_doc
from .conftest import MANY
from .corpus import ROOT, Built, build_from, folder_bytes, new_server

pytestmark = pytest.mark.hostile
MB = 1e6


def _ids(sections: list[dict[str, object]]) -> Iterator[str]:
    for s in sections:
        yield str(s["id"])
        yield from _ids(s["sections"])  # type: ignore[arg-type]


def test_real_games_keep_a_page_per_section() -> None:
    for path in sorted((ROOT / "rules_pkg" / "data").glob("*.json")):
        game = pages.plan_game(json.loads(path.read_text("utf-8")))
        planned = list(pages.pages_of(game.items))
        assert 0 < len(planned) <= pages.MAX_PAGES and not any(p.grouped for p in planned)


def test_many_sections_are_grouped_into_bounded_pages() -> None:
    n = 2000
    sections = [{"id": f"rule-{i}", "title": f"Rule {i}", "level": 2, "lines": [i, i],
                 "blocks": [{"type": "paragraph", "text": "x", "inline": "text",
                             "lines": [i, i]}], "sections": []} for i in range(1, n + 1)]
    game = pages.plan_game({"game": "big", "title": "Big", "source": "sources/big.md",
                            "sections": sections})
    planned = list(pages.pages_of(game.items))
    assert len(planned) == pages.MAX_PAGES
    assert [s["id"] for p in planned for s in p.sections] == [f"rule-{i}" for i in range(1, n + 1)]
    assert {len(p.sections) for p in planned} == {n // pages.MAX_PAGES}
    assert planned[0].title == "Rule 1 \u2013 Rule 50" and planned[0].grouped
    assert len({p.path for p in planned}) == len(planned)


def _build(tmp: Path, name: str, text: str) -> tuple[float, Path]:
    """(CPU seconds, site) of extracting and building sources/ plus this one document."""
    src = tmp / "sources"
    src.mkdir()
    for p in (ROOT / "sources").iterdir():
        (src / p.name).write_bytes(p.read_bytes())
    (src / name).write_text(text, "utf-8")
    server = new_server()
    try:
        built = build_from(src, tmp, f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        server.server_close()
    assert built.status == 0, built.report
    print(f"\n{name}: {built.cpu_seconds:.1f} s CPU, {built.wall_seconds:.1f} s wall", end="")
    return built.cpu_seconds, built.site


def test_a_2000_heading_document_builds_in_30_s_into_60_mb(tmp_path: Path) -> None:
    cpu, site = _build(tmp_path, "big.md", headings_doc(2000))
    size = folder_bytes(site)
    print(f"; 2,000 headings: {cpu:.1f} s CPU, site {size / MB:.1f} MB")
    assert cpu <= 30, cpu
    assert size <= 60 * MB, size
    big = sorted((site / "big").rglob("index.html"))
    assert len(big) <= pages.MAX_PAGES + 2  # + overview and cheat sheet
    ids = set()
    for page in big:
        ids |= set(re.findall(r'<h[1-6] id="([^"]+)"', page.read_text("utf-8")))
    doc = json.loads((tmp_path / "data" / "big.json").read_text("utf-8"))
    assert set(_ids(doc["sections"])) - ids == set()  # every heading is an anchor somewhere


def test_a_5_mb_document_builds_in_60_s(tmp_path: Path) -> None:
    text = sized_doc(5_000_000)
    cpu, site = _build(tmp_path, "huge.md", text)
    print(f"; 5 MB ({text.count(chr(10) + '## ')} headings): {cpu:.1f} s CPU, "
          f"site {folder_bytes(site) / MB:.1f} MB")
    assert cpu <= 60, cpu


def _fake_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "big").mkdir(parents=True)
    (site / "index.html").write_text("<html><head></head><body>x</body></html>")
    (site / "big" / "blob.bin").write_bytes(os.urandom(2_500_000))
    return site


def test_precache_over_budget_fails_saying_by_how_much(tmp_path: Path) -> None:
    site = _fake_site(tmp_path)
    run = [["node", str(ROOT / "scripts" / "sw" / "build_sw.mjs"), str(site)]]
    over = subprocess.run(*run, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TABLESIDE_PRECACHE_BUDGET_MB": "2"})
    assert over.returncode == 1
    assert "the precache is 2.5 MB, 0.5 MB over its budget of 2.0 MB" in over.stderr
    assert "largest: big 2.5 MB" in over.stderr
    within = subprocess.run(*run, cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TABLESIDE_PRECACHE_BUDGET_MB": "3"})
    assert within.returncode == 0, within.stderr
    assert json.loads(within.stdout)["bytes"] > 2_500_000


# --- many documents: the site grows linearly with them (issue #24) ---------------------------
def _menu_links(page: Path, site: Path) -> list[str]:
    """Where the page's menu links go (site paths), its table of contents left out."""
    text = page.read_text("utf-8")
    start = text.index('<nav class="md-nav md-nav--primary"')
    menu = text[start:text.index('<div class="md-sidebar md-sidebar--secondary"', start)] \
        if '<div class="md-sidebar md-sidebar--secondary"' in text[start:] else text[start:]
    here = "http://x/" + page.parent.relative_to(site).as_posix() + "/"
    return [urljoin(here, h)[len("http://x/"):] for h in
            re.findall(r'<a href="([^"#][^"]*)" class="md-nav__link', menu)]


def test_24_small_documents_build_in_60_s_into_60_mb(many_docs: Built) -> None:
    size = folder_bytes(many_docs.site)
    pages_built = len(list(many_docs.site.rglob("*.html")))
    print(f"\n{MANY} small documents + the 5 real ones: {many_docs.cpu_seconds:.1f} s CPU, "
          f"{many_docs.wall_seconds:.1f} s wall, site {size / MB:.1f} MB, {pages_built} pages")
    assert many_docs.status == 0, many_docs.report
    assert many_docs.cpu_seconds <= 60, many_docs.cpu_seconds
    assert size <= 60 * MB, size


def test_a_games_menu_holds_its_own_pages_and_one_link_per_other_game(
        many_docs: Built) -> None:
    site = many_docs.site
    games = sorted(p.parent.name for p in site.glob("*/index.html")
                   if (many_docs.data / f"{p.parent.name.replace('-', '_')}.json").is_file()
                   or (many_docs.data / f"{p.parent.name}.json").is_file())
    assert len(games) == MANY + 5, games
    for game in ("game-01", "horizon"):
        own = sorted(p.parent.relative_to(site).as_posix() + "/"
                     for p in (site / game).rglob("index.html"))
        for page in [site / game / "index.html", *sorted((site / game).glob("*/index.html"))]:
            links = _menu_links(page, site)
            by_game: dict[str, set[str]] = {}
            for link in links:
                by_game.setdefault(link.split("/")[0], set()).add(link)
            assert by_game.pop(game) >= set(own) - {f"{game}/cheat-sheet/"}, page
            for other in games:
                if other != game:
                    assert by_game.pop(other) == {f"{other}/"}, (page, other)
            assert set(by_game) <= {"", "data"}, (page, by_game)  # home, data export
    # a page of no game lists every page, once: the home page, the data export, the 404
    home = _menu_links(site / "index.html", site)
    assert {f"{g}/" for g in games} <= set(home) and len(home) > 200
