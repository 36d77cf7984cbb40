"""§ 1 Determine initiative."""

from __future__ import annotations

import random
from typing import Annotated, Any

from ..dice import Distribution, roll
from ..kernel import In, calculator
from ..registry import Die, Odds, Result
from .contest import _p
from .sheet import DOC, MAX_SCORE, SIDES


@calculator(
    id="mecha.initiative",
    title="Initiative",
    source=f"{DOC} § 1 Determine initiative",
)
def initiative(
    *,
    reflex: Annotated[int, In("Your Reflex", 0, MAX_SCORE)] = 5,
    other_reflex: Annotated[int, In("Opponent's Reflex", 0, MAX_SCORE)] = 5,
    rng: random.Random | None = None,
) -> Result:
    """§ 1: 1 die + Reflex = Initiative; highest goes first, acting in descending order."""
    d = Distribution.d(SIDES)
    diff = d.combine(d, lambda a, b: (a + reflex) - (b + other_reflex))
    first, tie = diff.p(lambda x: x > 0), diff.probability(0)
    steps = [f"You: 1 die + Reflex {reflex}; opponent: 1 die + Reflex {other_reflex}.",
             "Highest initiative goes first; the rest act in descending order."]
    odds = (Odds.of(d + reflex, "Your initiative", str),
            Odds.of(diff.map(lambda x: "you first" if x > 0 else ("tie" if x == 0 else
                                                                   "opponent first")),
                    "Who acts first", str, cumulative=False))
    values: list[tuple[str, Any]] = [("P(you first)", first), ("P(tie)", tie)]
    summary = f"P(you act first) = {_p(first)}; P(tie) = {_p(tie)}"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        a, b = roll(rng, SIDES, 2)
        dice = (Die(SIDES, a, "you", "initiative"), Die(SIDES, b, "opponent", "initiative"))
        mine, theirs = a + reflex, b + other_reflex
        who = "you go first" if mine > theirs else ("tie" if mine == theirs else
                                                    "the opponent goes first")
        steps.append(f"Rolled {a} + {reflex} = {mine} against {b} + {other_reflex} = {theirs}: "
                     f"{who}.")
        values = [("Your initiative", mine), ("Opponent's initiative", theirs), *values]
        summary = f"Initiative {mine} against {theirs}: {who}"
    return Result(summary, tuple(values), tuple(steps), odds, dice,
                  notes=("The source does not say how ties are broken.",))
