"""§ 1 Determine initiative."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Annotated

from ..dice import Distribution, Draw, expand
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Die, Odds, Result
from .contest import _p
from .sheet import DOC, MAX_SCORE, SIDES


def score(reflex: int) -> Callable[[Callable[[int], int]], int]:
    """§ 1 for one character: 1 die + Reflex. The encounter rolls it for each combatant
    (rules_pkg/mecha/encounter.py), without the odds: its die, any draw(sides)."""
    return lambda draw: draw(SIDES) + reflex


def outcome(reflex: int, other_reflex: int) -> Callable[[Draw], tuple[int, int]]:
    """§ 1 as a dice program: (your initiative, the opponent's), 1 die + Reflex each."""
    yours, theirs = score(reflex), score(other_reflex)

    def scores(draw: Draw) -> tuple[int, int]:
        return yours(draw), theirs(draw)

    return scores


@calculator(title="Initiative", source=f"{DOC} § 1 Determine initiative")
def initiative(
    *,
    reflex: Annotated[int, In("Your Reflex", 0, MAX_SCORE)] = 5,
    other_reflex: Annotated[int, In("Opponent's Reflex", 0, MAX_SCORE)] = 5,
    rng: random.Random | None = None,
) -> Result:
    """§ 1: 1 die + Reflex = Initiative; highest goes first, acting in descending order."""
    d = Distribution.d(SIDES)
    scores = outcome(reflex, other_reflex)
    diff = expand(scores).map(lambda s: s[0] - s[1])
    first, tie = diff.p(lambda x: x > 0), diff.probability(0)
    steps = [f"You: 1 die + Reflex {reflex}; opponent: 1 die + Reflex {other_reflex}.",
             "Highest initiative goes first; the rest act in descending order."]
    odds = (Odds.of(d + reflex, "Your initiative", str),
            Odds.of(diff.map(lambda x: "you first" if x > 0 else ("tie" if x == 0 else
                                                                   "opponent first")),
                    "Who acts first", str, cumulative=False))

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        (mine, theirs), ((_, a), (_, b)) = got, faces
        who = "you go first" if mine > theirs else ("tie" if mine == theirs else
                                                    "the opponent goes first")
        return Roll(f"Initiative {mine} against {theirs}: {who}",
                    (Die(SIDES, a, "you", "initiative"), Die(SIDES, b, "opponent", "initiative")),
                    (("Your initiative", mine), ("Opponent's initiative", theirs)),
                    steps=(f"Rolled {a} + {reflex} = {mine} against {b} + {other_reflex} = "
                           f"{theirs}: {who}.",))

    return rolled(Result(f"P(you act first) = {_p(first)}; P(tie) = {_p(tie)}",
                         (("P(you first)", first), ("P(tie)", tie)), tuple(steps), odds,
                         notes=("The source does not say how ties are broken.",)),
                  rng, scores, say)
