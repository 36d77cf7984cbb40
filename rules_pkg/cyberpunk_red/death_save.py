"""§ Death Saves."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated

from ..dice import Distribution, Draw, expand
from ..errors import LimitError
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Odds, OddsRow, Result
from .core import body_in
from .sheet import SHEET, number

# -- death save -----------------------------------------------------------------------------


_DEATH_SAVE_DIE = number("death-save", r"Roll a d(\d+)")
_DEATH_SAVE_FAIL = number("death-save", r"If you roll a (\d+), you automatically fail")
_DEATH_SAVE_PENALTY = number("death-save", r"additional \+(\d+)")


def death_save_faces() -> tuple[int, int, int]:
    """(die sides, the face that always fails, penalty added per save), from § Death Save."""
    return (
        _DEATH_SAVE_DIE.read(),
        _DEATH_SAVE_FAIL.read(),
        _DEATH_SAVE_PENALTY.read(),
    )


def death_save_pass(body: int, penalty: int) -> int:
    """How many d10 faces live: roll + penalty under BODY, and never the automatic fail."""
    sides, fail, _ = death_save_faces()
    return sum(1 for r in range(1, sides + 1) if r != fail and r + penalty < body)


def mortally_wounded(body: int, penalty: int, saves: int,
                     ) -> Callable[[Draw], tuple[int, int | None]]:
    """The Death Saves as a function of the dice: (saves passed, the face that failed, or None
    if all passed). Each save is one step with two ways, lives or dies (the living faces are
    one branch, so the exact walk is short)."""
    sides, fail, step = death_save_faces()

    def one(pen: int) -> tuple[Distribution[int | None], Callable[[Draw], int | None]]:
        def died(v: int) -> int | None:  # None: lives; else the face that failed
            return None if v != fail and v + pen < body else v

        return Distribution.d(sides).map(died), lambda d: died(d(sides))

    def program(draw: Draw) -> tuple[int, int | None]:
        for k in range(saves):
            died = draw.pool(*one(penalty + step * k))
            if died is not None:
                return k, died
        return saves, None

    return program


def death_saves(body: int, penalty: int, saves: int) -> Distribution[int]:
    """Saves passed before the first failure (= `saves` if all pass)."""
    return expand(mortally_wounded(body, penalty, saves)).map(lambda o: o[0])


@SHEET.calculator(title="Death Save", at="§ Death Save")
def death_save(
    *,
    body: Annotated[int, body_in("BODY")] = 6,
    penalty: Annotated[int, In("Death Save Penalty so far", 0, 20)] = 0,
    saves: Annotated[int, In("Turns to survive", 1, 20)] = 3,
    rng: random.Random | None = None,
) -> Result:
    """Roll a d10 each Turn Mortally Wounded: under BODY lives, 10 always fails, +1 per save."""
    if not 1 <= saves <= 20:
        raise LimitError(f"at most 20 turns (got {saves})")
    sides, fail, step = death_save_faces()
    dist = death_saves(body, penalty, saves)
    steps = []
    p_all = Fraction(1)
    for k in range(saves):
        ok = death_save_pass(body, penalty + step * k)
        p_all *= Fraction(ok, sides)
        steps.append(
            f"Turn {k + 1}: d{sides} + {penalty + step * k} under BODY {body}, "
            f"a {fail} always fails: {ok}/{sides} → alive {p_all}"
        )

    def say(got: tuple[int, int | None], faces: Faces) -> Roll:
        k, died = got
        shown = tuple(Die(sides, v, "lives" if i < k else "dies", "death save")
                      for i, (_, v) in enumerate(faces))
        if died is None:
            return Roll(f"Survived {saves} Death Saves", shown)
        return Roll(f"Died on Death Save {k + 1} (rolled {died})", shown)
    odds = Odds(
        "Death Saves passed before the first failure",
        tuple(
            OddsRow(f"{k} passed" if k < saves else f"all {saves}", p)
            for k, p in dist.pmf().items()
        ),
    )
    return rolled(Result(
        f"P(survive {saves} Death Saves) = {p_all} ({float(p_all):.1%})",
        (
            ("P(survive all)", p_all),
            ("P(first save)", Fraction(death_save_pass(body, penalty), sides)),
        ),
        tuple(steps),
        (odds,),
        notes=(
            "'Under your BODY' is read as strictly less than BODY, as written.",
            "The starting Death Save Penalty is an input: the sheet only says it "
            "increases by 1 per save.",
        ),
    ), rng, mortally_wounded(body, penalty, saves), say)
