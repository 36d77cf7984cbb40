"""Hypothesis properties of the encounter fold, for every game.

Random fights (combatants with any values, hits, adjustments, conditions, turns and
rounds): replaying the log gives the same state, also through the JSON file; undo after
an event gives the state before it; no value ever leaves its declared range, and every
value that an event asked to put outside it was clamped with a note.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_pkg import RulesError
from rules_pkg.encounter import (
    AddCombatant,
    Adjust,
    ClearCondition,
    Hit,
    NextRound,
    NextTurn,
    RollInitiative,
    SetCondition,
    SetValue,
    dump,
    fold,
    load,
    rules_for,
)
from rules_pkg.encounter.common import bounds
from rules_pkg.encounter.fold import step
from rules_pkg.encounter.log import numbered

GAMES = ("horizon", "forbidden_lands", "cyberpunk_red", "mecha", "d100")
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
IDS = ("a", "b", "c")
LOCATIONS = {"cyberpunk_red": ("body", "head"),
             "forbidden_lands": ("strength", "agility", "wits", "empathy"),
             "d100": ("", "crippled")}


@st.composite
def fights(draw: st.DrawFn, game: str) -> list[Any]:
    sheet = rules_for(game).sheet
    keys = [s.key for s in sheet.stats]
    seeds = st.integers(0, 2**32 - 1)
    log: list[Any] = []
    for cid in IDS:
        chosen = draw(st.lists(st.sampled_from(keys), max_size=3, unique=True))
        values = tuple((k, draw(st.integers(-20, 300))) for k in chosen)
        kind = draw(st.sampled_from(sheet.kinds))
        log.append(AddCombatant(cid, f"C{cid}", kind, values))
    log.append(RollInitiative(draw(seeds)))
    target = st.sampled_from(IDS)
    cond = st.sampled_from(sheet.conditions)
    events = st.one_of(
        st.builds(Hit, target, st.integers(0, 60), seeds,
                  st.sampled_from(LOCATIONS.get(game, ("",))), st.booleans(), st.booleans(),
                  st.booleans()),
        st.builds(Adjust, target, st.sampled_from(keys), st.integers(-80, 80)),
        st.builds(SetValue, target, st.sampled_from(keys), st.integers(-50, 400)),
        cond.flatmap(lambda c: st.builds(
            SetCondition, target, st.just(c.name), st.none() | st.integers(1, 4),
            st.sampled_from(c.levels or ("",)))),
        st.builds(ClearCondition, target, cond.map(lambda c: c.name)),
        st.builds(NextTurn, seeds, st.booleans()),
        st.builds(NextRound, seeds),
    )
    log.extend(draw(st.lists(events, max_size=14)))
    return log


def valid_prefixes(game: str, log: list[Any]) -> tuple[list[Any], list[Any]]:
    """The log without the events the rules refuse (clearing an absent condition …)."""
    rules = rules_for(game)
    kept: list[Any] = []
    states = [fold(game, [])]
    for e in log:
        try:
            nxt = step(rules, states[-1], e, len(kept))
        except RulesError:
            continue
        kept.append(e)
        states.append(nxt)
    return kept, states


def in_range(game: str, enc: Any) -> None:
    sheet = rules_for(game).sheet
    for c in enc.combatants:
        for key, value in c.values:
            lo, hi = bounds(sheet, c, sheet.stat(key))
            assert lo <= value <= hi, (c.name, key, value, lo, hi)


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_replay_undo_ranges_and_files(game: str, data: st.DataObject) -> None:
    log, states = valid_prefixes(game, data.draw(fights(game)))
    final = fold(game, log)
    assert final == states[-1]  # replaying the log gives the same state
    stored = load(dump(game, numbered(log)))[2]
    assert fold(game, [x.event for x in stored]) == final  # and so does its file
    for i, e in enumerate(log):
        # undo after an event gives the state before it
        assert fold(game, log[:i]) == states[i]
        in_range(game, states[i + 1])
        if isinstance(e, SetValue | Adjust):
            c = states[i].combatant(e.target)
            asked = e.value if isinstance(e, SetValue) else c.value(e.key) + e.delta
            got = states[i + 1].combatant(e.target).value(e.key)
            if got != asked:  # a value the event wanted outside its range: said so
                assert any("outside" in n for n in states[i + 1].history[-1].notes)
