"""Airplane mode: after one visit online, every page works offline, and every calculator
once the runtime is saved (a calculator page visited, or "Save everything for offline").

The service worker (scripts/sw/build_sw.mjs, Workbox injectManifest) precaches the reading
pages and caches the Python runtime on demand; calculators/offline.js registers it, offers
to save everything, asks before a new build takes over, and says when the calculators
cannot load offline. Driven in Debian's Chromium via Playwright.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from scripts.page_states import SAVED

from .conftest import Served
from .helpers import (
    PY_READY_MS,
    SW_READY_MS,
    clear_caches,
    compute_first,
    save_everything,
    table_pages,
    wait_python,
    wait_saved,
    wait_sw_ready,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TWO_MIB = 2 * 1024 * 1024
# What the calculators need offline (besides the pages): Pyodide, PyScript, the bundle.
RUNTIME = ("assets/runtime/pyodide/pyodide.asm.wasm", "assets/runtime/pyodide/python_stdlib.zip",
           "assets/runtime/pyodide/pyodide.asm.mjs", "assets/runtime/pyodide/pyodide.mjs",
           "assets/runtime/pyscript/core.js", "assets/runtime/tableside.zip")
# Precached on any visit: the reading pages' data the calculators and search read.
READING = ("assets/calculators/registry.json", "search/search_index.json")
NOT_PRECACHED = re.compile(r"\.map$|^sitemap\.xml\.gz$|^sw\.js$|^assets/runtime/")


def manifest(site: Path) -> dict[str, str | None]:
    """URL -> revision, read from the generated sw.js (the JSON injectManifest writes)."""
    text = (site / "sw.js").read_text("utf-8")
    entries = re.findall(r'\{"revision":(?:"([0-9a-f]+)"|null),"url":"([^"]+)"\}', text)
    return {url: rev or None for rev, url in entries}


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(30_000)
    yield ctx
    ctx.close()


ICON = re.compile(r"/favicon\.ico$|/assets/images/favicon\.png$|/icons?/")


class RequestLog:
    """What a page asked for while offline, sorted by who asked.

    The page's own requests (documents, scripts, styles, fetches) must all be answered by
    the service worker. Chromium fetches a page's icon by itself (resource type "other"),
    after load and not always through the worker (w3c/ServiceWorker#668, crbug 448427):
    that is the browser's request, kept apart so it is reported, not mixed in.
    """

    def __init__(self) -> None:
        self.page_ok: list[str] = []
        self.page_failed: list[str] = []
        self.not_from_worker: list[str] = []
        self.browser_own: list[str] = []

    @staticmethod
    def _own(request: Any) -> bool:
        return request.resource_type == "other" and bool(ICON.search(request.url))

    def finished(self, request: Any) -> None:
        # The worker's own cache reads, and in-memory data:/blob: URLs, are not requests.
        if request.service_worker is not None or request.url.startswith(("data:", "blob:")):
            return
        if self._own(request):
            self.browser_own.append(request.url)
            return
        response = request.response()
        if response is not None and not response.from_service_worker:
            self.not_from_worker.append(request.url)
        else:
            self.page_ok.append(request.url)

    def failed(self, request: Any) -> None:
        if request.service_worker is not None:
            return
        target = self.browser_own if self._own(request) else self.page_failed
        target.append(f"{request.url} ({request.failure})")


def visit_online(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url)
    wait_sw_ready(page)
    return page


# --- the precache manifest --------------------------------------------------------------
def test_manifest_lists_every_reading_file_and_the_runtime_apart(site_dir: Path) -> None:
    entries = manifest(site_dir)
    sw = (site_dir / "sw.js").read_text("utf-8")
    # The runtime is not precached: it is listed apart, with each file's hash and size,
    # for the worker to cache on demand (and "Save everything" to announce).
    runtime = {p.relative_to(site_dir).as_posix(): p for p in (site_dir / "assets/runtime")
               .rglob("*") if p.is_file()}
    assert set(RUNTIME) <= runtime.keys()
    for rel, path in runtime.items():
        assert rel not in entries, rel
        # the minifier writes numbers its own way (251000 -> 251e3): read them as numbers
        listed = re.search(re.escape(f'"{rel}":{{sri:"{sri(path.read_bytes())}",bytes:')
                           + r"([0-9.e]+)}", sw)
        assert listed and float(listed[1]) == path.stat().st_size, rel
    for rel in READING:
        assert rel in entries, rel
    # Every other file of the built site is precached (the hook runs after all the others).
    files = {p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_file()}
    assert {f for f in files if not NOT_PRECACHED.search(f)} == entries.keys()
    # No CDN: the Workbox runtime is inlined, nothing is imported from elsewhere.
    sw = (site_dir / "sw.js").read_text("utf-8")
    assert "importScripts" not in sw and "storage.googleapis" not in sw
    # Relative URLs only, so the site works under any sub-path.
    assert not [u for u in entries if u.startswith(("/", "http:", "https:"))]


def test_revisions_follow_content(site_dir: Path, tmp_path: Path) -> None:
    # A changed page gets a new revision (so a new build is fetched); the others keep
    # theirs (the 9.6 MB wasm is not fetched again).
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    page = copy / "horizon" / "index.html"
    page.write_text(page.read_text("utf-8") + "<!-- changed -->", "utf-8")
    out = subprocess.run(["node", str(ROOT / "scripts/sw/build_sw.mjs"), str(copy)],
                         capture_output=True, text=True, check=True, timeout=300)
    summary = json.loads(out.stdout)
    before, after = manifest(site_dir), manifest(copy)
    assert summary["files"] == len(after)
    changed = {u for u in after if after[u] != before.get(u)}
    assert changed == {"horizon/index.html"}


# --- one visit online, then airplane mode -----------------------------------------------
@pytest.mark.timeout(1800)
def test_every_table_page_and_calculator_works_offline(context: Any, site_dir: Path,
                                                       base_url: str) -> None:
    pages = table_pages(site_dir)
    assert len(pages) >= 10, pages
    page = visit_online(context, base_url)
    # A reading page saved the pages; the reader asks for the calculators too.
    save_everything(page)
    cached = page.evaluate("""async () => {
        const urls = [];
        for (const name of await caches.keys())
          for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
        return urls; }""")
    for rel in RUNTIME + READING:
        assert any(u.split("?")[0] == base_url + rel for u in cached), rel
    seen = RequestLog()
    context.on("requestfinished", seen.finished)
    context.on("requestfailed", seen.failed)
    context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    for rel, (tables, calcs) in pages.items():
        response = page.goto(base_url + rel)
        assert response is not None and response.status == 200, rel
        assert response.from_service_worker, rel
        assert page.locator("table[data-table]").count() == tables, rel
        page.locator("table[data-table] tr").first.wait_for(state="visible")
        if calcs:
            text = compute_first(page)
            assert text.strip(), rel
        assert page.locator("#ts-offline-banner").count() == 0, rel
        # Let late requests end here, so the next navigation cuts none of them off.
        page.wait_for_load_state("networkidle")
    # Every file those pages asked for (CSS, scripts, runtime, data) came from the worker.
    assert seen.page_failed == []
    assert seen.not_from_worker == []
    assert seen.page_ok, "no request was seen at all"
    # The browser's own icon fetches: none, as the icon is inline (see the test below).
    assert seen.browser_own == []


def test_the_icon_is_inline_so_offline_pages_need_no_icon_request(site_dir: Path) -> None:
    # Chromium fetches a page's icon itself, after load and not always through the
    # service worker; offline that fetch failed at random (issue #15). An inline icon
    # makes no request at all, and the policy already allows data: images.
    for html in sorted(site_dir.rglob("*.html")):
        text = html.read_text("utf-8")
        icons = re.findall(r'<link rel="(?:shortcut )?icon"[^>]*href="([^"]*)"', text)
        assert icons and all(u.startswith("data:image/svg+xml,") for u in icons), html
        csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
        if csp:
            assert re.search(r"img-src [^;]*\bdata:", csp.group(1)), html


def heavy_pistol_link(site_dir: Path) -> str:
    """The site path of a link to the Heavy Combat Pistol's row calculator at AP 17 (horizon
    source, Weapon Profile - Heavy Combat Pistol (Tier 3): "17 22 27 Base 20"). A link
    names a calculator by id and, when the page has several, its index `n`."""
    rel = next(r for r in table_pages(site_dir)
               if 'data-table="profile-heavy-combat-pistol"'
               in (site_dir / r / "index.html").read_text("utf-8"))
    presets = re.findall(r'data-calc="horizon\.profile_row" data-preset=\'([^\']*)\'',
                         (site_dir / rel / "index.html").read_text("utf-8"))
    n = next(i for i, p in enumerate(presets) if "heavy-combat-pistol" in p)
    return f"{rel}?calc=horizon.profile_row&n={n}&weapon=heavy-combat-pistol&ap=17"


def heavy_pistol_values(page: Any) -> dict[str, str]:
    """The values the linked calculator shows, by name, once it has computed."""
    host = page.locator('.ts-calc[data-calc="horizon.profile_row"]'
                        '[data-preset*="heavy-combat-pistol"]').first
    host.locator(".ts-values").wait_for(timeout=PY_READY_MS)
    shown: dict[str, str] = dict(host.locator(".ts-values > div").evaluate_all(
        "els => els.map(e => [e.querySelector('dt').textContent,"
        " e.querySelector('dd').textContent])"))
    return shown


def test_known_answer_offline_with_calculator_link(context: Any, site_dir: Path,
                                                   base_url: str) -> None:
    link = heavy_pistol_link(site_dir)
    visited = visit_online(context, base_url + link.split("?", 1)[0])
    wait_python(visited)
    wait_saved(visited)  # a calculator page saves the runtime it used
    context.set_offline(True)
    page = context.new_page()
    # A shared calculator link (query string) is served from the precache too.
    response = page.goto(base_url + link)
    assert response is not None and response.status == 200 and response.from_service_worker
    shown = heavy_pistol_values(page)
    assert shown["Damage"] == "22" and shown["Defense"] == "27"
    expected = rules_pkg.get("horizon.profile_row").run(weapon="heavy-combat-pistol", ap=17)
    assert shown == {k: str(v) for k, v, *_ in expected.values}


def test_instant_navigation_and_search_offline(context: Any, site_dir: Path,
                                               base_url: str) -> None:
    rel = next(r for r, v in table_pages(site_dir).items() if v[0])
    page = visit_online(context, base_url)
    context.set_offline(True)
    page.reload()
    page.evaluate("() => { window.__sameDocument = true; }")
    # Material's instant navigation fetches the next page: the worker answers it.
    # Material makes the links absolute once instant navigation runs.
    page.evaluate("(href) => document.querySelector(`a.md-nav__link[href='${href}']`).click()",
                  base_url + rel)
    page.wait_for_url(base_url + rel)
    page.locator("table[data-table]").first.wait_for()
    assert page.evaluate("() => window.__sameDocument") is True  # no full reload
    # The search index (search/search_index.json) comes from the precache.
    search = page.locator("input.md-search__input")
    search.click()
    page.keyboard.type("pistol", delay=20)  # Material searches on key events
    # Results exist only once the search worker has read the index offline. (Whether the
    # overlay is drawn open is Material's concern and raced the typing under load.)
    page.locator(".md-search-result__item").first.wait_for(state="attached", timeout=60_000)
    assert page.locator(".md-search-result__item").count() > 0


# --- when the runtime is not on this device ----------------------------------------------
def assert_needs_one_visit(page: Any, base_url: str, rel: str, tables: int) -> None:
    banner = page.locator("#ts-offline-banner")
    banner.wait_for(state="visible", timeout=PY_READY_MS)
    assert "one visit online" in banner.inner_text()
    # The tables stay readable; the calculators say they are off, and Python never ran.
    assert page.locator("table[data-table]").count() == tables
    first_row = page.locator("table[data-table] tbody tr").first
    first_row.wait_for(state="visible")
    assert first_row.inner_text().strip()
    assert page.evaluate("() => document.documentElement.dataset.tsPython") != "ready"


def test_runtime_cleared_while_offline_says_one_visit_online(context: Any, site_dir: Path,
                                                             base_url: str) -> None:
    rel, (tables, _) = next((r, v) for r, v in table_pages(site_dir).items() if v[1])
    page = visit_online(context, base_url + rel)
    wait_python(page)
    wait_saved(page)
    context.set_offline(True)
    # The runtime is cleared from Cache Storage (the pages stay): reload offline.
    assert clear_caches(page, "/assets/runtime/") >= 5
    response = page.reload()
    assert response is not None and response.status == 200 and response.from_service_worker
    assert_needs_one_visit(page, base_url, rel, tables)
    # Back online, the banner goes (the engine can load again).
    context.set_offline(False)
    page.locator("#ts-offline-banner").wait_for(state="detached")


def test_never_saved_offline_says_one_visit_online(browser: Any, site_dir: Path,
                                                   base_url: str) -> None:
    # No service worker and the runtime's download cut off, then the network goes: the
    # page on screen keeps its tables and says what is missing.
    rel, (tables, _) = next((r, v) for r, v in table_pages(site_dir).items() if v[1])
    ctx = browser.new_context(service_workers="block")
    try:
        ctx.route("**/assets/runtime/**", lambda route: route.abort("internetdisconnected"))
        page = ctx.new_page()
        page.goto(base_url + rel)
        assert page.locator("#ts-offline-banner").count() == 0  # online: no such message
        ctx.set_offline(True)
        assert_needs_one_visit(page, base_url, rel, tables)
        assert page.evaluate("caches.keys()") == []
    finally:
        ctx.close()


def test_cleared_caches_with_engine_running_keep_calculators(context: Any, site_dir: Path,
                                                             base_url: str) -> None:
    # Python already in memory: clearing every cache offline must not break this tab's
    # calculators, nor show a false "needs one visit online".
    rel = next(r for r, v in table_pages(site_dir).items() if v[1])
    page = visit_online(context, base_url + rel)
    wait_python(page)
    context.set_offline(True)
    assert clear_caches(page) > 50
    assert compute_first(page).strip()
    assert page.locator("#ts-offline-banner").count() == 0


# --- sub-path and new builds ----------------------------------------------------------------
def deploy(site_dir: Path, dest: Path, build: int | None = None) -> None:
    """Copy the built site to dest; with `build`, mark every page and tableside.css with
    it and rebuild sw.js (a new deployment with changed revisions)."""
    if build is None:
        shutil.copytree(site_dir, dest, dirs_exist_ok=True)
        return
    staged = dest.parent / f".staged-{build}"
    shutil.copytree(site_dir, staged)
    for html in staged.rglob("*.html"):
        text = html.read_text("utf-8")
        html.write_text(text.replace("</head>", f'<meta name="ts-test-build" content="{build}">'
                                     "</head>", 1), "utf-8")
    css = staged / "assets" / "calculators" / "tableside.css"
    old_sri = sri(css.read_bytes())
    css.write_text(css.read_text("utf-8") + f"\n/* build {build} */\n", "utf-8")
    # the pages carry each runtime file's hash (#9): this build's pages carry the new one
    for html in staged.rglob("*.html"):
        html.write_text(html.read_text("utf-8").replace(old_sri, sri(css.read_bytes())),
                        "utf-8")
    subprocess.run(["node", str(ROOT / "scripts/sw/build_sw.mjs"), str(staged)],
                   capture_output=True, text=True, check=True, timeout=300)
    shutil.copytree(staged, dest, dirs_exist_ok=True)  # swap the files under the server
    shutil.rmtree(staged)


def sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


BUILD_EXPR = "document.querySelector('meta[name=ts-test-build]')?.content ?? '1'"
BUILD_OF_PAGE = f"() => {BUILD_EXPR}"


def css_build(page: Any, url: str) -> str:
    text: str = page.evaluate("async (u) => (await fetch(u)).text()", url)
    m = re.search(r"/\* build (\d+) \*/", text)
    return m.group(1) if m else "1"


def test_subpath_offline(context: Any, site_dir: Path, subpath_server: Served) -> None:
    deploy(site_dir, subpath_server.root / "tableside")
    base = subpath_server.url + "tableside/"
    page = visit_online(context, base + "horizon/pistols/")
    wait_python(page)
    wait_saved(page)
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == base
    context.set_offline(True)
    for rel, (tables, calcs) in list(table_pages(site_dir).items())[:3]:
        response = page.goto(base + rel)
        assert response is not None and response.status == 200 and response.from_service_worker
        assert page.locator("table[data-table]").count() == tables
        if calcs:
            assert compute_first(page).strip()


@pytest.mark.timeout(1200)
def test_new_build_waits_for_reload_and_never_mixes(context: Any, site_dir: Path,
                                                    subpath_server: Served) -> None:
    served = subpath_server.root / "next"
    deploy(site_dir, served)
    base = subpath_server.url + "next/"
    css = base + "assets/calculators/tableside.css"
    page = visit_online(context, base + "horizon/pistols/")
    other = context.new_page()
    other.goto(base + "horizon/melee/")
    wait_sw_ready(other)

    deploy(site_dir, served, build=2)  # a new build lands while both tabs are open
    page.reload()
    prompt = page.locator("#ts-update-banner")
    prompt.wait_for(state="visible", timeout=SW_READY_MS)
    assert "new version is available" in prompt.inner_text()
    other.locator("#ts-update-banner").wait_for(state="visible", timeout=SW_READY_MS)
    # Until the reader says so, the open pages stay wholly on the old build...
    assert page.evaluate(BUILD_OF_PAGE) == "1" and css_build(page, css) == "1"
    assert compute_first(page).strip()  # ...and keep working.
    old = context.new_page()
    old.goto(base + "horizon/shotguns/")
    assert old.evaluate(BUILD_OF_PAGE) == "1"
    old.close()

    with page.expect_navigation(timeout=SW_READY_MS):
        prompt.get_by_role("button", name="Reload").click()
    page.wait_for_load_state()
    assert page.evaluate(BUILD_OF_PAGE) == "2" and css_build(page, css) == "2"
    assert page.locator("#ts-update-banner").count() == 0
    # The other tab reloads itself onto the new build: no tab keeps mixing the two.
    other.wait_for_function(f"() => ({BUILD_EXPR}) === '2'", timeout=SW_READY_MS)
    assert css_build(other, css) == "2"
    # And the new build is what is cached for offline use.
    context.set_offline(True)
    response = page.goto(base + "horizon/shotguns/")
    assert response is not None and response.from_service_worker
    assert page.evaluate(BUILD_OF_PAGE) == "2"


# --- "Save everything for offline" ----------------------------------------------------------
RECORD = """() => {
  window.__saves = [];
  const note = () => {
    const box = document.getElementById("ts-save");
    const bar = box && box.querySelector("progress");
    window.__saves.push({state: document.documentElement.getAttribute("SAVED_ATTR"),
                         text: box ? box.innerText : "", bar: bar ? [bar.value, bar.max] : null});
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
                                                     characterData: true, attributes: true});
}""".replace("SAVED_ATTR", SAVED.attr)


def test_save_everything_then_a_calculator_offline(context: Any, site_dir: Path,
                                                   base_url: str) -> None:
    runtime_bytes = sum(p.stat().st_size for p in (site_dir / "assets/runtime").rglob("*")
                        if p.is_file())
    page = visit_online(context, base_url + "horizon/")  # rules text, no calculator
    control = page.locator("#ts-save")
    button = control.get_by_role("button", name=re.compile("^Save everything"))
    assert button.inner_text() == f"Save everything for offline ({runtime_bytes / 1e6:.1f} MB)"
    assert "Pages are saved for offline reading." in control.inner_text()
    assert control.get_attribute("role") == "status"
    assert SAVED.of(page) == "none"
    page.evaluate(RECORD)
    button.click()
    wait_saved(page)
    saves = page.evaluate("() => window.__saves")
    saving = [s for s in saves if s["state"] == "saving" and s["bar"]]
    assert saving, saves
    assert re.match(r"Saving… \d+\.\d of " + f"{runtime_bytes / 1e6:.1f} MB", saving[0]["text"])
    assert all(s["bar"][1] == runtime_bytes for s in saving)
    assert control.inner_text() == ("Offline ready: pages and calculators are saved on this "
                                    "device.")
    # Drawn again on the next page (instant navigation swaps the footer).
    page.goto(base_url + "horizon/pistols/")
    control.get_by_text("Offline ready").wait_for()
    # Offline, a calculator page never visited computes: horizon source, Weapon Profile -
    # Heavy Combat Pistol (Tier 3): "17 22 27 Base 20".
    context.set_offline(True)
    offline = context.new_page()
    response = offline.goto(base_url + heavy_pistol_link(site_dir))
    assert response is not None and response.from_service_worker
    shown = heavy_pistol_values(offline)
    assert shown["Damage"] == "22" and shown["Defense"] == "27"


def test_the_control_is_a_44px_touch_target_on_a_phone(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    try:
        page = visit_online(ctx, base_url + "horizon/")
        button = page.locator("#ts-save button")
        button.wait_for()
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    finally:
        ctx.close()
