"""Which calculators stand next to which tables.

A calculator declares fnmatch patterns of the extracted table ids it belongs to
(`Calculator.tables`). Next to a table the page shows every calculator whose
patterns match it, preset from the table where an input says so
(`Input.from_table`). A page with tables that no calculator claims gets the
game's general calculators (those that declare no tables), so no table page
is left without one.
"""

from __future__ import annotations

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


def calculators_for_page(game: str, table_ids: Iterable[str]) -> list[Placement]:
    """General calculators for a page whose tables no calculator claims."""
    ids = list(table_ids)
    if not ids or any(calculators_for_table(game, t) for t in ids):
        return []
    return [(c.id, {}) for c in rules_pkg.calculators() if c.game == game and not c.tables]
