"""The shared core: exact dice arithmetic (rules_pkg.dice) and the registry."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from rules_pkg import dice, registry
from rules_pkg.dice import MAX_DICE, MAX_SIDES, Distribution, check_dice, roll
from rules_pkg.errors import LimitError, RulesError
from rules_pkg.registry import Input
from rules_pkg.result import Die, Highlight, Odds, OddsRow, Result


# -- dice -------------------------------------------------------------------------------
def naive_sum(sides: int, n: int) -> dict[int, int]:
    """Counts of the sum of n dice by listing every ordered outcome."""
    counts: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=n):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return counts


@pytest.mark.parametrize(("sides", "n"), [(6, 1), (6, 2), (6, 3), (10, 3), (4, 5), (6, 7)])
def test_repeat_matches_naive_enumeration(sides: int, n: int) -> None:
    assert Distribution.d(sides).repeat(n).counts() == naive_sum(sides, n)


def test_repeat_with_a_fold_matches_naive() -> None:
    # max of 3d6 by enumeration
    expected: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=3):
        expected[max(faces)] = expected.get(max(faces), 0) + 1
    assert Distribution.d(6).repeat(3, max).counts() == expected


def test_two_d6_known_values() -> None:
    two = Distribution.d(6).repeat(2)
    assert two.total == 36
    assert two.probability(7) == Fraction(1, 6)
    assert two.probability(2) == Fraction(1, 36)
    assert two.at_least(11) == Fraction(3, 36)
    assert two.at_most(3) == Fraction(3, 36)
    assert two.mean() == 7


def test_repeat_zero_is_the_empty_sum() -> None:
    assert Distribution.d(6).repeat(0).counts() == {0: 1}
    vec = Distribution.die([(1, 0), (0, 1)])
    assert vec.repeat(0, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0)).counts() == {(0, 0): 1}
    # vectors summed component-wise: two coins give (2,0), (1,1) twice, (0,2)
    two = vec.repeat(2, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))
    assert two.counts() == {(2, 0): 1, (1, 1): 2, (0, 2): 1}


def test_combine_and_map_keep_integer_counts() -> None:
    d = Distribution.d(6).combine(Distribution.d(6), lambda a, b: a > b)
    assert d.counts() == {False: 21, True: 15}
    assert all(isinstance(c, int) for _, c in d)
    assert (Distribution.d(4) + 2).outcomes() == (3, 4, 5, 6)


def test_from_counts_rejects_empty_and_negative() -> None:
    with pytest.raises(RulesError):
        Distribution.from_counts({})
    with pytest.raises(RulesError):
        Distribution.from_counts({1: -1, 2: 3})


@pytest.mark.parametrize("n", [MAX_DICE + 1, 10**6, 10**12])
def test_repeat_limit_raises_before_work(n: int) -> None:
    with pytest.raises(LimitError):
        Distribution.d(6).repeat(n)


def test_limits_are_checked_before_the_rng_is_touched() -> None:
    class Untouchable(random.Random):
        def randint(self, a: int, b: int) -> int:  # pragma: no cover - must never run
            raise AssertionError("rolled before checking the limit")

    with pytest.raises(LimitError):
        roll(Untouchable(), 6, 10**9)
    with pytest.raises(LimitError):
        roll(Untouchable(), MAX_SIDES + 1, 1)
    with pytest.raises(RulesError):
        roll(Untouchable(), 0, 1)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_check_dice_rejects_non_counts(bad: object) -> None:
    with pytest.raises(RulesError):
        check_dice(bad)  # type: ignore[arg-type]


def test_roll_is_reproducible_and_in_range() -> None:
    a = roll(random.Random(7), 10, 50)
    assert a == roll(random.Random(7), 10, 50)
    assert all(1 <= x <= 10 for x in a) and len(a) == 50


# -- registry ---------------------------------------------------------------------------
def test_int_input_coercion_and_limits() -> None:
    i = Input("n", "Dice", default=1, min=0, max=5)
    assert i.coerce("3") == 3 and i.coerce(" +2 ") == 2 and i.coerce(4.0) == 4
    for bad in ("", "abc", "1e3", True, "9" * 20):
        with pytest.raises(RulesError) as e:
            i.coerce(bad)
        assert str(e.value)
    with pytest.raises(RulesError, match="at most 5"):
        i.coerce(10**6)
    with pytest.raises(RulesError, match="at least 0"):
        i.coerce(-1)


def test_bool_choice_text_inputs() -> None:
    b = Input("b", "Flag", "bool", False)
    assert b.coerce("yes") is True and b.coerce("0") is False and b.coerce(True) is True
    with pytest.raises(RulesError):
        b.coerce("maybe")
    c = Input("c", "Pick", "choice", "a", choices=(("a", "A"), ("b", "B")))
    assert c.coerce("b") == "b"
    with pytest.raises(RulesError):
        c.coerce("z")
    t = Input("t", "Text", "text", "")
    with pytest.raises(RulesError):
        t.coerce("x" * 1000)


def _toy(n: int, rng: random.Random | None = None) -> Result:
    d = Distribution.d(6).repeat(n)
    rolled = () if rng is None else tuple(Die(6, f) for f in roll(rng, 6, n))
    return Result(f"sum of {n}d6", (("Mean", d.mean()),), odds=(Odds.of(d, "Sum"),), dice=rolled)


def test_calculator_validates_runs_and_serialises() -> None:
    calc = registry.Calculator("toy.sum", "toy", "Sum", "nowhere",
                               (Input("n", "Dice", default=2, min=0, max=10),), _toy, rolls=True)
    with pytest.raises(RulesError, match="unknown input"):
        calc.run(m=3)
    with pytest.raises(RulesError):
        calc.run(n="lots")
    r = calc.run(n=2)
    assert r.value("Mean") == 7 and r.dice == ()
    with pytest.raises(KeyError):
        r.value("nothing")
    a, b = calc.run(n=3, roll=True, seed=11), calc.run(n=3, roll="yes", seed="11")
    assert a == b and len(a.dice) == 3
    with pytest.raises(RulesError):
        calc.run(n=3, roll=True, seed=-5)
    out = r.to_dict()
    assert out["values"] == [["Mean", {"text": "7/1", "value": 7.0}, "mean"]]
    assert sum(Fraction(row["exactly"]["text"]) for row in out["odds"][0]["rows"]) == 1
    assert calc.to_dict()["inputs"][0] == {"name": "n", "label": "Dice", "kind": "int",
                                           "default": 2, "min": 0, "max": 10,
                                           "pattern": registry.WHOLE_NUMBER}


def test_odds_of_gives_exact_cumulative_rows() -> None:
    odds = Odds.of(Distribution.d(4), "d4")
    assert odds.rows[0] == OddsRow("1", Fraction(1, 4), Fraction(1))
    assert odds.rows[-1] == OddsRow("4", Fraction(1, 4), Fraction(1, 4))
    flat = Odds.of(Distribution.d(4), "d4", cumulative=False)
    assert all(r.at_least is None for r in flat.rows)


def test_registry_lists_and_gets_and_refuses_duplicates() -> None:
    calcs = registry.calculators()
    ids = [c.id for c in calcs]
    assert len(ids) == len(set(ids))
    assert "forbidden_lands.attack" in ids and "mecha.attack" in ids
    assert all(c.id.startswith(c.game + ".") for c in calcs)
    # every game (a module with extracted data) registers calculators: none skipped
    assert {c.game for c in calcs} == set(registry.game_modules())
    assert registry.get("mecha.break_away").game == "mecha"
    with pytest.raises(RulesError):
        registry.get("nope.nothing")
    with pytest.raises(RuntimeError):
        registry.register(registry.get("mecha.break_away"))


def test_highlight_and_result_to_dict_shapes() -> None:
    r = Result("x", highlight=(Highlight("attacks", 2),), notes=("n",))
    d = r.to_dict()
    assert d["highlight"] == [{"table": "attacks", "row": 2}] and d["notes"] == ["n"]


def test_public_names_exported() -> None:
    import rules_pkg

    for name in rules_pkg.__all__:
        assert hasattr(rules_pkg, name)
    assert dice.MAX_DICE == rules_pkg.MAX_DICE


def test_every_value_says_its_kind() -> None:
    r = Result("x", (("P(hit)", Fraction(1, 3)), ("Mean damage", Fraction(7, 2)),
                     ("Damage", 4), ("Dice", "2d6+1"), ("Prone", True), ("Row", "17-22"),
                     ("Chance", Fraction(1, 2), "probability")))
    assert [v[2] for v in r.to_dict()["values"]] == [
        "probability", "mean", "count", "dice", "text", "text", "probability"]
    assert r.kind("Damage") == "count" and r.value("Damage") == 4
    with pytest.raises(ValueError):
        Result("x", (("Odd", 1, "percent"),))


def test_sums_mixtures_and_what_a_roll_lets_through_match_plain_convolution() -> None:
    from rules_pkg.dice import dice_sum, minus_floor_zero, mixture

    d10 = Distribution.d(10)
    for n in range(5):
        assert dice_sum(10, n).pmf() == d10.repeat(n).pmf()
    weights = Distribution.from_counts({0: 1, 2: 3, 3: 2})
    by_hand: dict[int, Fraction] = {}
    for n, w in weights.pmf().items():
        for v, p in d10.repeat(n).pmf().items():
            by_hand[v] = by_hand.get(v, Fraction(0)) + w * p
    assert mixture(weights, 10).pmf() == by_hand
    damage, armour = dice_sum(6, 3), dice_sum(10, 2)
    assert minus_floor_zero(damage, armour).pmf() == damage.combine(
        armour, lambda d, a: max(0, d - a)).pmf()
    with pytest.raises(RulesError):
        minus_floor_zero(Distribution.constant(-1), armour)


def test_expand_and_sample_run_one_rule_both_ways() -> None:
    from rules_pkg.dice import expand, sample

    def explode(draw: Any) -> int:  # a d10 that adds another on a 10 and subtracts on a 1
        face = draw(10)
        return face + draw(10) if face == 10 else face - draw(10) if face == 1 else face

    dist = expand(explode)
    assert dist.probability(20) == Fraction(1, 100) and dist.probability(5) == Fraction(1, 10)
    assert dist.mean() == Fraction(11, 2)
    two = Distribution.d(6) + Distribution.d(6)
    assert expand(lambda draw: draw(6) + draw(6)).pmf() == two.pmf()
    rng, again = random.Random(5), random.Random(5)
    outcome, faces = sample(explode, rng)
    assert outcome in dist.outcomes() and faces[0] == (10, again.randint(1, 10))


def test_a_pool_is_one_exact_step_and_rolled_die_by_die() -> None:
    from rules_pkg.dice import expand, sample, total

    def hit(draw: Any) -> int:  # 1d10 to hit; 12d6 of damage only on a 6+ (12d6 by walking
        return total(draw, 12, 6) if draw(10) >= 6 else 0  # each face: 6**12 paths)

    dist = expand(hit)
    assert dist.probability(0) == Fraction(1, 2)
    assert dist.p(lambda v: v > 0) == Fraction(1, 2)
    assert dist.mean() == Fraction(1, 2) * 42
    assert dist.probability(72) == Fraction(1, 2) / 6**12
    rng, again = random.Random(3), random.Random(3)
    outcome, faces = sample(hit, rng)
    rolled = [again.randint(1, 10)]
    if rolled[0] >= 6:
        rolled += [again.randint(1, 6) for _ in range(12)]
    assert [f for _, f in faces] == rolled and outcome == (sum(rolled[1:]) if len(rolled) > 1
                                                           else 0)
