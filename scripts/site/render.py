"""Model (rules_pkg/data/<game>.json, see rules_pkg/model.py) -> page Markdown/HTML.

Headings become Markdown headings with attr_list ids, so MkDocs' table of
contents and anchor validation see them; every block becomes raw HTML (blank
lines around it, none inside), so Python-Markdown passes it through untouched.
Source text is never trusted: "text" is escaped, "markdown" goes through
markdown-it-py's js-default preset (raw HTML off, javascript: links refused).
"""

from __future__ import annotations

import bisect
import html
import json
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt

from scripts.site.page_registry import with_registry

Json = dict[str, Any]
Placement = tuple[str, dict[str, str]]
GLOSSARY = Path(__file__).with_name("glossary.toml")


@cache
def _md() -> MarkdownIt:
    # Raw HTML off, javascript:/vbscript:/data: links refused (js-default); no images: a
    # source must not make a reader's phone fetch from another host (nor the CSP report it).
    return MarkdownIt("js-default").disable("image")


def inline_html(text: str, inline: str) -> str:
    """One paragraph/list item/cell of source text as safe inline HTML."""
    if inline == "markdown":
        rendered: str = _md().renderInline(text)
        return rendered.strip()
    return html.escape(text, quote=True)


# --- abbreviations ---------------------------------------------------------------------
@cache
def glossary(game: str, path: Path = GLOSSARY) -> dict[str, str]:
    """The game's abbreviations (scripts/site/glossary.toml, `[<game id>]` table)."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    table = data.get(game, {})
    return {k: str(v) for k, v in table.items()} if isinstance(table, dict) else {}


_TAG_OR_ENTITY = re.compile(r"(<[^>]*>|&#?\w+;)")
_SKIP_INSIDE = ("a", "abbr", "code")


@cache
def _abbr_pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    # Whole words: not glued to other letters ("+2AP" counts, "APEX" does not).
    alts = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z])({alts})(?![A-Za-z])")


def add_abbr(fragment: str, terms: Mapping[str, str]) -> str:
    """Wrap whole-word abbreviations in text nodes of an HTML fragment (never in tags/entities)."""
    if not terms:
        return fragment
    pat = _abbr_pattern(tuple(terms))
    out: list[str] = []
    depth = 0  # inside <a>/<abbr>/<code>: leave alone
    for part in _TAG_OR_ENTITY.split(fragment):
        if part.startswith("<"):
            name = re.match(r"</?([a-zA-Z0-9]+)", part)
            if name and name.group(1).lower() in _SKIP_INSIDE:
                depth += -1 if part.startswith("</") else 1
            out.append(part)
        elif part.startswith("&") or depth > 0:
            out.append(part)
        else:
            out.append(pat.sub(lambda m: _abbr(m.group(1), terms[m.group(1)]), part))
    return "".join(out)


def _abbr(term: str, title: str) -> str:
    return f'<abbr class="ts-abbr" title="{html.escape(title)}" tabindex="0">{term}</abbr>'


# --- page context ----------------------------------------------------------------------
@dataclass
class PageCtx:
    """What one generated page needs while rendering: its game, lint and used ids."""

    game: str
    terms: Mapping[str, str]
    lint: list[Json]  # the document's lint items
    calcs_for_table: Callable[[str], list[Placement]]
    # calculators naming a section (rules in prose, without a table of their own)
    calcs_for_section: Callable[[str], list[Placement]] = lambda sid: []
    used_ids: set[str] = field(default_factory=set)
    placed: set[str] = field(default_factory=set)  # calculator ids already on the page
    table_ids: list[str] = field(default_factory=list)  # tables placed on this page
    claimed: bool = False  # some table on the page has its own calculator
    _lint_index: dict[str, list[Json]] | None = None
    _loose_lines: list[int] = field(default_factory=list)

    def unique_id(self, want: str) -> str:
        """An element id not used on this page yet (table ids may equal section slugs)."""
        cand, n = want, 1
        while cand in self.used_ids:
            n += 1
            cand = f"table-{want}" if n == 2 else f"table-{want}-{n - 1}"
        self.used_ids.add(cand)
        return cand

    def text(self, text: str, inline: str) -> str:
        return add_abbr(inline_html(text, inline), self.terms)

    def lint_by_table(self) -> dict[str, list[Json]]:
        """The lint items of each table, and (key "") those of no table sorted by line:
        indexed once per page, so a page of thousands of tables stays linear."""
        if self._lint_index is None:
            index: dict[str, list[Json]] = {}
            for item in self.lint:
                index.setdefault(str(item.get("table") or ""), []).append(item)
            index.setdefault("", []).sort(key=lambda i: int(i["line"]))
            self._lint_index = index
            self._loose_lines = [int(i["line"]) for i in index[""]]
        return self._lint_index

    def loose_lint(self, first: int, last: int) -> list[Json]:
        """Lint items of no table on source lines first..last."""
        loose = self.lint_by_table()[""]
        lines = self._loose_lines
        return loose[bisect.bisect_left(lines, first):bisect.bisect_right(lines, last)]


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def flag(message: str, line: int) -> str:
    tip = f"Source line {line}: {message}"
    return (f'<span class="ts-flag" role="img" tabindex="0" title="{_attr(tip)}" '
            f'aria-label="{_attr("Check: " + tip)}">⚑</span>')


# --- blocks --------------------------------------------------------------------------
def block_html(block: Json, ctx: PageCtx) -> str:
    return no_blank_lines(render_block(block, ctx))


def no_blank_lines(fragment: str) -> str:
    # Python-Markdown ends a raw HTML block at a blank line; whitespace is collapsed anyway.
    return re.sub(r"\n[ \t]*(?=\n)", "", fragment)


def render_paragraph(block: Json, ctx: PageCtx) -> str:
    body = ctx.text(block["text"], block.get("inline", "text"))
    return f'<p class="ts-para" data-line="{block["lines"][0]}">{body}</p>'


def _items(items: Iterable[Json], inline: str, ordered: bool, ctx: PageCtx) -> str:
    tag = "ol" if ordered else "ul"
    parts = [f"<{tag}>"]
    for it in items:
        kids = _items(it["children"], inline, ordered, ctx) if it.get("children") else ""
        parts.append(f'<li data-line="{it["lines"][0]}">{ctx.text(it["text"], inline)}{kids}</li>')
    parts.append(f"</{tag}>")
    return "\n".join(parts)


def render_list(block: Json, ctx: PageCtx) -> str:
    inner = _items(block["items"], block.get("inline", "text"), bool(block.get("ordered")), ctx)
    return f'<div class="ts-list" data-line="{block["lines"][0]}">\n{inner}\n</div>'


def table_lint(ctx: PageCtx, table_id: str) -> dict[tuple[int, int], list[Json]]:
    """Lint items of one table keyed by (row, column); -1 means the whole row/table."""
    found: dict[tuple[int, int], list[Json]] = {}
    for item in ctx.lint_by_table().get(table_id, []) if table_id else []:
        found.setdefault((item.get("row", -1), item.get("column", -1)), []).append(item)
    return found


def _flags(items: list[Json]) -> str:
    return "".join(flag(i["message"], i["line"]) for i in items)


def render_table(block: Json, ctx: PageCtx, compact: bool = False) -> str:
    """A source table as a real <table>; cells as the source has them, flags on linted cells."""
    tid: str = block["id"]
    inline = block.get("inline", "text")
    lint = table_lint(ctx, tid)
    elem_id = ctx.unique_id(tid)
    label = block.get("caption") or tid
    cls = "ts-table ts-compact" if compact else "ts-table"
    header = block.get("header") or []
    # Long prose per row reads better stacked on a phone (CSS, screens under 600 px).
    long_text = bool(header) and not compact and _long_rows(block)
    if long_text:
        cls += " ts-long"
    out = [f'<div class="ts-table-wrap" role="region" tabindex="0" aria-label="{_attr(label)}">',
           f'<table id="{_attr(elem_id)}" class="{cls}" data-table="{_attr(tid)}" '
           f'data-line="{block["lines"][0]}">']
    if block.get("caption") or (-1, -1) in lint:
        out.append(f"<caption>{ctx.text(block.get('caption', ''), inline)}"
                   f"{_flags(lint.get((-1, -1), []))}</caption>")
    widths = _column_classes(block)
    if header:
        out.append("<thead><tr>")
        out.extend(f'<th scope="col"{_cls(widths, c)}>{ctx.text(h, inline)}</th>'
                   for c, h in enumerate(header))
        out.append("</tr></thead>")
    out.append("<tbody>")
    for r, row in enumerate(block["rows"]):
        row_flags = lint.get((r, -1), [])
        tr_cls = ' class="ts-linted"' if row_flags else ""
        out.append(f'<tr data-row="{r}" data-line="{row["line"]}"{tr_cls}>')
        for c, cell in enumerate(row["cells"]):
            items = lint.get((r, c), []) + (row_flags if c == 0 else [])
            extra = [widths[c]] if not header and r == 0 and c < len(widths) and widths[c] else []
            cell_cls = _cls([" ".join(["ts-linted"] * bool(items) + extra)], 0)
            tag = "th" if c == 0 and _row_header(block) else "td"
            scope = ' scope="row"' if tag == "th" else ""
            label = (f' data-label="{_attr(header[c])}"'
                     if long_text and c < len(header) and header[c].strip() else "")
            out.append(f"<{tag}{scope}{cell_cls}{label}>{ctx.text(cell, inline)}"
                       f"{_flags(items)}</{tag}>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    if block.get("notes"):
        notes = "\n".join(f"<p>{ctx.text(n, inline)}</p>" for n in block["notes"])
        out.append(f'<div class="ts-table-notes">\n{notes}\n</div>')
    ctx.table_ids.append(tid)
    placements = ctx.calcs_for_table(tid)
    if placements:
        ctx.claimed = True
    ctx.placed |= {c for c, _ in placements}
    out.extend(calc_div(c, p) for c, p in placements)
    return "\n".join(out)


def _column_classes(block: Json) -> list[str]:
    """A minimum width for columns of long text, so auto layout cannot squeeze them to a
    word per line when a wide table scrolls in its box."""
    out: list[str] = []
    for c in range(max([0, len(block.get("header") or [])] +
                       [len(r["cells"]) for r in block["rows"]])):
        longest = max([len(r["cells"][c]) for r in block["rows"] if c < len(r["cells"])] or [0])
        out.append("ts-w2" if longest >= 40 else "ts-w1" if longest >= 16 else "")
    return out


def _cls(classes: list[str], i: int) -> str:
    return f' class="{classes[i]}"' if i < len(classes) and classes[i] else ""


def _long_rows(block: Json) -> bool:
    rows = block["rows"]
    return bool(rows) and sum(len(c) for r in rows for c in r["cells"]) / len(rows) > 120


def _row_header(block: Json) -> bool:
    # First column labels the row when every row has a non-empty first cell.
    rows = block["rows"]
    return bool(rows) and all(r["cells"] and r["cells"][0].strip() for r in rows)


def calc_div(calc_id: str, preset: Mapping[str, str]) -> str:
    data = json.dumps(dict(preset), sort_keys=True, ensure_ascii=False)
    return (f'<div class="ts-calc" data-calc="{_attr(calc_id)}" '
            f"data-preset='{_attr(data)}'></div>")


def render_block(block: Json, ctx: PageCtx) -> str:
    kind = block.get("type")
    if kind == "table":
        return render_table(block, ctx)
    if kind == "list":
        return render_list(block, ctx)
    return render_paragraph(block, ctx)


# --- sections ------------------------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!<>])")
# Python-Markdown has no backslash escape for these (it would show the backslash): entities
_MD_ENTITY = {"|": "&#124;", "~": "&#126;"}


def heading_text(title: str) -> str:
    """A source title safe inside a Markdown heading: escaped HTML, escaped Markdown."""
    text = _MD_SPECIAL.sub(r"\\\1", html.escape(" ".join(title.split()) or "Untitled",
                                                quote=False))
    return re.sub(r"[|~]", lambda m: _MD_ENTITY[m.group(0)], text)


def nav_title(title: str) -> str:
    """A source title as MkDocs needs it in the menu, breadcrumbs, `<title>` and search: as
    HTML (Material's templates print titles without escaping them), so escaped here. Quotes
    stay: Material escapes every title it puts in an attribute (`| e`), and an aria-label
    must read "Attacker's Edge", not "Attacker&#x27;s Edge"."""
    return html.escape(" ".join(title.split()) or "Untitled", quote=False)


def front_matter(meta: Mapping[str, Any]) -> str:
    """YAML front matter written by the YAML serializer (never by string formatting)."""
    text = yaml.safe_dump(dict(meta), allow_unicode=True, sort_keys=False, width=1 << 20)
    return f"---\n{text}---\n\n"


def section_lint(ctx: PageCtx, section: Json, nested: Iterable[Json]) -> list[Json]:
    """Lint without a table whose line falls in this section but in none of its subsections."""
    first, last = section["lines"]
    inner = [s["lines"] for s in nested]
    return [i for i in ctx.loose_lint(first, last)
            if not any(a <= i["line"] <= b for a, b in inner)]


def render_section(section: Json, depth: int, ctx: PageCtx) -> Iterator[str]:
    """Markdown for a section and everything under it; `depth` 1 is the page title (h1)."""
    level = min(depth, 6)
    sid = section["id"]  # reserved on the page up front (PageCtx.used_ids)
    yield f"{'#' * level} {heading_text(section['title'])} {{#{sid}}}"
    yield from section_body(section, ctx)
    for sub in section.get("sections", []):
        yield from render_section(sub, depth + 1, ctx)


def section_body(section: Json, ctx: PageCtx) -> Iterator[str]:
    """A section's own lint notes and blocks (not its heading, not its subsections)."""
    nested = [*section.get("sections", []), *({"lines": r} for r in section.get("_inner", []))]
    for item in section_lint(ctx, section, nested):
        yield (f'<div class="ts-lint-note" data-line="{item["line"]}">'
               f'{flag(item["message"], item["line"])} {html.escape(item["message"])}</div>')
    for block in section.get("blocks", []):
        yield block_html(block, ctx)
    # Then the calculators for this section's rules, once per page.
    for calc_id, preset in ctx.calcs_for_section(section["id"]):
        if calc_id not in ctx.placed:
            ctx.placed.add(calc_id)
            ctx.claimed = True
            yield calc_div(calc_id, preset)


def page_markdown(parts: Iterable[str]) -> str:
    return with_registry("\n\n".join(parts) + "\n")


def page_calculators(ctx: PageCtx,
                     for_page: Callable[[list[str]], list[Placement]]) -> list[str]:
    """General calculators at the end of a page whose tables no calculator claimed."""
    if not ctx.table_ids or ctx.claimed:
        return []
    return [calc_div(c, p) for c, p in for_page(ctx.table_ids)]
