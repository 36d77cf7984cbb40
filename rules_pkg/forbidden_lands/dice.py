"""Dice of the Year Zero Engine: base, skill, negative and gear dice, exact and rolled."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Literal

from ..dice import Distribution, Draw, check_dice
from ..errors import InputLimitError, RulesError
from ..result import Die, Odds
from .sheet import BANE, MAX_POOL, SUCCESS

# -- dice -----------------------------------------------------------------------------------
DieKind = Literal["base", "skill", "negative", "gear"]
# A die's outcome as a vector: (✘ on positive dice, ✘ on negative dice, ☠ on base, ☠ on gear).
Vec = tuple[int, int, int, int]
ZERO: Vec = (0, 0, 0, 0)


def _vadd(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def face_outcome(kind: DieKind, face: int) -> Vec:
    """What one face means: 6 = ✘ on any die (cancelling on a negative die); 1 = ☠ on base/gear."""
    if face == 6:
        return (0, 1, 0, 0) if kind == "negative" else (1, 0, 0, 0)
    if face == 1 and kind == "base":
        return (0, 0, 1, 0)
    if face == 1 and kind == "gear":
        return (0, 0, 0, 1)
    return ZERO


def locked(kind: DieKind, face: int) -> bool:
    """Dice a push leaves alone: ✘ on any die, ☠ on base and gear dice (standard rule)."""
    return face == 6 or (face == 1 and kind in ("base", "gear"))


@cache
def die_distribution(kind: DieKind, pushed: bool) -> Distribution[Vec]:
    """One die, first roll or pushed: built from the faces, so nothing is typed by hand."""
    d6 = Distribution.d(6)
    if not pushed:
        return d6.map(lambda f: face_outcome(kind, f))
    return d6.combine(d6, lambda f, g: face_outcome(kind, f if locked(kind, f) else g))


@dataclass(frozen=True)
class DicePool:
    """Base, skill and gear dice of one roll (Combat Order § Roll Action).

    `skill` is after modifications; below zero it is that many negative dice.
    """

    base: int
    skill: int
    gear: int

    def __post_init__(self) -> None:
        for name, n in (("base dice", self.base), ("gear dice", self.gear)):
            if n < 0:
                raise RulesError(f"the number of {name} cannot be negative")
        if self.size > MAX_POOL:
            raise InputLimitError("skill", f"at most {MAX_POOL} dice in one Forbidden Lands "
                                  f"roll (this one has {self.size})")  # skill: most variable

    @property
    def size(self) -> int:
        return self.base + abs(self.skill) + self.gear

    def kinds(self) -> tuple[tuple[DieKind, int], ...]:
        return (("base", self.base), ("skill", max(self.skill, 0)),
                ("negative", max(-self.skill, 0)), ("gear", self.gear))

    def describe(self) -> str:
        parts = [f"{self.base} base", f"{max(self.skill, 0)} skill"]
        if self.skill < 0:
            parts.append(f"{-self.skill} negative")
        parts.append(f"{self.gear} gear")
        return ", ".join(parts) + " dice"


def make_pool(attribute: int, skill: int, gear: int, modification: int = 0) -> DicePool:
    """Attribute + Skill + Gear, modifications on the skill dice (standard rule)."""
    return DicePool(attribute, skill + modification, gear)


PushPolicy = Literal["no", "always", "failed"]
PUSH_CHOICES = (("no", "Do not push"),
                ("failed", "Push if the roll has no ✘"),
                ("always", "Push whatever the roll shows"))


def _policy(pushed: bool | str) -> PushPolicy:
    if pushed is True or pushed == "always":
        return "always"
    if pushed is False or pushed == "no":
        return "no"
    if pushed == "failed":
        return "failed"
    raise RulesError(f"{pushed!r} is not a way to push")


Vec5 = tuple[int, int, int, int, int]


def _v5add(a: Vec5, b: Vec5) -> Vec5:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


@cache
def _die_first_and_pushed(kind: DieKind) -> Distribution[Vec5]:
    """One die over (first face, re-roll): (first-roll ✘ minus negative ✘, pushed outcome)."""
    d6 = Distribution.d(6)

    def joint(f: int, g: int) -> Vec5:
        first = face_outcome(kind, f)
        return (first[0] - first[1], *face_outcome(kind, f if locked(kind, f) else g))
    return d6.combine(d6, joint)


@cache
def pool_vectors(pool: DicePool, pushed: bool | str = False) -> Distribution[Vec]:
    """The exact joint distribution of the pool: counts per die type, combined.

    `pushed`: False/"no" (first roll), True/"always" (pushed whatever it shows) or
    "failed" (pushed only when the first roll has no ✘: the first roll where it has one,
    scaled by 6^n, plus the pushed outcomes of the failed first rolls). Under "failed" the
    ☠ parts count only the banes that hurt, i.e. those of pushed rolls."""
    policy = _policy(pushed)
    if policy == "failed":
        first = pool_vectors(pool, "no")
        joint: Distribution[Vec5] = Distribution.constant((0, 0, 0, 0, 0))
        for kind, n in pool.kinds():
            if n:
                joint = joint.combine(
                    _die_first_and_pushed(kind).repeat(n, _v5add, (0, 0, 0, 0, 0)), _v5add)
        scale = 6 ** pool.size
        counts: dict[Vec, int] = {}
        for v, c in first:
            if net_successes(v) >= 1:  # not pushed: its ☠ do nothing
                key = (v[0], v[1], 0, 0)
                counts[key] = counts.get(key, 0) + c * scale
        for w, c in joint:
            if w[0] <= 0:  # the first roll had no ✘ left: it was pushed
                key = (w[1], w[2], w[3], w[4])
                counts[key] = counts.get(key, 0) + c
        return Distribution.from_counts(counts)
    result: Distribution[Vec] = Distribution.constant(ZERO)
    for kind, n in pool.kinds():
        if n:
            result = result.combine(
                die_distribution(kind, policy == "always").repeat(n, _vadd, ZERO), _vadd)
    return result


def should_push(policy: str, first: Vec) -> bool:
    return policy == "always" or (policy == "failed" and net_successes(first) == 0)


def net_successes(v: Vec) -> int:
    """✘ left after negative dice cancel ✘ on the other dice (never below zero)."""
    return max(0, v[0] - v[1])


def successes(pool: DicePool, pushed: bool | str = False) -> Distribution[int]:
    return pool_vectors(pool, pushed).map(net_successes)


def successes_and_banes(pool: DicePool,
                        pushed: bool | str = False) -> Distribution[tuple[int, int]]:
    """Joint (✘, ☠) with ☠ counted on base and gear dice."""
    return pool_vectors(pool, pushed).map(lambda v: (net_successes(v), v[2] + v[3]))


# -- rolling -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RolledDie:
    kind: DieKind
    face: int


def roll_pool(draw: Draw, pool: DicePool) -> tuple[RolledDie, ...]:
    """The pool's dice, kind by kind, as a function of the dice (rolled one by one: the exact
    odds are pool_vectors(), a closed form of the same faces)."""
    out: list[RolledDie] = []
    for kind, n in pool.kinds():
        check_dice(n)
        out.extend(RolledDie(kind, draw(6)) for _ in range(n))
    return tuple(out)


def push_roll(draw: Draw, dice: Iterable[RolledDie]) -> tuple[RolledDie, ...]:
    """Re-roll every die not showing ✘ and not ☠ on base/gear (standard rule)."""
    return tuple(d if locked(d.kind, d.face) else RolledDie(d.kind, draw(6)) for d in dice)


PoolRoll = tuple[tuple["RolledDie", ...], tuple["RolledDie", ...] | None]  # (first, pushed)


def pushed_roll(pool: DicePool, policy: PushPolicy | str) -> Callable[[Draw], PoolRoll]:
    """A roll and, when `policy` says so, its push: (first dice, pushed dice or None)."""
    def program(draw: Draw) -> PoolRoll:
        first = roll_pool(draw, pool)
        return first, push_roll(draw, first) if should_push(policy, tally(first)) else None

    return program


def tally(dice: Iterable[RolledDie]) -> Vec:
    total = ZERO
    for d in dice:
        total = _vadd(total, face_outcome(d.kind, d.face))
    return total


def show(dice: Iterable[RolledDie], prefix: str = "") -> tuple[Die, ...]:
    def label(d: RolledDie) -> str:
        v = face_outcome(d.kind, d.face)
        if v[0]:
            return SUCCESS
        if v[1]:
            return "-" + SUCCESS  # a ✘ on a negative die cancels one ✘
        return BANE if v[2] or v[3] else ""
    return tuple(Die(6, d.face, label(d), f"{prefix}{d.kind}") for d in dice)


def _faces(dice: Iterable[RolledDie]) -> str:
    return " ".join(f"{d.face}" for d in dice) or "no dice"


# -- presenting odds --------------------------------------------------------------------------
def _succ_label(n: int) -> str:
    return f"{n} {SUCCESS}"


def pool_odds(pool: DicePool, pushed: bool | str, what: str) -> tuple[Odds, ...]:
    vec = pool_vectors(pool, pushed)
    tag = ""
    out = [Odds.of(vec.map(net_successes), f"{what}: {SUCCESS} successes{tag}", _succ_label),
           Odds.of(vec.map(lambda v: v[2] + v[3]),
                   f"{what}: {BANE} banes on base and gear dice{tag}",
                   lambda n: f"{n} {BANE}"),
           Odds.of(vec.map(lambda v: (net_successes(v), v[2] + v[3])),
                   f"{what}: {SUCCESS} and {BANE} together{tag}",
                   lambda o: f"{o[0]} {SUCCESS}, {o[1]} {BANE}", cumulative=False)]
    return tuple(out)


def _p(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator} ≈ {float(f):.1%}"
