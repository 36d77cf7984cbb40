"""The CLI keeps the build working when a dialect is missing or broken, and says so."""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path

import pytest

from scripts.extract import dialects, pipeline
from scripts.extract.pipeline import main

TEXT = "Sheet\n\nMoves\n\n- walk\n- run\n\nA\tB\n1\t2\n"


def run(tmp_path: Path, dialect: str) -> tuple[int, str, str]:
    src = tmp_path / "sources"
    src.mkdir(exist_ok=True)
    (src / "sheet.txt").write_text(TEXT, "utf-8")
    (tmp_path / "sheet.toml").write_text(f'source = "sheet.txt"\ndialect = "{dialect}"\n'
                                          'game = "sheet"\n', "utf-8")
    out = io.StringIO()
    status = main(["--sources", str(src), "--out", str(tmp_path / "data"), "--hints",
                   str(tmp_path)], out=out)
    data = tmp_path / "data" / "sheet.json"
    return status, out.getvalue(), data.read_text("utf-8") if data.is_file() else ""


def test_missing_dialect_falls_back_to_plain_text(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dialects.DIALECTS, "future", "scripts.extract.not_written_yet")
    status, report, data = run(tmp_path, "future")
    assert status == 0
    assert ("sources/sheet.txt: dialect 'future' (scripts.extract.not_written_yet) is not "
            "written yet; read as plain text") in report
    table = json.loads(data)["sections"][0]["sections"][0]["blocks"][1]
    assert (table["type"], table["header"], table["rows"][0]["cells"]) == ("table", ["A", "B"],
                                                                            ["1", "2"])


def test_crashing_dialect_falls_back_to_plain_text(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    broken = types.ModuleType("h1_broken_dialect")

    def extract(text: str, source: str, hints: object) -> None:
        raise IndexError("list index out of range")

    broken.extract = extract  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "h1_broken_dialect", broken)
    monkeypatch.setitem(dialects.DIALECTS, "broken", "h1_broken_dialect")
    status, report, data = run(tmp_path, "broken")
    assert status == 0
    assert ("sources/sheet.txt: dialect 'broken' failed (IndexError: list index out of range); "
            "read as plain text") in report
    assert '"title": "Moves"' in data


def test_unknown_dialect_name(tmp_path: Path) -> None:
    status, report, data = run(tmp_path, "nonsense")
    assert status == 0 and "unknown dialect 'nonsense'; read as plain text" in report and data


def test_only_and_bad_hints(tmp_path: Path) -> None:
    src = tmp_path / "sources"
    src.mkdir()
    (src / "a.txt").write_text(TEXT, "utf-8")
    (src / "b.txt").write_text(TEXT, "utf-8")
    (tmp_path / "b.toml").write_text("dialect = [unclosed", "utf-8")
    out = io.StringIO()
    assert main(["--sources", str(src), "--out", str(tmp_path / "d"), "--hints", str(tmp_path),
                 "--only", "b"], out=out) == 0
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["b.json"]
    assert "sources/b.txt: bad hints file scripts/hints/b.toml" in out.getvalue()


def test_write_is_atomic_and_skips_unchanged(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    assert pipeline.write_atomic(target, "{}\n") is True
    mtime = target.stat().st_mtime_ns
    assert pipeline.write_atomic(target, "{}\n") is False  # unchanged: not rewritten
    assert target.stat().st_mtime_ns == mtime
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]  # no temp file left behind


def test_module_entry_point_runs() -> None:
    import subprocess

    root = Path(__file__).resolve().parents[2]
    res = subprocess.run([sys.executable, "-m", "scripts.extract", "--check", "--only",
                          "mecha-d10-non-mecha-combat.md"], cwd=root, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.splitlines()[-1].startswith("0 lint finding(s), 0 unreadable source(s)")
    assert "Traceback" not in res.stderr
