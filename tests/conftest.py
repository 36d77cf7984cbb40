"""Shared fixtures for every test folder (stable: other tests build on them).

site_dir     Path of a built site: $TABLESIDE_SITE_DIR when set (e.g. `make site` built
             ./site), else one build (scripts/stages.py) per session into a temp dir.
site_url     "http://127.0.0.1:<port>/": the URL site_dir was built for, not served.
base_url     the same URL: a threaded http.server serving site_dir
             (.wasm as application/wasm, .mjs as text/javascript). When this session
             builds the site, site_url is set to that port, so Material's instant
             navigation (which checks links against sitemap.xml, port included) works.
browser      A Playwright (sync) Chromium: Debian's `chromium` from PATH with
             CHROMIUM_ARGS; fails (never skips) when it is missing.
build_site   build_site(dest, env=None, site_url=None, generator="mkdocs") -> Path: a build
             into dest (generate, render with `generator`, finish).
"""

from __future__ import annotations

import http.server
import os
import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from scripts import stages

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

BuildSite = Callable[..., Path]


def build(dest: Path, env: Mapping[str, str] | None = None, site_url: str | None = None,
          generator: str = "mkdocs") -> Path:
    """The generate, render and finish stages into dest (their build folder beside it);
    fails the test with the stages' output on error."""
    run_env = dict(env or {})
    if site_url:
        run_env["TABLESIDE_SITE_URL"] = site_url
    built = stages.build(dest, dest.with_name(dest.name + ".stage"), generator=generator,
                         env=run_env)
    if not built.ok:
        pytest.fail(f"the site build failed:\n{built.output}", pytrace=False)
    return dest


@pytest.fixture(scope="session")
def build_site() -> BuildSite:
    return build


class _Handler(http.server.SimpleHTTPRequestHandler):
    root = "."
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript",
        ".js": "text/javascript", ".json": "application/json"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=self.root, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that drops a request it no longer needs is not a failure.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _bind(port: int) -> http.server.ThreadingHTTPServer | None:
    handler = type("Handler", (_Handler,), {})
    try:
        return _Server(("127.0.0.1", port), handler)
    except OSError:
        return None


def _sitemap_port(site: Path) -> int:
    m = re.search(r"<loc>https?://[^/<]*?:(\d+)/", (site / "sitemap.xml").read_text("utf-8")) \
        if (site / "sitemap.xml").is_file() else None
    return int(m.group(1)) if m else 8000


@pytest.fixture(scope="session")
def _server() -> Iterator[dict[str, Any]]:
    """The HTTP server, bound before the build so the build knows its port."""
    state: dict[str, Any] = {}
    prebuilt = os.environ.get("TABLESIDE_SITE_DIR")
    if prebuilt:
        port = _sitemap_port(Path(prebuilt))
        state["server"] = _bind(port)
        if state["server"] is None:  # another port would break instant navigation
            pytest.fail(f"port {port}, which {prebuilt} was built for, is in use: free it or "
                        "rebuild the site for another port (make test picks a free one)",
                        pytrace=False)
    else:
        state["server"] = _bind(0)
    assert state["server"] is not None
    yield state
    if state.get("thread"):
        state["server"].shutdown()
    state["server"].server_close()


@pytest.fixture(scope="session")
def site_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("TABLESIDE_SITE_DIR")
    if prebuilt:  # bound to its port only if a test serves it (base_url): not in make test-fast
        path = Path(prebuilt).resolve()
        if not (path / "index.html").is_file():
            pytest.fail(f"TABLESIDE_SITE_DIR={prebuilt} holds no built site", pytrace=False)
        return path
    port = request.getfixturevalue("_server")["server"].server_address[1]
    return build(tmp_path_factory.mktemp("site"), site_url=f"http://127.0.0.1:{port}/")


@pytest.fixture(scope="session")
def site_url(request: pytest.FixtureRequest, site_dir: Path) -> str:
    """The URL site_dir was built for, without serving it (base_url serves it there)."""
    if os.environ.get("TABLESIDE_SITE_DIR"):
        return f"http://127.0.0.1:{_sitemap_port(site_dir)}/"
    url: str = request.getfixturevalue("base_url")
    return url


@pytest.fixture(scope="session")
def base_url(_server: dict[str, Any], site_dir: Path) -> str:
    server = _server["server"]
    if not _server.get("thread"):
        server.RequestHandlerClass.root = str(site_dir)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        _server["thread"] = thread
    return f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    exe = shutil.which("chromium")
    if not exe:
        pytest.fail("Debian's chromium is not on PATH: run `make setup` (apt-get install chromium)",
                    pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()

