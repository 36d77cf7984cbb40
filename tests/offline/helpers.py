"""Helpers for the offline tests: waiting for the service worker and Python, computing,
clearing Cache Storage, finding the pages with tables."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

from browser.helpers import LIVE_RESULT  # tests/ is on sys.path (rootdir packages)

from scripts.page_states import PYTHON, SAVED, SW, expect

# Predicates are arrow functions: the pages' Content-Security-Policy forbids eval, which
# Playwright would use for a bare expression.
# The reading precache is ~5 MB, the runtime ~20 MB and Pyodide's cold start several
# seconds: be generous.
SW_READY_MS = 180_000
PY_READY_MS = 120_000
RUNTIME_DIR = "assets/runtime/"


def wait_sw_ready(page: Any) -> None:
    """The worker is active (so its precache is complete) and controls this page."""
    page.wait_for_function(expect(SW.is_("ready"), "!!navigator.serviceWorker.controller"),
                           timeout=SW_READY_MS)


def wait_saved(page: Any) -> None:
    """The runtime is in the runtime cache too (offline.js: <html data-ts-saved="all">)."""
    page.wait_for_function(expect(SAVED.is_("all")), timeout=SW_READY_MS)


def save_everything(page: Any) -> None:
    """Click "Save everything for offline" and wait until it says "Offline ready"."""
    control = page.locator("#ts-save")
    control.get_by_role("button", name=re.compile(r"^Save everything for offline")).click()
    wait_saved(page)
    assert control.inner_text().startswith("Offline ready")


def wait_python(page: Any) -> None:
    page.wait_for_function(expect(PYTHON.is_("ready")), timeout=PY_READY_MS)


def compute_first(page: Any) -> str:
    """Click Compute on the first visible calculator; return its result's text."""
    host = page.locator(".ts-calc:not([hidden])").first
    host.locator("form").wait_for(state="visible")
    host.get_by_role("button", name="Compute").click()
    # the live result, not the answer worked out at build time (issue 13, data-ts-ahead)
    result = host.locator(LIVE_RESULT)
    result.wait_for(state="visible", timeout=PY_READY_MS)
    text: str = result.inner_text()
    return text


def clear_caches(page: Any, only: str | None = None) -> int:
    """Delete Cache Storage entries (all, or those whose URL contains `only`); the count."""
    deleted: int = page.evaluate(
        """async (only) => {
          let n = 0;
          for (const name of await caches.keys()) {
            if (only === null) { n += (await (await caches.open(name)).keys()).length;
                                 await caches.delete(name); continue; }
            const cache = await caches.open(name);
            for (const req of await cache.keys()) {
              if (req.url.includes(only)) { await cache.delete(req); n++; }
            }
          }
          return n;
        }""", only)
    return deleted


def table_pages(site_dir: Path) -> dict[str, tuple[int, int]]:
    """Site path -> (tables with data-table, calculators) for every page with a table."""
    pages: dict[str, tuple[int, int]] = {}
    for html in sorted(site_dir.rglob("index.html")):
        text = html.read_text("utf-8")
        tables = len(re.findall(r"<table\b[^>]*\bdata-table=", text))
        if tables:
            rel = html.relative_to(site_dir).as_posix()[: -len("index.html")]
            pages[rel] = (tables, len(re.findall(r'class="ts-calc"', text)))
    return pages


def runtime_files(site_dir: Path) -> dict[str, str]:
    """Site-relative path -> SRI of every runtime file of this build."""
    return {p.relative_to(site_dir).as_posix():
            "sha256-" + base64.b64encode(hashlib.sha256(p.read_bytes()).digest()).decode()
            for p in sorted((site_dir / RUNTIME_DIR).rglob("*")) if p.is_file()}


def runtime_cache(page: Any) -> dict[str, list[str]]:
    """What the runtime cache holds: URL path -> [its hash header, the SRI of its body]."""
    held: dict[str, list[str]] = page.evaluate("""async () => {
        const cache = await caches.open("tableside-runtime");
        const out = {};
        for (const req of await cache.keys()) {
          const r = await cache.match(req);
          const d = new Uint8Array(await crypto.subtle.digest("SHA-256", await r.arrayBuffer()));
          out[new URL(req.url).pathname.slice(1)] =
            [r.headers.get("X-Tableside-SRI"), "sha256-" + btoa(String.fromCharCode(...d))];
        }
        return out; }""")
    return held
