"""Exact dice arithmetic: immutable outcome -> count mappings (in the spirit of dyce).

A `Distribution` holds integer counts, never floats; probabilities are
`fractions.Fraction`. Random rolls go through an injected `random.Random`
so a seed gives the same dice on CPython and in Pyodide.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import gcd
from typing import Any, Generic, Protocol, TypeVar

from .errors import LimitError, RulesError

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

MAX_DICE = 100  # the largest pool any calculator accepts
MAX_SIDES = 1000  # d100 is the largest die any of the five games uses


def _sort_key(outcome: Any) -> tuple[int, Any]:
    # ints and tuples of ints sort naturally; anything else by its text.
    if isinstance(outcome, int | tuple):
        return (0, outcome)
    return (1, str(outcome))


@dataclass(frozen=True)
class Distribution(Generic[T]):
    """An exact distribution: each outcome with how many equally likely ways give it."""

    items: tuple[tuple[T, int], ...]

    @staticmethod
    def from_counts(counts: Mapping[U, int]) -> Distribution[U]:
        kept = [(o, c) for o, c in counts.items() if c]
        if not kept:
            raise RulesError("a distribution needs at least one outcome")
        if any(c < 0 for _, c in kept):
            raise RulesError("counts cannot be negative")
        kept.sort(key=lambda oc: _sort_key(oc[0]))
        return Distribution(tuple(kept))

    @staticmethod
    def die(faces: Iterable[U]) -> Distribution[U]:
        """One die whose faces are `faces` (each face equally likely)."""
        counts: dict[U, int] = {}
        for face in faces:
            counts[face] = counts.get(face, 0) + 1
        return Distribution.from_counts(counts)

    @staticmethod
    def d(sides: int) -> Distribution[int]:
        check_sides(sides)
        return Distribution.die(range(1, sides + 1))

    @staticmethod
    def constant(value: U) -> Distribution[U]:
        return Distribution(((value, 1),))

    # -- reading -----------------------------------------------------------
    @property
    def total(self) -> int:
        return sum(c for _, c in self.items)

    def outcomes(self) -> tuple[T, ...]:
        return tuple(o for o, _ in self.items)

    def counts(self) -> dict[T, int]:
        return dict(self.items)

    def __iter__(self) -> Iterator[tuple[T, int]]:
        return iter(self.items)

    def probability(self, outcome: T) -> Fraction:
        return Fraction(self.counts().get(outcome, 0), self.total)

    def pmf(self) -> dict[T, Fraction]:
        total = self.total
        return {o: Fraction(c, total) for o, c in self.items}

    def p(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome))."""
        return Fraction(sum(c for o, c in self.items if predicate(o)), self.total)

    def at_least(self, value: Any) -> Fraction:
        return self.p(lambda o: o >= value)

    def at_most(self, value: Any) -> Fraction:
        return self.p(lambda o: o <= value)

    def mean(self) -> Fraction:
        return sum((Fraction(o) * c for o, c in self.items), Fraction(0)) / self.total  # type: ignore[call-overload]

    # -- combining ---------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        counts: dict[U, int] = {}
        for o, c in self.items:
            k = f(o)
            counts[k] = counts.get(k, 0) + c
        return Distribution.from_counts(counts)

    def combine(self, other: Distribution[U], f: Callable[[T, U], Any]) -> Distribution[Any]:
        """The distribution of f(a, b) for independent a from self and b from other."""
        counts: dict[Any, int] = {}
        for a, ca in self.items:
            for b, cb in other.items:
                k = f(a, b)
                counts[k] = counts.get(k, 0) + ca * cb
        return Distribution.from_counts(counts)

    def __add__(self, other: Distribution[Any] | int) -> Distribution[Any]:
        if isinstance(other, int):
            return self.map(lambda o: o + other)  # type: ignore[operator]
        return self.combine(other, lambda a, b: a + b)

    __radd__ = __add__

    def repeat(self, n: int, f: Callable[[Any, Any], Any] | None = None,
               zero: Any = None) -> Distribution[Any]:
        """The sum (or fold by `f`) of n independent copies, by repeated doubling.

        `zero` is the outcome of n == 0 (the identity of `f`); without it, 0 for
        ints and () for tuples (the identity of + on each).
        """
        check_dice(n)
        op = f or (lambda a, b: a + b)
        result: Distribution[Any] | None = None
        power: Distribution[Any] = self
        while n:
            if n & 1:
                result = power if result is None else result.combine(power, op)
            n >>= 1
            if n:
                power = power.combine(power, op)
        if result is None:  # n == 0: the empty sum
            if zero is not None:
                return Distribution.constant(zero)
            first = self.items[0][0]
            return Distribution.constant(first * 0 if isinstance(first, int | tuple) else 0)
        return result


def check_count(n: object, what: str, most: int, over: Callable[[int], RulesError]) -> None:
    """A whole number from 0 to `most`, or a RulesError naming `what`; `over(n)` is the
    error past the most (a LimitError where it is the engine's own limit)."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise RulesError(f"{what} must be a whole number")
    if n < 0:
        raise RulesError(f"{what} cannot be negative (got {n})")
    if n > most:
        raise over(n)


def check_dice(n: int, what: str = "dice") -> None:
    """Limits are checked before any work (cf. avrae/d20's max_rolls)."""
    check_count(n, f"the number of {what}", MAX_DICE,
                lambda n: LimitError(f"at most {MAX_DICE} {what} in one pool (asked for {n})"))


def check_sides(sides: int) -> None:
    if not isinstance(sides, int) or isinstance(sides, bool) or sides < 1:
        raise RulesError("a die needs a whole, positive number of sides")
    if sides > MAX_SIDES:
        raise LimitError(f"at most {MAX_SIDES} sides on a die (asked for {sides})")


def roll(rng: random.Random, sides: int, n: int = 1) -> tuple[int, ...]:
    """Roll n dice with `sides` sides through the injected RNG."""
    check_dice(n)
    check_sides(sides)
    return tuple(rng.randint(1, sides) for _ in range(n))


# -- sums of many equal dice, and what is left after a roll is taken off -------------------------
@cache
def _sum_counts(sides: int, n: int) -> tuple[int, ...]:
    """Ways n dice of `sides` total t (index t); each die adds a window of `sides` old totals,
    found by prefix sums, so n dice cost n linear steps (cached: a mixture reuses them)."""
    if n == 0:
        return (1,)
    counts = _sum_counts(sides, n - 1)
    prefix = [0]
    for c in counts:
        prefix.append(prefix[-1] + c)
    size = len(counts)
    return tuple(prefix[max(0, min(t, size))] - prefix[max(0, min(t - sides, size))]
                 for t in range(size + sides))


def dice_sum(sides: int, n: int) -> Distribution[int]:
    """The total of n dice with `sides` sides (0 for no dice), exact."""
    check_dice(n)
    check_sides(sides)
    return Distribution.from_counts(dict(enumerate(_sum_counts(sides, n))))


def mixture(weights: Distribution[int], sides: int) -> Distribution[int]:
    """The total of N dice where N itself follows `weights` (negative N rolls no dice)."""
    top = max(max(n, 0) for n in weights.outcomes())
    counts: dict[int, int] = {}
    for n, w in weights:
        part = dice_sum(sides, max(n, 0))
        scale = w * sides ** (top - max(n, 0))  # every part over the same denominator
        for v, c in part:
            counts[v] = counts.get(v, 0) + c * scale
    return Distribution.from_counts(counts)


def minus_floor_zero(amount: Distribution[int], taken: Distribution[int]) -> Distribution[int]:
    """max(0, amount - taken) for independent amount >= 0 and taken >= 0: what a roll such
    as an armour roll lets through (one prefix-sum pass per value of `taken`)."""
    if min(amount.outcomes()) < 0 or min(taken.outcomes()) < 0:
        raise RulesError("amounts taken off each other cannot be negative")
    top = max(amount.outcomes())
    dmg = [0] * (top + 1)
    for d, c in amount:
        dmg[d] = c
    prefix = [0]
    for c in dmg:
        prefix.append(prefix[-1] + c)
    out = [0] * (top + 1)
    for a, ca in taken:
        out[0] += ca * prefix[min(a + 1, top + 1)]  # amount at or below what is taken: 0
        tail = dmg[a + 1:]  # amount d > a leaves d - a: the shifted tail in one pass
        out[1:1 + len(tail)] = [x + ca * y for x, y in zip(out[1:1 + len(tail)], tail,
                                                           strict=True)]
    return Distribution.from_counts(dict(enumerate(out)))


# -- an outcome written once as a function of the dice ------------------------------------------
MAX_PATHS = 200_000  # the most face sequences expand() walks (checked as it goes)


class Draw(Protocol):
    """The dice an outcome function is given: `draw(sides)` is the face of one die;
    `draw.pool(exact, each)` is a pool whose exact distribution is known in closed form
    (`each(draw)` rolls its dice one by one: what a seeded roll does and shows)."""

    def __call__(self, sides: int) -> int: ...

    def pool(self, exact: Distribution[U], each: Callable[[Draw], U]) -> U: ...


def total(draw: Draw, n: int, sides: int) -> int:
    """The total of n dice with `sides` sides, drawn as one pool (exact by dice_sum)."""
    return draw.pool(dice_sum(sides, n), lambda d: sum(d(sides) for _ in range(n)))


def shuffled(draw: Draw, items: Iterable[U]) -> list[U]:
    """The items in a shuffled order, drawn as random.shuffle draws them (Fisher-Yates: the
    same seeded order as rng.shuffle). A deck of 10 has 10! orders: too many to expand."""
    out = list(items)
    for i in reversed(range(1, len(out))):
        j = draw(i + 1) - 1
        out[i], out[j] = out[j], out[i]
    return out


class _Walk:
    """One path of expand(): the branch taken at each die or pool (0-based) and its weight."""

    def __init__(self) -> None:
        self.prefix: list[int] = []  # the branches of the current path; new nodes start at 0
        self.arity: list[int] = []  # how many branches each node of the current path has
        self.weight = Fraction(1)

    def _node(self, branches: int) -> int:
        i = len(self.arity)
        self.arity.append(branches)
        if i == len(self.prefix):
            self.prefix.append(0)
        return self.prefix[i]

    def __call__(self, sides: int) -> int:
        check_sides(sides)
        face = self._node(sides) + 1
        self.weight /= sides
        return face

    def pool(self, exact: Distribution[U], each: Callable[[Draw], U]) -> U:
        outcome, count = exact.items[self._node(len(exact.items))]
        self.weight *= Fraction(count, exact.total)
        return outcome

    def next_path(self) -> bool:
        """Move to the next path (an odometer over the branches); False when all are done."""
        del self.prefix[len(self.arity):]
        while self.prefix and self.prefix[-1] == self.arity[len(self.prefix) - 1] - 1:
            self.prefix.pop()
        if not self.prefix:
            return False
        self.prefix[-1] += 1
        self.arity.clear()
        self.weight = Fraction(1)
        return True


_EXPANDED: dict[Hashable, Distribution[Any]] = {}
EXPANDED_KEPT = 512  # distributions remembered (a fight rolls the same tests again and again)


def _plain(v: object) -> bool:
    return v is None or isinstance(v, bool | int | str | Fraction) or (
        isinstance(v, tuple) and all(_plain(x) for x in v))


def _program_key(program: Callable[[Draw], Any]) -> Hashable | None:
    """What a program's distribution depends on: its code and the plain values it closes
    over (numbers, text). None when it closes over anything else (expanded every time)."""
    code = getattr(program, "__code__", None)
    if code is None or getattr(program, "__defaults__", None) or getattr(
            program, "__kwdefaults__", None):
        return None
    try:
        values = tuple(c.cell_contents for c in program.__closure__ or ())
    except ValueError:  # a cell not filled yet
        return None
    return (code, values) if all(_plain(v) for v in values) else None


def expand(program: Callable[[Draw], T]) -> Distribution[T]:
    """The exact distribution of `program(draw)`, where each `draw(sides)` is a fair die.

    The program is run once per sequence of faces it can see, depth first (cf. dyce's
    `expand`), so the dice it draws may depend on the faces before (an exploding die, a
    re-roll); a pool (`draw.pool`) is one step with its exact outcomes. `sample` runs the
    very same program on seeded dice: the rule is written once. The same program over the
    same plain values is expanded once (an encounter's replay asks for the same test's odds
    at every turn: issue 24).
    """
    key = _program_key(program)
    if key is not None and key in _EXPANDED:
        return _EXPANDED[key]
    dist = _expand(program)
    if key is not None:
        if len(_EXPANDED) >= EXPANDED_KEPT:
            del _EXPANDED[next(iter(_EXPANDED))]  # the oldest
        _EXPANDED[key] = dist
    return dist


def _expand(program: Callable[[Draw], T]) -> Distribution[T]:
    weights: dict[T, Fraction] = {}
    walk = _Walk()
    paths = 0
    while True:
        outcome = program(walk)
        weights[outcome] = weights.get(outcome, Fraction(0)) + walk.weight
        paths += 1
        if paths > MAX_PATHS:
            raise LimitError(f"too many dice outcomes to list exactly (over {MAX_PATHS})")
        if not walk.next_path():
            break
    scale = 1
    for w in weights.values():
        scale = scale * w.denominator // gcd(scale, w.denominator)
    return Distribution.from_counts({o: int(w * scale) for o, w in weights.items()})


class _Seeded:
    """Seeded dice: every die is rolled (the same stream as roll()) and kept for display."""

    def __init__(self, rng: random.Random, keep: bool = True) -> None:
        self.rng = rng
        self.keep = keep
        self.faces: list[tuple[int, int]] = []

    def __call__(self, sides: int) -> int:
        check_sides(sides)
        face = self.rng.randint(1, sides)
        if self.keep:
            self.faces.append((sides, face))
        return face

    def pool(self, exact: Distribution[U], each: Callable[[Draw], U]) -> U:
        return each(self)


def seeded(rng: random.Random) -> Draw:
    """Dice that roll through `rng` (for running a rule many times, e.g. to test its odds)."""
    return _Seeded(rng, keep=False)


def sample(program: Callable[[Draw], T], rng: random.Random,
           ) -> tuple[T, tuple[tuple[int, int], ...]]:
    """One seeded run of `program`: its outcome and the dice it drew, as (sides, face)."""
    dice = _Seeded(rng)
    return program(dice), tuple(dice.faces)
