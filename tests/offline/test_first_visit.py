"""The first visit downloads Python's big files once, not once for the page and once more
for the service worker's precache (scripts/sw/sw-src.mjs takes the browser's HTTP-cached
copy when its SHA-256 is this build's, and the network otherwise).

Served as GitHub Pages serves (Cache-Control: max-age=600) by a server that counts the
requests for each path.
"""

from __future__ import annotations

import gzip
import hashlib
import http.server
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scripts.bench import CHROMIUM_ARGS

from .conftest import _TYPES
from .helpers import compute_first, wait_python, wait_sw_ready

pytestmark = pytest.mark.browser

BIG = ("assets/runtime/pyodide/pyodide.asm.wasm", "assets/runtime/pyodide/python_stdlib.zip",
       "assets/runtime/pyodide/pyodide.asm.mjs", "assets/runtime/snapshot.bin.gz")
PAGE = "horizon/assault-rifles/"  # a weapon profile page with calculators


class Counting:
    """An HTTP server over the built site; counts GETs per path; can serve other bytes for
    the first request of one path (a stale copy, as from an older deploy)."""

    def __init__(self, root: Path) -> None:
        self.hits: Counter[str] = Counter()
        self.first_bytes: dict[str, bytes] = {}
        counting = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = _TYPES

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(root), **kwargs)

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0].lstrip("/")
                counting.hits[path] += 1
                stale = counting.first_bytes.pop(path, None)
                if stale is None:
                    super().do_GET()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(stale)))
                self.end_headers()
                self.wfile.write(stale)

            def end_headers(self) -> None:
                self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages sends
                super().end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"


@pytest.fixture
def counting(site_dir: Path) -> Iterator[Counting]:
    c = Counting(site_dir)
    thread = threading.Thread(target=c.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield c
    finally:
        c.server.shutdown()
        c.server.server_close()


def _first_visit(browser: Any, profile: Path, url: str, check: Callable[[Any], None]) -> None:
    """A browser with a profile on disk: a real HTTP disk cache, as a phone has (a
    Playwright incognito context keeps a small memory cache that drops the 9.6 MB wasm)."""
    ctx = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        page = ctx.new_page()
        page.goto(url)
        wait_python(page)
        wait_sw_ready(page)  # the precache is complete
        check(page)
    finally:
        ctx.close()


def _precached_sha256(page: Any, rel: str) -> str:
    hexdigest: str = page.evaluate("""async (rel) => {
        const url = new URL(rel, location.origin + "/").href;
        for (const name of await caches.keys()) {
          if (!name.includes("precache")) continue;
          for (const req of await (await caches.open(name)).keys()) {
            if (req.url.split("?")[0] === url) {
              const body = await (await (await caches.open(name)).match(req)).arrayBuffer();
              const d = await crypto.subtle.digest("SHA-256", body);
              return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
            }
          }
        }
        return "not precached";
    }""", rel)
    return hexdigest


def test_the_first_visit_downloads_pythons_big_files_once(browser: Any, counting: Counting,
                                                          site_dir: Path, tmp_path: Path) -> None:
    def check(page: Any) -> None:
        for rel in BIG:
            want = hashlib.sha256((site_dir / rel).read_bytes()).hexdigest()
            assert _precached_sha256(page, rel) == want, rel

    _first_visit(browser, tmp_path, counting.url + PAGE, check)
    assert {rel: counting.hits[rel] for rel in BIG} == {rel: 1 for rel in BIG}
    assert counting.hits["sw.js"] >= 1  # the worker really installed from this server


def test_a_stale_http_cached_copy_is_not_precached(browser: Any, counting: Counting,
                                                   site_dir: Path, tmp_path: Path) -> None:
    # The page's first download of the snapshot gets other bytes (valid gzip, wrong
    # content: an older deploy's file still fresh in the HTTP cache). The page refuses
    # them, visibly (#9: calculators/integrity.mjs, a changed file is never run); the
    # worker sees the wrong hash and downloads the real file, so the next load works.
    rel = "assets/runtime/snapshot.bin.gz"
    counting.first_bytes[rel] = gzip.compress(b"TSSPARS1" + bytes(8))
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        page = ctx.new_page()
        page.goto(counting.url + PAGE)
        page.wait_for_function("() => document.documentElement.dataset.tsPython === 'failed'",
                               timeout=120_000)
        status = page.locator(".ts-calc:not([hidden]) .ts-status").first
        assert "could not be verified: the Python snapshot" in status.inner_text()
        wait_sw_ready(page)  # the precache is complete
        want = hashlib.sha256((site_dir / rel).read_bytes()).hexdigest()
        assert _precached_sha256(page, rel) == want
        page.reload()
        wait_python(page)
        assert compute_first(page).strip()
    finally:
        ctx.close()
    assert counting.hits[rel] == 2
