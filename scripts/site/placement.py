"""Which calculators stand next to which tables and sections.

A calculator declares fnmatch patterns of the extracted table ids it belongs to
(`Calculator.tables`) and of the section ids whose rules it implements
(`Calculator.sections`). Next to a table the page shows every calculator whose
table patterns match it, preset from the table where an input says so
(`Input.from_table`); at the end of a section, the calculators naming that
section (most rules are prose without a table). A page with tables that no
calculator claims gets the game's general calculators (those that name no
table and no section), or the game's first (basic) calculator when it has none,
so no table page is left without one.

A calculator that names neither tables nor sections still stands next to its rule: at
the first section its source cites (`... § Armor Save, § ...` → section `armor-save`),
so every registered calculator is on some page (tests/glance/test_placement.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase

import rules_pkg

Placement = tuple[str, dict[str, str]]  # (calculator id, preset inputs)


def calculators_for_table(game: str, table_id: str) -> list[Placement]:
    found: list[Placement] = []
    for calc in rules_pkg.calculators():
        if calc.game != game or not any(fnmatchcase(table_id, p) for p in calc.tables):
            continue
        preset = {i.name: table_id[len(i.from_table):] for i in calc.inputs
                  if i.from_table and table_id.startswith(i.from_table)}
        found.append((calc.id, preset))
    return found


_CITED = re.compile(r"§\s*([^,;()+§]+)")


def cited_section(source: str) -> str | None:
    """The section id of the first `§ Title` a calculator's source cites, slugged as the
    pages slug headings ("Entangling & Disarming" → "entangling-disarming")."""
    m = _CITED.search(source)
    if not m:
        return None
    slug = re.sub(r"[^a-z0-9]+", "-", m.group(1).strip().lower()).strip("-")
    return slug or None


def section_patterns(calc: rules_pkg.Calculator) -> tuple[str, ...]:
    """The sections a calculator stands at: those it names, else the one its source cites."""
    if calc.sections or calc.tables:
        return tuple(calc.sections)
    cited = cited_section(calc.source)
    return (cited,) if cited else ()


def calculators_for_section(game: str, section_id: str) -> list[Placement]:
    return [(c.id, {}) for c in rules_pkg.calculators()
            if c.game == game and any(fnmatchcase(section_id, p) for p in section_patterns(c))]


def calculators_for_page(game: str, table_ids: Iterable[str],
                         section_ids: Iterable[str] = ()) -> list[Placement]:
    """General calculators for a page whose tables no calculator claims."""
    ids = list(table_ids)
    if not ids or any(calculators_for_table(game, t) for t in ids):
        return []
    if any(calculators_for_section(game, s) for s in section_ids):
        return []
    game_calcs = [c for c in rules_pkg.calculators() if c.game == game]
    general = [(c.id, {}) for c in game_calcs if not c.tables and not c.sections]
    # When every calculator names its tables or sections, the game's first one (its basic
    # test, e.g. "Check against a DV") still keeps a table page from standing bare.
    return general or [(c.id, {}) for c in game_calcs[:1]]
