"""How the browser gets the snapshot's bytes (calculators/python/snapshot.mjs,
snapshot-worker.mjs).

The snapshot file is Python's memory without its all-zero pages (scripts/snapshot/
sparse.mjs writes it, `expand()` in python/snapshot.mjs reads it). A first visit fetches and
inflates it in a worker and keeps the inflated bytes in Cache Storage; later visits read
them from there. A slow link uses the snapshot only when the browser already has it.
Every path must end in CPython's answer; a damaged cached copy must not break anything.
"""

from __future__ import annotations

import gzip
import json
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from scripts.snapshot import hook

from .test_snapshot import CALC, _profile_page, compute_ap, manifest

ROOT = Path(__file__).resolve().parents[2]
RAW_CACHE = "tableside-snapshot-raw"
FROM_NETWORK = "tableside:snapshot-from-network"
FROM_RAW = "tableside:snapshot-from-raw-cache"
FROM_PAGE = "tableside:snapshot-from-page"  # inflated on the main thread: no worker


# --- the container --------------------------------------------------------------------------
def _expand_py(packed: bytes) -> bytes:
    """An independent reader of the layout documented in scripts/snapshot/sparse.mjs."""
    assert packed[:8] == b"TSSPARS1"
    total, count = struct.unpack_from("<II", packed, 8)
    runs = [struct.unpack_from("<II", packed, 16 + 8 * i) for i in range(count)]
    out = bytearray(total)
    p = 16 + 8 * count
    last_end = -1
    for offset, length in runs:
        assert offset > last_end, "runs must be ascending and disjoint (and not touching)"
        assert offset % 4096 == 0 and offset + length <= total
        out[offset:offset + length] = packed[p:p + length]
        p += length
        last_end = offset + length
    assert p == len(packed), "no bytes after the last run"
    return bytes(out)


def test_the_shipped_snapshot_is_pyodides_memory_without_zero_pages(site_dir: Path) -> None:
    packed = gzip.decompress((site_dir / "assets" / "runtime" / hook.SNAPSHOT_NAME).read_bytes())
    memory = _expand_py(packed)
    assert memory[:4] == b"\x00snp"  # Pyodide's own snapshot header
    assert len(memory) > 20_000_000
    assert len(packed) < 0.8 * len(memory)  # the zero pages really are left out


ROUND_TRIP = """
import { sparse } from "%(sparse)s";
import { expand } from "%(reader)s";
const PAGE = 4096;
const cases = {
  empty: new Uint8Array(0),
  zeros: new Uint8Array(3 * PAGE),
  dense: Uint8Array.from({ length: 2 * PAGE + 5 }, (_, i) => (i * 7 + 1) & 255),
  ragged: new Uint8Array(5 * PAGE + 123),
};
cases.ragged[0] = 1; cases.ragged[2 * PAGE + 9] = 2; cases.ragged[5 * PAGE + 122] = 3;
const out = {};
for (const [name, raw] of Object.entries(cases)) {
  const packed = sparse(raw);
  const back = expand(packed);
  out[name] = { same: back.length === raw.length && back.every((b, i) => b === raw[i]),
                packed: packed.length };
}
let errors = [];
for (const bad of [new TextEncoder().encode("NOTSPARS" + "\\0".repeat(8)),
                   sparse(cases.dense).subarray(0, 100)]) {
  try { expand(bad); errors.push("accepted"); } catch (e) { errors.push(e.message); }
}
out.errors = errors;
console.log(JSON.stringify(out));
"""


def test_sparse_and_expand_round_trip() -> None:
    node = shutil.which("node")
    assert node, "node is needed (make setup)"
    script = ROUND_TRIP % {"sparse": ROOT / "scripts" / "snapshot" / "sparse.mjs",
                           "reader": ROOT / "calculators" / "python/snapshot.mjs"}
    proc = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    for name in ("empty", "zeros", "dense", "ragged"):
        assert got[name]["same"], name
    assert got["zeros"]["packed"] == 16  # header only: nothing but zero pages
    assert got["ragged"]["packed"] == 16 + 3 * 8 + 3 * 4096 - (4096 - 123)  # three runs
    assert got["errors"] == ["the snapshot file has an unknown format",
                             "the snapshot file is truncated or corrupt"]


# --- the browser ------------------------------------------------------------------------------
def _visit(ctx: Any, url: str, ap: int,
           network: dict[str, Any] | None = None) -> tuple[str, dict[str, Any], list[str]]:
    """Compute CALC in a new tab of ctx (under CDP `network` conditions if given);
    returns (summary, snapshot marks and state, warnings)."""
    page = ctx.new_page()
    if network:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable", {"maxTotalBufferSize": 1024, "maxResourceBufferSize": 1024})
        cdp.send("Network.emulateNetworkConditions", network)
    warnings: list[str] = []
    page.on("console",
            lambda m: warnings.append(m.text) if m.type in ("warning", "error") else None)
    try:
        summary = compute_ap(page, url, ap, timeout_ms=180_000)
        state = page.evaluate("""async ([name, fromNetwork, fromRaw, fromPage]) => ({
            network: performance.getEntriesByName(fromNetwork).length,
            raw: performance.getEntriesByName(fromRaw).length,
            page: performance.getEntriesByName(fromPage).length,
            effectiveType: navigator.connection ? navigator.connection.effectiveType : null,
            kept: (await (await caches.open(name)).keys()).map((r) => r.url),
        })""", [RAW_CACHE, FROM_NETWORK, FROM_RAW, FROM_PAGE])
        return summary, state, warnings
    finally:
        page.close()


def _snapshot_url(base_url: str, site_dir: Path) -> str:
    m = manifest(site_dir)
    snap = m["pyodide"].split("?", 1)[1]
    return f"{base_url}assets/runtime/{hook.SNAPSHOT_NAME}?{snap}"


@pytest.mark.browser
def test_a_second_visit_reads_the_inflated_snapshot_from_cache_storage(
        browser: Any, base_url: str, site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    ctx = browser.new_context(service_workers="block")  # the HTTP cache and Cache Storage only
    try:
        first, s1, w1 = _visit(ctx, base_url + path, 10)
        second, s2, w2 = _visit(ctx, base_url + path, 3)
    finally:
        ctx.close()
    assert first == rules_pkg.get(CALC).run(weapon=weapon, ap=10).summary
    assert second == rules_pkg.get(CALC).run(weapon=weapon, ap=3).summary
    assert (s1["network"], s1["raw"]) == (1, 0)  # fetched and inflated in the worker
    assert (s2["network"], s2["raw"]) == (0, 1)  # read back, no inflating
    assert s1["kept"] == [_snapshot_url(base_url, site_dir)]
    assert not [w for w in w1 + w2 if "could not be used" in w]


@pytest.mark.browser
def test_a_damaged_or_stale_cached_copy_is_replaced(browser: Any, base_url: str,
                                                    site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    current = _snapshot_url(base_url, site_dir)
    stale = current.split("?")[0] + "?snap=0123456789abcdef"  # an earlier build's
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(base_url + "404.html")  # same origin, no calculators
        page.evaluate("""async ([name, urls]) => {
            const c = await caches.open(name);
            for (const u of urls) await c.put(u, new Response("not a snapshot at all"));
        }""", [RAW_CACHE, [current, stale]])
        page.close()
        got, state, warnings = _visit(ctx, base_url + path, 7)
    finally:
        ctx.close()
    assert got == rules_pkg.get(CALC).run(weapon=weapon, ap=7).summary
    # The damaged copy was not used (the network copy was), and only the good one is kept.
    assert (state["network"], state["raw"]) == (1, 0)
    assert state["kept"] == [current]
    assert not [w for w in warnings if "could not be used" in w]


@pytest.mark.browser
def test_a_slow_link_starts_plainly_unless_the_snapshot_is_cached(
        browser: Any, base_url: str, site_dir: Path) -> None:
    """Round trips of 300 ms make Chrome call the link "3g" (effectiveType), while the
    bandwidth stays high so the plain start's downloads do not take minutes."""
    path, weapon = _profile_page(site_dir)
    slow = {"offline": False, "latency": 300, "downloadThroughput": 50e6,
            "uploadThroughput": 50e6}
    fresh = browser.new_context(service_workers="block")
    try:
        got, state, _ = _visit(fresh, base_url + path, 4, slow)
    finally:
        fresh.close()
    assert state["effectiveType"] == "3g"
    assert got == rules_pkg.get(CALC).run(weapon=weapon, ap=4).summary
    assert (state["network"], state["raw"]) == (0, 0)  # no snapshot: the plain start

    primed = browser.new_context(service_workers="block")
    try:
        _visit(primed, base_url + path, 1)  # a fast visit first: the snapshot is kept
        got, state, _ = _visit(primed, base_url + path, 5, slow)
    finally:
        primed.close()
    assert state["effectiveType"] == "3g"
    assert got == rules_pkg.get(CALC).run(weapon=weapon, ap=5).summary
    assert (state["network"], state["raw"]) == (0, 1)


@pytest.mark.browser
def test_without_the_worker_the_page_inflates_the_snapshot_itself(
        browser: Any, base_url: str, site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    ctx = browser.new_context(service_workers="block")
    # Python on the page (its worker missing: python/client.mjs's NoWorker), and no
    # snapshot worker either
    ctx.route("**/python/worker.mjs*", lambda route: route.fulfill(status=404))
    ctx.route("**/snapshot-worker.mjs*", lambda route: route.fulfill(status=404))
    try:
        got, state, warnings = _visit(ctx, base_url + path, 9)
    finally:
        ctx.close()
    assert got == rules_pkg.get(CALC).run(weapon=weapon, ap=9).summary
    assert (state["network"], state["raw"], state["page"]) == (0, 0, 1)
    assert not [w for w in warnings if "could not be used" in w]
