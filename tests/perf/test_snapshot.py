"""The Pyodide memory snapshot (scripts/snapshot/): both start paths give the same answers.

The snapshot is an optimisation: with it the browser restores Python with rules_pkg
already imported; without it (TABLESIDE_SNAPSHOT=0, no node, a failing maker) the build
keeps the plain pyodide.mjs start and must still pass. Browser tests compare a real
look-up (horizon.profile_row, § Weapon Profiles) on both paths with CPython's answer.
"""

from __future__ import annotations

import gzip
import html
import json
import re
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import LIVE_RESULT, open_calc  # tests/ is on sys.path (rootdir packages)

import rules_pkg
from scripts.site import runtime
from scripts.snapshot import hook

CALC = "horizon.profile_row"
ROOT = Path(__file__).resolve().parents[2]
def manifest(site: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (site / "assets" / "calculators" / "runtime.json").read_text("utf-8"))
    return data


# --- the build: snapshot or plain start, never a failed build --------------------------------
def assert_plain_start() -> None:
    """The runtime the build plans (scripts/site/runtime.py, the finish stage) starts
    Python plainly: pyodide.mjs, no snapshot file, no wrapper."""
    planned = runtime.plan()
    assert planned.manifest["pyodide"] == "../runtime/pyodide/pyodide.mjs"
    assert "snapshot" not in planned.manifest and "pyodide_plain" not in planned.manifest
    assert not any(hook.SNAPSHOT_NAME in path or hook.WRAPPER.name in path
                   for path in planned.files)


def test_switched_off_keeps_the_plain_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESIDE_SNAPSHOT", "0")
    assert hook.prepare(b"PK\x05\x06" + b"\0" * 18, b"") is None
    assert_plain_start()


def test_a_failing_maker_keeps_the_plain_start(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "broken.mjs"
    broken.write_text('console.error("no snapshot today"); process.exit(3);\n', "utf-8")
    bundle = tmp_path / "tableside.zip"
    bundle.write_bytes(runtime.bundle_bytes())
    monkeypatch.setenv("TABLESIDE_SNAPSHOT", "1")
    monkeypatch.setattr(hook, "MAKER", broken)
    monkeypatch.setattr(hook, "CACHE", tmp_path / "cache")
    with pytest.raises(hook.SnapshotError, match="no snapshot today"):
        hook.make(bundle, tmp_path / "out.bin.gz", cache=tmp_path / "cache")
    assert hook.prepare(bundle.read_bytes(), b"", cache=tmp_path / "cache") is None
    assert_plain_start()


def test_no_node_keeps_the_plain_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESIDE_SNAPSHOT", "1")
    monkeypatch.setattr(hook, "CACHE", tmp_path / "empty-cache")
    monkeypatch.setattr(hook.shutil, "which", lambda name: None)
    assert_plain_start()


def test_the_cache_key_follows_the_bundle_and_the_standard_library() -> None:
    assert hook.cache_key(b"one bundle", b"std") == hook.cache_key(b"one bundle", b"std")
    assert hook.cache_key(b"one bundle", b"std") != hook.cache_key(b"another bundle", b"std")
    assert hook.cache_key(b"one bundle", b"std") != hook.cache_key(b"one bundle", b"other")


# --- the built site -----------------------------------------------------------------------------
def test_the_site_ships_a_snapshot_of_its_own_bundle(site_dir: Path) -> None:
    m = manifest(site_dir)
    assert "snapshot" in m, "the build made no snapshot (is node on PATH?)"
    assert m["pyodide"].startswith("python/pyodide-snapshot.mjs?snap=")
    assert (site_dir / "assets" / "calculators" / "python/pyodide-snapshot.mjs").is_file()
    gz = (site_dir / "assets" / "runtime" / hook.SNAPSHOT_NAME).read_bytes()
    assert hook.hashlib.sha256(gz).hexdigest() == m["snapshot_sha256"]
    assert len(gzip.decompress(gz)) > 10_000_000  # Python's whole memory, not a stub
    # Made from the very bundle and standard library the site ships (the cache key names
    # their bytes).
    bundle = (site_dir / "assets" / "runtime" / "tableside.zip").read_bytes()
    std = (site_dir / "assets" / "runtime" / "pyodide" / "python_stdlib.zip").read_bytes()
    assert (hook.CACHE / f"{hook.cache_key(bundle, std)}.bin.gz").read_bytes() == gz
    with zipfile.ZipFile(site_dir / "assets" / "runtime" / "tableside.zip") as zf:
        assert "rules_pkg/__init__.py" in zf.namelist()


def test_a_snapshot_start_finds_the_bridge_prepared(site_dir: Path) -> None:
    """The shipped snapshot, restored (in Node, as the page does), already holds what
    python/bridge.py's prepare() does at start: every game, its odds and the encounter
    tracker imported, the registry built and the games found. So prepare() imports nothing
    there (it used to compile the encounter tracker's 11 modules from the zip at every warm
    start)."""
    out = subprocess.run(["node", str(ROOT / "tests/perf/snapshot_state.mjs"), str(site_dir),
                          str(ROOT / "calculators/python/bridge.py")],
                         capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    state = json.loads(out.stdout.strip().splitlines()[-1])
    assert state["imported_by_prepare"] == []
    games = rules_pkg.registry.game_modules()
    assert {f"rules_pkg.{g}" for g in games} | {"rules_pkg.encounter.api"} <= set(state["modules"])
    # and each game's odds (#28): the odds panel's first answer compiles nothing
    assert {f"rules_pkg.{g}.takeout" for g in games} <= set(state["modules"])
    registry = json.loads((site_dir / "assets/calculators/registry.json").read_text("utf-8"))
    assert state["registry"] == sorted(c["id"] for c in registry)
    assert state["games_found"] == 1  # game_modules() already looked, once


def _profile_page(site_dir: Path) -> tuple[str, str]:
    """A Horizon page with CALC, and the weapon its first CALC is preset to."""
    for page in sorted(site_dir.glob("horizon/*/index.html")):
        text = page.read_text("utf-8")
        m = re.search(rf'data-calc="{re.escape(CALC)}" data-preset=\'([^\']*)\'', text)
        if m:
            preset = json.loads(html.unescape(m.group(1)))
            return page.parent.relative_to(site_dir).as_posix() + "/", str(preset["weapon"])
    raise AssertionError(f"no Horizon page with {CALC}")


# The start-up's states as calculators/python/boot.mjs enters them (<html data-ts-boot>).
RECORD_BOOT = """
window.__bootStates = [];
new MutationObserver(() => {
  const s = document.documentElement.dataset.tsBoot;
  if (s && window.__bootStates.at(-1) !== s) window.__bootStates.push(s);
}).observe(document, { subtree: true, attributeFilter: ["data-ts-boot"] });
"""


def _compute(browser: Any, url: str, ap: int, plain: bool = False,
             no_snapshot_file: bool = False) -> tuple[str, list[str], list[str], list[str]]:
    """Compute CALC on the page; returns its summary, the URLs fetched, console warnings
    and the start-up's states (python/boot.mjs), in order."""
    ctx = browser.new_context(service_workers="block")  # routes must see runtime.json
    if no_snapshot_file:  # a host that lost the file: the page must start plainly
        ctx.route(f"**/{hook.SNAPSHOT_NAME}*", lambda route: route.fulfill(status=404))
    if plain:
        def to_plain(route: Any) -> None:
            resp = route.fetch()
            m = resp.json()
            m["pyodide"] = m["pyodide_plain"]
            route.fulfill(response=resp, body=json.dumps(m))

        ctx.route("**/assets/calculators/runtime.json", to_plain)
    page = ctx.new_page()
    page.add_init_script(RECORD_BOOT)
    urls: list[str] = []
    warnings: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("console",
            lambda m: warnings.append(m.text) if m.type in ("warning", "error") else None)
    try:
        summary = compute_ap(page, url, ap)
        assert page.evaluate("document.documentElement.dataset.tsPython") == "ready"
        return summary, urls, warnings, page.evaluate("window.__bootStates")
    finally:
        ctx.close()


def compute_ap(page: Any, url: str, ap: int, timeout_ms: int = 120_000) -> str:
    """Open url, compute CALC (the first one on the page) for `ap`; its summary line."""
    page.goto(url)
    host = open_calc(page, CALC)
    host.locator('input[name="ap"]').fill(str(ap))
    host.locator("button[type=submit]").click()
    # the live result: not the answer worked out at build time (issue 13, data-ts-ahead)
    summary = host.locator(f"{LIVE_RESULT} .ts-summary")
    summary.wait_for(timeout=timeout_ms)
    return str(summary.inner_text())


@pytest.mark.browser
@pytest.mark.parametrize("ap", [10, 1])
def test_snapshot_and_plain_start_give_cpythons_answer(browser: Any, base_url: str,
                                                       site_dir: Path, ap: int) -> None:
    path, weapon = _profile_page(site_dir)
    expected = rules_pkg.get(CALC).run(weapon=weapon, ap=ap).summary
    snap, snap_urls, snap_warn, snap_states = _compute(browser, base_url + path, ap)
    plain, plain_urls, _, plain_states = _compute(browser, base_url + path, ap, plain=True)
    assert snap == expected
    assert plain == expected
    # Each path really was the one it claims to be.
    assert any(hook.SNAPSHOT_NAME in u for u in snap_urls)
    assert not any("could not be used" in w for w in snap_warn), snap_warn
    assert not any(hook.SNAPSHOT_NAME in u for u in plain_urls)
    assert snap_states == ["fetching", "snapshot", "ready"]
    assert plain_states == ["fetching", "plain", "ready"]


@pytest.mark.browser
def test_a_missing_snapshot_falls_back_to_the_plain_start(browser: Any, base_url: str,
                                                          site_dir: Path) -> None:
    path, weapon = _profile_page(site_dir)
    expected = rules_pkg.get(CALC).run(weapon=weapon, ap=12).summary
    got, urls, warnings, states = _compute(browser, base_url + path, 12, no_snapshot_file=True)
    assert got == expected
    assert any(hook.SNAPSHOT_NAME in u for u in urls)
    assert any("could not be used" in w for w in warnings), warnings
    assert states == ["fetching", "snapshot", "plain", "ready"]  # python/boot.mjs's fallback
