"""The browser runtime of the calculators (the finish stage ships it, scripts/finish).

Into a rendered site this copies, into `<site>/assets/`:

* `runtime/pyodide/`  the pinned Pyodide files PyScript's `interpreter` points at;
* `runtime/pyscript/` the pinned PyScript chunks our pages load (no editor, terminal,
  TOML parser or package graph: our config is JSON and has no `packages`);
* `runtime/tableside.zip`  rules_pkg (code and extracted data) as it is on disk, so the
  browser imports exactly the code the tests run (zipimport, nothing unpacked);
* `calculators/`  the generic UI (JS, CSS, the Python bridge), `registry.json`
  (`[c.to_dict() for c in rules_pkg.calculators()]`, so forms render before Python
  loads) and `runtime.json` (which files to start with, and hashes for cache busting);
* `runtime/snapshot.bin.gz` and `calculators/python/pyodide-snapshot.mjs` when the build makes a
  Pyodide memory snapshot (scripts/snapshot/hook.py).

Every pinned file is checked against `scripts/runtime_hashes.json` (SHA-256) while it
is copied: a changed or tampered file fails the build. `python -m scripts.site.runtime
--pin` rewrites the pins after a deliberate upgrade of the npm packages.

The browser checks them too (calculators/python/integrity.mjs). The whole runtime is planned
before the pages are rendered (`plan()`, by the generate stage, as a `Contract`), so every
page carries the SHA-256 of every runtime file: as `integrity` on its script and
module-preload tags, and all of them in `<meta name="tableside:integrity">` for the files
Python's start fetches (wasm, standard library, bundle, bridge, snapshot). runtime.json
only chooses among those files.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, TypedDict, cast

from scripts.site import stdlib
from scripts.site.bundle import bundle_bytes
from scripts.snapshot import hook as snapshot

ROOT = Path(__file__).resolve().parents[2]
HASHES = ROOT / "scripts" / "runtime_hashes.json"
NODE_MODULES = ROOT / "node_modules"
UI_DIR = ROOT / "calculators"
# What ships, by folder of calculators/ (paths relative to it; offline.js ships apart).
# python/: the start-up (boot.mjs), Python in a worker (client.mjs, worker.mjs), on the
# page where no worker runs (pyscript.mjs), and the snapshot: tableside.js imports them
# whether or not the build made a snapshot (pyodide-snapshot.mjs comes with a snapshot).
PYTHON_FILES = ("bridge.py", "boot.mjs", "pyscript.mjs", "client.mjs", "worker.mjs",
                "snapshot.mjs", "snapshot-worker.mjs", "integrity.mjs", "runtime-cache.mjs")
# forms/: the calculators' forms, results, roll log and answers worked out ahead
FORMS_FILES = ("anchor.mjs", "format.mjs", "form.mjs", "url-state.mjs", "result.mjs",
               "rolllog.mjs", "decks.mjs", "ahead.mjs", "answers.mjs")
# encounter/: the tracker (issue 12): "Apply to …" on every page, the page itself
ENCOUNTER_FILES = ("apply.js", "engine.js", "store.js", "page.js", "view.js", "panels.js",
                   "status.js", "sync.js", "replay.js", "draw.js", "as.js", "boot.js",
                   "cache.js", "encounter.css")
UI_FILES = ("tableside.js", "tableside.css", "guards.mjs", "dom.mjs",
            *(f"python/{n}" for n in PYTHON_FILES),
            *(f"forms/{n}" for n in FORMS_FILES),
            *(f"encounter/{n}" for n in ENCOUNTER_FILES),
            # odds/: the odds before the roll (issue #28), loaded by encounter/page.js
            "odds/panel.js", "odds/odds.css",
            # share/: sharing a fight (issue 27): links, the players' view, the GM's side
            "share/link.mjs", "share/player-view.js", "share/gm.js", "share/share.css")
# The modules tableside.js imports, directly or not: every page preloads them with their
# integrity before tableside.js, so its imports get checked copies (a browser checks an
# import's integrity only through a preload or an import map).
PAGE_MODULES = ("python/integrity.mjs", "python/snapshot.mjs", "python/boot.mjs",
                "python/pyscript.mjs", "python/client.mjs", "dom.mjs", "guards.mjs",
                "forms/anchor.mjs", "forms/format.mjs", "forms/form.mjs", "forms/url-state.mjs",
                "forms/result.mjs", "forms/decks.mjs", "forms/rolllog.mjs",
                "encounter/store.js", "encounter/engine.js", "encounter/replay.js",
                "encounter/apply.js", "python/runtime-cache.mjs", "forms/ahead.mjs",
                "forms/answers.mjs")
# What the browser needs, relative to node_modules; the pins file lists the same set.
PINNED_DIRS = {"pyodide": "runtime/pyodide", "@pyscript/core/dist": "runtime/pyscript",
               "@paulmillr/qr/esm": "calculators/qr"}
# The QR code's drawing (issue 27): one self-contained ES module, pinned like the runtime.
QR_MODULE = "@paulmillr/qr/esm/index.js"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
# core.js imports core-*.js; error-*.js is loaded even with the plugin off ("!error").
PYSCRIPT_PATTERNS = ("core.js", "core-*.js", "error-*.js")


class RuntimeManifest(TypedDict):
    """runtime.json: which files Python starts with (URLs relative to assets/calculators/).

    Written once, at build time (here; the snapshot's fields by scripts/snapshot/hook.py),
    and read in the browser by calculators/python/boot.mjs alone, typed by the declaration that
    scripts/types_gen.py writes from this class (`Runtime.Manifest`).
    """

    bundle: str  # rules_pkg as a zip
    bundle_sha256: str  # its SHA-256 (hex): a cache buster
    pyodide: str  # PyScript's `interpreter`: Pyodide's module, or the snapshot's wrapper
    pyscript: str  # PyScript's core module
    bridge: str  # python/bridge.py
    pyodide_plain: NotRequired[str]  # Pyodide's own module, in a snapshot build
    snapshot: NotRequired[str]  # the gzipped memory snapshot, in a snapshot build
    snapshot_sha256: NotRequired[str]  # its SHA-256 (hex)


class RuntimeFileError(Exception):
    """A build failure with a message for the person running the build."""


def pinned_sources(node_modules: Path) -> list[Path]:
    """The runtime files to ship, found in node_modules (what `--pin` records)."""
    files = [node_modules / "pyodide" / name for name in PYODIDE_FILES]
    dist = node_modules / "@pyscript" / "core" / "dist"
    for pattern in PYSCRIPT_PATTERNS:
        found = sorted(p for p in dist.glob(pattern) if not p.name.endswith(".map"))
        files.extend(found)
    files.append(node_modules / QR_MODULE)
    return files


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load_pins(path: Path = HASHES) -> dict[str, str]:
    pins: dict[str, str] = json.loads(path.read_text("utf-8"))["files"]
    return pins


def pinned_bytes(node_modules: Path, rel: str, pins: dict[str, str]) -> bytes:
    """A pinned file's bytes, once checked against its pin (the bytes checked are the
    bytes used)."""
    src = node_modules / rel
    if not src.is_file():
        raise RuntimeFileError(f"runtime file missing: {src} (run `npm ci`)")
    data = src.read_bytes()
    actual = _sha256(data)
    if actual != pins[rel]:
        raise RuntimeFileError(
            f"runtime file {src} does not match its pinned SHA-256 in "
            f"{HASHES.relative_to(ROOT)}: expected {pins[rel]}, got {actual}. "
            "Reinstall with `npm ci`; if the upgrade is deliberate, re-pin with "
            "`python -m scripts.site.runtime --pin`.")
    return data


def copy_pinned(node_modules: Path, assets: Path, pins: dict[str, str],
                made: Collection[str] = ()) -> None:
    """Copy each pinned file after checking its hash, but those the plan makes from
    theirs (`made`, site-relative: the trimmed standard library)."""
    for rel in sorted(pins):
        data = pinned_bytes(node_modules, rel, pins)
        if _shipped_path(rel) in made:
            continue
        dest = assets.parent / _shipped_path(rel)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)


def registry_entries() -> dict[str, str]:
    """Each calculator's registry entry as JSON, by id, in registry order: registry.json's
    items, and what each page carries of its own (scripts/site/page_registry.py)."""
    import rules_pkg

    return {c.id: json.dumps(c.to_dict(), ensure_ascii=False, separators=(",", ":"))
            for c in rules_pkg.calculators()}


def registry_json() -> str:
    return f"[{','.join(registry_entries().values())}]"


def sri(data: bytes) -> str:
    """Subresource-Integrity form of the SHA-256 of `data` ("sha256-<base64>")."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def _sri_of_hex(hex_digest: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(hex_digest)).decode("ascii")


@dataclass(frozen=True)
class Plan:
    """Everything the runtime ships, decided before any page is rendered."""

    files: dict[str, bytes]  # site-relative path -> bytes written by build_runtime
    manifest: RuntimeManifest  # runtime.json
    integrity: dict[str, str]  # site-relative path -> SRI, for every runtime file
    snapshot_memory: str | None  # SRI of the memory the snapshot restores, if any


def plan(pins: dict[str, str] | None = None, node_modules: Path | None = None) -> Plan:
    pins = load_pins() if pins is None else pins
    bundle = bundle_bytes()
    files = {f"assets/calculators/{name}": (UI_DIR / name).read_bytes() for name in UI_FILES}
    files["assets/calculators/registry.json"] = registry_json().encode("utf-8")
    # offline.js is copied by scripts/sw/offline.py (the same bytes): listed, not written here.
    offline = {"assets/calculators/offline.js": sri((UI_DIR / "offline.js").read_bytes())}
    files["assets/runtime/tableside.zip"] = bundle
    # Pyodide's standard library, trimmed to what the page imports (scripts/site/stdlib.py)
    full = pinned_bytes(node_modules or NODE_MODULES, stdlib.PINNED, pins)
    std = files[_shipped_path(stdlib.PINNED)] = stdlib.shipped(full)
    manifest: RuntimeManifest = {
        "bundle": "../runtime/tableside.zip", "bundle_sha256": _sha256(bundle),
        "pyodide": "../runtime/pyodide/pyodide.mjs",
        "pyscript": "../runtime/pyscript/core.js", "bridge": "python/bridge.py"}
    memory = None
    made = snapshot.prepare(bundle, std)
    if made is not None:
        files[f"assets/runtime/{snapshot.SNAPSHOT_NAME}"] = made.data
        wrapper = snapshot.WRAPPER.relative_to(UI_DIR).as_posix()
        files[f"assets/calculators/{wrapper}"] = snapshot.WRAPPER.read_bytes()
        # the snapshot's wrapper becomes PyScript's interpreter (and says which snapshot)
        manifest = {**manifest, "pyodide_plain": manifest["pyodide"],
                    "pyodide": f"{wrapper}?snap={made.sha256[:16]}",
                    "snapshot": f"../runtime/{snapshot.SNAPSHOT_NAME}",
                    "snapshot_sha256": made.sha256}
        memory = _sri_of_hex(made.memory_sha256)
    integrity = {_shipped_path(rel): _sri_of_hex(h) for rel, h in pins.items()}
    integrity.update({path: sri(data) for path, data in files.items()}, **offline)
    return Plan(files, manifest, dict(sorted(integrity.items())), memory)


def _shipped_path(rel: str) -> str:
    """Where a pinned file (relative to node_modules) lands in the site."""
    top = next(d for d in PINNED_DIRS if rel.startswith(d + "/"))
    return f"assets/{PINNED_DIRS[top]}/{rel[len(top) + 1:]}"


def build_runtime(site_dir: Path, node_modules: Path | None = None,
                  runtime: Plan | None = None) -> None:
    assets = site_dir / "assets"
    node_modules = node_modules or NODE_MODULES
    runtime = runtime or plan(node_modules=node_modules)
    copy_pinned(node_modules, assets, load_pins(), made=runtime.files)
    for path, data in runtime.files.items():
        dest = site_dir / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    (assets / "calculators" / "runtime.json").write_text(
        json.dumps(runtime.manifest, indent=1), "utf-8")


def integrity_meta(runtime: Plan) -> str:
    """The content of the pages' `<meta name="tableside:integrity">` (JSON)."""
    return json.dumps({"files": runtime.integrity, "memory": runtime.snapshot_memory},
                      separators=(",", ":"))


# --- the one runtime contract: generate stage -> templates, finish stage -> files ------
@dataclass(frozen=True)
class Contract:
    """What every page carries about the runtime and what the finish stage ships.

    The generate stage writes it (`<build>/runtime-contract.json`) and hands its template
    values to the renderer; the finish stage reads it, ships the files it describes and
    writes runtime.json from `manifest`, once. A runtime that changed in between (an edited
    calculators/ file) fails the finish stage instead of shipping files the pages refuse.
    """

    integrity: dict[str, str]  # site-relative path -> SRI, for every runtime file
    memory: str | None  # SRI of the memory the snapshot restores, if any
    manifest: RuntimeManifest  # runtime.json (one typed contract)
    page_modules: tuple[str, ...]  # the modules tableside.js imports, preloaded on every page

    @classmethod
    def of(cls, runtime: Plan) -> Contract:
        return cls(runtime.integrity, runtime.snapshot_memory, runtime.manifest,
                   tuple(f"assets/calculators/{n}" for n in PAGE_MODULES))

    def to_json(self) -> str:
        return json.dumps({"integrity": self.integrity, "memory": self.memory,
                           "manifest": self.manifest,
                           "page_modules": list(self.page_modules)}, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Contract:
        d = json.loads(text)
        return cls(dict(d["integrity"]), d["memory"], cast(RuntimeManifest, dict(d["manifest"])),
                   tuple(d["page_modules"]))

    def template_values(self) -> dict[str, Any]:
        """What overrides/ reads as `config.extra.tableside` (plain data, no markup)."""
        return {"sri": self.integrity, "page_modules": list(self.page_modules),
                "integrity": json.dumps({"files": self.integrity, "memory": self.memory},
                                        separators=(",", ":"))}


def finish_runtime(site_dir: Path, contract: Contract, node_modules: Path | None = None) -> None:
    """Ship the runtime the pages were generated with into a rendered site."""
    runtime = plan()
    if Contract.of(runtime) != contract:
        changed = sorted(p for p in {*runtime.integrity, *contract.integrity}
                         if runtime.integrity.get(p) != contract.integrity.get(p))
        raise RuntimeFileError("the runtime changed since the pages were generated "
                               f"({', '.join(changed) or 'runtime.json'}): run `make site` again")
    build_runtime(site_dir, node_modules, runtime)


def pin(node_modules: Path = NODE_MODULES) -> dict[str, str]:
    files = {}
    for path in pinned_sources(node_modules):
        files[str(path.relative_to(node_modules))] = _sha256(path.read_bytes())
    return files


if __name__ == "__main__":
    if sys.argv[1:] != ["--pin"]:
        sys.exit("usage: python -m scripts.site.runtime --pin")
    doc = {"comment": "SHA-256 of the runtime files shipped to the browser (relative to "
                      "node_modules); checked by scripts/site/runtime.py at build time.",
           "files": pin()}
    HASHES.write_text(json.dumps(doc, indent=1) + "\n", "utf-8")
    print(f"pinned {len(doc['files'])} files in {HASHES.relative_to(ROOT)}")
