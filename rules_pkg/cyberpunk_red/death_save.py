"""§ Death Saves."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated

from ..dice import Distribution, roll
from ..errors import LimitError
from ..kernel import In, calculator
from ..registry import Die, Odds, OddsRow, Result
from .sheet import SRC, rule

# -- death save -----------------------------------------------------------------------------


def death_save_faces() -> tuple[int, int, int]:
    """(die sides, the face that always fails, penalty added per save), from § Death Save."""
    t = "death-save"
    return (
        rule(t, r"Roll a d(\d+)"),
        rule(t, r"If you roll a (\d+), you automatically fail"),
        rule(t, r"additional \+(\d+)"),
    )


def death_save_pass(body: int, penalty: int) -> int:
    """How many d10 faces live: roll + penalty under BODY, and never the automatic fail."""
    sides, fail, _ = death_save_faces()
    return sum(1 for r in range(1, sides + 1) if r != fail and r + penalty < body)


def death_saves(body: int, penalty: int, saves: int) -> Distribution[int]:
    """Saves passed before the first failure (= `saves` if all pass), counts over 10^saves."""
    sides, _, step = death_save_faces()
    counts: dict[int, int] = {}
    alive = 1  # ways to have passed every save so far
    for k in range(saves):
        ok = death_save_pass(body, penalty + step * k)
        counts[k] = alive * (sides - ok) * sides ** (saves - k - 1)
        alive *= ok
    counts[saves] = alive
    return Distribution.from_counts(counts) if any(counts.values()) else Distribution.constant(0)


@calculator(
    id="cyberpunk_red.death_save",
    sections=("death-save",),
    title="Death Save",
    source=f"{SRC} § Death Save",
)
def death_save(
    *,
    body: Annotated[int, In("BODY", 1, 20)] = 6,
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
    dice_out: list[Die] = []
    summary = f"P(survive {saves} Death Saves) = {p_all} ({float(p_all):.1%})"
    if rng is not None:
        pen = penalty
        for k in range(saves):
            v = roll(rng, sides)[0]
            ok = v != fail and v + pen < body
            dice_out.append(Die(sides, v, "lives" if ok else "dies", "death save"))
            pen += step
            if not ok:
                summary = f"Died on Death Save {k + 1} (rolled {v})"
                break
        else:
            summary = f"Survived {saves} Death Saves"
    odds = Odds(
        "Death Saves passed before the first failure",
        tuple(
            OddsRow(f"{k} passed" if k < saves else f"all {saves}", p)
            for k, p in dist.pmf().items()
        ),
    )
    return Result(
        summary,
        (
            ("P(survive all)", p_all),
            ("P(first save)", Fraction(death_save_pass(body, penalty), sides)),
        ),
        tuple(steps),
        (odds,),
        tuple(dice_out),
        notes=(
            "'Under your BODY' is read as strictly less than BODY, as written.",
            "The starting Death Save Penalty is an input: the sheet only says it "
            "increases by 1 per save.",
        ),
    )
