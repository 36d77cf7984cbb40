"""The calculators' order is declared, not imported: each game package lists its modules in
the order of its source's sections (`MODULES`), and within a module the calculators keep
their definition order. Importing the games' modules in another order changes nothing (a
refactor that moved two shared readings once reordered the d100 calculators on the pages)."""

from __future__ import annotations

import json
import pkgutil
import random
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import rules_pkg
from rules_pkg import registry

ROOT = Path(__file__).resolve().parents[2]
IDS = [c.id for c in rules_pkg.calculators()]


def _submodules() -> list[str]:
    """Every module of every game package, in the order the games list them."""
    return [f"rules_pkg.{g}.{m}" for g in registry.game_modules()
            for m in import_module(f"rules_pkg.{g}").MODULES]


def _ids_after_importing(modules: list[str]) -> list[str]:
    """The registry's ids in a fresh interpreter that first imports `modules` in that order."""
    code = ("import importlib, json, sys\n"
            "for m in json.loads(sys.argv[1]):\n"
            "    importlib.import_module(m)\n"
            "import rules_pkg\n"
            "print(json.dumps([c.id for c in rules_pkg.calculators()]))\n")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(modules)], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=120)
    ids: list[str] = json.loads(out.stdout)
    return ids


@pytest.mark.parametrize("how", ["reversed", "shuffled"])
def test_the_order_does_not_follow_the_imports(how: str) -> None:
    modules = _submodules()
    if how == "reversed":
        modules.reverse()
    else:
        random.Random(10).shuffle(modules)
    assert modules[0] != _submodules()[0]
    assert _ids_after_importing(modules) == IDS


def test_each_game_lists_every_module_once() -> None:
    for game in registry.game_modules():
        package = import_module(f"rules_pkg.{game}")
        found = {m.name for m in pkgutil.iter_modules(package.__path__)}
        assert sorted(package.MODULES) == sorted(found), game


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
