"""The calculators' order is declared, not imported: each game package lists its modules in
the order of its source's sections (`MODULES`), and within a module the calculators keep
their definition order. Importing the games' modules in another order changes nothing (a
refactor that moved two shared readings once reordered the d100 calculators on the pages)."""

from __future__ import annotations

import pkgutil
import random
import sys
from importlib import import_module
from types import ModuleType

import pytest

import rules_pkg
from rules_pkg import registry

IDS = [c.id for c in rules_pkg.calculators()]


def _submodules() -> list[str]:
    """Every module of every game package, in the order the games list them."""
    return [f"rules_pkg.{g}.{m}" for g in registry.game_modules()
            for m in import_module(f"rules_pkg.{g}").MODULES]


def _ours(name: str) -> bool:
    return name == "rules_pkg" or name.startswith("rules_pkg.")


def _ids_after_importing(modules: list[str]) -> list[str]:
    """The registry's ids from a fresh rules_pkg whose modules are first imported in the
    order given (in this interpreter: Pyodide has no subprocess); the modules loaded before
    are put back after."""
    saved: dict[str, ModuleType] = {n: m for n, m in sys.modules.items() if _ours(n)}
    for name in saved:
        del sys.modules[name]
    try:
        for name in modules:
            import_module(name)
        fresh = import_module("rules_pkg.registry")
        assert fresh is not registry
        return [c.id for c in fresh.calculators()]
    finally:
        for name in [n for n in sys.modules if _ours(n)]:
            del sys.modules[name]
        sys.modules.update(saved)


@pytest.mark.parametrize("how", ["reversed", "shuffled"])
def test_the_order_does_not_follow_the_imports(how: str) -> None:
    """The games and their modules imported in another order, and a game first pulled in by
    the encounter tracker's imports (as the browser's bridge may), give the same order."""
    modules = _submodules()
    if how == "reversed":
        modules.reverse()
    else:
        random.Random(10).shuffle(modules)
        modules.insert(0, "rules_pkg.encounter.api")
    assert modules[0] != _submodules()[0]
    assert _ids_after_importing(modules) == IDS


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_order_does_not_follow_the_registration(seed: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a game too: a module that imports another registers that one's calculators
    first (two shared readings once moved that way reordered the d100 calculators)."""
    shuffled = list(registry._REGISTRY.items())
    random.Random(seed).shuffle(shuffled)
    assert [k for k, _ in shuffled] != IDS
    monkeypatch.setattr(registry, "_REGISTRY", dict(shuffled))
    assert [c.id for c in registry.calculators()] == IDS


def test_each_game_lists_every_module_once() -> None:
    for game in registry.game_modules():
        package = import_module(f"rules_pkg.{game}")
        found = {m.name for m in pkgutil.iter_modules(package.__path__)}
        # the game's encounter rules (rules_pkg.encounter.games finds them: `encounter` and
        # the modules it splits into, `encounter_*`) and its odds at the table
        # (rules_pkg.takeout finds them) hold no calculator
        calcs = {m for m in found if m not in ("encounter", "takeout")
                 and not m.startswith("encounter_")}
        assert sorted(package.MODULES) == sorted(calcs), game


def test_the_order_is_the_games_then_their_modules_then_the_lines() -> None:
    calcs = rules_pkg.calculators()
    games = [c.game for c in calcs]
    assert games == sorted(games)
    for game in registry.game_modules():
        modules = import_module(f"rules_pkg.{game}").MODULES
        places = [(modules.index(c.origin[0].rsplit(".", 1)[1]), c.origin[1])
                  for c in calcs if c.game == game]
        assert places == sorted(places), game
    # the basic test of each game is its first calculator (what a bare table page gets)
    assert [c.id for c in calcs if c.game == "d100"][:2] == ["d100.test", "d100.degrees"]
    assert IDS[0] == "cyberpunk_red.check"


def test_a_module_the_game_does_not_list_fails_loudly() -> None:
    calc = registry.get("d100.test")
    stray = registry.Calculator("d100.stray", "d100", "Stray", "nowhere", (), calc.fn,
                                origin=("rules_pkg.d100.unlisted", 1))
    registry.register(stray)
    try:
        with pytest.raises(RuntimeError, match=r"rules_pkg\.d100\.MODULES does not list"):
            rules_pkg.calculators()
    finally:
        registry._REGISTRY.pop("d100.stray")
