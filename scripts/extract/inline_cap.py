"""A budget for the inline Markdown of one document (issue #24).

markdown-it-py's inline parse is linear, but each '[' that opens no link costs ~55 µs (it
tries it as a link label, nested up to its limit), so a 1 MB line of '[' held the build
for about a minute. A document's blocks are read as Markdown while their '[' stay within
BRACKETS (~1 s of rendering); a block past it is shown as plain text, and the lint says so
at its line. No real rules document comes near it (the five have 0 to 40).
"""

from __future__ import annotations

from dataclasses import replace

from .model import Block, Document, Lint, ListBlock, ListItem, Paragraph, Section, Table

BRACKETS = 20_000


def _items(items: tuple[ListItem, ...]) -> int:
    return sum(it.text.count("[") + _items(it.children) for it in items)


def brackets(block: Block) -> int:
    """How many '[' the renderer would try as links in this block."""
    if isinstance(block, Paragraph):
        return block.text.count("[")
    if isinstance(block, ListBlock):
        return _items(block.items)
    cells = [*block.header, block.caption, *block.notes,
             *(c for row in block.rows for c in row.cells)]
    return sum(c.count("[") for c in cells)


def cap(doc: Document) -> tuple[Document, list[Lint]]:
    """The document with every Markdown block past the budget turned to plain text, and
    one lint item for each."""
    left = BRACKETS
    lint: list[Lint] = []

    def block(b: Block) -> Block:
        nonlocal left
        if b.inline != "markdown":
            return b
        n = brackets(b)
        if n <= left:
            left -= n
            return b
        lint.append(Lint(doc.source, b.lines[0], f"{n:,} '[' in one {b.type}, past the "
                         f"{BRACKETS:,} a document may have as Markdown: shown as plain text",
                         b.id if isinstance(b, Table) else ""))
        return replace(b, inline="text")

    def section(s: Section) -> Section:
        return replace(s, blocks=tuple(block(b) for b in s.blocks),
                       sections=tuple(section(x) for x in s.sections))

    return replace(doc, sections=tuple(section(s) for s in doc.sections)), lint
