"""The calculators' JSDoc types come from the JSON contracts' declarations: the registry's
shapes (rules_pkg/shapes.py) and runtime.json (scripts/site/runtime.py's RuntimeManifest).
scripts/types_gen.py writes them to build/types/contracts.d.ts, tsc checks the browser's
code against them, and the real data (every calculator's to_dict() and a Result of each,
the built site's runtime.json) has exactly those shapes."""

from __future__ import annotations

import json
import subprocess
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Union

import pytest

import rules_pkg
from rules_pkg import shapes
from scripts import types_gen
from scripts.site.runtime import RuntimeManifest

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_declarations_are_current() -> None:
    assert types_gen.OUT.is_file(), "no build/types/contracts.d.ts: run `make lint`"
    assert types_gen.OUT.read_text("utf-8") == types_gen.render(), (
        "build/types/contracts.d.ts is stale: run `python -m scripts.types_gen`")
    assert types_gen.main(["--check"]) == 0


def test_a_stale_file_is_reported(tmp_path: Path) -> None:
    out = tmp_path / "contracts.d.ts"
    assert types_gen.main([str(out), "--check"]) == 1  # missing
    assert types_gen.main([str(out)]) == 0
    assert types_gen.main([str(out), "--check"]) == 0
    out.write_text(out.read_text("utf-8").replace("summary: string", "summary: number"))
    assert types_gen.main([str(out), "--check"]) == 1


def test_the_declarations_say_what_the_shapes_say() -> None:
    text = types_gen.render()
    assert 'type ValueKind = "probability" | "mean" | "count" | "dice" | "text";' in text
    assert "type ValueEntry = [string, any, ValueKind];" in text
    assert "    at_least: Frac | null;" in text
    assert "    min?: number;" in text and "    inputs: Input[];" in text
    assert "declare namespace Runtime {" in text and "    snapshot_sha256?: string;" in text


def test_a_type_without_typescript_is_refused() -> None:
    with pytest.raises(types_gen.ShapeError, match="no TypeScript"):
        types_gen.ts(complex)


def test_tsc_accepts_the_calculators_against_the_generated_types() -> None:
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    done = subprocess.run([str(tsc), "-p", "tsconfig.json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# --- the shapes against the real data -------------------------------------------------------
def conforms(value: Any, tp: Any, where: str) -> None:
    """Assert that JSON-ready `value` has type `tp` (a shapes.py annotation)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return
    if typing.is_typeddict(tp):
        assert isinstance(value, dict), where
        hints = typing.get_type_hints(tp, include_extras=True)
        required = {k for k, t in hints.items() if typing.get_origin(t) is not NotRequired}
        assert required <= set(value) <= set(hints), (where, sorted(value), sorted(hints))
        for k, v in value.items():
            t = hints[k]
            if typing.get_origin(t) is NotRequired:
                t = typing.get_args(t)[0]
            conforms(v, t, f"{where}.{k}")
    elif origin is Literal:
        assert value in args, (where, value)
    elif origin is Union or str(origin) == "<class 'types.UnionType'>":
        errors = []
        for a in args:
            try:
                conforms(value, a, where)
                return
            except AssertionError as e:
                errors.append(e)
        raise AssertionError(where, value, errors)
    elif tp is type(None):
        assert value is None, where
    elif origin is list:
        assert isinstance(value, list), where
        for i, v in enumerate(value):
            conforms(v, args[0], f"{where}[{i}]")
    elif origin is tuple:  # a JSON array of fixed length
        assert isinstance(value, list | tuple) and len(value) == len(args), (where, value)
        for i, (v, a) in enumerate(zip(value, args, strict=True)):
            conforms(v, a, f"{where}[{i}]")
    elif tp is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), where
    elif tp is int:
        assert isinstance(value, int) and not isinstance(value, bool), where
    else:
        assert isinstance(value, tp), (where, value, tp)


def test_every_calculator_and_its_default_result_have_the_declared_shapes() -> None:
    calcs = rules_pkg.calculators()
    assert calcs
    for calc in calcs:
        conforms(calc.to_dict(), shapes.CalculatorDict, calc.id)
        conforms(calc.run().to_dict(), shapes.ResultDict, f"{calc.id}()")


def test_a_wrong_shape_is_caught() -> None:
    d: Any = rules_pkg.calculators()[0].to_dict()
    with pytest.raises(AssertionError):
        conforms({**d, "rolls": "yes"}, shapes.CalculatorDict, "x")
    with pytest.raises(AssertionError):
        conforms({**d, "extra": 1}, shapes.CalculatorDict, "x")


def test_the_built_runtime_json_has_the_declared_shape(site_dir: Path) -> None:
    m = json.loads((site_dir / "assets/calculators/runtime.json").read_text("utf-8"))
    conforms(m, RuntimeManifest, "runtime.json")
    assert "snapshot" in m  # the build made a snapshot: its optional fields are checked too
    with pytest.raises(AssertionError):
        conforms({k: v for k, v in m.items() if k != "bridge"}, RuntimeManifest, "x")
