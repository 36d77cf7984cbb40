"""Horizon: Out of the Ashes wiki export (dialect "horizon-wiki").

The export (sources/horizon-out-of-the-ashes-combat.txt) is plain text with no
heading marks. What the wiki's structure left behind, and how it is read:

  * a collapsible section prints its heading twice ("Priorities… (Lore)",
    blank, "Priorities… (Lore)"): one section spanning both lines;
  * a heading printed once between blank lines opens a topic ("Running
    Combat"); one in capitals is a sub-heading of the topic ("STEP 1 - …"); one
    followed by a weapon profile is a weapon category ("Pistols") inside the
    weapon group collapsible ("High-Caliber Weapons");
  * a weapon profile ("Weapon Profile - <Name> (Tier N)", hints `profiles.heading`)
    is a name line, fields ("Magazine: 3Shots Reload: …" on one line, or
    "Move:" / "-5m" one per line), a header and rows in one of two layouts:
    "ap" (one row per AP score) or "banded" (AP bands "0 - 5", blank cells
    simply missing from the row, so they are placed by each column's pattern);
  * bullets ("  • "), the rules' small space-separated tables (hints `[[tables]]`)
    and "Label: v1 v2 …" row pairs (the die-result table).

Block rules run as a RuleChain over the lines (after markdown-it-py's block
ruler) and emit tokens; core rules then align the profile rows, nest the
sections, build `records` and lint. Values are never changed: what looks wrong
is reported in Document.lint with file and line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..build import DocBuilder
from ..lines import check_text, split_lines
from ..model import Document, ListBlock, ListItem, Table
from ..util import slugify
from .base import (
    BlockTok,
    HeadingTok,
    RawProfile,
    State,
    cells_of,
    fits,
    read_hints,
    segment_header,
    shape,
)
from .blocks import block_rules
from .core import (
    Placement,
    _skill_rows,
    column_pools,
    heading_levels,
    match_skill,
    place_rows,
    profile_record,
)
from .lint import lint_document

# What the tests and the dialect table use of this package.
__all__ = ["cells_of", "extract", "fits", "read_hints", "segment_header", "shape"]

# --- extract -----------------------------------------------------------------------------


def extract(text: str, source: str, hints: Mapping[str, Any]) -> Document:
    check_text(text, source)
    h = read_hints(hints)
    st = State(split_lines(text), h, DocBuilder(source, hints))
    block_rules().run(st, 0, len(st.lines))

    profiles = [t for t in st.tokens if isinstance(t, RawProfile)]
    pools = column_pools(profiles, h)
    levels = heading_levels(st.tokens)
    b = st.b
    placed: list[tuple[RawProfile, Table]] = []
    pending: list[tuple[RawProfile, Table, str, Placement]] = []
    tables: list[Table] = []
    for k, tok in enumerate(st.tokens):
        if isinstance(tok, HeadingTok):
            b.heading(levels[k].level, tok.title, tok.lines[0])
        elif isinstance(tok, BlockTok):
            b.add(tok.block)
            if isinstance(tok.block, Table):
                tables.append(tok.block)
        else:
            b.heading(levels[k].level, tok.heading.title, tok.heading.lines[0])
            section = b.stack[-1].id
            if tok.fields:
                items = tuple(ListItem(f"{label}: {value}" if value else f"{label}:", (ln, ln))
                              for label, value, ln in tok.fields)
                b.add(ListBlock(items, (tok.fields[0][2], tok.fields[-1][2])))
            res = place_rows(tok, b.table_id(h.table_prefix + slugify(tok.name, "profile")),
                             pools, h)
            for line, msg, r, c in res.findings:
                st.warn(line, msg, res.table.id, r, c)
            b.add(res.table)
            placed.append((tok, res.table))
            pending.append((tok, res.table, section, levels[k]))
    skills = _skill_rows(tables, h)
    records: list[dict[str, Any]] = []
    for p, t, section, pl in pending:
        sk = match_skill(pl.category, skills) if pl.category else None
        records.append(profile_record(p, t, section, pl, str(sk["skill"]) if sk else "", h))
    doc = b.finish({"weapon_profiles": records, "combat_skills": skills} if skills
                   else {"weapon_profiles": records})
    lint_document(st, placed, records, skills, doc.sections)
    lint = sorted(set(doc.lint) | set(st.lint), key=lambda x: (x.line, x.table, x.row, x.column,
                                                                 x.message))
    return Document(doc.source, doc.game, doc.title, doc.sections, doc.records, tuple(lint))
