"""Helpers for driving the calculators in Chromium (fixtures site_dir/base_url/browser
come from tests/conftest.py).

`page` is a fresh context (cold: nothing cached) that records every request, console
error and uncaught exception; a test fails at teardown if the page logged an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PY_READY_MS = 90_000  # Pyodide's cold start is ~5 s here; generous for loaded CI machines


@dataclass
class Recorder:
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def page(browser: Any, rec: Recorder) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.on("request", lambda r: rec.requests.append(r.url))
    pg.on("console", lambda m: rec.errors.append(f"console.{m.type}: {m.text}")
          if m.type == "error" else None)
    pg.on("pageerror", lambda e: rec.errors.append(f"uncaught: {e}"))
    yield pg
    context.close()
    if rec.errors:
        pytest.fail("the page logged errors:\n" + "\n".join(rec.errors), pytrace=False)


def wait_python(page: Any) -> None:
    page.wait_for_function("document.documentElement.dataset.tsPython === 'ready'",
                           timeout=PY_READY_MS)


def open_calc(page: Any, selector: str, n: int = 0) -> Any:
    """The n-th calculator matching `selector` (a calculator id or a CSS selector) on the
    page, its tab chosen as a reader would."""
    css = selector if selector.startswith(".") else f'.ts-calc[data-calc="{selector}"]'
    host = page.locator(css).nth(n)
    host.locator("form").wait_for(state="attached")
    tab_id = host.get_attribute("aria-labelledby")
    if tab_id and host.get_attribute("role") == "tabpanel":
        page.locator(f"#{tab_id}").click()
    host.locator("form").wait_for(state="visible")
    return host


def values(host: Any) -> dict[str, str]:
    """The named values shown in a calculator's result."""
    host.locator(".ts-values").wait_for(timeout=PY_READY_MS)
    pairs = host.locator(".ts-values > div").evaluate_all(
        "els => els.map(e => [e.querySelector('dt').textContent, e.querySelector('dd').textContent])")
    return dict(pairs)


def page_with(site_dir: Path, needle: str) -> str:
    """The site path of the first built page whose HTML contains `needle`."""
    for html in sorted(site_dir.rglob("*.html")):
        if needle in html.read_text("utf-8"):
            rel = html.relative_to(site_dir).as_posix()
            return rel[: -len("index.html")] if rel.endswith("index.html") else rel
    raise AssertionError(f"no page of the built site contains {needle!r}")
