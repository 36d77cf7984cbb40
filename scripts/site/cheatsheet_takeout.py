"""The printed cheat sheet's table of the chance to take out a typical target (issue #28),
worked out at build time by the same rules_pkg.takeout the Encounter page's odds use: one
row per typical attack and target (each game's `TYPICAL`), the chance to hit and to take the
target out by the 1st, 2nd and 3rd attack of a turn."""

from __future__ import annotations

import importlib.util
from fractions import Fraction

from rules_pkg import takeout
from rules_pkg.registry import game_modules
from scripts.site.render import Json


def _pct(p: Fraction) -> str:
    pct = float(p) * 100
    if p == 0:
        return "0 %"
    if p == 1:
        return "100 %"
    return "< 1 %" if pct < 1 else "> 99 %" if pct > 99 else f"{pct:.0f} %"


def takeout_table(game: str) -> Json | None:
    """The table, or None for a game without typical targets (a document of no game of
    rules_pkg, whose id may even be a module's name: `data`)."""
    if game not in game_modules() or importlib.util.find_spec(
            f"rules_pkg.{game}.takeout") is None:
        return None
    rows = takeout.typical(game)
    if not rows:
        return None
    most = max(t.attacks for t, _ in rows)
    body = [{"cells": [t.attack, t.target, _pct(r.p_hit),
                       *(_pct(p) for p in r.out_by), *([""] * (most - len(r.out_by)))],
             "line": 0} for t, r in rows]
    rule = rows[0][1].out_rule
    return {"type": "table", "id": f"cheat-takeout-{game}", "inline": "text",
            "caption": "Chance to take out a typical target",
            "header": ["Attack", "Target", "Hit", *(f"Out by attack {k}" for k in
                                                    range(1, most + 1))],
            "rows": body, "notes": [f"Out: {rule}. Worked out exactly by the site's rules "
                                    "engine (rules_pkg.takeout), as the Encounter page's odds."],
            "lines": [0, 0]}
