"""Every built page carries the build's hashes of the runtime (issue #9): `integrity` on
its script, stylesheet and module-preload tags for the calculators, and the full list in
<meta name="tableside:integrity">, each equal to the SHA-256 of the file the site ships.
Every module tableside.js imports (directly or not) is preloaded with its integrity
before tableside.js, since a browser checks an import only through a preload. Every other
script and stylesheet (Material's bundle, glossary.js, search-snippet.js, every stylesheet)
carries its file's hash too (issue #24, scripts/site/subresources.py)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import posixpath
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from scripts.site import runtime, subresources

TAG = re.compile(r'<(script|link)\b([^>]*)>')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.\.?/[^"]+)"',
                    re.MULTILINE | re.DOTALL)


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


# A module imported later (import("./page.js")) after its checked copies were preloaded
# (python/integrity.mjs verifiedModules([...])): the list, and the module it imports
VERIFIED = re.compile(r'verifiedModules\(\s*\[(?P<list>[^\]]*)\](?P<rest>.{0,200}?)'
                      r'\bimport\("(?P<module>\.\.?/[^"]+)"\)', re.DOTALL)
QUOTED = re.compile(r'"(\.\.?/[^"]+\.m?js)"')


def imported(ui: Path, name: str) -> set[str]:
    """`name` and every module it imports, directly or not (paths under ui)."""
    seen = {name}
    todo = [name]
    while todo:
        here = todo.pop()
        for ref in IMPORT.findall((ui / here).read_text("utf-8")):
            dep = posixpath.normpath(posixpath.join(posixpath.dirname(here), ref))
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_every_module_the_page_imports_is_preloaded_with_integrity(site_dir: Path) -> None:
    ui = site_dir / "assets" / "calculators"
    scripts = {"tableside.js", "offline.js"}  # the page's two module scripts
    needed = set.union(*(imported(ui, name) for name in scripts)) - scripts
    assert {"python/boot.mjs", "python/pyscript.mjs", "python/integrity.mjs", "guards.mjs",
            "python/snapshot.mjs"} <= needed
    for page in pages(site_dir):
        text = page.read_text("utf-8")
        script = re.search(r'<script [^>]*src="[^"]*assets/calculators/tableside\.js"', text)
        assert script, page
        text = text[:script.start()]
        preloaded = {site_path(site_dir, page, a["href"]).removeprefix("assets/calculators/")
                     for tag, attrs in TAG.findall(text)
                     if (a := dict(ATTR.findall(attrs))).get("rel") == "modulepreload"
                     and a.get("integrity")}
        assert needed <= preloaded, (page, needed - preloaded)


def test_every_module_imported_later_is_checked_before(site_dir: Path) -> None:
    """A later import() gets a checked copy of a module only if that module was preloaded
    with its integrity: by every page (PAGE_MODULES), by the verifiedModules([...]) call
    before it, or before the module making the call was itself imported. Every module the
    imported one needs must be among them (the Encounter page's status.js and sync.js were
    not: loaded unchecked)."""
    ui = site_dir / "assets" / "calculators"
    calls = []  # (the file calling, the modules it checks first, the module it imports)
    for path in sorted([*ui.rglob("*.js"), *ui.rglob("*.mjs")]):
        name = path.relative_to(ui).as_posix()
        here = posixpath.dirname(name)
        for m in VERIFIED.finditer(path.read_text("utf-8")):
            listed = {posixpath.normpath(posixpath.join(here, r))
                      for r in QUOTED.findall(m["list"])}
            calls.append((name, listed, posixpath.normpath(posixpath.join(here, m["module"]))))
    assert {"encounter/page.js", "share/player-view.js", "share/gm.js",
            "odds/panel.js"} <= {module for _, _, module in calls}
    # what is checked by the time each module is imported: what every page preloads, and
    # what was checked on every way to the file that imports it (to a fixed point)
    checked: dict[str, set[str]] = {}
    for _ in calls:
        for name, listed, module in calls:
            ways = [have for root, have in checked.items() if name in imported(ui, root)]
            before = set.intersection(*ways) if ways else set()
            checked[module] = set(runtime.PAGE_MODULES) | before | listed
    for name, _, module in calls:
        unchecked = imported(ui, module) - checked[module]
        assert not unchecked, f"{name} imports {module}: {sorted(unchecked)} unchecked"


def test_every_script_and_stylesheet_carries_its_files_hash(site_dir: Path) -> None:
    """Issue #24: the theme's bundle and stylesheets, glossary.js, search-snippet.js and
    every stylesheet too, not only the runtime: each tag's integrity is its file's SHA-256."""
    seen: set[str] = set()
    for page in pages(site_dir):
        for tag, attrs in TAG.findall(page.read_text("utf-8")):
            a = dict(ATTR.findall(attrs))
            rel = set(a.get("rel", "").split())
            ref = a.get("src") if tag == "script" else \
                a.get("href") if rel & {"stylesheet", "modulepreload"} else None
            if ref is None:
                continue
            path = site_path(site_dir, page, ref)
            assert (site_dir / path).is_file(), (page, ref)
            assert a.get("integrity") == sri(site_dir / path), (page, tag, path)
            seen.add(path)
    names = {p.rsplit("/", 1)[1] for p in seen}
    assert {"glossary.js", "search-snippet.js", "tableside.css", "print.css"} <= names
    assert any(n.startswith("bundle.") for n in names), names  # Material's
    assert any(n.startswith("main.") and n.endswith(".css") for n in names), names


def _page(tmp_path: Path, body: str) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "a.js").write_text("console.log(1)\n")
    (tmp_path / "assets" / "a.css").write_text("p{}\n")
    (tmp_path / "g").mkdir()
    page = tmp_path / "g" / "index.html"
    page.write_text(f"<html><head>{body}</head><body></body></html>")
    return page


def test_integrity_is_added_from_the_file_and_relative_or_absolute_paths(tmp_path: Path) -> None:
    page = _page(tmp_path, '<link rel="stylesheet" href="../assets/a.css">'
                           "<script src='/assets/a.js' defer></script>"
                           '<link rel="icon" href="../assets/a.css">')
    assert subresources.apply(tmp_path) == 1
    text = page.read_text()
    css, js = sri(tmp_path / "assets" / "a.css"), sri(tmp_path / "assets" / "a.js")
    assert f'<link rel="stylesheet" href="../assets/a.css" integrity="{css}">' in text
    assert f"<script src='/assets/a.js' defer integrity=\"{js}\"></script>" in text
    assert '<link rel="icon" href="../assets/a.css">' in text  # not a script or stylesheet


@pytest.mark.parametrize(("tag", "why"), [
    ('<script src="https://cdn.example/x.js"></script>', "not a file of the site"),
    ('<link rel="stylesheet" href="//cdn.example/x.css">', "not a file of the site"),
    ('<script src="../assets/missing.js"></script>', "not a file of the site"),
    ('<script src="../../../etc/passwd"></script>', "not a file of the site"),
    ('<script src="../assets/a.js" integrity="sha256-AAAA"></script>', "but the file is"),
])
def test_a_tag_the_build_cannot_vouch_for_fails_naming_the_page(
        tmp_path: Path, tag: str, why: str) -> None:
    _page(tmp_path, tag)
    with pytest.raises(subresources.IntegrityError, match=rf"^g/index\.html: .*{why}"):
        subresources.apply(tmp_path)
