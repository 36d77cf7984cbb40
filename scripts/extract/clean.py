"""Characters no reader should get from a source: removed before any dialect sees the text,
each removal reported by the lint with its file and line.

Removed: C0 controls except TAB and LF (a lone CR or CRLF is a line break, handled first),
DEL, C1 controls (U+0080-U+009F, e.g. a stray 0x80 that breaks YAML front matter),
bidirectional overrides and isolates (they reorder what a reader sees: "Trojan Source"),
zero-width characters that hide text or split words (ZWJ/ZWNJ stay: emoji and scripts need
them), a byte-order mark inside the text, interlinear annotations, Unicode tag characters
(invisible ASCII look-alikes), noncharacters and lone surrogates. Form feed, vertical tab,
NEL and the Unicode line/paragraph separators become a space (they end a line for some
readers and not for others, so they must not move line numbers).
"""

from __future__ import annotations

import re
import unicodedata

from rules_pkg.untrusted import AS_SPACE, INVISIBLE

from .model import Lint

# declared once, in the engine (rules_pkg/untrusted.py): a fight's names are cleaned alike
_AS_SPACE = AS_SPACE
_REMOVE = INVISIBLE
_BAD = re.compile(f"[{_REMOVE}{_AS_SPACE}]")
_BAD_REMOVE = re.compile(f"[{_REMOVE}]")


def newlines(text: str) -> str:
    """LF line breaks only: CRLF and a lone CR (old Mac files) each end one line."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean_line(text: str) -> str:
    """A short string (a file name, a title) without control or invisible characters."""
    out = _BAD_REMOVE.sub("", text)
    return "".join(" " if c in _AS_SPACE else c for c in out)


def _name(c: str) -> str:
    return f"U+{ord(c):04X}" + (f" {unicodedata.name(c)}" if unicodedata.name(c, "") else "")


def clean_text(text: str, source: str) -> tuple[str, list[Lint]]:
    """`text` with LF line breaks and without the characters above; one lint item per line
    that lost some, naming them."""
    text = newlines(text.removeprefix("\ufeff"))
    if not _BAD.search(text):
        return text, []
    lint: list[Lint] = []
    lines = text.split("\n")
    for no, line in enumerate(lines, 1):
        found = _BAD.findall(line)
        if not found:
            continue
        kinds = sorted(set(found))
        names = ", ".join(_name(c) for c in kinds[:4]) + (" …" if len(kinds) > 4 else "")
        lint.append(Lint(source, no, f"{len(found)} control or invisible character(s) removed "
                                     f"({names})"))
        lines[no - 1] = clean_line(line)
    return "\n".join(lines), lint
