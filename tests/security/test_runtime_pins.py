"""The browser runtime (Pyodide, PyScript) is pinned by SHA-256 in
scripts/runtime_hashes.json: a changed file in node_modules fails the build, with a
message that names the file, both hashes and the way out."""

from __future__ import annotations

import functools
import hashlib
import logging
import shutil
from pathlib import Path

import pytest

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
def test_mkdocs_build_fails_on_a_tampered_wasm(tampered: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    """The real `mkdocs build` (in process) with the runtime hook reading the tampered
    node_modules: the build aborts and MkDocs reports the hook's message."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    config = load_config(str(runtime.ROOT / "mkdocs.yml"), site_dir=str(tmp_path / "site"),
                         strict=True)
    hooks = config["hooks"]
    hook = next(m for name, m in hooks.items() if name.endswith("scripts/site/runtime.py"))
    monkeypatch.setattr(hook, "build_runtime",
                        functools.partial(hook.build_runtime, node_modules=tampered))
    caplog.set_level(logging.ERROR, logger="mkdocs")
    try:
        with pytest.raises(Abort):
            build(config)
    finally:
        config.plugins.on_shutdown()
    assert "does not match its pinned SHA-256" in caplog.text
    assert str(tampered / WASM) in caplog.text
