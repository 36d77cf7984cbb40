"""§ Scattering, § Decay and § Hallucinating: what follows a miss, rest and a status."""

from __future__ import annotations

import random
import re
from typing import Annotated

from ..data import Entry
from ..dice import Draw, expand
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Odds, Result
from .sheet import (
    CIRCUMSTANCES,
    STATUS_EFFECTS,
    Horde,
    entry,
    row,
)


def _dice(name: str, after: str, cell: int = 0) -> Entry:
    """The sides of the first 'NdS' after `after` in a row's text ('1d5km' -> 5)."""
    return entry(name, pattern=re.escape(after) + r".*?1d(\d+)", cell=cell)


# § Scattering: "roll a 1d10 ... away from the target spot by 1d5km"
_DIRECTION = _dice("Scattering", "roll a")
_DISTANCE = _dice("Scattering", "away from the target spot by")
# § Decay: "Remove 5 Decay per 1 hour of rest"
_DECAY_PER = entry("Decay", pattern=r"Remove (\d+) Decay per (\d+) hour")
_DECAY_EVERY = entry("Decay", pattern=r"Remove (\d+) Decay per (\d+) hour", group=2)
# § Hallucinating: "for 1d10 rounds", for characters and for Hordes (their own cell)
_HALLUCINATING = (_dice("Hallucinating", "for", 1), _dice("Hallucinating", "for", 2))


@CIRCUMSTANCES.calculator(title="Scatter after a miss (Blast or thrown weapons)", at="Scattering")
def scatter(
    *,
    thrown: Annotated[bool, In("A thrown weapon (else a non-thrown Blast weapon)")] = True,
    dof: Annotated[int, In("Degrees of failure of the miss", 1, 10)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """Roll 1d10 on the Scatter Diagram for the direction; the attack moves 1d5 km, plus
    1 km per degree of failure for a non-thrown Blast weapon."""
    r = row("Scattering")
    direction, distance = _DIRECTION.read(), _DISTANCE.read()
    extra = 0 if thrown else dof

    def land(draw: Draw) -> tuple[int, int]:  # the rule once: exact and rolled
        return draw(direction), draw(distance) + extra

    dist = expand(land).map(lambda o: o[1])
    steps = [f"Direction: 1d{direction} on the Scatter Diagram",
             f"Distance: 1d{distance} km" + ("" if thrown else f" + {dof} (1 per DoF)")]

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        way, km = got
        return Roll(f"Scatters {km} km in direction {way}",
                    tuple(Die(s, f, what, "scatter")
                          for (s, f), what in zip(faces, ("direction", "km"), strict=True)),
                    more=(("Direction (d10)", way), ("Distance (km)", km)))

    return rolled(Result(
        f"{dist.outcomes()[0]}-{dist.outcomes()[-1]} km, mean {float(dist.mean()):g} km",
        (("Mean distance (km)", dist.mean()),), tuple(steps),
        (Odds.of(dist, "Distance (km)"),), (), (r.highlight,),
        notes=("The Scatter Diagram itself is not in the sheet.",)), rng, land, say)


@STATUS_EFFECTS.calculator(title="Decay: recovery with rest", at="Decay")
def decay(
    *,
    decay: Annotated[int, In("Decay points", 0, 100)] = 12,
    hours: Annotated[int, In("Hours of rest", 0, 100)] = 1,
) -> Result:
    """"Remove 5 Decay per 1 hour of rest": whole hours only."""
    r = row("Decay")
    per, every = _DECAY_PER.read(), _DECAY_EVERY.read()
    left = max(0, decay - per * (hours // every))
    needed = -(-decay // per) * every
    return Result(f"{left} Decay left after {hours} h; all gone after {needed} h of rest",
                  (("Decay left", left), ("Hours to recover", needed)),
                  (f"Remove {per} Decay per {every} hour(s) of rest",
                   f"{decay} - {per} \u00d7 {hours // every} = {left}"), highlight=(r.highlight,))


@STATUS_EFFECTS.calculator(title="Hallucinating: how long", at="Hallucinating")
def hallucinating(
    *,
    horde: Horde = False,
    rng: random.Random | None = None,
) -> Result:
    """Characters roll on the Hallucinogenic table for 1d10 rounds; Hordes are Stunned."""
    r = row("Hallucinating")
    sides = _HALLUCINATING[horde].read()

    def rounds(draw: Draw) -> int:
        return draw(sides)

    dist = expand(rounds)
    what = "Stunned" if horde else "the Hallucinogenic table's result"

    def say(n: int, faces: Faces) -> Roll:
        return Roll(f"{what} for {n} rounds",
                    tuple(Die(s, f, "rounds", "duration") for s, f in faces),
                    more=(("Rounds", n),))

    return rolled(Result(
        f"{what} for 1d{sides} rounds (mean {float(dist.mean()):g})",
        (("Mean rounds", dist.mean()),),
        (f"{'Hordes' if horde else 'You'}: {what}, 1d{sides} rounds",),
        (Odds.of(dist, "Rounds"),), (), (r.highlight,),
        notes=() if horde else ("The Hallucinogenic table is not in the sheet.",)),
        rng, rounds, say)
