"""Every built page carries the build's hashes of the runtime (issue #9): `integrity` on
its script, stylesheet and module-preload tags for the calculators, and the full list in
<meta name="tableside:integrity">, each equal to the SHA-256 of the file the site ships.
Every module tableside.js imports (directly or not) is preloaded with its integrity
before tableside.js, since a browser checks an import only through a preload."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

TAG = re.compile(r'<(script|link)\b([^>]*)>')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\./[^"]+)"', re.MULTILINE | re.DOTALL)


def sri(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


def site_path(site_dir: Path, page: Path, ref: str) -> str:
    rel = page.relative_to(site_dir).as_posix()
    return urlsplit(urljoin(f"http://x/{rel}", ref)).path.lstrip("/")


def pages(site_dir: Path) -> list[Path]:
    found = sorted(site_dir.rglob("*.html"))
    assert len(found) > 10
    return found


def test_every_runtime_tag_carries_the_shipped_files_hash(site_dir: Path) -> None:
    for page in pages(site_dir):
        text = page.read_text("utf-8")
        for tag, attrs in TAG.findall(text):
            a = dict(ATTR.findall(attrs))
            ref = a.get("src") or (a.get("href") if a.get("rel") in
                                   ("modulepreload", "stylesheet") else None)
            if not ref:
                continue
            path = site_path(site_dir, page, ref)
            if path.startswith(("assets/calculators/", "assets/runtime/")):
                assert a.get("integrity") == sri(site_dir / path), (page, tag, path)


def test_every_page_lists_the_hash_of_every_runtime_file(site_dir: Path) -> None:
    shipped = sorted(p.relative_to(site_dir).as_posix()
                     for d in ("assets/runtime", "assets/calculators")
                     for p in (site_dir / d).rglob("*") if p.is_file())
    unlisted = {"assets/calculators/runtime.json"}  # chooses among listed files only
    for page in pages(site_dir):
        m = re.search(r'<meta name="tableside:integrity" content="([^"]*)">',
                      page.read_text("utf-8"))
        assert m, page
        listed = json.loads(html.unescape(m.group(1)))
        assert sorted(listed["files"]) == [p for p in shipped if p not in unlisted], page
        for path, digest in listed["files"].items():
            assert digest == sri(site_dir / path), (page, path)
        assert listed["memory"], "the build made a snapshot: its memory hash is listed"


def test_every_module_the_page_imports_is_preloaded_with_integrity(site_dir: Path) -> None:
    ui = site_dir / "assets" / "calculators"
    needed: set[str] = set()
    todo = ["tableside.js", "offline.js"]  # the page's two module scripts
    while todo:
        name = todo.pop()
        for ref in IMPORT.findall((ui / name).read_text("utf-8")):
            dep = ref[2:]
            if dep not in needed:
                needed.add(dep)
                todo.append(dep)
    assert {"boot.mjs", "pyscript.mjs", "integrity.mjs", "guards.mjs", "snapshot.mjs"} <= needed
    for page in pages(site_dir):
        text = page.read_text("utf-8")
        script = re.search(r'<script [^>]*src="[^"]*assets/calculators/tableside\.js"', text)
        assert script, page
        text = text[:script.start()]
        preloaded = {site_path(site_dir, page, a["href"]).rsplit("/", 1)[1]
                     for tag, attrs in TAG.findall(text)
                     if (a := dict(ATTR.findall(attrs))).get("rel") == "modulepreload"
                     and a.get("integrity")}
        assert needed <= preloaded, (page, needed - preloaded)
