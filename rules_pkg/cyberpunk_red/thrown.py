"""§ Throw: throwing an object you are holding (a Ranged Attack on DEX + Athletics)."""

from __future__ import annotations

import random
from typing import Annotated

from ..dice import check_dice
from ..errors import RulesError
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Result
from .core import Defender, Thrower, _odds_check, sp_in
from .melee import throw_max
from .ranged import shot
from .sheet import NO_CRIT_10, SHEET

THROW_MAX = throw_max()  # "up to a maximum of 12 SQ": the form's limit and the engine's
OBJECTS = (
    ("melee", "A Melee weapon (its stated damage, SP not halved)"),
    ("grenade", "A grenade (its grenade launcher damage)"),
    ("improvised", "Something improvised (damage as the GM thinks)"),
)


@SHEET.calculator(title="Throw an object", at="§ Throw",
                  see="§ Resolving Ranged Combat, § Taking damage")
def throw_object(
    *,
    thrower: Thrower,  # input groups: the kernel builds them from their inputs
    squares: Annotated[int, In("Distance (squares)", 1, THROW_MAX,
                               help=f"up to a maximum of {THROW_MAX} SQ")] = 4,
    thrown: Annotated[str, In("What you throw", choices=OBJECTS)] = "melee",
    target: Defender,
    dice: Annotated[int, In("Damage (d6)", 1, 20)] = 2,
    sp_body: Annotated[int, sp_in("Body SP")] = 11,
    rng: random.Random | None = None,
) -> Result:
    """§ Throw: "using an Action to make a Ranged Attack using DEX + Athletics + 1d10, up to a
    maximum of 12 SQ, (using the Grenade Launcher DV entry on the range table"; a defender
    who can dodge bullets may dodge it. "Melee weapons deal their stated damage when thrown,
    but don't halve SP. Grenades deal the same damage as they would when fired from a
    grenade launcher. An improvised thrown weapon does as much damage as the GM thinks.\""""
    if thrown not in dict(OBJECTS):
        raise RulesError(f"unknown thing thrown {thrown!r}")
    check_dice(dice)
    dfn = target.against("a thrown object")
    base = thrower.base
    steps = [f"an Action: {thrower.says()} + 1d10 vs "
             f"{dfn.describe()}, {squares} of at most {THROW_MAX} squares"]
    notes: tuple[str, ...] = (NO_CRIT_10, "The range table's Grenade Launcher DVs are not in "
                              "the sheet: enter the DV for the distance.")
    if thrown == "melee":
        steps.append("a thrown Melee weapon deals its stated damage and does not halve SP")
    elif thrown == "grenade":
        notes += ("A grenade deals its grenade launcher damage (not in the sheet: enter its "
                  "dice); § Explosives: one damage roll for everyone in the blast.",)
    if thrown != "improvised":
        return shot(base, dfn, dice, sp_body, "none", steps, rng, notes)
    m = dfn.margin(base)
    p_hit = m.p(lambda v: v > 0)
    steps.append(f"Hit (beat the defence; a tie misses): {p_hit}")

    def say(margin: int, faces: Faces) -> Roll:
        a = faces[0][1]
        d_total, defended = dfn.rolled(faces)
        word = "Hit" if margin > 0 else "Miss"
        return Roll(f"{word} ({base + a} vs {d_total})",
                    (Die(10, a, "attack", "attack"), *defended))

    return rolled(Result(f"{float(p_hit):.0%} to hit", (("P(hit)", p_hit),), tuple(steps),
                         (_odds_check(m, "Attack minus defence"),),
                         notes=(*notes, "An improvised thrown weapon does as much damage as the "
                                "GM thinks it would: no damage here.")),
                  rng, dfn.beat(base), say)
