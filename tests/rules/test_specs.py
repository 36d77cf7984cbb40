"""The numbers the rules read from the sources' prose (issue #10 item 2, one source layer):
each declared once as a data.Prose where its rule uses it, all listed in data.SPECS, all
read here against the extracted data, so a changed source fails in this one test, by name.
Cyberpunk RED's and Horizon's prose numbers are declared this way; data.prose_number has no
other caller."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import rules_pkg
from rules_pkg import data

rules_pkg.calculators()  # imports every game: their declarations land in SPECS
SPECS = list(data.SPECS)


def test_the_prose_numbers_are_declared() -> None:
    games = {s.game for s in SPECS}
    assert {"cyberpunk_red", "horizon"} <= games
    assert len(SPECS) >= 30
    keys = [(s.game, s.section, s.pattern, s.group) for s in SPECS]
    assert len(keys) == len(set(keys)), "a number is declared twice"


@pytest.mark.parametrize("spec", SPECS, ids=[f"{s.game}:{s.section}:{s.pattern}" for s in SPECS])
def test_every_declared_number_is_in_the_source(spec: data.Prose) -> None:
    value = spec.read()
    assert isinstance(value, int)
    if re.compile(spec.pattern).groups >= 2 and spec.group == 1:
        n, sides = spec.read_dice()
        assert n >= 1 and sides >= 1


def test_known_values_read_from_the_sheet() -> None:
    from rules_pkg import cyberpunk_red as c
    from rules_pkg.horizon import disengaged
    # cyberpunk-red-combat-cheat-sheet.txt: "costs an Action and 10 bullets", "immediately
    # take 6d6 damage", "unless they then succeed a DV15 Athletics Check"
    assert (c.AUTOFIRE_BULLETS, c.dice_of(c.ELECTROCUTION_DICE)) == (10, c.Dice(6, 6))
    assert c.FALLING_DV.read() == 15
    # horizon: "fail to locate you for 3 consecutive rounds"
    assert disengaged.ESCAPE_ROUNDS.read() == 3


def test_prose_is_read_only_through_declarations() -> None:
    """data.prose_number is the one reader; the rules call it only through data.Prose."""
    package = Path(rules_pkg.__file__).parent
    callers = []
    for path in package.rglob("*.py"):
        if path.name == "data.py" and path.parent == package:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        callers += [f"{path.relative_to(package)}:{n.lineno}" for n in ast.walk(tree)
                    if isinstance(n, ast.Attribute) and n.attr == "prose_number"]
    assert callers == []
