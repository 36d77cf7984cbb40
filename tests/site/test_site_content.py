"""The built site against the extracted model: every table cell, block and section is there."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from site_html import assert_tables_cell_by_cell, content_pages, parse

from scripts.site import linkcheck
from scripts.site.pages import data_dir

DATA = data_dir()


def _docs() -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in sorted(DATA.glob("*.json"))]


def _walk(sections: list[dict[str, Any]]) -> Any:
    for s in sections:
        yield s
        yield from _walk(s.get("sections", []))


@pytest.fixture(scope="module")
def pages(site_dir: Path) -> dict[Path, Any]:
    return {p: parse(p) for p in content_pages(site_dir)}


def test_there_is_data_to_check() -> None:
    assert len(_docs()) >= 5, f"expected the five games' data in {DATA}"


@pytest.mark.parametrize("doc", _docs(), ids=lambda d: d["game"])
def test_every_table_is_on_a_page_cell_by_cell(doc: dict[str, Any], site_dir: Path,
                                                pages: dict[Path, Any]) -> None:
    assert_tables_cell_by_cell(doc, site_dir, pages)


@pytest.mark.parametrize("doc", _docs(), ids=lambda d: d["game"])
def test_every_section_paragraph_and_list_appears(doc: dict[str, Any], site_dir: Path,
                                                  pages: dict[Path, Any]) -> None:
    slug = doc["game"].replace("_", "-")
    mine = [parsed for p, parsed in pages.items() if p.relative_to(site_dir).parts[0] == slug]
    ids = Counter(i for parsed in mine for i in parsed.ids)
    blocks = Counter(b for parsed in mine for b in parsed.lines)
    want: Counter[tuple[str, int]] = Counter()
    for sec in _walk(doc["sections"]):
        assert ids[sec["id"]] >= 1, f"section {sec['id']} ({sec['title']!r}) is on no page"
        for b in sec["blocks"]:
            if b["type"] == "paragraph":
                want[("ts-para", b["lines"][0])] += 1
            elif b["type"] == "list":
                want[("ts-list", b["lines"][0])] += 1
    assert blocks == want


def test_json_export_is_the_model(site_dir: Path) -> None:
    for src in sorted(DATA.glob("*.json")):
        game = json.loads(src.read_text("utf-8"))["game"]
        assert (site_dir / "data" / f"{game}.json").read_bytes() == src.read_bytes()
    text = (site_dir / "data" / "index.html").read_text("utf-8")
    for src in sorted(DATA.glob("*.json")):
        game = json.loads(src.read_text("utf-8"))["game"]
        assert f'href="../{game}.json"' in text or f'href="{game}.json"' in text


def test_home_links_every_game(site_dir: Path) -> None:
    home = (site_dir / "index.html").read_text("utf-8")
    for doc in _docs():
        slug = doc["game"].replace("_", "-")
        assert f'href="{slug}/"' in home
        assert (site_dir / slug / "cheat-sheet" / "index.html").is_file()


def _site_url(site: Path) -> str:
    m = re.search(r"<loc>(https?://[^/<]+/)", (site / "sitemap.xml").read_text("utf-8"))
    assert m, "sitemap.xml names no page"
    return m.group(1)


def test_no_broken_links_and_no_cdn(site_dir: Path) -> None:
    problems = list(linkcheck.check_site(site_dir, _site_url(site_dir)))
    assert problems == []


def test_linkcheck_finds_what_is_broken(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(
        '<a id="top" href="a/">ok</a><a href="a/#nope">bad anchor</a><a href="b/">missing</a>'
        '<script src="https://cdn.example.org/x.js"></script><a href="#top">self</a>'
        '<a href="https://example.org/">external link, fine</a><img src="javascript:alert(1)">',
        "utf-8")
    (tmp_path / "a" / "index.html").write_text('<h1 id="here">A</h1>', "utf-8")
    problems = list(linkcheck.check_site(tmp_path, "http://127.0.0.1:8000/"))
    assert len(problems) == 4, problems
    assert any("no id 'nope'" in p for p in problems)
    assert any("b/" in p and "no such file" in p for p in problems)
    assert any("CDN" in p for p in problems)
    assert any("javascript:" in p for p in problems)


def test_linkcheck_finds_what_takes_the_reader_away(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<meta http-equiv="Refresh" content="0;url=https://example.org/">'
        '<form action="https://example.org/steal"></form><base href="https://example.org/">',
        "utf-8")
    problems = list(linkcheck.check_site(tmp_path, "http://127.0.0.1:8000/"))
    assert problems == [
        'index.html: <base href="https://example.org/">: a base URL changes every link of '
        "the page",
        'index.html: <meta http-equiv="refresh">: a page that redirects itself',
        'index.html: <form action="https://example.org/steal">: a form posting to another host']


def test_tables_carry_their_calculators(site_dir: Path) -> None:
    """After each table, one slot per calculator placement.py puts there (none if none)."""
    from scripts.site import placement

    for doc in _docs():
        slug = doc["game"].replace("_", "-")
        for sec in _walk(doc["sections"]):
            for b in (b for b in sec["blocks"] if b["type"] == "table"):
                want = placement.calculators_for_table(doc["game"], b["id"])
                page = next(p for p in (site_dir / slug).rglob("index.html")
                            if "cheat-sheet" not in p.parts
                            and f'data-table="{b["id"]}"' in p.read_text("utf-8"))
                text = page.read_text("utf-8")
                after = text.split(f'data-table="{b["id"]}"', 1)[1].split("</table>", 1)[1]
                slots = re.findall(r'<div class="ts-calc" data-calc="([^"]+)"', after.split(
                    "<table", 1)[0])
                assert slots[:len(want)] == [c for c, _ in want], (b["id"], slots, want)
