"""What a form offers, the engine answers (issue #29 item 5): for every calculator, every
value its form offers for an input (each choice, yes and no, a number's limits and those
that follow other inputs), combined with random valid values of the others, gives a Result
or a RulesError that names an input (its label), so a player knows what to change.

"Valid values of the others" are what the form can hold: each within its declared limits,
kept within the limits that follow other inputs (registry.Bound) and off the value another
input holds (registry.Unlike), as the form's steppers keep them (calculators/forms/form.mjs).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_pkg
from rules_pkg import Calculator, Input, Result, RulesError

CALCULATORS = rules_pkg.calculators()
IDS = [c.id for c in CALCULATORS]
OTHERS = 3  # random sets of the other inputs for each offered value


def _random(inp: Input, rng: random.Random) -> Any:
    if inp.kind == "int":
        assert inp.min is not None and inp.max is not None
        return rng.randint(inp.min, inp.max)
    if inp.kind == "bool":
        return rng.random() < 0.5
    if inp.kind == "choice":
        return rng.choice([v for v, _ in inp.choices])
    return rng.choice(["", "a", "abc"])


def as_the_form_holds(calc: Calculator, values: dict[str, Any], fixed: str) -> dict[str, Any]:
    """The values kept within the limits that follow other inputs, as the steppers keep
    them; `fixed`, the input whose offered value is under test, is left as it is."""
    out = dict(values)
    for inp in calc.inputs:
        if inp.name == fixed or inp.kind != "int":
            continue
        low = inp.min_by.at(out) if inp.min_by else None
        high = inp.max_by.at(out) if inp.max_by else None
        if high is not None and out[inp.name] > high:
            out[inp.name] = high
        if low is not None and out[inp.name] < low:
            out[inp.name] = low
        if inp.unlike is not None and out[inp.name] == out[inp.unlike.on]:
            assert inp.min is not None and inp.max is not None
            step = 1 if out[inp.name] < inp.max else -1
            out[inp.name] += step
    for inp in calc.inputs:  # the pair declared on the other input of it
        if inp.unlike is not None and inp.name == fixed and out[inp.name] == out[inp.unlike.on]:
            other = next(i for i in calc.inputs if i.name == inp.unlike.on)
            assert other.max is not None
            out[other.name] += 1 if out[other.name] < other.max else -1
    return out


def offered(calc: Calculator, inp: Input) -> list[Any]:
    """The values the form offers for `inp` that this test tries every one of."""
    if inp.kind == "bool":
        return [False, True]
    if inp.kind == "choice":
        return [v for v, _ in inp.choices]
    if inp.kind == "text":
        return ["", "x" * 200]
    assert inp.min is not None and inp.max is not None
    values = {inp.min, inp.max, inp.default, min(inp.min + 1, inp.max)}
    for bound in (inp.min_by, inp.max_by):  # each limit another input's values give
        if bound is not None and bound.rows is not None:
            values |= {n for n in bound.table().values() if inp.min <= n <= inp.max}
    return sorted(values)


def answer_or_named_refusal(calc: Calculator, values: dict[str, Any]) -> None:
    try:
        result = calc.run(**values)
    except RulesError as e:
        labels = [i.label for i in calc.inputs]
        assert any(label in str(e) for label in labels), (
            f"{calc.id}: {str(e)!r} names none of its inputs, with {values}")
        return
    assert isinstance(result, Result) and result.summary


def _held(calc: Calculator, inp: Input, value: Any, rng: random.Random) -> dict[str, Any]:
    values = {i.name: _random(i, rng) for i in calc.inputs}
    values[inp.name] = value
    held = as_the_form_holds(calc, values, inp.name)
    if inp.kind == "int":  # the value under test, as its own limits there allow it
        high = inp.max_by.at(held) if inp.max_by else None
        low = inp.min_by.at(held) if inp.min_by else None
        if (high is not None and value > high) or (low is not None and value < low):
            held[inp.name] = high if high is not None and value > high else low
    return held


@pytest.mark.parametrize("calc", CALCULATORS, ids=IDS)
def test_every_offered_value_is_answered_or_refused_by_name(calc: Calculator) -> None:
    rng = random.Random(calc.id)
    for inp in calc.inputs:
        for value in offered(calc, inp):
            for _ in range(OTHERS):
                answer_or_named_refusal(calc, _held(calc, inp, value, rng))


@pytest.mark.parametrize("calc", CALCULATORS, ids=IDS)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_offered_value_is_answered_or_refused_by_name(calc: Calculator,
                                                          data: st.DataObject) -> None:
    inp = data.draw(st.sampled_from(calc.inputs), label="input")
    if inp.kind == "int":
        assert inp.min is not None and inp.max is not None
        value: Any = data.draw(st.integers(inp.min, inp.max), label=inp.name)
    else:
        value = data.draw(st.sampled_from(offered(calc, inp)), label=inp.name)
    seed = data.draw(st.integers(0, 2**32 - 1), label="others")
    answer_or_named_refusal(calc, _held(calc, inp, value, random.Random(seed)))


def test_a_refusal_deep_in_a_rule_names_its_input() -> None:
    # horizon § Attack Actions: "only Melee weapons are thrown" comes from the shared
    # attack rule; the calculator puts the input's label first
    with pytest.raises(RulesError, match=r"^How you Attack: only Melee weapons are thrown"):
        rules_pkg.get("horizon.attack").run(weapon="rusty-pistol", mode="thrown")
