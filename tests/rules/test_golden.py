"""Every calculator still gives its recorded answers (tests/rules/golden/<game>.json).

A difference is printed as a readable diff per calculator and input set. An intended change
is recorded with `python -m tests.rules.golden --update` and committed with its reason.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("tests_rules_golden",
                                               Path(__file__).with_name("golden.py"))
assert _spec and _spec.loader
golden = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = golden
_spec.loader.exec_module(golden)


def test_every_game_has_a_golden_file() -> None:
    recorded = {p.stem for p in golden.GOLDEN_DIR.glob("*.json")}
    assert recorded == set(golden.games())


@pytest.mark.parametrize("game", golden.games())
def test_answers_match_the_golden_file(game: str) -> None:
    diffs = golden.differences(game)
    assert not diffs, "answers changed (run python -m tests.rules.golden --update if " \
        "intended):\n\n" + "\n\n".join(diffs)
