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


# Issue #29 item 5: each declared maximum the form offered, refused with the other inputs as
# they stand. Each case: the inputs, the value past the limit, the limit the form now gives.
ROUND_THREE = [
    # Cyberpunk RED § Cover: "Thin Steel 25 HP" … (the cover's HP is its limit)
    *[("cyberpunk_red.cover", {"material": m, "thickness": t}, "current_hp", 1000, None)
      for m in ("Steel", "Stone", "Bulletproof Glass", "Concrete", "Wood",
                "Plaster/Form/Plastic") for t in ("thick", "thin")],
    ("cyberpunk_red.cover", {"material": "Steel", "thickness": "thin"}, "current_hp", 1000, 25),
    # § Using Shields: a Bulletproof Shield has 10 HP
    ("cyberpunk_red.shield", {"shield": "bulletproof"}, "current_hp", 200, 10),
    ("cyberpunk_red.shield", {"shield": "corpse"}, "current_hp", 200, None),
    # 30d6 without two 6s: at most 5 a die + 1 = 151
    ("cyberpunk_red.damage", {"dice": 30}, "rolled", 500, 151),
    # Rusty Pistol "Magazine: 3Shots" (horizon-out-of-the-ashes-combat.txt:122)
    ("horizon.attack", {"weapon": "rusty-pistol"}, "attacks", 20, 3),
    ("horizon.reload", {"weapon": "rusty-pistol"}, "loaded", 1000, 3),
]


@pytest.mark.parametrize(("calc_id", "others", "name", "offered", "limit"), ROUND_THREE)
def test_round_three_maxima_follow_the_other_inputs(calc_id: str, others: dict[str, Any],
                                                    name: str, offered: int,
                                                    limit: int | None) -> None:
    calc = rules_pkg.get(calc_id)
    inp = next(i for i in calc.inputs if i.name == name)
    assert inp.max is not None and offered <= inp.max  # the static limit offered it
    assert inp.max_by is not None
    values = calc.validate({**others, name: inp.default if inp.default >= 0 else 0})
    bound = inp.max_by.at(values)
    assert bound is not None and bound < offered
    if limit is not None:
        assert bound == limit
    with pytest.raises(RulesError, match=f"^{re.escape(inp.label)} must be at most {bound}"):
        calc.run(**others, **{name: offered})
    calc.validate({**others, name: bound})


@pytest.mark.parametrize(("yours", "theirs"), [(1, 1), (10, 10), (5, 5)])
def test_an_initiative_swap_never_offers_the_card_the_other_holds(yours: int,
                                                                   theirs: int) -> None:
    # Forbidden Lands § Start of Round: the players exchange cards; no two combatants hold
    # the same card (a deck of 1-10, one card each): refused by the inputs, named
    swap = rules_pkg.get("forbidden_lands.initiative_swap")
    with pytest.raises(RulesError, match=r"^Your card cannot be \d+ when Their card is too"):
        swap.run(your_card=yours, their_card=theirs)
    declared = {i["name"]: i.get("unlike") for i in swap.to_dict()["inputs"]}
    assert declared["your_card"] == {"on": "their_card",
                                     "why": "two combatants cannot hold the same initiative card"}
    nxt = 2 if yours == 1 else yours - 1
    assert swap.run(your_card=yours, their_card=nxt).value("Your card") == nxt
