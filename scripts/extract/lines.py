"""Line-level helpers every dialect can share (stable API; other dialects import these).

A source is decoded once (`decode_source`), split into `Line`s that keep their
1-based file line numbers (`split_lines`), and then walked by small named rules
(`RuleChain`, after markdown-it-py's `Ruler`). Tables found in raw lines are
cut out with `tab_table_at` / `space_table_at` and their footnotes with
`footnotes_after`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .model import Row


class SourceError(ValueError):
    """A source that cannot be read at all; str() is the one-line report `sources/x: what`."""

    def __init__(self, source: str, message: str, line: int = 0) -> None:
        self.source, self.message, self.line = source, message, line
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Line:
    no: int  # 1-based line number in the file
    text: str  # without the line break; CR of CRLF removed

    @property
    def blank(self) -> bool:
        return not self.text.strip()


def decode_source(data: bytes, source: str) -> str:
    """The text of a source: UTF-8 (BOM or not) or UTF-16 with a BOM; SourceError for
    empty, binary or undecodable files. Line breaks are left as the file has them."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16"  # the BOM says which byte order; Python strips it
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            raise SourceError(source, "not valid UTF-16 (after a UTF-16 byte-order mark)",
                              line) from None
        if not text.strip():
            raise SourceError(source, "the file is empty")
        if "\0" in text:
            line = text.count("\n", 0, text.index("\0")) + 1
            raise SourceError(source, "binary data (NUL character), not a text document", line)
        return text
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise SourceError(source, "the file is empty")
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise SourceError(source, "binary data (NUL byte), not a text document", line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SourceError(source, f"not valid UTF-8 (byte 0x{data[e.start]:02x})", line) from None
    return text.removeprefix("\ufeff")


def check_text(text: str, source: str) -> None:
    """Reject text no reader can make sense of (empty, or mostly control characters)."""
    if not text.strip():
        raise SourceError(source, "the document is empty")
    if "\0" in text:
        raise SourceError(source, "binary data (NUL character), not a text document",
                          text.count("\n", 0, text.index("\0")) + 1)
    sample = text[:20000]
    bad = sum(1 for c in sample if (ord(c) < 32 and c not in "\t\n\r\f") or c == "\ufffd")
    if bad > len(sample) // 10:
        raise SourceError(source, "garbled text: too many control characters to be a document")


def split_lines(text: str) -> list[Line]:
    """Lines numbered as an editor shows them: LF, CRLF and a lone CR (old Mac files) each
    end a line."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    out = [Line(i, raw) for i, raw in enumerate(text.split("\n"), 1)]
    if len(out) > 1 and out[-1].text == "":
        out.pop()  # the final newline does not start a line
    return out


def runs(lines: Sequence[Line], pred: Callable[[Line], bool]) -> Iterator[tuple[int, int]]:
    """Index ranges [start, end) of maximal runs of consecutive lines matching pred."""
    i, n = 0, len(lines)
    while i < n:
        if pred(lines[i]):
            j = i
            while j < n and pred(lines[j]):
                j += 1
            yield i, j
            i = j
        else:
            i += 1


def paragraphs(lines: Sequence[Line]) -> Iterator[list[Line]]:
    """Runs of non-blank lines."""
    for a, b in runs(lines, lambda ln: not ln.blank):
        yield list(lines[a:b])


# --- tables --------------------------------------------------------------------------


def split_tab_row(text: str) -> tuple[str, ...]:
    """Cells of a TAB-separated row, stripped; empty cells (also trailing ones) are kept."""
    return tuple(c.strip() for c in text.rstrip("\r\n").split("\t"))


def split_space_row(text: str) -> tuple[str, ...]:
    """Cells of a row whose columns are separated by 2+ spaces (single spaces stay inside cells)."""
    return tuple(c for c in re.split(r" {2,}|\t", text.strip()) if c != "")


def is_tab_row(line: Line) -> bool:
    return "\t" in line.text.strip("\r\n ") and bool(line.text.replace("\t", "").strip())


def tab_table_at(lines: Sequence[Line], i: int) -> int:
    """End index (exclusive) of a TAB table starting at lines[i] (header + >= 1 row), else i."""
    j = i
    while j < len(lines) and is_tab_row(lines[j]):
        j += 1
    return j if j - i >= 2 else i


def space_table_at(lines: Sequence[Line], i: int, min_rows: int = 2) -> int:
    """End index of a run of lines that all split into the same 2+ cells on 2+ spaces, else i.

    Conservative: every line must split into the same number (>= 2) of cells and
    the run must have a header plus `min_rows` rows; prose never has 2+ spaces
    inside every line of a block.
    """
    j = i
    width = 0
    while j < len(lines) and not lines[j].blank:
        cells = split_space_row(lines[j].text)
        if len(cells) < 2 or (width and len(cells) != width):
            break
        width = len(cells)
        j += 1
    return j if j - i >= 1 + min_rows else i


def table_rows(lines: Sequence[Line], split: Callable[[str], tuple[str, ...]]) -> list[Row]:
    return [Row(cells=split(ln.text), line=ln.no, lines=(ln.no, ln.no)) for ln in lines]


_NOTE = re.compile(r"^\s*(\\?\*+(?=\S)|[¹²³⁴⁵⁶⁷⁸⁹⁰†‡§]|\(\d+\)\s|\[\d+\]\s|Note:|NB:)")


def is_footnote(text: str) -> bool:
    """A footnote line as written under tables: '*text', '\\*text', '**text', '¹ text', '† text'.

    '* text' (a bullet) and '*text*' (a whole emphasised line) are not footnotes.
    """
    t = text.strip()
    if not _NOTE.match(t):
        return False
    # '*emphasised paragraph*' is not a footnote
    return not (t.startswith("*") and not t.startswith("**") and t.endswith("*") and len(t) > 2)


def footnotes_after(lines: Sequence[Line], j: int, max_gap: int = 1) -> tuple[int, int]:
    """Index range [a, b) of the footnote lines right after a table ending at j.

    At most `max_gap` blank lines may separate them from the table.
    """
    k = j
    gap = 0
    while k < len(lines) and lines[k].blank and gap < max_gap + 1:
        k += 1
        gap += 1
    if k >= len(lines) or gap > max_gap or not is_footnote(lines[k].text):
        return j, j
    a = k
    while k < len(lines) and not lines[k].blank and (k == a or is_footnote(lines[k].text)):
        k += 1
    return a, k


# --- named rule chains (after markdown-it-py's Ruler) ---------------------------------

S = TypeVar("S")


class RuleChain(Generic[S]):
    """An ordered list of named rules `rule(state, i) -> next index or None`.

    At each position the first rule that returns an index > i claims the lines
    it consumed; dialects insert their own rules before/after named ones.
    """

    def __init__(self) -> None:
        self._rules: list[tuple[str, Callable[[S, int], int | None]]] = []

    def push(self, name: str, rule: Callable[[S, int], int | None]) -> None:
        self._rules.append((name, rule))

    def before(self, anchor: str, name: str, rule: Callable[[S, int], int | None]) -> None:
        self._rules.insert(self._index(anchor), (name, rule))

    def after(self, anchor: str, name: str, rule: Callable[[S, int], int | None]) -> None:
        self._rules.insert(self._index(anchor) + 1, (name, rule))

    def disable(self, name: str) -> None:
        self._rules.pop(self._index(name))

    def names(self) -> list[str]:
        return [n for n, _ in self._rules]

    def _index(self, name: str) -> int:
        for k, (n, _) in enumerate(self._rules):
            if n == name:
                return k
        raise KeyError(f"no rule {name!r}")

    def run(self, state: S, start: int, end: int) -> None:
        i = start
        while i < end:
            for _, rule in self._rules:
                j = rule(state, i)
                if j is not None and j > i:
                    i = j
                    break
            else:  # no rule claimed the line: skip it so the walk always ends
                i += 1
