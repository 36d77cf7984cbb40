"""Roll Action (Other: Attribute + Skill + Gear), with pushing."""

from __future__ import annotations

import random
from typing import Annotated, Any

from ..kernel import Faces, In, Roll, rolled
from ..result import Odds, Result
from .dice import (
    PUSH_CHOICES,
    PoolRoll,
    _faces,
    _p,
    _policy,
    make_pool,
    net_successes,
    pool_odds,
    pool_vectors,
    pushed_roll,
    show,
    successes,
    tally,
)
from .sheet import (
    BANE,
    MAX_POOL,
    SHEET,
    STANDARD_MODS,
    STANDARD_PUSH,
    SUCCESS,
    T_NON_ATTACK,
    dice_in,
    outside_rules,
)


# == calculators ===============================================================================
@SHEET.calculator(title="Roll Attribute + Skill + Gear (and push)",
                  at=f"Roll Action (Other: Attribute + Skill + Gear) + {STANDARD_MODS}; "
                     f"{STANDARD_PUSH}",
                  id="forbidden_lands.roll", tables=(T_NON_ATTACK,),
                  description="Exact odds of ✘ and ☠ for any roll, first roll and pushed.")
def roll_check(
    *,
    attribute: Annotated[int, dice_in("Attribute (base dice)")] = 3,
    skill: Annotated[int, dice_in("Skill level (skill dice)")] = 1,
    gear: Annotated[int, dice_in("Gear bonus (gear dice)")] = 1,
    modification: Annotated[int, In("Modification (adds or removes skill dice)", -6, 6)] = 0,
    push: Annotated[str, In("Push the roll?", choices=PUSH_CHOICES)] = "no",
    needed: Annotated[int, In(f"{SUCCESS} needed", 1, MAX_POOL)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """Combat Order § Roll Action, 'Other: Attribute + Skill + Gear'; pushing: standard rule."""
    return check(attribute, skill, gear, modification, push, needed, rng)


def check(attribute: int, skill: int, gear: int, modification: int, push: str, needed: int,
          rng: random.Random | None) -> Result:
    """One roll of Attribute + Skill + Gear dice, as every action of the sheet rolls it."""
    pool = make_pool(attribute, skill, gear, modification)
    policy = _policy(push)
    pushed = policy != "no"
    first = successes(pool)
    odds = list(pool_odds(pool, False, "First roll"))
    steps = [f"Roll {pool.describe()}: base = attribute {attribute}, skill = skill level {skill}"
             f" {modification:+d} modification, gear = gear bonus {gear}.",
             f"Each 6 is a {SUCCESS}; each 1 on a base or gear die is a {BANE}."]
    if pool.skill < 0:
        steps.append(f"Skill dice below zero: {-pool.skill} negative dice; each {SUCCESS} on them "
                     f"cancels one {SUCCESS} on the base and gear dice.")
    values: list[tuple[str, Any]] = [("P(at least needed ✘), first roll", first.at_least(needed))]
    if pushed:
        vec = pool_vectors(pool, policy)
        odds.extend(pool_odds(pool, policy, "Pushed" if policy == "always"
                              else "Pushed if no ✘"))
        odds.append(Odds.of(vec.map(lambda v: v[2]),
                            f"Pushed: attribute damage ({BANE} on base dice)",
                            lambda n: f"{n} damage"))
        odds.append(Odds.of(vec.map(lambda v: v[3]),
                            f"Pushed: gear bonus lost ({BANE} on gear dice)",
                            lambda n: f"-{n} bonus"))
        values.append(("P(at least needed ✘), pushed", successes(pool, policy).at_least(needed)))
        steps.append(("Push whatever the first roll shows" if policy == "always" else
                      "Push only when the first roll has no ✘")
                     + ": re-roll every die that shows neither ✘ nor ☠ (skill dice showing 1 "
                     "are re-rolled too); then each ☠ on a base die costs 1 point of the "
                     "attribute, "
                     "each ☠ on a gear die lowers the gear bonus by 1.")
    summary = (f"P(≥{needed} {SUCCESS}) = {_p(values[0][1])}"
               + (f"; pushed {_p(values[1][1])}" if pushed else ""))

    def say(got: PoolRoll, _: Faces) -> Roll:
        first, again = got
        v = tally(first)
        dice, steps = show(first, "first "), [f"Rolled {_faces(first)}: {net_successes(v)} "
                                               f"{SUCCESS}, {v[2] + v[3]} {BANE}."]
        more: tuple[tuple[str, int], ...] = ()
        if again is not None:
            v = tally(again)
            dice += show(again, "pushed ")
            steps.append(f"Pushed to {_faces(again)}: {net_successes(v)} {SUCCESS}; "
                         f"{v[2]} {BANE} on base dice (attribute damage), "
                         f"{v[3]} {BANE} on gear dice (gear bonus lost).")
            more = (("Attribute damage", v[2]), ("Gear bonus lost", v[3]))
        return Roll(f"{net_successes(v)} {SUCCESS} — "
                    + ("success" if net_successes(v) >= needed else "failure") + "; " + summary,
                    dice, (("Successes", net_successes(v)),), more, tuple(steps))

    return rolled(Result(summary, tuple(values), tuple(steps), tuple(odds),
                         notes=outside_rules(pushed, modification != 0)),
                  rng, pushed_roll(pool, policy), say)
