"""The shared site checks, on the site each generator renders (issue 14).

MkDocs-Material (the default: the site `make test` built, `site_dir`) and Zensical
(`make site GENERATOR=zensical`: built here, into a temporary folder, so it runs with the
`build` marker) render the same generate-stage folder; the finish stage makes both run.
Each must show every source table cell by cell, find a table cell by search (its index
with the search terms of issue #11), answer with a calculator, keep Python across instant
navigation and work offline. What Zensical does
differently is listed in the README ("Zensical beside MkDocs").
"""

from __future__ import annotations

import http.server
import json
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from scripts.site.pages import data_dir
from tests.conftest import build
from tests.offline.conftest import _handler
from tests.offline.helpers import PY_READY_MS, wait_python, wait_sw_ready
from tests.offline.test_offline import heavy_pistol_link, heavy_pistol_values

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "site"))
from site_html import assert_tables_cell_by_cell, content_pages, parse  # noqa: E402

# A cell (a row header) of the d100 table "combat-circumstances", a heading nowhere.
CELL, CELL_TABLE, CELL_PAGE = "Fog/Smoke/Mist", "combat-circumstances", "d100/combat-circumstances/"


@dataclass(frozen=True)
class Rendered:
    generator: str
    site: Path
    url: str


@dataclass(frozen=True)
class SearchUI:
    """Where each theme's search lives: Material's header box; Zensical's dialog (an open
    shadow root, which Playwright's CSS locators pierce)."""

    open: str
    input: str
    result: str


SEARCH = {"mkdocs": SearchUI("input.md-search__input", "input.md-search__input",
                             ".md-search-result__item a"),
          "zensical": SearchUI(".md-search__button", "dialog input[role=combobox]",
                               "ol[role=listbox] a[role=option]")}


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rendered]:
    """The site rendered by Zensical, served on the port it was built for."""
    root = tmp_path_factory.mktemp("zensical") / "site"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(root))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    build(root, site_url=url, generator="zensical")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Rendered("zensical", root, url)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module", params=["mkdocs", pytest.param("zensical",
                                                               marks=pytest.mark.build)])
def rendered(request: pytest.FixtureRequest) -> Rendered:
    if request.param == "mkdocs":
        return Rendered("mkdocs", request.getfixturevalue("site_dir"),
                        request.getfixturevalue("base_url"))
    zensical: Rendered = request.getfixturevalue("zensical_site")
    return zensical


def _docs() -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in sorted(data_dir().glob("*.json"))]


def test_every_source_table_is_there_cell_by_cell(rendered: Rendered) -> None:
    pages = {p: parse(p) for p in content_pages(rendered.site)}
    docs = _docs()
    assert len(docs) >= 5
    for doc in docs:
        assert_tables_cell_by_cell(doc, rendered.site, pages)


# Each generator's search index: file and the key of its list of sections.
INDEX = {"mkdocs": ("search/search_index.json", "docs"), "zensical": ("search.json", "items")}


def test_the_search_index_has_both_spellings(rendered: Rendered) -> None:
    """scripts/site/search_terms.py (a Markdown extension) reaches either index (issue #11)."""
    path, key = INDEX[rendered.generator]
    docs = json.loads((rendered.site / path).read_text("utf-8"))[key]
    armor = next(d for d in docs if d["location"].endswith("/#armor-save"))
    assert re.search(r"\barmour\b", armor["text"]), armor["text"][-200:]
    # and a weapon's section reads as words, not as its 30 rows of numbers
    cannon = next(d for d in docs if d["title"].startswith("Weapon Profile - Hand Cannon"))
    assert len(re.findall(r"\b\d+\b", re.sub(r"<[^>]+>", " ", cannon["text"]))) < 15


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.mark.browser
def test_search_finds_a_table_cell(rendered: Rendered, context: Any) -> None:
    page = context.new_page()
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # no Python needed
    page.goto(rendered.url, wait_until="domcontentloaded")
    ui = SEARCH[rendered.generator]
    page.locator(ui.open).first.click()
    page.locator(ui.input).first.press_sequentially("smoke", delay=30)
    # Both search as you type: wait for the whole word's results, the cell's page among them.
    target = page.locator(f"{ui.result}[href*='{CELL_PAGE}']").first
    target.wait_for(timeout=30_000)
    target.click()
    page.wait_for_url(re.compile(re.escape(CELL_PAGE)))
    cell = page.locator(f'table[data-table="{CELL_TABLE}"] tr > *', has_text=CELL)
    cell.first.wait_for()
    assert cell.count() == 1


@pytest.mark.browser
def test_a_calculator_answers(rendered: Rendered, context: Any) -> None:
    page = context.new_page()
    page.goto(rendered.url + heavy_pistol_link(rendered.site))
    shown = heavy_pistol_values(page)
    expected = rules_pkg.get("horizon.profile_row").run(weapon="heavy-combat-pistol", ap=17)
    assert shown == {k: str(v) for k, v, *_ in expected.values}
    assert shown["Damage"] == "22" and shown["Defense"] == "27"  # the source's row at AP 17


@pytest.mark.browser
def test_instant_navigation_keeps_python(rendered: Rendered, context: Any) -> None:
    page = context.new_page()
    page.goto(rendered.url + heavy_pistol_link(rendered.site).split("?", 1)[0])
    wait_python(page)
    page.evaluate("() => { window.__sameDocument = true; }")
    href = page.evaluate("""() => [...document.querySelectorAll('a.md-nav__link')]
        .map(a => a.href).find(h => /\\/horizon\\/[^/]+\\/$/.test(h)
                                    && !location.href.startsWith(h))""")
    page.evaluate("(h) => [...document.querySelectorAll('a.md-nav__link')]"
                  ".find(a => a.href === h).click()", href)
    page.wait_for_url(href)
    host = page.locator(".ts-calc:not([hidden])").first
    host.get_by_role("button", name="Compute").click()
    host.locator(".ts-result:not([hidden])").wait_for(state="visible", timeout=PY_READY_MS)
    assert page.evaluate("() => window.__sameDocument") is True  # no full page load
    assert page.evaluate("() => document.documentElement.dataset.tsPython") == "ready"


@pytest.mark.browser
def test_offline_works(rendered: Rendered, context: Any) -> None:
    page = context.new_page()
    page.goto(rendered.url)
    wait_sw_ready(page)
    context.set_offline(True)
    response = page.goto(rendered.url + CELL_PAGE)
    assert response is not None and response.ok and response.from_service_worker
    page.locator(f'table[data-table="{CELL_TABLE}"] tr > *', has_text=CELL).first.wait_for()
