"""Each game's encounter rules, by game id (the ids of rules_pkg's calculators).

Found, not listed: a game's package (`registry.game_modules()`) with a module called
`encounter` holds that game's `RULES`, beside the calculators they follow, so adding a
game touches only its own package. A game with no such module has no encounter rules; one
that fails to import fails here, loudly. The game packages import this package's core
(events, model, common), never the other way round: this module is imported lazily
(fold.rules_for), once every game's package can be.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..registry import game_modules
from .common import Rules

MODULE = "encounter"


def _discover() -> dict[str, Rules]:
    found: dict[str, Rules] = {}
    for game in game_modules():
        package = importlib.import_module(f"rules_pkg.{game}")
        names = {m.name for m in pkgutil.iter_modules(getattr(package, "__path__", []))}
        if MODULE not in names:
            continue
        rules = importlib.import_module(f"rules_pkg.{game}.{MODULE}").RULES
        if not isinstance(rules, Rules) or rules.sheet.game != game:
            raise TypeError(f"rules_pkg.{game}.{MODULE}.RULES is not the Rules of "
                            f"game {game!r}")
        found[game] = rules
    return found


RULES: dict[str, Rules] = _discover()
