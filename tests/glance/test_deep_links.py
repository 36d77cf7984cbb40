"""Deep links land on their heading, with no layout shift after first paint (issue #11).

Every heading anchor of every page with a table, at a phone's and a desktop's width: the
heading must end at the top of the screen (just under Material's header) once the page
has settled, or, near the end of a page too short to scroll that far, be in view at the
bottom of the scroll. Each page is opened once by a full load (Python still loading) and
every anchor again by Material's instant navigation (Python loaded, the runtime kept), as
a reader following links and search results does. Cumulative layout shift ≤ 0.1.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import wait_python

from .conftest import WIDTHS, NewPage
from .nav import instant

CLS_MAX = 0.1
HEADING = re.compile(r'<h([1-6])[^>]*\bid="([^"]+)"')

# Layout shifts as the Layout Instability API reports them (buffered: from navigation).
OBSERVE = """
window.__tsShifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__tsShifts.push({ t: e.startTime, v: e.value,
      // what moved, for the failure message: "H2#radiation 0,900 -> 0,600"
      what: (e.sources || []).map((s) => `${s.node ? s.node.nodeName + "#" + (s.node.id || "")
        + "." + String(s.node.className || "").split(" ")[0] : "?"} ${s.previousRect.y}`
        + ` -> ${s.currentRect.y} (scrollY ${Math.round(scrollY)})`).join("; ") });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def table_pages(site_dir: Path) -> list[tuple[str, list[str]]]:
    """(site path, heading ids in the article) of every page that shows a source table."""
    out = []
    for html in sorted(site_dir.rglob("index.html")):
        text = html.read_text("utf-8")
        if 'class="ts-table' not in text or "<article" not in text:
            continue
        article = text.split("<article", 1)[1].split("</article>", 1)[0]
        ids = [i for _, i in HEADING.findall(article)]
        rel = html.parent.relative_to(site_dir).as_posix()
        out.append((f"{rel}/" if rel != "." else "", ids))
    return out


def hardest(site_dir: Path, pages: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """Per game (first path segment), the page with the most calculator slots."""
    best: dict[str, tuple[int, str, list[str]]] = {}
    for path, ids in pages:
        slots = (site_dir / path / "index.html").read_text("utf-8").count('class="ts-calc"')
        game = path.split("/", 1)[0]
        if slots > best.get(game, (-1, "", []))[0]:
            best[game] = (slots, path, ids)
    return [(path, ids) for _, path, ids in best.values()]


def settle(page: Any, anchor: str) -> dict[str, Any]:
    """Wait until every calculator in view is built and the heading stops moving."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.ts-calc')]
              .every((h) => h.closest('[hidden]') || h.dataset.tsReady !== undefined)""")
    last = None
    for _ in range(40):
        page.wait_for_timeout(120)
        now = page.evaluate(
            """(id) => {
                 const el = document.getElementById(id);
                 const header = document.querySelector('.md-header');
                 const se = document.scrollingElement;
                 return { top: el ? Math.round(el.getBoundingClientRect().top) : null,
                          bottom: el ? Math.round(el.getBoundingClientRect().bottom) : null,
                          header: Math.round(header.getBoundingClientRect().bottom),
                          atEnd: se.scrollTop + innerHeight >= se.scrollHeight - 2,
                          // Material's "Back to top" pill, drawn over the heading when shown
                          backToTop: (() => { const t = document.querySelector('.md-top');
                            return !!t && !t.hidden && getComputedStyle(t).display !== 'none';
                          })(),
                          height: innerHeight, y: Math.round(scrollY) };
               }""", anchor)
        if now == last:
            return now
        last = now
    return last or {}


def check_landing(where: str, got: dict[str, Any]) -> str | None:
    if got.get("top") is None:
        return f"{where}: the heading is missing"
    top, header = got["top"], got["header"]
    if header - 2 <= top <= header + 40:
        return None
    if got["atEnd"] and header - 2 <= top and got["bottom"] <= got["height"]:
        return None  # near the end of a short page: as far as the page scrolls
    if got["y"] == 0 and header - 2 <= top and got["bottom"] <= got["height"]:
        return None  # the page's title, at the very top
    return f"{where}: heading at {top} px (header ends at {header} px, scrollY {got['y']})"


def cls_since(page: Any, t0: float) -> float:
    return float(page.evaluate(
        "(t0) => window.__tsShifts.filter((s) => s.t >= t0).reduce((a, s) => a + s.v, 0)", t0))


def shifts_since(page: Any, t0: float) -> str:
    """The shifts after t0, each with the nodes that moved (for a failure message)."""
    return "; ".join(f"{s['v']:.3f} at {s['t']:.0f} ms: {s['what']}" for s in page.evaluate(
        "(t0) => window.__tsShifts.filter((s) => s.t >= t0)", t0))


@pytest.mark.browser
@pytest.mark.timeout(1500)  # ~270 landings; minutes on a loaded 2-core machine
@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_every_heading_anchor_lands_on_its_heading(new_page: NewPage, site_dir: Path,
                                                   base_url: str, width: str) -> None:
    pages = table_pages(site_dir)
    assert len(pages) >= 20, pages  # five games' tables, not a broken build
    problems: list[str] = []
    n = 0
    started = time.monotonic()
    # Full loads, Python not loaded: its manifest never arrives (a slow link), so the page
    # stays as a reader sees it in its first seconds. One page per game, the one with the
    # most calculators, at its deepest heading: the hardest (most calculators above it).
    # No service worker here: installed by the first page, it claimed a later one mid-load
    # now and then, and Material's start (which writes every relative URL back as absolute)
    # then loaded the head's stylesheets again through it, restyling a page already painted
    # (CLS 0.8 on horizon/assault-rifles, about 1 such load in 20: Material and Chromium's
    # doing on a first visit, not a calculator's; the worker has its own tests)
    cold = new_page(WIDTHS[width], service_workers="block")
    cold.add_init_script(OBSERVE)
    cold.route(re.compile(r"/runtime\.json"), lambda route: None)  # never answered
    for path, ids in hardest(site_dir, pages):
        anchor = ids[-1]
        where = f"{width} load {path}#{anchor}"
        cold.goto(f"{base_url}{path}#{anchor}", wait_until="domcontentloaded")
        got = settle(cold, anchor)
        n += 1
        if err := check_landing(where, got):
            problems.append(err)
        if (cls := cls_since(cold, 0)) > CLS_MAX:
            problems.append(f"{where}: CLS {cls:.3f}: {shifts_since(cold, 0)}")
    cold.close()
    # Python loaded (and kept by instant navigation):
    page = new_page(WIDTHS[width])
    page.add_init_script(OBSERVE)
    page.goto(f"{base_url}{next(p for p, _ in pages if 'cheat-sheet' not in p)}")
    wait_python(page)
    print(f"{width}: full loads and Python in {time.monotonic() - started:.0f} s")
    # Instant navigation (Python loaded, the runtime kept), as a reader following a link
    # or a search result: to each page's first heading after its title, the page swapped
    # and its calculators built again; then every other heading of that page by an in-page
    # link (the calculators are built by then).
    for path, ids in pages:
        first, *rest = [*ids[1:], *ids[:1]]  # the title's anchor last
        t0 = instant(page, f"{base_url}{path}#{first}")
        got = settle(page, first)
        n += 1
        if err := check_landing(f"{width} instant {path}#{first}", got):
            problems.append(err)
        cls = cls_since(page, t0)
        if cls > CLS_MAX:
            problems.append(f"{width} instant {path}#{first}: CLS {cls:.3f} after the swap: "
                            f"{shifts_since(page, t0)}")
        for anchor in rest:
            t1 = page.evaluate("(id) => { location.hash = id; return performance.now(); }",
                               anchor)
            got = settle(page, anchor)
            n += 1
            if err := check_landing(f"{width} link {path}#{anchor}", got):
                problems.append(err)
            cls = cls_since(page, t1)
            if cls > CLS_MAX:
                problems.append(f"{width} link {path}#{anchor}: CLS {cls:.3f}: "
                                f"{shifts_since(page, t1)}")
    print(f"{width}: {n} landings in {time.monotonic() - started:.0f} s")
    assert not problems, "\n".join(problems)


@pytest.mark.browser
@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_a_deep_link_is_not_covered_by_back_to_top(new_page: NewPage, site_dir: Path,
                                                   base_url: str, width: str) -> None:
    """Python starting clears each calculator's "Loading…" line above the heading, and the
    browser's scroll anchoring scrolls up by those pixels: Material took that for the
    reader scrolling up and drew its "Back to top" pill over the heading."""
    path, anchor = "horizon/pistols/", "weapon-profile-hand-cannon-tier-4"
    assert f'id="{anchor}"' in (site_dir / path / "index.html").read_text("utf-8")
    page = new_page(WIDTHS[width])
    page.goto(f"{base_url}{path}#{anchor}")
    wait_python(page)
    got = settle(page, anchor)
    assert check_landing(f"{width} {path}#{anchor}", got) is None, got
    assert not got["backToTop"], "Material's 'Back to top' is drawn over the heading"
    # ...and it is still there for a reader who scrolls back up
    page.mouse.move(WIDTHS[width]["width"] // 2, 400)
    page.mouse.wheel(0, 800)
    page.wait_for_timeout(400)
    page.mouse.wheel(0, -300)
    page.wait_for_function("""() => { const t = document.querySelector('.md-top');
        return !t.hidden && getComputedStyle(t).display !== 'none'; }""", timeout=10_000)
