"""Each game's encounter rules, by game id (the ids of rules_pkg's calculators)."""

from __future__ import annotations

from . import cyberpunk_red, d100, forbidden_lands, horizon, mecha
from .common import Rules

RULES: dict[str, Rules] = {m.RULES.sheet.game: m.RULES for m in (
    horizon, forbidden_lands, cyberpunk_red, mecha, d100)}
