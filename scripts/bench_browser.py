"""Time from navigation to the first calculator result, cold and warm (medians of N).

Usage: python -m scripts.bench_browser [--site site] [--runs 5] [--page horizon/pistols/]

Serves the built site on 127.0.0.1, opens a page with calculators in Debian's Chromium
(headless, Playwright sync), clicks the first Compute button as soon as the form exists
(as a reader would) and reads `performance.mark("tableside:first-result")`, which
calculators/tableside.js sets when the first result is on screen; its startTime is
milliseconds since navigation start. Cold = a new browser context (empty cache); warm =
a reload in the same context (HTTP cache warm, Python started afresh); next page = a
link followed from there to --next under instant navigation (Python already running).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import mimetypes
import re
import shutil
import statistics
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
FIRST = "() => performance.getEntriesByName('tableside:first-result')[0]?.startTime ?? null"


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def first_result_ms(page: Any, url: str | None) -> float:
    if url:
        page.goto(url)
    else:
        page.reload()
    page.locator(".ts-calc form button[type=submit]").first.click(timeout=60_000)
    # functions, not expressions: the site's CSP forbids the eval() Playwright would use
    page.wait_for_function(f"() => ({FIRST})() !== null", timeout=120_000)
    ms: float = page.evaluate(FIRST)
    return ms


def next_page_ms(page: Any, url: str) -> float:
    """Follow a link (Material's instant navigation, runtime kept) to `url`; ms from the
    click to that page's first result."""
    t0: float = page.evaluate("""url => { const t = performance.now();
        const a = document.createElement('a'); a.href = url;
        document.querySelector('.md-content').append(a); a.click(); a.remove(); return t; }""",
                              url)
    page.wait_for_function("url => location.href.split(/[?#]/)[0] === url", arg=url)
    page.locator(".ts-calc form button[type=submit]").first.click(timeout=60_000)
    done = ("t0 => performance.getEntriesByName('tableside:result')"
            ".some(e => e.startTime > t0)")
    page.wait_for_function(done, arg=t0, timeout=60_000)
    end: float = page.evaluate("t0 => Math.max(...performance.getEntriesByName("
                               "'tableside:result').map(e => e.startTime))", t0)
    return end - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", default=str(ROOT / "site"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--page", default="horizon/pistols/")
    ap.add_argument("--next", default="horizon/shotguns/",
                    help="a page reached by a link from --page (instant navigation)")
    a = ap.parse_args()
    mimetypes.add_type("application/wasm", ".wasm")  # http.server maps types by mimetypes
    mimetypes.add_type("text/javascript", ".mjs")
    handler = functools.partial(_Handler, directory=a.site)
    # Material navigates instantly only to links listed in sitemap.xml, port included.
    sitemap = (Path(a.site) / "sitemap.xml").read_text("utf-8")
    port = re.search(r"<loc>https?://[^/<]*?:(\d+)/", sitemap)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(port.group(1)) if port else 0),
                                             handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{a.page}"
    from playwright.sync_api import sync_playwright

    cold: list[float] = []
    warm: list[float] = []
    nxt: list[float] = []
    next_url = f"http://127.0.0.1:{server.server_address[1]}/{a.next}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        for _ in range(a.runs):
            ctx = browser.new_context()
            page = ctx.new_page()
            cold.append(first_result_ms(page, url))
            warm.append(first_result_ms(page, None))
            nxt.append(next_page_ms(page, next_url))
            ctx.close()
        browser.close()
    server.shutdown()
    print(f"page {a.page}, {a.runs} runs: navigation -> first calculator result")
    print(f"  cold (new context): median {statistics.median(cold) / 1000:.2f} s  "
          f"[{', '.join(f'{x / 1000:.2f}' for x in cold)}]")
    print(f"  warm (reload):      median {statistics.median(warm) / 1000:.2f} s  "
          f"[{', '.join(f'{x / 1000:.2f}' for x in warm)}]")
    print(f"  next page (link):   median {statistics.median(nxt) / 1000:.2f} s  "
          f"[{', '.join(f'{x / 1000:.2f}' for x in nxt)}]")


if __name__ == "__main__":
    main()
