"""The browser runtime (Pyodide, PyScript) is pinned by SHA-256 in
scripts/runtime_hashes.json: a changed file in node_modules fails the build (its finish
stage), with a message that names the file, both hashes and the way out."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from scripts import finish, render
from scripts.site import runtime

WASM = "pyodide/pyodide.asm.wasm"


@pytest.fixture(scope="module")
def node_modules_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A node_modules holding a copy of exactly the pinned files (same layout)."""
    root = tmp_path_factory.mktemp("node_modules")
    for rel in runtime.load_pins():
        src = runtime.ROOT / "node_modules" / rel
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, root / rel)
    return root


@pytest.fixture
def tampered(node_modules_copy: Path, tmp_path: Path) -> Path:
    """That copy with one bit of pyodide.asm.wasm flipped (mid-file: still a valid size)."""
    root = tmp_path / "node_modules"
    shutil.copytree(node_modules_copy, root)
    data = bytearray((root / WASM).read_bytes())
    data[len(data) // 2] ^= 0x01
    (root / WASM).write_bytes(bytes(data))
    return root


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_pins_cover_the_wasm_and_match_the_installed_files() -> None:
    pins = runtime.load_pins()
    assert WASM in pins
    for rel, digest in pins.items():
        assert sha256(runtime.ROOT / "node_modules" / rel) == digest, rel


def test_untampered_copy_is_shipped_byte_for_byte(node_modules_copy: Path, tmp_path: Path) -> None:
    runtime.build_runtime(tmp_path, node_modules=node_modules_copy)
    shipped = tmp_path / "assets" / "runtime" / WASM
    assert shipped.read_bytes() == (node_modules_copy / WASM).read_bytes()


def test_tampered_wasm_fails_with_a_clear_message(tampered: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with pytest.raises(runtime.RuntimeFileError) as err:
        runtime.build_runtime(site, node_modules=tampered)
    message = str(err.value)
    assert str(tampered / WASM) in message
    assert "does not match its pinned SHA-256" in message
    assert runtime.load_pins()[WASM] in message          # expected
    assert sha256(tampered / WASM) in message            # actual
    assert "npm ci" in message and "--pin" in message    # what to do
    # The tampered bytes never reach the site.
    assert not (site / "assets" / "runtime" / WASM).exists()


@pytest.mark.build
def test_the_finish_stage_fails_on_a_tampered_wasm(tampered: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The real finish stage (`python -m scripts.finish`'s main, in process) over a rendered
    page, reading the tampered node_modules: it stops with the runtime's message."""
    stage, site = tmp_path / "stage", tmp_path / "site"
    stage.mkdir()
    site.mkdir()
    (site / "index.html").write_text("<html><head></head><body></body></html>", "utf-8")
    (stage / "runtime-contract.json").write_text(
        runtime.Contract.of(runtime.plan()).to_json(), "utf-8")
    (stage / "rendered.json").write_text(json.dumps(
        {"templates": [str(p) for p in render.templates("mkdocs")]}), "utf-8")
    monkeypatch.setattr(runtime, "NODE_MODULES", tampered)
    assert finish.main([str(site), str(stage)]) == 1
    err = capsys.readouterr().err
    assert "does not match its pinned SHA-256" in err
    assert str(tampered / WASM) in err
    assert not (site / "assets" / "runtime" / WASM).exists()
    assert not (site / "sw.js").exists()  # nothing after the failed step ran
