"""Golden files and determinism: rules_pkg/data/*.json is exactly what sources/ extracts to.

On a deliberate change: `make data`, review `git diff rules_pkg/data`, commit.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from scripts.extract.pipeline import main, run_one
from scripts.extract.serialize import to_json

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for p in (ROOT / "sources").iterdir() if p.suffix in (".md", ".txt"))


@pytest.mark.timeout(120)
def test_golden_data_is_up_to_date() -> None:
    out = io.StringIO()
    status = main(["--check"], out=out)
    assert status == 0, out.getvalue()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_source_has_its_data_file(path: Path) -> None:
    res = run_one(path)
    assert res.doc is not None and not res.failed, res.messages
    assert (ROOT / "rules_pkg" / "data" / f"{res.doc.game}.json").is_file()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_extraction_is_deterministic(path: Path) -> None:
    a, b = run_one(path), run_one(path)
    assert a.doc is not None and b.doc is not None
    assert to_json(a.doc) == to_json(b.doc)


@pytest.mark.timeout(120)
def test_two_cli_runs_write_identical_bytes(tmp_path: Path) -> None:
    outs = []
    for k in (1, 2):
        out = tmp_path / f"out{k}"
        assert main(["--out", str(out)], out=io.StringIO()) == 0
        outs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outs[0] == outs[1]
    assert set(outs[0]) >= {"forbidden_lands.json", "mecha.json"}
    for data in outs[0].values():
        assert data.endswith(b"\n") and not data.startswith(b"\xef\xbb\xbf")


def test_check_fails_on_stale_data(tmp_path: Path) -> None:
    out = tmp_path / "data"
    assert main(["--out", str(out), "--only", "mecha-d10-non-mecha-combat.md"],
                out=io.StringIO()) == 0
    target = out / "mecha.json"
    target.write_text(target.read_text("utf-8").replace('"-2"', '"-3"', 1), "utf-8")
    report = io.StringIO()
    assert main(["--check", "--out", str(out), "--only", "mecha-d10-non-mecha-combat"],
                out=report) == 1
    assert "mecha.json: differs from a fresh extraction" in report.getvalue()
    assert '-     "-3"' in report.getvalue() or '"-3"' in report.getvalue()


def test_new_documents_need_no_code_change(tmp_path: Path) -> None:
    """A Markdown or text document dropped into sources/ becomes headings, lists and tables."""
    src = tmp_path / "sources"
    src.mkdir()
    fixtures = ROOT / "tests" / "fixtures" / "extract"
    shutil.copy(fixtures / "plaintext" / "basic.txt", src / "new-game-sheet.txt")
    shutil.copy(fixtures / "markdown" / "tab_tables.md", src / "other-game.md")
    (src / "picture.png").write_bytes(b"\x89PNG")
    report = io.StringIO()
    out = tmp_path / "data"
    assert main(["--sources", str(src), "--out", str(out), "--hints", str(tmp_path)],
                out=report) == 0
    text = report.getvalue()
    assert "sources/picture.png: skipped" in text
    assert "sources/other-game.md:8: column \"Bonus\" is blank in row \"Axe\"" in text
    assert sorted(p.name for p in out.iterdir()) == ["new-game-sheet.json", "other-game.json"]
    assert '"type": "table"' in (out / "new-game-sheet.json").read_text("utf-8")
