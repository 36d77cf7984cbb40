"""Limits that follow other inputs (issue #10 item 7): declared once (registry.Bound), read
by the form (to_dict) and checked by the engine (validate), for the whole registry."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest

import rules_pkg
from rules_pkg import Calculator, Input, RulesError

CALCULATORS = rules_pkg.calculators()
BOUNDED = [(c, i, side) for c in CALCULATORS for i in c.inputs for side in ("min", "max")
           if getattr(i, f"{side}_by") is not None]


def test_the_inputs_that_follow_others_declare_it() -> None:
    # a Magazine (Horizon § Reload Actions), the dice rolled (Cyberpunk RED), cover and
    # shield HP (Cyberpunk RED § Cover, § Using Shields)
    assert {(c.id, i.name) for c, i, _ in BOUNDED} >= {
        ("horizon.attack", "attacks"), ("horizon.reload", "loaded"),
        ("cyberpunk_red.damage", "rolled"), ("cyberpunk_red.cover", "current_hp"),
        ("cyberpunk_red.shield", "current_hp")}


def _cases(calc: Calculator, inp: Input, side: str) -> list[dict[str, Any]]:
    """The other inputs' values the bound names: every row of a table, or the int input's
    first values for a linear bound."""
    bound = getattr(inp, f"{side}_by")
    by_name = {i.name: i for i in calc.inputs}
    if bound.rows is not None:
        return [{n: by_name[n].coerce(v) for n, v in zip(bound.on, key, strict=True)}
                for key in bound.table()]
    first = by_name[bound.on[0]]
    low = first.min if first.min is not None else 0
    return [{first.name: v} for v in itertools.islice(range(low, (first.max or low) + 1), 40)]


@pytest.mark.parametrize(("calc", "inp", "side"), BOUNDED,
                         ids=[f"{c.id}.{i.name}.{s}" for c, i, s in BOUNDED])
def test_a_bound_is_exactly_what_the_engine_accepts(calc: Calculator, inp: Input,
                                                    side: str) -> None:
    bound = getattr(inp, f"{side}_by")
    assert set(bound.on) <= {i.name for i in calc.inputs} - {inp.name}
    assert json.loads(json.dumps(inp.to_dict()))[f"{side}_by"]["on"] == list(bound.on)
    step = 1 if side == "max" else -1
    safe = inp.min if side == "max" else inp.max  # within any bound the others give
    for case in _cases(calc, inp, side):
        limit = bound.at(calc.validate({**case, inp.name: safe}))
        assert limit is not None, f"{calc.id}: {case} is listed without a limit"
        calc.validate({**case, inp.name: limit})  # the bound itself is offered and accepted
        beyond = limit + step
        if (inp.min is None or beyond >= inp.min) and (inp.max is None or beyond <= inp.max):
            with pytest.raises(RulesError, match=f"^{re.escape(inp.label)}"):
                calc.validate({**case, inp.name: beyond})
        try:
            calc.run(**case, **{inp.name: limit})
        except RulesError as e:  # only a refusal the bounded value does not cause
            with pytest.raises(RulesError):
                calc.run(**case, **{inp.name: safe})
            assert "at most" not in str(e) and "more than" not in str(e), (calc.id, case, e)


def test_a_magazine_bound_follows_the_weapon_and_the_way_it_attacks() -> None:
    # Rusty Pistol "Magazine: 3Shots" (horizon-out-of-the-ashes-combat.txt:122); a Melee
    # weapon's strikes use no Magazine, but thrown it does ("Rusty Weapon", Magazine 1)
    attack = rules_pkg.get("horizon.attack")
    bound = next(i for i in attack.inputs if i.name == "attacks").max_by
    assert bound is not None
    assert bound.at({"weapon": "rusty-pistol", "mode": "normal"}) == 3
    assert bound.at({"weapon": "rusty-weapon", "mode": "normal"}) is None
    assert bound.at({"weapon": "rusty-weapon", "mode": "thrown"}) == 1
    with pytest.raises(RulesError, match="at most 3 with that weapon's Magazine"):
        attack.run(weapon="rusty-pistol", attacks=4)


def test_a_rolled_total_cannot_be_more_than_the_dice_show() -> None:
    damage = rules_pkg.get("cyberpunk_red.damage")
    with pytest.raises(RulesError, match="at most 11 with those d6"):
        damage.run(dice=2, rolled=13)
    assert damage.run(dice=2, rolled=12, sixes=True).value("HP lost") == 1 + 5
