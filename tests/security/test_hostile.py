"""The hostile corpus (tests/security/corpus.py) added to a copy of sources/: the build
finishes, bad files are reported and skipped, source text stays text everywhere it lands
(menu, breadcrumbs, <title>, headings, search index, cheat sheets), and Chromium opens
every page of it with 0 dialogs, 0 CSP violations and 0 navigations away."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from scripts.extract.clean import _BAD as CONTROL
from scripts.site import linkcheck, pages

from .conftest import RECORD_VIOLATIONS
from .corpus import (
    CONTROL_LINES,
    REFUSED,
    ROOT,
    Built,
    build_from,
    new_server,
    serving,
    write_corpus,
)

pytestmark = pytest.mark.hostile

REAL = {p.stem for p in (ROOT / "rules_pkg" / "data").glob("*.json")}
HOSTILE_GAMES = {"headings", "tables", "controls", "svg-onload-alert-1", "utf16-bom",
                 "utf8-bom", "crlf", "cr-only", "data", "many", "ansi-31mred", "index"}
SLUGS = {"headings", "tables", "controls", "svg-onload-alert-1", "utf16-bom", "utf8-bom",
         "crlf", "cr-only", "game-data", "many", "ansi-31mred", "game-index"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    tmp = tmp_path_factory.mktemp("hostile")
    server = new_server()
    built = build_from(write_corpus(tmp / "sources"), tmp,
                       f"http://127.0.0.1:{server.server_address[1]}/")
    with serving(built.site, server):
        yield built


def _doc(built: Built, game: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((built.data / f"{game}.json").read_text("utf-8"))
    return doc


def _blocks(sections: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for s in sections:
        yield from s["blocks"]
        yield from _blocks(s["sections"])


def _pages(built: Built) -> list[Path]:
    return sorted(p for p in built.site.rglob("*.html")
                  if p.relative_to(built.site).parts[0] in SLUGS)


# --- extraction ---------------------------------------------------------------------------
def test_bad_files_are_reported_and_skipped_and_the_rest_builds(hostile: Built) -> None:
    lines = hostile.report.splitlines()
    assert hostile.status == 0, hostile.report
    for name, reason in REFUSED.items():
        found = [ln for ln in lines if ln.startswith(f"sources/{name}")]
        assert found and reason in found[0] and found[0].endswith("; skipped"), (name, found)
    assert lines[-1] == f"{hostile.report.count('; skipped')} unreadable source(s)" or \
        f"{len(REFUSED)} unreadable source(s)" in lines[-1]
    assert {p.stem for p in hostile.data.glob("*.json")} == REAL | HOSTILE_GAMES
    for slug in SLUGS:  # every readable hostile source has its pages
        assert (hostile.site / slug / "index.html").is_file(), slug


def test_control_characters_are_removed_and_reported_by_line(hostile: Built) -> None:
    assert CONTROL.search(hostile.report) is None  # not even from a file name
    assert _doc(hostile, "ansi-31mred")["source"] == "sources/ansi-\\x1b[31mred\\x07.md"
    for n in CONTROL_LINES:
        assert re.search(rf"^sources/controls\.md:{n}: \d+ control or invisible character\(s\) "
                         r"removed \(U\+", hostile.report, re.M), n
    doc = _doc(hostile, "controls")
    assert doc["sections"][0]["title"] == "Controls in a [31mheading[0m"
    # ... and no page, data file or search entry of the site carries one
    for path in [*hostile.site.rglob("*.html"), *(hostile.site / "data").glob("*.json"),
                 hostile.site / "search" / "search_index.json"]:
        text = path.read_text("utf-8")
        m = CONTROL.search(text)
        assert m is None, f"{path}: U+{ord(m.group(0)):04X}"


@pytest.mark.parametrize("game", ["utf16-bom", "utf8-bom", "crlf", "cr-only"])
def test_every_encoding_and_line_ending_is_read(hostile: Built, game: str) -> None:
    doc = _doc(hostile, game)
    blocks = list(_blocks(doc["sections"]))
    para = next(b for b in blocks if b["type"] == "paragraph")
    items = next(b for b in blocks if b["type"] == "list")["items"]
    assert (para["text"], para["lines"]) == ("Roll two dice.\nAdd your skill.", [3, 4])
    assert [(i["text"], i["lines"]) for i in items] == [("Hit on 7", [6, 6]),
                                                        ("Miss on 6", [7, 7])]
    assert doc["sections"][0]["title"].endswith("rules")


def test_many_sections_are_grouped_with_titles_as_text(hostile: Built) -> None:
    grouped = sorted((hostile.site / "many").glob("*/index.html"))
    assert len(grouped) == pages.MAX_PAGES + 1  # + the cheat sheet
    first = _Page.parse(hostile.site / "many" / "b-onmouseover-alert-1-rule-1-b" / "index.html")
    assert first.title == ("<b onmouseover=alert(1)>Rule 1</b> \u2013 "
                           "<b onmouseover=alert(3)>Rule 3</b> - Tableside")


def test_ids_and_pages_are_unique(hostile: Built) -> None:
    doc = _doc(hostile, "headings")
    ids = [s["id"] for s in doc["sections"][0]["sections"]]
    assert ids[-3:] == ["attack", "attack-2", "attack-2-2"]
    assert len(ids) == len(set(ids))
    titles = {p.parent.name: _Page.parse(p).title for p in _pages(hostile)
              if p.parent.parent.name == "headings"}
    assert titles["section-index"] == "Index - Tableside"
    assert titles["section-index-2"] == "Section Index - Tableside"
    assert titles["cheat-sheet"] == "Rules <script>alert(1)</script>: cheat sheet - Tableside"
    assert titles["attack-2-2"] == "Attack 2 - Tableside"


# --- the built pages, as HTML ---------------------------------------------------------------
class _Page(HTMLParser):
    """What a page would do: active elements and attributes, and its title as text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad: list[str] = []
        self.title = ""
        self.h1 = ""
        self.stack: list[str] = []

    @classmethod
    def parse(cls, path: Path) -> _Page:
        page = cls()
        page.feed(path.read_text("utf-8"))
        return page

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in {"iframe", "embed", "object", "base", "frame"}:
            self.bad.append(f"<{tag}>")
        if tag == "form" and "action" in a:
            self.bad.append(f"<form action={a['action']}>")
        if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.bad.append("<meta http-equiv=refresh>")
        if tag == "img" and re.match(r"^(?:[a-z]+:)?//", a.get("src", ""), re.I):
            self.bad.append(f"<img src={a['src']}>")
        for k, v in a.items():
            if k.startswith("on") or "javascript:" in v.lower() or "alert(" in v:
                self.bad.append(f"<{tag} {k}={v!r}>")
        if tag not in {"meta", "link", "input", "br", "img", "hr"}:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if "title" in self.stack and "svg" not in self.stack:
            self.title += data
        if "h1" in self.stack:
            self.h1 += data
        if self.stack and self.stack[-1] in {"script", "style"} and "alert(" in data:
            self.bad.append(f"<{self.stack[-1]}>{data[:60]}")


def test_no_source_contributes_markup(hostile: Built) -> None:
    pages = list(hostile.site.rglob("*.html"))
    assert len(pages) > 60
    for path in pages:
        page = _Page.parse(path)
        assert page.bad == [], f"{path.relative_to(hostile.site)}: {page.bad}"


def test_titles_are_text_in_title_heading_menu_and_search(hostile: Built) -> None:
    title = '</title><script>alert(4)</script><title>'
    page = hostile.site / "headings" / "title-script-alert-4-script-title" / "index.html"
    parsed = _Page.parse(page)
    assert parsed.title == f"{title} - Tableside"
    assert parsed.h1.strip("¶ ") == title
    text = page.read_text("utf-8")
    # the menu (on every page of the game) and the breadcrumbs show it as text
    assert text.count(html.escape(title, quote=False)) >= 3
    home = _Page.parse(hostile.site / "svg-onload-alert-1" / "index.html")
    assert home.title == "<Svg Onload=Alert(1)> - Tableside"
    index = json.loads((hostile.site / "search" / "search_index.json").read_text("utf-8"))
    by_place = {d["location"]: d["title"] for d in index["docs"]}
    assert html.unescape(by_place["headings/"]) == "Rules <script>alert(1)</script>"
    assert "<" not in by_place["headings/"]


def test_links_stay_on_the_site(hostile: Built) -> None:
    """No CDN, no javascript: URL, no dangling link (fake links are text, not links)."""
    problems = list(linkcheck.check_site(hostile.site, hostile.url))
    assert problems == []


# --- in Chromium ------------------------------------------------------------------------------
@pytest.mark.browser
def test_every_hostile_page_opens_quietly(hostile: Built, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(30_000)
    dialogs: list[str] = []
    csp_console: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: csp_console.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text else None)
    urls = [hostile.url, hostile.url + "data/"]
    urls += [hostile.url + p.relative_to(hostile.site).as_posix().removesuffix("index.html")
             for p in _pages(hostile)]
    violations: dict[str, list[Any]] = {}
    away: list[str] = []

    def check(url: str) -> None:
        found = page.evaluate("() => window.__cspViolations")
        if found:
            violations[url] = found
        if page.url.split("#")[0] != url:
            away.append(f"{url} -> {page.url}")

    try:
        for url in urls:
            page.goto(url, wait_until="load")
            page.wait_for_timeout(150)  # a meta refresh of 0 s would have left by now
            check(url)
        # the search index shows hostile titles and text in the results list
        page.goto(hostile.url + "headings/")
        page.keyboard.press("/")
        box = page.locator("input.md-search__input")
        box.wait_for(state="visible")
        box.press_sequentially("script alert", delay=20)
        page.locator(".md-search-result__item").first.wait_for()
        page.wait_for_timeout(300)
        results = page.locator(".md-search-result__item").all_inner_texts()
        check(hostile.url + "headings/")
    finally:
        context.close()
    assert any("<script>alert(1)</script>" in r for r in results), results[:3]
    assert len(urls) > 30
    assert dialogs == []
    assert violations == {} and csp_console == []
    assert away == []
