"""The standard library the site ships, trimmed to what the page imports
(scripts/site/stdlib.py, issue 13: a first visit's bytes)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from scripts.site import runtime, stdlib

FULL = runtime.NODE_MODULES / stdlib.PINNED


def _zip(names: list[str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in names:
            zf.writestr(name, "" if name.endswith("/") else f"# {name}\n")
    return buf.getvalue()


def test_trim_keeps_each_module_with_its_packages_and_nothing_else() -> None:
    full = _zip(["big.py", "pkg/", "pkg/__init__.py", "pkg/sub/", "pkg/sub/__init__.py",
                 "pkg/sub/leaf.py", "pkg/other.py", "one.py", "email/", "email/__init__.py"])
    out = stdlib.trim(full, ["pkg.sub.leaf", "one", "_builtin_only"])
    with zipfile.ZipFile(io.BytesIO(out)) as zf:
        assert zf.namelist() == ["pkg/", "pkg/__init__.py", "pkg/sub/", "pkg/sub/__init__.py",
                                 "pkg/sub/leaf.py", "one.py"]
        assert zf.read("pkg/sub/leaf.py") == b"# pkg/sub/leaf.py\n"
    assert stdlib.trim(full, ["one", "pkg.sub.leaf"]) == out  # the same bytes every build


def test_the_recorded_list_is_what_the_page_imports() -> None:
    # The probe does what a page does on Pyodide's full library. A new import in rules_pkg
    # (or a Pyodide upgrade) shows here first.
    found = stdlib.probe(runtime.bundle_bytes())
    missing = sorted(set(found) - set(stdlib.recorded()))
    stale = sorted(set(stdlib.recorded()) - set(found))
    assert not missing and not stale, (
        f"scripts/site/stdlib_modules.txt is stale (now imported: {missing}; no longer: "
        f"{stale}): run `python -m scripts.site.stdlib --record`")


def test_on_the_trimmed_library_the_page_imports_the_same() -> None:
    # The same probe on the library the site ships: nothing it does misses a module
    # (an ImportError would end the probe, or drop a PyScript import from the list).
    full = FULL.read_bytes()
    assert stdlib.probe(runtime.bundle_bytes(), stdlib.shipped(full)) == stdlib.recorded()


def test_the_site_ships_the_trimmed_library(site_dir: Path) -> None:
    shipped = (site_dir / runtime._shipped_path(stdlib.PINNED)).read_bytes()
    full = FULL.read_bytes()
    assert shipped == stdlib.shipped(full)
    assert len(shipped) < 0.5 * len(full), (len(shipped), len(full))
    with zipfile.ZipFile(io.BytesIO(shipped)) as zf:
        names = set(zf.namelist())
    assert {"json/__init__.py", "fractions.py", "dataclasses.py", "_pyodide/__init__.py",
            "encodings/utf_8.py", "traceback.py"} <= names
    assert not names & {"email/__init__.py", "unittest/__init__.py", "xml/__init__.py",
                        "encodings/cp1252.py"}
    # the pages check the trimmed bytes (their integrity list names them)
    contract = runtime.Contract.of(runtime.plan())
    assert contract.integrity[runtime._shipped_path(stdlib.PINNED)] == runtime.sri(shipped)
