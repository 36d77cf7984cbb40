"""The standard library the browser downloads, trimmed to what the calculators import.

Pyodide's `python_stdlib.zip` is 2.5 MB (already deflated: a server's gzip cannot shrink
it) and the largest file of a first visit after the wasm. Python in the page imports
about a third of it. So the site ships the pinned zip (checked against its pin first)
with only the modules listed in `stdlib_modules.txt`, plus `EXTRA` below, and their
packages' `__init__.py`.

The list is recorded, not guessed: `python -m scripts.site.stdlib --record` runs
`stdlib_probe.mjs`, which starts the full Pyodide in Node, does what a page does (the
bridge's prepare(), every calculator with its starting inputs and rolled, the bridge's
error replies, the encounter tracker's requests, the modules PyScript's own Python
code imports) and writes every standard-library module that ended up imported.
tests/site/test_stdlib.py runs the probe again and fails when the list is stale (a new
import in rules_pkg), and the snapshot maker runs on the trimmed zip, so a missing module
fails the build's snapshot and the browser tests' plain start.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from scripts.site.bundle import bundle_bytes

ROOT = Path(__file__).resolve().parents[2]
LIST = Path(__file__).with_name("stdlib_modules.txt")
PROBE = Path(__file__).with_name("stdlib_probe.mjs")
PINNED = "pyodide/python_stdlib.zip"  # relative to node_modules, as in the pins
# Small modules on paths a probe may not walk: a traceback's formatting (PyScript
# prints one to the console for an error outside the bridge's own catch), time and date
# parsing, and Python's own start-up configuration. About 0.1 MB.
EXTRA = ("traceback", "linecache", "tokenize", "token", "textwrap", "reprlib", "pprint",
         "string", "_strptime", "datetime", "_pydatetime", "calendar", "decimal",
         "_pydecimal", "statistics", "html", "html.entities", "copy", "weakref",
         "sitecustomize", "_sysconfigdata__emscripten_wasm32-emscripten")


def recorded() -> list[str]:
    """The modules stdlib_modules.txt lists (comments and blank lines aside)."""
    lines = LIST.read_text("utf-8").splitlines()
    return [s for s in (line.strip() for line in lines) if s and not s.startswith("#")]


def wanted_files(names: set[str], modules: list[str] | tuple[str, ...]) -> set[str]:
    """The zip entries that hold `modules`: each module's file and its packages'
    `__init__.py` (importing a.b.c runs a and a.b first). Modules the zip does not hold
    (built into the wasm, or frozen) need nothing."""
    keep: set[str] = set()
    for module in modules:
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            base = "/".join(parts[:i])
            for entry in (f"{base}.py", f"{base}/__init__.py"):
                if entry in names:
                    keep.add(entry)
    # the folder entries of kept packages, so the zip lists them as the original does
    keep |= {n for n in names if n.endswith("/") and any(k.startswith(n) for k in keep)}
    return keep


def trim(full: bytes, modules: list[str] | tuple[str, ...]) -> bytes:
    """`full` with only the entries for `modules`, in the original order, each entry's
    name, time and attributes kept (deterministic: the same input gives the same bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(full)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        keep = wanted_files(set(src.namelist()), modules)
        for info in src.infolist():
            if info.filename in keep:
                dst.writestr(info, src.read(info), compress_type=info.compress_type)
    return out.getvalue()


def shipped(full: bytes) -> bytes:
    """The standard library the site ships."""
    return trim(full, (*recorded(), *EXTRA))


def probe(bundle: bytes, std: bytes | None = None) -> list[str]:
    """Run the probe (on Pyodide's full standard library, or on `std`); the modules it
    found imported."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tableside.zip"
        path.write_bytes(bundle)
        args = [str(path)]
        if std is not None:
            (Path(tmp) / "python_stdlib.zip").write_bytes(std)
            args.append(str(Path(tmp) / "python_stdlib.zip"))
        proc = subprocess.run(["node", str(PROBE), *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{PROBE.name} failed: {(proc.stderr or proc.stdout)[-800:]}")
    modules: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return modules


def record() -> list[str]:
    modules = probe(bundle_bytes())
    LIST.write_text(
        "# The standard-library modules Python imports in the page, recorded by\n"
        "# `python -m scripts.site.stdlib --record` (scripts/site/stdlib.py): the site's\n"
        "# python_stdlib.zip holds these (and stdlib.py's EXTRA) alone.\n"
        + "".join(f"{m}\n" for m in modules), "utf-8")
    return modules


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python -m scripts.site.stdlib --record")
    found = record()
    print(f"recorded {len(found)} modules in {LIST.relative_to(ROOT)}")
