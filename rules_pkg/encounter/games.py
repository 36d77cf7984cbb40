"""Each game's encounter rules, by game id (the ids of rules_pkg's calculators).

Found, not listed: the module of this package named after a game (`registry.game_modules()`)
holds that game's `RULES`, so a new game's encounter rules need no edit here. A game with no
such module has no encounter rules; a module that fails to import fails here, loudly.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..registry import game_modules
from . import __path__ as package_path
from .common import Rules


def _discover() -> dict[str, Rules]:
    games = set(game_modules())
    found: dict[str, Rules] = {}
    for m in pkgutil.iter_modules(package_path):
        if m.name in games:
            rules = importlib.import_module(f"{__package__}.{m.name}").RULES
            if not isinstance(rules, Rules) or rules.sheet.game != m.name:
                raise TypeError(f"rules_pkg.encounter.{m.name}.RULES is not the Rules of "
                                f"game {m.name!r}")
            found[m.name] = rules
    return found


RULES: dict[str, Rules] = _discover()
