"""What a first visit downloads (issue #13, "offline by choice").

- A reading page: the reading precache (pages, their assets, the search index) and no
  file of the Python runtime (assets/runtime/**); every file at most once (the worker's
  precache takes the copy the page has just downloaded, scripts/sw/sw-src.mjs).
- A calculator page: each runtime file once, whether the browser keeps a disk cache (a
  persistent profile, as a phone) or not (a fresh incognito context), and afterwards all of
  them in the runtime cache with this build's hashes (the page stores what it fetched,
  calculators/python/integrity.mjs; the worker the modules it imported, from the browser's copy).

Served as GitHub Pages serves (Cache-Control: max-age=600) by a server that counts the
requests for each file.
"""

from __future__ import annotations

import gzip
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scripts.bench.main import CHROMIUM_ARGS
from scripts.page_states import SAVED

from .conftest import _TYPES
from .helpers import (
    RUNTIME_DIR,
    compute_first,
    runtime_cache,
    runtime_files,
    wait_python,
    wait_saved,
    wait_sw_ready,
)

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]

PAGE = "horizon/assault-rifles/"  # a weapon profile page with calculators
READING = "horizon/"  # a page of rules text, no calculator


class Counting:
    """An HTTP server over the built site; counts GETs per file (dir/ is dir/index.html)
    and their bytes; can serve other bytes for the first request of one path (a stale
    copy, as from an older deploy)."""

    def __init__(self, root: Path) -> None:
        self.hits: Counter[str] = Counter()
        self.bytes = 0
        self.first_bytes: dict[str, bytes] = {}
        counting = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = _TYPES

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(root), **kwargs)

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0].lstrip("/")
                if path == "" or path.endswith("/"):
                    path += "index.html"
                counting.hits[path] += 1
                if (root / path).is_file():
                    counting.bytes += (root / path).stat().st_size
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


@pytest.fixture(params=["persistent", "incognito"])
def context(request: Any, browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A browser with a profile on disk (a real HTTP disk cache, as a phone has), or a
    fresh incognito context (a small memory cache that drops the 9.6 MB wasm)."""
    if request.param == "persistent":
        ctx = browser.browser_type.launch_persistent_context(
            str(tmp_path), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    else:
        ctx = browser.new_context()
    try:
        yield ctx
    finally:
        ctx.close()


def reading_precache(site_dir: Path) -> dict[str, int]:
    """The reading precache's files and sizes, read from the generated sw.js."""
    sw = (site_dir / "sw.js").read_text("utf-8")
    urls = re.findall(r'\{"revision":(?:"[0-9a-f]+"|null),"url":"([^"]+)"\}', sw)
    return {u: (site_dir / u).stat().st_size for u in urls}


def test_a_reading_page_downloads_no_runtime_and_each_file_once(
        browser: Any, counting: Counting, site_dir: Path, tmp_path: Path) -> None:
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        page = ctx.new_page()
        page.goto(counting.url + READING)
        wait_sw_ready(page)  # the reading precache is complete
        page.locator("#ts-save").wait_for()
        assert SAVED.of(page) == "none"
    finally:
        ctx.close()
    precache = reading_precache(site_dir)
    assert not [u for u in precache if u.startswith(RUNTIME_DIR)]
    assert "search/search_index.json" in precache and READING + "index.html" in precache
    assert [p for p in counting.hits if p.startswith(RUNTIME_DIR)] == []
    assert {p: n for p, n in counting.hits.items() if n > 1} == {}
    assert set(precache) <= set(counting.hits)  # the precache really came from here
    total = sum(precache.values())
    print(f"\nreading precache: {len(precache)} files, {total / 1e6:.1f} MB; "
          f"first visit to {READING}: {counting.bytes / 1e6:.1f} MB")
    assert counting.bytes <= total + 200_000  # plus sw.js and the sitemap


@pytest.mark.timeout(900)
def test_a_calculator_page_downloads_the_runtime_once_and_keeps_it(
        context: Any, counting: Counting, site_dir: Path) -> None:
    page = context.new_page()
    page.goto(counting.url + PAGE)
    wait_python(page)
    wait_sw_ready(page)
    wait_saved(page)  # the modules it imported are saved as well
    held = runtime_cache(page)
    want = runtime_files(site_dir)
    assert held == {rel: [sri, sri] for rel, sri in want.items()}
    assert {rel: counting.hits[rel] for rel in want} == {rel: 1 for rel in want}
    assert {p: n for p, n in counting.hits.items() if n > 1} == {}
    assert compute_first(page).strip()


def test_a_stale_http_cached_copy_is_not_kept(browser: Any, counting: Counting,
                                              site_dir: Path, tmp_path: Path) -> None:
    # The page's first download of the snapshot gets other bytes (valid gzip, wrong
    # content: an older deploy's file still fresh in the HTTP cache). The page refuses
    # them, visibly (#9: calculators/python/integrity.mjs, a changed file is never run); on the
    # next load the worker sees the wrong hash, downloads the real file once and keeps it.
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
        # Python's worker checks the file as it reads it (python/integrity.mjs), before any memory
        assert "could not be verified: snapshot.bin.gz" in status.inner_text()
        wait_sw_ready(page)
        assert rel not in runtime_cache(page)
        # The refused snapshot's inflated copy is dropped too (python/snapshot.mjs).
        page.wait_for_function("async () => !(await caches.has('tableside-snapshot-raw'))",
                               timeout=30_000)
        page.reload()
        wait_python(page)
        assert compute_first(page).strip()
        sri = runtime_files(site_dir)[rel]
        assert runtime_cache(page)[rel] == [sri, sri]
    finally:
        ctx.close()
    assert counting.hits[rel] == 2


def test_the_build_reports_both_sizes(site_dir: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(site_dir, tmp_path / "site", copy_function=os.link)
    (copy / "sw.js").unlink()  # written anew, never through the hard link
    out = subprocess.run(["node", "scripts/sw/build_sw.mjs", str(copy)], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=300)
    summary = json.loads(out.stdout)
    runtime = {p: (site_dir / p).stat().st_size for p in runtime_files(site_dir)}
    assert summary["runtime_files"] == len(runtime)
    assert summary["runtime_bytes"] == sum(runtime.values())
    assert summary["bytes"] == sum(reading_precache(site_dir).values())
    print(f"\nreading precache {summary['bytes'] / 1e6:.1f} MB, "
          f"runtime {summary['runtime_bytes'] / 1e6:.1f} MB")
