"""A Markdown extension: what the search index sees of a page (issue #11).

* British and American spellings find each other: a section (heading to next heading)
  that uses one word of a group in `synonyms.toml` gets the group's other words as hidden
  text at its end, which the search plugin indexes and readers never see.
* Result snippets show words, not strings of numbers: table cells without a letter in
  them (AP rows, ranges, modifiers) are left out of the index (`data-search-exclude`,
  which the search plugin honours and then strips). Their table keeps its caption, column
  names and every cell with words, so a weapon's or an attack's name is still found.

It is a Python-Markdown extension (`markdown_extensions: - scripts.site.search_terms` in
mkdocs.yml), so every renderer that runs Python-Markdown runs it, MkDocs and Zensical
alike: the page's HTML is what both search indexes read.
"""

from __future__ import annotations

import html
import re
import tomllib
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

SYNONYMS = Path(__file__).with_name("synonyms.toml")
HEADING = re.compile(r"(<h[1-6][^>]*\bid=\"[^\"]+\"[^>]*>.*?</h[1-6]>)", re.S)
TAG = re.compile(r"<[^>]+>")
WORD = re.compile(r"[a-z]+")
NUMERIC_CELL = re.compile(
    r"<(?P<tag>t[dh])(?P<attrs>(?:\s[^>]*)?)>(?P<body>(?:(?!</t[dh]>).)*)</(?P=tag)>", re.S)


def load_groups(path: Path = SYNONYMS) -> list[frozenset[str]]:
    data = tomllib.loads(path.read_text("utf-8"))
    return [frozenset(w.lower() for w in group) for group in data.get("groups", [])]


def missing_synonyms(text: str, groups: list[frozenset[str]]) -> list[str]:
    """The words of each group that `text` uses one of, but not these."""
    words = set(WORD.findall(html.unescape(TAG.sub(" ", text)).lower()))
    out: list[str] = []
    for group in groups:
        if words & group:
            out.extend(sorted(group - words))
    return out


def add_synonyms(page_html: str, groups: list[frozenset[str]]) -> str:
    parts = HEADING.split(page_html)
    # parts: [before, heading, body, heading, body, ...]
    for i in range(1, len(parts), 2):
        body = parts[i + 1] if i + 1 < len(parts) else ""
        extra = missing_synonyms(parts[i] + body, groups)
        if extra:  # at the section's end: its snippet still starts with its own words
            parts[i + 1] = body + f'\n<p class="ts-syn" hidden>{" ".join(extra)}</p>\n'
    return "".join(parts)


def exclude_numeric_cells(page_html: str) -> str:
    def mark(m: re.Match[str]) -> str:
        text = html.unescape(TAG.sub("", m.group("body")))
        if re.search(r"[A-Za-z]", text) or "data-search-exclude" in m.group("attrs"):
            return m.group(0)
        tag = m.group("tag")
        return f'<{tag}{m.group("attrs")} data-search-exclude>{m.group("body")}</{tag}>'
    return NUMERIC_CELL.sub(mark, page_html)


class _SearchTerms(Postprocessor):
    """Runs on each page's finished HTML (after the raw HTML is put back: priority 0)."""

    groups: list[frozenset[str]] | None = None

    def run(self, text: str) -> str:
        if _SearchTerms.groups is None:
            _SearchTerms.groups = load_groups()
        return exclude_numeric_cells(add_synonyms(text, _SearchTerms.groups))


class SearchTermsExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.postprocessors.register(_SearchTerms(md), "tableside_search_terms", 0)


def makeExtension(**kwargs: Any) -> SearchTermsExtension:
    return SearchTermsExtension(**kwargs)
