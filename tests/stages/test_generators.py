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
import os
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin

import pytest

import rules_pkg
from scripts.render import injected_styles
from scripts.site import csp
from scripts.site.pages import data_dir
from tests.browser.helpers import LIVE_RESULT
from tests.conftest import _sitemap_port, build
from tests.offline.conftest import _handler
from tests.offline.helpers import PY_READY_MS, wait_python, wait_sw_ready
from tests.offline.test_offline import heavy_pistol_link, heavy_pistol_values
from tests.security.conftest import RECORD_VIOLATIONS, violations

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
    """The site rendered by Zensical, served on the port it was built for (a prebuilt one
    from TABLESIDE_ZENSICAL_SITE_DIR, like TABLESIDE_SITE_DIR for the default build)."""
    prebuilt = os.environ.get("TABLESIDE_ZENSICAL_SITE_DIR")
    if prebuilt:
        root = Path(prebuilt).resolve()
        if not (root / "search.json").is_file():
            pytest.fail(f"TABLESIDE_ZENSICAL_SITE_DIR={prebuilt} holds no Zensical site",
                        pytrace=False)
        port = _sitemap_port(root)
    else:
        root = tmp_path_factory.mktemp("zensical") / "site"
        root.mkdir()
        port = 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _handler(root))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    if not prebuilt:
        build(root, site_url=url, generator="zensical")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Rendered("zensical", root, url)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(params=["mkdocs", pytest.param("zensical", marks=pytest.mark.build)])
def rendered(request: pytest.FixtureRequest) -> Rendered:
    if request.param == "mkdocs":  # served (base_url) only for a test with a browser
        url = "base_url" if request.node.get_closest_marker("browser") else "site_url"
        return Rendered("mkdocs", request.getfixturevalue("site_dir"),
                        request.getfixturevalue(url))
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


def test_the_policy_allows_styles_only_by_the_generator_s_own_hashes(rendered: Rendered) -> None:
    """style-src is 'self' for Material; for Zensical, 'self' and the hash of each <style>
    text its bundle writes (render's injected_styles), never 'unsafe-inline' or -hashes."""
    html = (rendered.site / "index.html").read_text("utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert policy is not None
    style_src = next(d.split()[1:] for d in policy.group(1).split("; ")
                     if d.startswith("style-src "))
    styles = injected_styles(rendered.generator, rendered.site)
    assert len(styles) == (0 if rendered.generator == "mkdocs" else 1)
    assert style_src == ["'self'", *sorted(csp.script_hash(s) for s in styles)]


# Every page's favicon link (Material writes exactly this tag; so does Zensical).
ICON = re.compile(r'<link rel="icon" href="([^"]*)">')


def test_every_page_s_favicon_resolves(rendered: Rendered) -> None:
    """Material keeps the favicon a data: URL (no request, issue #15); Zensical joins any
    favicon to the base URL, so render hands it the icon file: its link must reach it."""
    pages = sorted(rendered.site.rglob("index.html"))
    assert len(pages) > 40
    for page in pages:
        links = ICON.findall(page.read_text("utf-8"))
        assert len(links) == 1, f"{page}: {len(links)} favicon links"
        href = links[0]
        if rendered.generator == "mkdocs":
            assert href.startswith("data:image/svg+xml,"), (page, href[:60])
            continue
        url = urljoin(rendered.url + page.relative_to(rendered.site).as_posix(), href)
        assert url.startswith(rendered.url), (page, href)
        target = rendered.site / unquote(url[len(rendered.url):])
        assert target.is_file() and target.suffix == ".svg", (page, href)


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(RECORD_VIOLATIONS)
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
    assert violations(page) == []  # the search UI runs under the policy, styles included
    target.click()
    page.wait_for_url(re.compile(re.escape(CELL_PAGE)))
    cell = page.locator(f'table[data-table="{CELL_TABLE}"] tr > *', has_text=CELL)
    cell.first.wait_for()
    assert cell.count() == 1


# Zensical's search dialog as laid out: its stylesheet is a <style> the theme's script writes
# into the dialog's shadow root, which the policy allows by its hash (README, "Zensical
# beside MkDocs"). Unstyled, the dialog is a bordered box in the flow with a numbered list.
SHADOW = "[...document.body.children].find((e) => e.shadowRoot?.querySelector('dialog'))"
# (A function, not an expression: Playwright polls expressions with eval(), which the
# policy forbids.) The dialog's opening transitions have run: none is left.
SETTLED = f"() => {SHADOW}.shadowRoot.getAnimations().length === 0"
DIALOG = """() => {
  const host = SHADOW_EXPR;
  const root = host.shadowRoot, dialog = root.querySelector('dialog[open]');
  const input = root.querySelector('[role=combobox]');
  const option = root.querySelector('ol[role=listbox] a[role=option]');
  const box = (el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return {x: r.x, y: r.y, width: r.width, height: r.height, position: s.position,
            display: s.display, background: s.backgroundColor, list: s.listStyleType,
            radius: s.borderTopLeftRadius};
  };
  return {sheets: root.styleSheets.length, dialog: box(dialog),
          backdrop: box(dialog.firstElementChild),
          panel: box([...dialog.children].find((c) => c.contains(input))),
          list: box(option.closest('ol')), option: box(option)};
}""".replace("SHADOW_EXPR", SHADOW)
TRANSPARENT = "rgba(0, 0, 0, 0)"


@pytest.mark.browser
@pytest.mark.build
def test_zensical_search_dialog_is_styled_under_the_policy(zensical_site: Rendered,
                                                           context: Any) -> None:
    page = context.new_page()
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # no Python needed
    page.goto(zensical_site.url, wait_until="domcontentloaded")
    ui = SEARCH["zensical"]
    page.locator(ui.open).first.click()
    page.locator(ui.input).first.press_sequentially("smoke", delay=30)
    page.locator(f"{ui.result}[href*='{CELL_PAGE}']").first.wait_for(timeout=30_000)
    page.wait_for_function(SETTLED)
    assert violations(page) == []
    shown = page.evaluate(DIALOG)
    assert shown["sheets"] == 1, shown
    # The dialog covers the viewport; a translucent backdrop fills it ...
    assert (shown["dialog"]["width"], shown["dialog"]["height"]) == (1280, 900), shown
    backdrop = shown["backdrop"]
    assert backdrop["position"] == "absolute" and backdrop["background"] != TRANSPARENT
    assert (backdrop["x"], backdrop["y"], backdrop["width"], backdrop["height"]) == \
        (0, 0, 1280, 900), backdrop
    # ... under a centred, rounded panel of its own colour (720 px wide on a wide screen) ...
    panel = shown["panel"]
    assert panel["position"] == "absolute" and panel["display"] == "flex", panel
    assert panel["background"] != TRANSPARENT and panel["radius"] != "0px", panel
    assert panel["width"] == 720 and abs(panel["x"] + 360 - 640) <= 1, panel
    # ... whose results are a plain list of block links, no numbers.
    assert shown["list"]["list"] == "none" and shown["list"]["display"] == "flex", shown
    assert shown["option"]["display"] == "flex", shown


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
    # a live result (not the answer worked out at build time, issue 13)
    host.locator(LIVE_RESULT).wait_for(
        state="visible", timeout=PY_READY_MS)
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
