"""Helpers for the browser tests: waiting for Python, opening a calculator, reading it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

PY_READY_MS = 90_000  # Pyodide's cold start is ~5 s here; generous for loaded CI machines

# A calculator's live result for the inputs now in its form: not the answer worked out at
# build time (issue 13: forms/ahead.mjs marks it data-ts-ahead), and not an earlier live
# answer whose inputs have changed since (guards.mjs marks it data-stale until the new
# answer comes; waiting for a bare live result could read the old one).
LIVE_RESULT = ".ts-result:not([hidden]):not([data-ts-ahead]):not([data-stale])"


def wait_python(page: Any) -> None:
    # A function, not an expression: Playwright polls expressions with eval(), which the
    # site's Content-Security-Policy (no 'unsafe-eval') blocks.
    page.wait_for_function("() => document.documentElement.dataset.tsPython === 'ready'",
                           timeout=PY_READY_MS)


# The Horizon Heavy Combat Pistol's profile table (a known answer: AP 17 -> 22 / 27) and
# the page that shows it with its calculators.
HEAVY_PISTOL = 'data-table="profile-heavy-combat-pistol"'


def open_heavy_pistol(page: Any, site_dir: Path, base_url: str,
                      calc: str | None = None) -> Any:
    """Open the Heavy Combat Pistol's page; with `calc`, that calculator's preset for it."""
    page.goto(base_url + page_with(site_dir, HEAVY_PISTOL, "data-calc="))
    if calc is None:
        return None
    return open_calc(page, f'.ts-calc[data-calc="{calc}"][data-preset*="heavy-combat-pistol"]')


def open_calc(page: Any, selector: str, n: int = 0, unfold: bool = True) -> Any:
    """The n-th calculator matching `selector` (a calculator id or a CSS selector) on the
    page, its tab chosen as a reader would."""
    css = selector if selector.startswith(".") else f'.ts-calc[data-calc="{selector}"]'
    host = page.locator(css).nth(n)
    # Python's plain start holds the main thread for seconds (far longer on a loaded CI
    # machine), and a form may be built only after it: the same budget as Python's start.
    host.locator("form").wait_for(state="attached", timeout=PY_READY_MS)
    tab_id = host.get_attribute("aria-labelledby")
    if tab_id and host.get_attribute("role") == "tabpanel":
        page.locator(f"#{tab_id}").click()
    host.locator("form").wait_for(state="visible")
    # a long form folds its less common inputs under "More modifiers": tests fill any field
    if unfold:
        host.evaluate("h => h.querySelectorAll('details.ts-more')"
                      ".forEach((d) => { d.open = true; })")
    return host


def values(host: Any) -> dict[str, str]:
    """The named values shown in a calculator's live result (not the answer worked out at
    build time, issue 13: calculators/forms/ahead.mjs marks that one data-ts-ahead)."""
    live = host.locator(f"{LIVE_RESULT} .ts-values")
    live.wait_for(timeout=PY_READY_MS)
    pairs = live.locator(":scope > div").evaluate_all(
        "els => els.map(e => [e.querySelector('dt').textContent,"
        " e.querySelector('dd').textContent])")
    return dict(pairs)


def page_with(site_dir: Path, *needles: str, exclude: str | None = None) -> str:
    """The site path of the first built page whose HTML contains every one of `needles`,
    next to its rule: not an Encounter page, which carries all of a game's calculators in
    a sheet that opens on demand (tests/encounter drive that page)."""
    for html in sorted(site_dir.rglob("*.html")):
        if html.parent.name == "encounter":
            continue
        text = html.read_text("utf-8")
        if all(n in text for n in needles) and (exclude is None or exclude not in text):
            rel = html.relative_to(site_dir).as_posix()
            return rel[: -len("index.html")] if rel.endswith("index.html") else rel
    raise AssertionError(f"no page of the built site contains all of {needles!r}")
