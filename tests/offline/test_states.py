"""The page states the bench and the tests wait on (scripts/page_states.py) are the ones
the JavaScript sets: each value assigned to <html data-ts-sw|saved|python> in calculators/
is declared, and each declared value is assigned somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scripts.page_states import PYTHON, SAVED, SW, PageState, expect

UI = Path(__file__).resolve().parents[2] / "calculators"


def assigned(state: PageState) -> set[str]:
    """The string literals on the lines of calculators/ that set `state`'s attribute."""
    name = re.sub(r"-(\w)", lambda m: m.group(1).upper(), state.attr.removeprefix("data-"))
    setter = re.compile(rf"dataset\.{name}\s*=(?!=)(.*)")
    found: set[str] = set()
    for path in sorted(UI.rglob("*.*js")):
        for m in setter.finditer(path.read_text("utf-8")):
            found |= set(re.findall(r'"([^"]*)"', m.group(1)))
    return found


@pytest.mark.parametrize("state", [SW, SAVED, PYTHON], ids=lambda s: s.attr)
def test_the_declared_states_are_the_ones_the_pages_set(state: PageState) -> None:
    assert assigned(state) == set(state.values)


def test_a_state_that_never_happens_is_refused() -> None:
    assert expect(SW.is_("ready"), SAVED.is_("all")) == (
        "() => document.documentElement.getAttribute('data-ts-sw') === 'ready'"
        " && document.documentElement.getAttribute('data-ts-saved') === 'all'")
    with pytest.raises(ValueError, match="data-ts-saved is never 'done'"):
        SAVED.is_("done")
