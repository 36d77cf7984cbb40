"""The Pyodide memory snapshot for fast starts (used by scripts/site/runtime.py).

`prepare(bundle, std)` runs `node scripts/snapshot/make_snapshot.mjs` on the rules bundle
(the very zip the browser fetches) and returns the gzipped snapshot with its SHA-256 and
the SHA-256 of the memory it restores. runtime.py calls it *before* the pages are
rendered, so that every page can carry the snapshot's hashes (the browser refuses a
snapshot that is not this build's), then ships it as `assets/runtime/snapshot.bin.gz`
with `calculators/python/pyodide-snapshot.mjs` as PyScript's `interpreter` (runtime.json's
`pyodide`; `snapshot` + `snapshot_sha256` tell tableside.js to start the download early).

The snapshot is an optimisation only: when it is off (`TABLESIDE_SNAPSHOT=0`) or fails
(no node, a Pyodide change), runtime.json keeps the plain `pyodide.mjs` and the build
still passes. Snapshots are cached in build/snapshot-cache/ by the hash of everything
they depend on (bundle, pinned Pyodide, the maker script, its file format and the
bridge whose prepare() it runs), so
rebuilds cost nothing.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKER = ROOT / "scripts" / "snapshot" / "make_snapshot.mjs"
SPARSE = ROOT / "scripts" / "snapshot" / "sparse.mjs"  # the file format MAKER writes
BRIDGE = ROOT / "calculators" / "python" / "bridge.py"  # MAKER runs its prepare()
WRAPPER = ROOT / "calculators" / "python" / "pyodide-snapshot.mjs"
CACHE = ROOT / "build" / "snapshot-cache"
PINS = ROOT / "scripts" / "runtime_hashes.json"
SNAPSHOT_NAME = "snapshot.bin.gz"
TIMEOUT_S = 300
KEEP = 4  # snapshots kept in the cache
# INFO, never WARNING: a skipped snapshot must not fail a strict build.
log = logging.getLogger("mkdocs.plugins.tableside.snapshot")


class SnapshotError(Exception):
    """The snapshot could not be made; the site falls back to the plain start."""


def enabled() -> bool:
    return os.environ.get("TABLESIDE_SNAPSHOT", "1") != "0"


def cache_key(bundle: bytes, std: bytes) -> str:
    """Everything the snapshot's bytes depend on: a new key means a new snapshot."""
    h = hashlib.sha256()
    for part in (bundle, std, PINS.read_bytes(), MAKER.read_bytes(), SPARSE.read_bytes(),
                 BRIDGE.read_bytes()):
        h.update(hashlib.sha256(part).digest())
    return h.hexdigest()


def make(bundle_path: Path, out: Path, cache: Path | None = None,
         std_path: Path | None = None) -> str:
    """Write the gzipped snapshot for bundle_path (on the standard library at std_path,
    Pyodide's own by default) to out; return its SHA-256."""
    cache = cache or CACHE  # read at call time (tests point it elsewhere)
    key = cache_key(bundle_path.read_bytes(), std_path.read_bytes() if std_path else b"")
    cached = cache / f"{key}.bin.gz"
    if not cached.is_file():
        node = shutil.which("node")
        if not node:
            raise SnapshotError("node is not on PATH")
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f"{key}.{os.getpid()}.tmp"  # concurrent builds: each its own file
        try:
            std = [str(std_path)] if std_path else []
            proc = subprocess.run([node, str(MAKER), str(bundle_path), str(tmp), *std], cwd=ROOT,
                                  capture_output=True, text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise SnapshotError(f"timed out after {TIMEOUT_S} s") from None
        if proc.returncode != 0 or not tmp.is_file():
            raise SnapshotError((proc.stderr or proc.stdout).strip()[-800:])
        log.info(proc.stdout.strip())
        tmp.replace(cached)
        # Keep the few newest (≈7 MB each): enough for switching branches, not a heap.
        old = sorted(cache.glob("*.bin.gz"), key=lambda f: f.stat().st_mtime)[:-KEEP]
        for stale in old:
            stale.unlink(missing_ok=True)
    data = cached.read_bytes()
    out.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def memory_sha256(gz: bytes) -> str:
    """SHA-256 of the memory a snapshot file restores: its runs put back into a zeroed
    buffer, as calculators/python/snapshot.mjs's expand() does (layout:
    scripts/snapshot/sparse.mjs)."""
    raw = zlib.decompress(gz, wbits=31)
    if raw[:8] != b"TSSPARS1":
        raise SnapshotError("the snapshot file has an unknown format")
    total, count = struct.unpack_from("<II", raw, 8)
    memory = bytearray(total)
    p = 16 + count * 8
    for i in range(count):
        offset, length = struct.unpack_from("<II", raw, 16 + i * 8)
        memory[offset:offset + length] = raw[p:p + length]
        p += length
    return hashlib.sha256(memory).hexdigest()


@dataclass(frozen=True)
class Prepared:
    data: bytes  # the gzipped snapshot, as shipped
    sha256: str  # of `data`
    memory_sha256: str  # of the memory it restores (what the browser checks)


def prepare(bundle: bytes, std: bytes, cache: Path | None = None) -> Prepared | None:
    """The snapshot of `bundle` on the standard library `std` (the one the site ships: a
    snapshot holds zipimport's index of it), or None (plain start) when it is off or
    cannot be made."""
    if not enabled():
        return None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "tableside.zip"
            src.write_bytes(bundle)
            std_path = Path(tmp) / "python_stdlib.zip"
            std_path.write_bytes(std)
            out = Path(tmp) / SNAPSHOT_NAME
            digest = make(src, out, cache, std_path)
            data = out.read_bytes()
        return Prepared(data, digest, memory_sha256(data))
    except (SnapshotError, OSError, zlib.error, struct.error) as e:
        log.info("snapshot skipped, Python will start plainly: %s", e)
        return None
