"""The bench's HTTP server: the built site served the way GitHub Pages serves it.

What Pages does, as established from upstream reports (the note of issue #13 cites them):
* `Cache-Control: max-age=600` and `Vary: Accept-Encoding` on every file
  (response headers quoted in isaacs/github#611);
* gzip on the fly, by content type, when the browser accepts it: HTML, CSS, JavaScript,
  JSON and SVG (a 1.3 MB JSON sent as 357 KB) and WebAssembly (shown gzipped in
  maxence-charriere/go-app#866); files that are already compressed (zip, PNG, and a
  `.gz` file, sent as application/octet-stream with no Content-Encoding,
  isaacs/github#611) go as they are.

`SERVED["wire"]` counts the bytes on the wire (compressed where compressed) and
`SERVED["bytes"]` the files' own sizes, for every GET.
"""

from __future__ import annotations

import gzip
import http.server
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

VARIANT = {"plain": False}  # which runtime.json to send (the "plain" Pyodide start)
SERVED = {"bytes": 0, "wire": 0}
# Content types Pages compresses (text, JSON, JavaScript, wasm); everything else as is.
GZIP_TYPES = ("text/", "application/javascript", "application/json", "application/wasm",
              "application/manifest+json", "image/svg+xml", "application/xml")
_GZ_CACHE: dict[tuple[str, float], bytes] = {}
_GZ_LOCK = threading.Lock()


def gzipped(path: Path) -> bytes:
    """The file gzipped once per version (the bench must not time our own compressor)."""
    key = (str(path), path.stat().st_mtime)
    with _GZ_LOCK:
        if key not in _GZ_CACHE:
            _GZ_CACHE[key] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        return _GZ_CACHE[key]


class PagesHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as any real host
    extensions_map = {  # noqa: RUF012  (the base class declares it so)
        **http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
        ".mjs": "text/javascript", ".js": "text/javascript", ".json": "application/json",
        ".webmanifest": "application/manifest+json", ".gz": "application/octet-stream"}
    mounts: ClassVar[dict[str, str]] = {}

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        for prefix, folder in self.mounts.items():
            if clean.startswith(prefix):
                rel = clean[len(prefix):]
                return str(Path(folder) / rel) if ".." not in rel else folder + "/missing"
        return super().translate_path(path)

    def _send(self, body: bytes, ctype: str, size: int) -> None:
        gz = "gzip" in self.headers.get("Accept-Encoding", "") and ctype.startswith(GZIP_TYPES)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Vary", "Accept-Encoding")
        if gz:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        SERVED["bytes"] += size
        SERVED["wire"] += len(body)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if VARIANT["plain"] and path.endswith("/assets/calculators/runtime.json"):
            # Done here, not with a Playwright route: routing turns the HTTP cache off.
            manifest = json.loads(Path(self.translate_path(path)).read_text("utf-8"))
            manifest["pyodide"] = manifest.get("pyodide_plain", manifest["pyodide"])
            body = json.dumps(manifest).encode()
            self._send(gzip.compress(body, mtime=0) if self._accepts_gzip() else body,
                       "application/json", len(body))
            return
        file = Path(self.translate_path(self.path))
        if file.is_dir():
            if not path.endswith("/"):
                super().do_GET()  # the redirect to "…/"
                return
            file = file / "index.html"
        if not file.is_file():
            super().do_GET()  # 404 as the base class words it
            return
        ctype = self.guess_type(str(file))
        gz = self._accepts_gzip() and ctype.startswith(GZIP_TYPES)
        self._send(gzipped(file) if gz else file.read_bytes(), ctype, file.stat().st_size)

    def _accepts_gzip(self) -> bool:
        return "gzip" in self.headers.get("Accept-Encoding", "")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")  # what GitHub Pages sends
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def site_port(site: Path) -> int:
    """The port the site was built for (its sitemap.xml): instant navigation needs it."""
    sm = site / "sitemap.xml"
    pm = re.search(r"<loc>https?://[^/<]*?:(\d+)/", sm.read_text("utf-8")) if sm.is_file() else None
    return int(pm.group(1)) if pm else 8000


@contextmanager
def serve(site: Path, mounts: dict[str, Path], port: int) -> Iterator[str]:
    handler = type("H", (PagesHandler,), {"mounts": {k: str(v) for k, v in mounts.items()}})

    def make(*a: Any, **kw: Any) -> Any:
        return handler(*a, directory=str(site), **kw)

    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), make)
    except OSError:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make)
    server.daemon_threads = True
    server.handle_error = lambda *a: None  # type: ignore[method-assign]  # closed tabs reset sockets
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
