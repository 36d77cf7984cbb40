"""Fixtures for the offline tests (site_dir, base_url and browser come from tests/conftest.py).

subpath_server  A second HTTP server over a temp folder, so a test can serve copies of the
                built site under sub-paths (/tableside/, as on a GitHub Pages project site)
                and swap their files to deploy a "new build" under an open tab.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


@dataclass(frozen=True)
class Served:
    root: Path  # the folder served at "/"
    url: str  # "http://127.0.0.1:<port>/"


# The MIME types the site needs (.wasm must be application/wasm for streaming compile).
_TYPES = {**http.server.SimpleHTTPRequestHandler.extensions_map,
          ".wasm": "application/wasm", ".mjs": "text/javascript",
          ".js": "text/javascript", ".json": "application/json"}


def _handler(root: Path) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = _TYPES

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture(scope="module")
def subpath_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("subpath")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(root))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(root, f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        server.shutdown()
        server.server_close()
