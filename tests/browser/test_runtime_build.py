"""The runtime the build ships (scripts/site/runtime.py) and the Python bridge, on CPython.

No browser needed: pinned hashes, the rules_pkg bundle the browser imports, and the JSON
contract between calculators/tableside.js and calculators/python/bridge.py.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from scripts.site import runtime, stdlib

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "calculators" / "python"))
import bridge  # noqa: E402  (calculators/ is not a package: it is shipped as files)


def _fake_node_modules(tmp: Path) -> Path:
    nm = tmp / "node_modules"
    for rel in runtime.load_pins():
        (nm / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(runtime.NODE_MODULES / rel, nm / rel)
    return nm


def test_pins_cover_exactly_the_files_shipped() -> None:
    assert runtime.pin() == runtime.load_pins(), "node_modules differs from the pins"
    names = {Path(p).name for p in runtime.load_pins()}
    assert {"pyodide.asm.wasm", "python_stdlib.zip", "pyodide.mjs", "core.js"} <= names
    assert not any(n.endswith(".map") or "codemirror" in n or "xterm" in n for n in names)


def test_a_tampered_wasm_fails_the_build_with_a_clear_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nm = _fake_node_modules(tmp_path)
    wasm = nm / "pyodide" / "pyodide.asm.wasm"
    data = bytearray(wasm.read_bytes())
    data[1000] ^= 0xFF  # one flipped byte
    wasm.write_bytes(bytes(data))
    monkeypatch.setattr(runtime, "NODE_MODULES", nm)
    site = tmp_path / "site"
    with pytest.raises(runtime.RuntimeFileError) as err:
        runtime.finish_runtime(site, runtime.Contract.of(runtime.plan()))
    message = str(err.value)
    assert "pyodide.asm.wasm" in message and "pinned SHA-256" in message
    assert hashlib.sha256(bytes(data)).hexdigest() in message
    assert not (site / "assets/runtime/pyodide/pyodide.asm.wasm").exists()


def test_the_built_runtime_matches_the_pins(tmp_path: Path) -> None:
    runtime.build_runtime(tmp_path)
    assets = tmp_path / "assets"
    for rel, digest in runtime.load_pins().items():
        top = next(d for d in runtime.PINNED_DIRS if rel.startswith(d + "/"))
        shipped = assets / runtime.PINNED_DIRS[top] / rel[len(top) + 1:]
        if rel == stdlib.PINNED:  # made from the pinned one: trimmed (test_stdlib.py)
            full = (runtime.NODE_MODULES / rel).read_bytes()
            assert shipped.read_bytes() == stdlib.shipped(full)
            continue
        assert hashlib.sha256(shipped.read_bytes()).hexdigest() == digest
    registry = json.loads((assets / "calculators/registry.json").read_text("utf-8"))
    assert registry == [c.to_dict() for c in rules_pkg.calculators()]
    manifest = json.loads((assets / "calculators/runtime.json").read_text("utf-8"))
    bundle = (assets / "calculators" / manifest["bundle"]).resolve()
    assert hashlib.sha256(bundle.read_bytes()).hexdigest() == manifest["bundle_sha256"]


def test_the_bundle_is_rules_pkg_as_on_disk() -> None:
    raw = runtime.bundle_bytes()
    assert raw == runtime.bundle_bytes(), "the bundle must be reproducible"
    package = Path(rules_pkg.__file__).parent
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        names = set(zf.namelist())
        for path in package.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            name = path.relative_to(package.parent).as_posix()
            assert zf.read(name) == path.read_bytes(), name
        assert {f"rules_pkg/data/{g}.json" for g in ("horizon", "d100")} <= names


_IN_ZIP = """
import json, sys
sys.path.insert(0, sys.argv[1])
import rules_pkg
assert rules_pkg.__file__.startswith(sys.argv[1]), rules_pkg.__file__
out = {}
for cid, kw in json.loads(sys.argv[2]):
    out[cid] = rules_pkg.get(cid).run(**kw).to_dict()
print(json.dumps(out))
"""


def test_imported_from_the_bundle_the_rules_give_the_same_answers(tmp_path: Path) -> None:
    """The browser imports rules_pkg from the zip (zipimport, importlib.resources): the
    same code and data must give the same results as the tests' in-tree package."""
    bundle = tmp_path / "tableside.zip"
    bundle.write_bytes(runtime.bundle_bytes())
    cases: list[tuple[str, dict[str, Any]]] = [
        ("horizon.profile_row", {"weapon": "heavy-combat-pistol", "ap": 17}),
        ("forbidden_lands.roll", {"attribute": 3, "skill": 2, "gear": 1, "roll": True,
                                  "seed": 7}),
        ("d100.test", {"characteristic": 40, "higher_ground": True}),
        ("cyberpunk_red.cover", {"material": "Concrete", "damage": 30}),
        ("mecha.damage", {"margin": 6, "weapon_dice": 0}),
    ]
    proc = subprocess.run([sys.executable, "-I", "-c", _IN_ZIP, str(bundle), json.dumps(cases)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    for cid, kw in cases:
        expected = json.loads(json.dumps(rules_pkg.get(cid).run(**kw).to_dict()))
        assert got[cid] == expected, cid


# --- the bridge: what JavaScript gets back ------------------------------------------------
def test_bridge_returns_a_result() -> None:
    reply = json.loads(bridge.run_json("horizon.profile_row",
                                       json.dumps({"weapon": "heavy-combat-pistol", "ap": "17"})))
    assert reply["ok"] is True
    assert {k: v for k, v, *_ in reply["result"]["values"]}["Damage"] == "22"


@pytest.mark.parametrize(("calc_id", "inputs", "message"), [
    ("horizon.skill_test", '{"dice": "1000000"}', "must be at most 100"),
    ("horizon.skill_test", '{"dice": "lots"}', "must be a whole number"),
    ("horizon.skill_test", '{"dice": ""}', "is empty"),
    ("horizon.skill_test", '{"sides": 6}', "unknown input"),
    ("no.such", "{}", "no calculator called"),
    ("horizon.skill_test", "[1, 2]", "must be named values"),
    ("horizon.skill_test", '{"dice": "' + "9" * 5000 + '"}', "too long"),
])
def test_bridge_turns_rules_errors_into_messages(calc_id: str, inputs: str, message: str) -> None:
    reply = json.loads(bridge.run_json(calc_id, inputs))
    assert reply["ok"] is False and reply["kind"] == "rules"
    assert message in reply["message"]


def test_bridge_hides_a_crash_behind_a_short_message(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:  # a calculator with a bug in it
        def run(self, **_: Any) -> Any:
            raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(rules_pkg, "get", lambda _id: Broken())
    reply = json.loads(bridge.run_json("horizon.dive", "{}"))
    assert reply == {"ok": False, "kind": "error", "message": "calculator error",
                     "detail": "ZeroDivisionError: division by zero"}
    assert "Traceback" not in json.dumps(reply)
