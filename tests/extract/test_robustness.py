"""Bad input never gives a traceback or a hang; any text gives a Document with valid line ranges."""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scripts.extract.clean import newlines
from scripts.extract.dialects import DIALECTS
from scripts.extract.lines import SourceError
from scripts.extract.model import Document, ListItem, Section, Table
from scripts.extract.pipeline import extract_bytes, extract_text, main
from scripts.extract.serialize import to_json


def available_dialects() -> list[str]:
    names = []
    for name, module in DIALECTS.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue  # not written yet (the pipeline falls back to plain text for it)
        names.append(name)
    return names


def _items(items: tuple[ListItem, ...]) -> Iterator[ListItem]:
    for it in items:
        yield it
        yield from _items(it.children)


def _sections(sections: tuple[Section, ...]) -> Iterator[Section]:
    for s in sections:
        yield s
        yield from _sections(s.sections)


def check_lines(doc: Document, n_lines: int) -> None:
    """Every block, row and item points into the document; serialisation works."""
    def ok(r: tuple[int, int]) -> bool:
        return 1 <= r[0] <= r[1] <= n_lines

    for s in _sections(doc.sections):
        assert ok(s.lines), (s.id, s.lines)
        for b in s.blocks:
            assert ok(b.lines), b
            if isinstance(b, Table):
                for row in b.rows:
                    assert 1 <= row.line <= n_lines and ok(row.lines), row
                    assert row.lines[0] <= row.line <= row.lines[1]
            elif b.type == "list":
                for it in _items(b.items):
                    assert ok(it.lines), it
    for item in doc.lint:
        assert 0 <= item.line <= n_lines
    to_json(doc)


# text the parsers find interesting: Markdown punctuation, tabs, pipes, markers, unicode
ALPHABET = st.sampled_from([*"ab1 \t\n\r|-*_#>`~[]()!:.+=0123456789<>/\\", "❖", "✘", "é"])
TEXTS = st.text(ALPHABET, max_size=400) | st.text(max_size=200)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("dialect", available_dialects())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS)
def test_any_text_extracts_or_is_refused(dialect: str, text: str) -> None:
    source = "sources/fuzz.md" if dialect == "markdown" else "sources/fuzz.txt"
    hints: dict[str, Any] = {"dialect": dialect, "game": "fuzz"}
    try:
        doc, _ = extract_text(text, source, hints)
    except SourceError as e:  # refused with a one-line message naming the file
        assert str(e).startswith(source) and "\n" not in str(e)
        return
    # a lone CR ends a line, like LF and CRLF
    n = len(newlines(text.removeprefix("\ufeff")).split("\n"))
    check_lines(doc, n)


@pytest.mark.timeout(120)
@settings(max_examples=25, deadline=None)
@given(data=st.binary(max_size=300) | TEXTS.map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_cli_never_raises(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "sources").mkdir()
    (tmp / "sources" / "fuzz.md").write_bytes(data)
    (tmp / "sources" / "fuzz2.txt").write_bytes(data)
    out = io.StringIO()
    status = main(["--sources", str(tmp / "sources"), "--out", str(tmp / "data"),
                   "--hints", str(tmp)], out=out)
    assert status == 0  # an unreadable source is reported and skipped, never fatal
    for line in out.getvalue().splitlines():
        assert "Traceback" not in line


BAD: list[tuple[str, bytes, str]] = [
    ("empty", b"", "sources/bad.md: the file is empty"),
    ("blank", b"\n  \n\t\n", "sources/bad.md: the file is empty"),
    ("binary", b"PK\x03\x04\n\x00\x01\x02", "sources/bad.md:2: binary data (NUL byte)"),
    ("latin-1", b"# Caf\xe9\n", "sources/bad.md:1: not valid UTF-8 (byte 0xe9)"),
    ("garbled", bytes(range(1, 9)) * 500, "sources/bad.md: garbled text"),
    ("only a rule", b"*" * 100_000, "sources/bad.md: no text to show"),
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("name", "data", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_clear_line(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    """Reported (file, line, reason) and skipped: the other sources still build."""
    src = tmp_path / "sources"
    src.mkdir()
    (src / "bad.md").write_bytes(data)
    (src / "good.md").write_text("# Good\n\nRules.\n", "utf-8")
    out = io.StringIO()
    assert main(["--sources", str(src), "--out", str(tmp_path / "data"), "--hints",
                 str(tmp_path)], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(message) and lines[0].endswith("; skipped"), lines
    assert lines[-1] == "0 lint finding(s), 1 unreadable source(s)"
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["good.json"]


def _paragraph_texts(doc: Document) -> str:
    return to_json(doc)


@pytest.mark.timeout(20)
@pytest.mark.parametrize("source", ["sources/x.md", "sources/x.txt"])
@pytest.mark.parametrize("char", ["*", "_", "[", "`", "<", "|"])
def test_long_runs_of_markup_are_fast(source: str, char: str) -> None:
    text = "word " + char * 100_000 + " word\n"
    doc, _ = extract_text(text, source, {})
    check_lines(doc, 2)
    assert char * 100_000 in to_json(doc).replace("\\\\", "\\")  # the text is kept, not eaten


@pytest.mark.timeout(20)
@pytest.mark.parametrize("source", ["sources/x.md", "sources/x.txt"])
@pytest.mark.parametrize("shape", ["indented", "one-line", "ordered", "quotes"])
def test_1000_deep_nesting_is_fast_and_kept(source: str, shape: str) -> None:
    text = {
        "indented": "\n".join("  " * i + f"- item{i}" for i in range(1000)),
        "one-line": "- " * 1000 + "item999",
        "ordered": "\n".join("   " * i + f"1. item{i}" for i in range(1000)),
        "quotes": "> " * 1000 + "item999",
    }[shape]
    doc, _ = extract_text(text, source, {})
    check_lines(doc, text.count("\n") + 1)
    # the deepest text still reaches the model (as plain text past the nesting limit)
    assert "item999" in to_json(doc)
    if source.endswith(".md") and shape != "quotes":
        assert any("nested" in x.message for x in doc.lint)


@pytest.mark.parametrize("source", ["sources/x.md", "sources/x.txt"])
def test_html_stays_text(source: str) -> None:
    text = "# Title\n\n<script>alert(1)</script>\n\nA <b>bold</b> claim.\n"
    doc, _ = extract_text(text, source, {})
    blocks = [b for s in _sections(doc.sections) for b in s.blocks]
    texts = [getattr(b, "text", "") for b in blocks]
    assert "<script>alert(1)</script>" in texts
    assert "A <b>bold</b> claim." in texts


def test_crlf_keeps_file_line_numbers() -> None:
    text = "Title\r\n\r\nA\tB\r\n1\t2\r\n3\t4\r\n"
    for source in ("sources/x.md", "sources/x.txt"):
        doc, _ = extract_text(text, source, {})
        table = next(b for s in _sections(doc.sections) for b in s.blocks if isinstance(b, Table))
        assert [r.line for r in table.rows] == [4, 5]
        assert table.rows[0].cells == ("1", "2")


def test_cr_only_line_endings_are_lines() -> None:
    text = "Title\r\rA\tB\r1\t2\r3\t4\r"
    for source in ("sources/x.md", "sources/x.txt"):
        doc, _ = extract_text(text, source, {})
        table = next(b for s in _sections(doc.sections) for b in s.blocks if isinstance(b, Table))
        assert [r.line for r in table.rows] == [4, 5]
        assert table.rows[1].cells == ("3", "4")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_a_bom_is_read(codec: str) -> None:
    bom = {"utf-16": b"", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[codec]
    data = bom + "# Título\r\n\ntext\n".encode(codec)
    doc, _ = extract_bytes(data, "sources/x.md", {})
    assert doc.sections[0].title == "Título"


def test_control_characters_are_removed_and_reported() -> None:
    text = "# Ti\x80tle\u202e\n\nok \x1b[1m bold\x07\n\nclean line\n"
    doc, _ = extract_text(text, "sources/x.md", {})
    assert doc.sections[0].title == "Title"
    assert [(i.line, i.message) for i in doc.lint if "removed" in i.message] == [
        (1, "2 control or invisible character(s) removed (U+0080, U+202E RIGHT-TO-LEFT "
            "OVERRIDE)"),
        (3, "2 control or invisible character(s) removed (U+0007, U+001B)")]
    assert "ok [1m bold" in to_json(doc)


def test_bom_is_stripped() -> None:
    doc, _ = extract_bytes("\ufeff# Título\n\ntext\n".encode(), "sources/x.md", {})
    assert doc.sections[0].title == "Título"
