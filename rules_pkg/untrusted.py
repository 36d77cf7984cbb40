"""What text from outside gets before it is used (issue 24): sources, encounter files and
names typed or imported into a fight.

INVISIBLE is the one declaration of the characters no reader should get: C0 controls but
TAB and LF, DEL, C1 controls, bidirectional marks, overrides and isolates ("Trojan
Source"), zero-width characters that hide text or split words (ZWJ/ZWNJ stay: emoji and
scripts need them), a byte-order mark, interlinear annotations, noncharacters, lone
surrogates and Unicode tag characters. AS_SPACE end a line for some readers and not for
others: a space. The extraction removes them from sources (scripts/extract/clean.py), the
encounter from names.

JSON from outside is checked for depth before it is parsed: a 100,000-deep file would
exhaust the parser's stack ("Maximum call stack size exceeded" in the browser) instead of
being refused for what it is.
"""

from __future__ import annotations

import re
from itertools import accumulate, repeat
from operator import sub

AS_SPACE = "\f\v\x85\u2028\u2029"
INVISIBLE = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (not TAB/LF), DEL, C1 (\f \v \x85 are AS_SPACE)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks and overrides
    "\u200b\u2060-\u2064\u180e\ufeff"  # zero-width space, word joiner, invisible operators
    "\ufff9-\ufffb"  # interlinear annotations
    "\ufdd0-\ufdef\ufffe\uffff"  # noncharacters
    "\ud800-\udfff"  # lone surrogates
    "\U000e0000-\U000e007f"  # tag characters
)
_INVISIBLE = re.compile(f"[{INVISIBLE}]")
_SPACE = re.compile(f"[{AS_SPACE}]")


def clean_line(text: str) -> str:
    """A short string (a name, a title) without control or invisible characters."""
    return _SPACE.sub(" ", _INVISIBLE.sub("", text))


def clean_name(text: str) -> str:
    """A name as shown: cleaned, its runs of spaces (and TABs, LFs) made one, trimmed."""
    return " ".join(clean_line(text).split())


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # (unrolled: one step per run, not per character)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x02", "{": "\x02", "]": "\x00", "}": "\x00"})  # 1 ± 1


def json_depth(text: str) -> int:
    """How deeply JSON text nests its arrays and objects, counted without parsing (strings
    skipped): linear, with no recursion, whatever the text."""
    if "\\" not in text and text.count('"') % 2 == 0:
        # no escapes: every other quote opens a string, so the text between a closing
        # quote and the next opening one is outside strings (a third faster than _STRING
        # on a 5,000-event file, read on every import and reload: issue 24)
        outside = "".join(text.split('"')[::2])
    else:
        outside = _STRING.sub("", text)
    brackets = _NOT_BRACKET.sub("", outside)
    if not brackets:
        return 0
    # +1 for an opening bracket, -1 for a closing one, summed in C (a frame of ours per
    # bracket was a tenth of reading a 5,000-event file, issue 24)
    return int(max(accumulate(map(sub, brackets.translate(_STEP).encode(), repeat(1)))))
