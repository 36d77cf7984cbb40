"""Rendered pages without the theme's indentation: a run of only whitespace between two
tags becomes one line break. The theme's templates indent every menu entry over a dozen
lines; on a site of many small pages that was a quarter of every page (issue #24).

A whitespace-only run between tags renders as one space wherever it stood, so the page
reads and lays out the same; `<pre>`, `<textarea>`, `<script>` and `<style>` are left byte
for byte (their whitespace is content, and the CSP hashes the inline scripts' text), and
no attribute or text with a letter in it is touched.
"""

from __future__ import annotations

import re
from pathlib import Path

_RAW = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2\s*>)", re.S | re.I)
# after a tag (or a raw element: the start of a part) and before one (or the part's end)
_BETWEEN_TAGS = re.compile(r"(?:(?<=>)|^)[ \t\r\n\f]{2,}(?=<|$)")


def compact(html: str) -> str:
    parts = _RAW.split(html)  # text, raw element, its name, text, ...
    for i in range(0, len(parts), 3):
        parts[i] = _BETWEEN_TAGS.sub("\n", parts[i])
    return "".join(p for i, p in enumerate(parts) if i % 3 != 2)


def compact_site(site_dir: Path) -> int:
    """Compact every page of site_dir; the bytes saved."""
    saved = 0
    for page in site_dir.rglob("*.html"):
        text = page.read_text("utf-8")
        small = compact(text)
        if small != text:
            page.write_text(small, "utf-8")
            saved += len(text) - len(small)
    return saved
