"""The hostile corpus: tests/security/hostile/* plus the files that cannot (or should not)
live in git as they are: hostile file names, other encodings and line endings, empty,
binary and undecodable files. `write_corpus(dest)` writes all of them into dest."""

from __future__ import annotations

import functools
import http.server
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from scripts import stages

HOSTILE = Path(__file__).with_name("hostile")
ROOT = Path(__file__).resolve().parents[2]

# file name -> why it is refused (extraction reports it with this reason and skips it)
REFUSED = {
    "empty.md": "the file is empty",
    "blank.txt": "the file is empty",
    "binary.txt": "binary data (NUL byte)",
    "latin1.txt": "not valid UTF-8 (byte 0xe9)",
}
MARKUP_NAME = "<svg onload=alert(1)>.txt"  # no heading inside: the title comes from the name
ANSI_NAME = "ansi-\x1b[31mred\x07.md"  # a terminal escape and a bell in the file name


# C0 (ESC, BEL), C1 (U+0080, NEL U+0085, CSI U+009B), bidi overrides, a zero-width space,
# a Unicode tag character and a form feed: removed (or made a space) and reported by line.
CONTROLS = ("# Controls\x80 in a \x1b[31mheading\x1b[0m\n\n"
            "Body with a bell\x07, a C1 \x85 next-line, a \u202e reversed \u202c span, a "
            "zero\u200bwidth space and a tag \U000e0041 character.\n\n"
            "## Second\x9b heading\n\nText\x0c with a form feed.\n")
CONTROL_LINES = (1, 3, 5, 7)


def generated() -> dict[str, bytes]:
    rules = "Encoded rules\n\nRoll two dice.\nAdd your skill.\n\n- Hit on 7\n- Miss on 6\n"
    return {
        MARKUP_NAME: (HOSTILE / "no-heading.txt").read_bytes(),
        "controls.md": CONTROLS.encode("utf-8"),
        ANSI_NAME: b"Rules named in colour\n\nNo heading here, the name is the title.\n",
        "index.md": b"# Index\n\nA document named like the site's home page.\n",
        "utf16-bom.txt": rules.replace("Encoded", "UTF-16").encode("utf-16"),
        "utf8-bom.md": b"\xef\xbb\xbf" + rules.replace("Encoded", "# UTF-8 BOM").encode(),
        "crlf.md": rules.replace("Encoded", "# CRLF").replace("\n", "\r\n").encode(),
        "cr-only.txt": rules.replace("Encoded", "CR only").replace("\n", "\r").encode(),
        "empty.md": b"",
        "blank.txt": b" \n\t\n",
        "binary.txt": b"PK\x03\x04\x00\x00binary",
        "latin1.txt": "Caf\u00e9 rules\n".encode("latin-1"),
        # a source named like the site's own folder gets a folder of its own (game-data/)
        "data.md": b"# Data\n\nA document called data.md.\n",
        # more sections than pages.MAX_PAGES: grouped pages, titled from hostile headings
        "many.md": "".join(f"## <b onmouseover=alert({i})>Rule {i}</b>\n\nText {i}.\n\n"
                           for i in range(1, 91)).encode(),
    }


def write_corpus(dest: Path, with_real: bool = True) -> Path:
    """dest/ holding the real sources (unless with_real=False) and the whole corpus."""
    dest.mkdir(parents=True, exist_ok=True)
    if with_real:
        for p in sorted((ROOT / "sources").iterdir()):
            if p.is_file():
                shutil.copyfile(p, dest / p.name)
    for p in sorted(HOSTILE.iterdir()):
        if p.suffix in {".md", ".txt"} and p.name != "no-heading.txt":
            shutil.copyfile(p, dest / p.name)
    for name, data in generated().items():
        (dest / name).write_bytes(data)
    return dest


# --- building and serving a site from a folder of sources --------------------------------
@dataclass
class Built:
    sources: Path
    data: Path
    site: Path
    url: str  # where it is served, e.g. "http://127.0.0.1:41234/"
    report: str  # the extraction's report
    status: int  # the extraction's exit status
    cpu_seconds: float  # extraction + the build stages, CPU time of their processes
    wall_seconds: float


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serving(site: Path, server: http.server.ThreadingHTTPServer) -> Iterator[None]:
    server.RequestHandlerClass = functools.partial(_Handler, directory=str(site))  # type: ignore[assignment]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def new_server() -> http.server.ThreadingHTTPServer:
    """Bound before the build: Material's instant navigation needs the port in site_url."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    return server


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build_from(sources: Path, dest: Path, site_url: str, *, budget_mb: str = "") -> Built:
    """Extract `sources` into dest/data and build dest/site from it, stage by stage (no
    Pyodide snapshot: it does not depend on the sources). Fails the test if the build fails."""
    start, wall = _cpu(), time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "scripts.extract", "--sources", str(sources),
                           "--out", str(dest / "data")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TABLESIDE_DATA_DIR": str(dest / "data"),
           "TABLESIDE_SNAPSHOT": "0", "TABLESIDE_SITE_URL": site_url}
    if budget_mb:
        env["TABLESIDE_PRECACHE_BUDGET_MB"] = budget_mb
    site = dest / "site"
    built = stages.build(site, dest / "stage", env=env)
    cpu, wall = _cpu() - start, time.monotonic() - wall
    if not built.ok:
        pytest.fail(f"the site build failed:\n{built.output}\nextraction:\n{proc.stdout}",
                    pytrace=False)
    return Built(sources, dest / "data", site, site_url, proc.stdout, proc.returncode, cpu,
                 wall)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
