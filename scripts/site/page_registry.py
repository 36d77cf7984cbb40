"""Each page carries the registry entries of its own calculators (issue 11).

The forms are built from these entries as soon as tableside.js runs, with no fetch of
registry.json in between. That fetch used to leave a gap on a busy phone: a frame was
painted with the deep link's heading in place and the empty calculator boxes under it,
and the forms built a moment later pushed everything below them down (a layout shift).

The entries are exactly registry.json's (`Calculator.to_dict()`), in a hidden element's
attribute: escaped as any attribute is, never markup or script, whatever a source says.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from functools import cache

from scripts.site import page_answers
from scripts.site.page_answers import attribute

# The hosts render.calc_div and encounter.page_markdown write (their ids are escaped there).
_HOST = re.compile(r'<div class="ts-calc" data-calc="([^"]*)"')


@cache
def _entries() -> dict[str, str]:  # once per build: every page reads it
    from scripts.site.runtime import registry_entries

    return registry_entries()


def calculator_ids(markdown: str) -> list[str]:
    """The calculators a page's text places, once each, in page order."""
    return list(dict.fromkeys(html.unescape(m) for m in _HOST.findall(markdown)))


def block(ids: Iterable[str]) -> str:
    """The hidden element holding these calculators' entries ("" for none). An id with no
    calculator is left out: the page then says so where it stands (tableside.js)."""
    known = _entries()
    body = ",".join(known[i] for i in ids if i in known)
    if not body:
        return ""
    return f"<div class=\"ts-registry\" hidden data-registry='{attribute(f'[{body}]')}'></div>"


def with_registry(markdown: str) -> str:
    """A page's Markdown with its calculators' entries, and their answers for the inputs
    they start with (page_answers.py), appended (unchanged without any calculator)."""
    extra = "\n".join(b for b in (block(calculator_ids(markdown)),
                                    page_answers.block(page_answers.hosts(markdown))) if b)
    return f"{markdown.rstrip()}\n\n{extra}\n" if extra else markdown
