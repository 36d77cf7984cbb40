"""The fold's shortcuts give what the plain ways give (issue 24: a fast replay).

Hypothesis properties: an event's lazily seeded dice draw the very numbers of
random.Random(seed); model.replace is dataclasses.replace; a History grown entry by entry
is the tuple of its entries; the d100 test of a fold answers as the calculator does; the
running-count degree odds are the summed ones; the mecha initiative roll is its dice
program's, as dice.sample runs it.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_pkg import dice, registry
from rules_pkg.encounter import codec
from rules_pkg.encounter import events as ev
from rules_pkg.encounter import log as stored
from rules_pkg.encounter.model import Combatant, Condition, Encounter, Entry, History, replace
from rules_pkg.encounter.seeded import Seeded, generator
from rules_pkg.errors import RulesError
from rules_pkg.mecha.initiative import outcome

SEEDS = st.integers(0, 2**32 - 1)
d100 = importlib.import_module("rules_pkg.d100.encounter")
degrees = importlib.import_module("rules_pkg.d100.degrees")
mecha = importlib.import_module("rules_pkg.mecha.encounter")


def draws(rng: random.Random, calls: list[tuple[str, int]]) -> list[Any]:
    out: list[Any] = []
    for name, n in calls:
        if name == "randint":
            out.append(rng.randint(1, n))
        elif name == "randrange":
            out.append(rng.randrange(2**32))
        elif name == "random":
            out.append(rng.random())
        elif name == "gauss":
            out.append(rng.gauss(0, 1))
        elif name == "choice":
            out.append(rng.choice(range(n)))
        else:
            items = list(range(n))
            rng.shuffle(items)
            out.append(items)
    return out


CALLS = st.lists(st.tuples(st.sampled_from(("randint", "randrange", "random", "gauss",
                                            "choice", "shuffle")), st.integers(1, 100)),
                 max_size=12)


@settings(deadline=None)
@given(SEEDS, CALLS)
def test_an_events_dice_are_random_random_of_its_seed(seed: int, calls: list[Any]) -> None:
    assert draws(Seeded(seed), calls) == draws(random.Random(seed), calls)


@settings(deadline=None)  # a shared machine: no time limit per example
@given(SEEDS)
def test_seeded_state_is_random_randoms(seed: int) -> None:
    assert Seeded(seed).getstate() == random.Random(seed).getstate()


@settings(deadline=None)  # a shared machine: no time limit per example
@given(SEEDS | st.integers(0, 2**80), CALLS)
def test_a_generator_is_random_random_of_its_seed(seed: int, calls: list[Any]) -> None:
    assert generator(seed).getstate() == random.Random(seed).getstate()
    assert draws(generator(seed), calls) == draws(random.Random(seed), calls)


COMBATANTS = st.builds(
    Combatant, st.text(max_size=3), st.text(max_size=3), st.sampled_from(("a", "b")),
    st.lists(st.tuples(st.sampled_from(("hp", "sp")), st.integers(-5, 50)), max_size=2).map(tuple),
    st.lists(st.builds(Condition, st.text(max_size=3), st.none() | st.integers(1, 4)),
             max_size=2).map(tuple),
    st.none() | st.integers(-5, 30))


@settings(deadline=None)  # a shared machine: no time limit per example
@given(COMBATANTS, st.none() | st.integers(-5, 30), st.text(max_size=3))
def test_replace_is_dataclasses_replace(c: Combatant, initiative: int | None,
                                        name: str) -> None:
    for changes in ({}, {"initiative": initiative}, {"name": name, "initiative": initiative}):
        fast, plain = replace(c, **changes), dataclasses.replace(c, **changes)
        assert fast == plain and repr(fast) == repr(plain) and hash(fast) == hash(plain)
    enc = Encounter("mecha", combatants=(c,))
    assert replace(enc, round=3, turn=0) == dataclasses.replace(enc, round=3, turn=0)


def test_replace_refuses_an_unknown_field_and_never_changes_the_original() -> None:
    c = Combatant("a", "Ada", "character", (("hp", 3),))
    with pytest.raises(TypeError, match="no field 'hq'"):
        replace(c, hq=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(c, initiative=4).initiative = 5  # type: ignore[misc]
    assert c.initiative is None


def plain_combatant(combatants: tuple[Combatant, ...], cid: str) -> Combatant | None:
    return next((c for c in combatants if c.id == cid), None)


@settings(deadline=None)  # a shared machine: no time limit per example
@given(st.lists(COMBATANTS, max_size=6).map(tuple), st.lists(COMBATANTS, max_size=6).map(tuple),
       st.text(max_size=3), st.data())
def test_the_id_index_is_the_plain_lookup(cs: tuple[Combatant, ...],
                                          others: tuple[Combatant, ...], cid: str,
                                          data: Any) -> None:
    """Encounter.combatant (an index kept with the tuple it indexes) finds what a scan
    finds, the first of an id, also in a copy made by model.replace (which copies the
    index along) with other combatants; replace_combatant is the plain tuple rebuilt."""
    enc = Encounter("mecha", combatants=cs)
    for e in (enc, replace(enc, combatants=others), replace(enc, round=2)):
        for key in {cid, *(c.id for c in cs), *(c.id for c in others)}:
            want = plain_combatant(e.combatants, key)
            if want is None:
                with pytest.raises(RulesError, match="no combatant"):
                    e.combatant(key)
            else:
                assert e.combatant(key) is want
    if cs:
        changed = replace(data.draw(st.sampled_from(cs)), name="Changed", initiative=7)
        after = enc.replace_combatant(changed)
        assert after.combatants == tuple(changed if x.id == changed.id else x for x in cs)
        assert after.combatant(changed.id) == plain_combatant(after.combatants, changed.id)
    assert enc.replace_combatant(Combatant("zz-none", "N", "a", ())) == enc


ENTRIES = st.lists(st.builds(Entry, st.integers(0, 9), st.integers(0, 9), st.text(max_size=4)),
                   max_size=200)


@settings(deadline=None)  # a shared machine: no time limit per example
@given(ENTRIES, st.integers(0, 200))
def test_a_history_grown_one_entry_at_a_time_is_the_tuple(entries: list[Entry],
                                                          start: int) -> None:
    h = History(entries[:start])
    grown = [h]
    for e in entries[start:]:
        h = h.plus(e)
        grown.append(h)
    assert tuple(h) == tuple(entries) and len(h) == len(entries)
    assert h == History(entries) and hash(h) == hash(History(entries))
    assert h[-60:] == tuple(entries)[-60:]
    if entries:
        assert h[0] == entries[0] and h[-1] == entries[-1]
    first = min(start, len(entries))
    for i, g in enumerate(grown):  # every state along the way keeps its own history
        assert tuple(g) == tuple(entries[:first + i])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 100), st.integers(-200, 200))
def test_the_d100_test_of_a_fold_is_the_calculators(rolled: int, target: int) -> None:
    """The fold's pass or fail (no odds worked out) is the d100.degrees calculator's."""
    calc = registry.get("d100.degrees").run(target=target, rolled=rolled)
    assert d100._passes(rolled, target) is calc.value("Success")


def summed_odds(dist: dice.Distribution[int]) -> list[tuple[str, Fraction, Fraction | None]]:
    """degree_odds as it was written first: a Fraction sum for every row."""
    pmf = dist.pmf()
    succ = sorted((d for d in pmf if d > 0), reverse=True)
    fail = sorted((d for d in pmf if d < 0), reverse=True)
    rows = [(degrees._dlabel(d), pmf[d], sum((pmf[x] for x in succ if x >= d), Fraction(0)))
            for d in succ]
    rows += [(degrees._dlabel(d), pmf[d], sum((pmf[x] for x in fail if x <= d), Fraction(0)))
             for d in fail]
    if degrees.JAM in pmf:
        rows.append(("jam (automatic miss)", pmf[degrees.JAM], None))
    return rows


@settings(deadline=None)  # a shared machine: no time limit per example
@given(st.integers(-200, 200), st.none() | st.integers(1, 100), st.integers(0, 3),
       st.sampled_from(("", "fail", "dos:2")))
def test_degree_odds_are_the_summed_ones(target: int, jam: int | None, bonus: int,
                                         auto: str) -> None:
    dist = degrees.test_distribution(target, jam, bonus, auto)
    (table,) = degrees.degree_odds(dist)
    assert [(r.outcome, r.exactly, r.at_least) for r in table.rows] == summed_odds(dist)


@settings(deadline=None)  # a shared machine: no time limit per example
@given(SEEDS, st.integers(0, 30))
def test_mecha_initiative_is_its_dice_programs_roll(seed: int, reflex: int) -> None:
    c = Combatant("a", "Ada", "character", (("reflex", reflex),))
    (n, _), faces = dice.sample(outcome(reflex, 0), random.Random(random.Random(seed)
                                                                 .randrange(2**32)))
    assert mecha._score(c, random.Random(seed), frozenset()) == (
        n, f"1 die ({faces[0][1]}) + Reflex {reflex} = {n}")


LANDING = {"cyberpunk_red": ("hp", "sp_body", "sp_head"), "horizon": ("defense",),
           "mecha": ("vitality", "armour_dice")}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(LANDING)), st.data())
def test_a_landed_blow_kept_between_requests_is_the_hit_rules(game: str, data: Any) -> None:
    """takeout.tracker_hit keeps what a blow did to a state (for every request after):
    the same as the tracker's hit rule worked out afresh, asked twice or once."""
    from rules_pkg.encounter import AddCombatant, fold, rules_for
    from rules_pkg.encounter.common import Log
    from rules_pkg.encounter.events import Hit
    from rules_pkg.takeout import Blow, tracker_hit

    values = tuple((k, data.draw(st.integers(0, 40), label=k)) for k in LANDING[game])
    c = fold(game, [AddCombatant("t", "Target", values=values)]).combatant("t")
    blow = Blow(data.draw(st.integers(0, 30)), data.draw(st.booleans()),
                data.draw(st.sampled_from(("", "head") if game == "cyberpunk_red" else ("",))),
                data.draw(st.booleans()), data.draw(st.booleans()))
    rules = rules_for(game)
    afresh = rules.hit(rules.sheet, c, Hit(c.id, blow.damage, location=blow.location,
                                           melee=blow.melee, critical=blow.critical,
                                           bypass=blow.bypass), random.Random(0), Log())
    assert tracker_hit(game)(c, blow) == afresh
    assert tracker_hit(game)(c, blow) == afresh  # the kept one



WRITTEN = [ev.AddCombatant("a", "Ada", "character", (("hp", 3), ("sp", 2))),
           ev.RollInitiative(5, ("a",), True, True), ev.NextTurn(7, True), ev.NextRound(2),
           ev.Hit("a", 3, 9, "head", True, False, True, "Pistol", "Stunned", (1, 2)),
           ev.Apply("a", "calc", (("hp", -1),), (("sp", 0),), ("Prone",), (("hp", 9),)),
           ev.Adjust("a", "hp", -2, "why"), ev.SetValue("a", "hp", 1),
           ev.SetCondition("a", "Prone", 2, "", False), ev.SetCondition("a", "Prone", None),
           ev.ClearCondition("a", "Prone"), ev.Injury("a", "Broken Arm"),
           ev.Answer("a", "Death Save", (4,), 3), ev.OutOfFight("a", False), ev.Note("n"),
           ev.SwapInitiative("a", "b"), ev.Move("a", 1, 4), ev.SetInitiative("a", 3),
           ev.PreviousTurn(), ev.RemoveCombatant("a"), ev.Undo("e1")]
FIELDS = st.sets(st.sampled_from(sorted({f for e in WRITTEN for f in ev.field_names(e)})))


@settings(deadline=None)  # a shared machine: no time limit per example
@given(st.lists(st.tuples(st.sampled_from(WRITTEN), FIELDS), max_size=8), st.booleans())
def test_written_as_is_the_log_written_out(picks: list[Any], schema_1: bool) -> None:
    """A reload's check that its events are as they are written out (log.written_as)
    is to_dicts(parse(raw)) == raw: with fields left out (at their defaults or not), and
    for a file of schema 1 (no ids: the log is parsed from its migration)."""
    raw = [{k: v for k, v in {"eid": f"e{i + 1}", **ev.to_dict(event)}.items()
            if k not in dropped and not (schema_1 and k == "eid")}
           for i, (event, dropped) in enumerate(picks)]
    try:
        log = stored.parse(codec.migrate({"schema": 1 if schema_1 else 2,
                                          "events": raw})["events"], 100)
    except RulesError:
        return  # a required field left out: no log to compare
    assert stored.written_as(raw, log) is (stored.to_dicts(log) == raw)
    assert stored.written_as(stored.to_dicts(log), log)
