"""§ Status Effects: Burning, Blood Loss, Crippled, Fatigue, Helpless damage."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from ..dice import Distribution, Draw, expand, total
from ..errors import LimitError
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Die, Odds, Result
from .modifiers import FATIGUE_EFFECT
from .sheet import (
    CIRC,
    STATUS,
    STATUS_EFFECTS,
    Horde,
    ToughnessModifier,
    characteristic_in,
    entry,
    row,
)

_BURN_DIE = entry("Burning", pattern=r"take 1d(\d+) energy damage")
_BURN_STEP = entry("Burning", "increases by")
_BURN_HORDE_DIE = entry("Burning", pattern=r"automatically lose 1d(\d+) magnitude")
_BLOOD_DIE = entry("Blood Loss", pattern=r"suffer 1d(\d+) Toughness decay")
_BLOOD_HORDE_DIE = entry("Blood Loss", pattern=r"lose 1d(\d+) magnitude")
_CRIPPLED_DIE = entry("Crippled", pattern=r"suffer 1d(\d+) damage")
_COLLAPSE_BASE = entry("Fatigue effect", pattern=r"collapse for (\d+)-TB")
_COLLAPSE_PER = entry("Fatigue effect", pattern=r"\+(\d+) minutes per")
_COLLAPSE_ABOVE = entry("Fatigue effect", pattern=r"above your TB\+(\d+)")
_REST_ALL_HOURS = entry("Fatigue effect", pattern=r"(\d+) hours removes all")

# -- status effects ---------------------------------------------------------------------------

MAX_ROUNDS = 30
MAX_HELPLESS_DICE = 10  # doubled to 20 dice: exact odds stay quick


@STATUS_EFFECTS.calculator(title="Burning damage by round", at="Burning")
def burning(
    *,
    round: Annotated[int, In("Round on fire (1 = first)", 1, MAX_ROUNDS)] = 1,
    horde: Horde = False,
    rng: random.Random | None = None,
) -> Result:
    """1d10 energy damage ignoring AP, +1 for every round that passes.

    Hordes instead lose 1d10 magnitude at the end of each turn."""
    if not 1 <= round <= MAX_ROUNDS:
        raise LimitError(f"round is 1 to {MAX_ROUNDS} (got {round})")
    r = row("Burning")
    die = _BURN_DIE.read()
    step = _BURN_STEP.read()
    d = Distribution.d(die)
    hd = _BURN_HORDE_DIE.read()
    extra = 0 if horde else step * (round - 1)

    def burn(draw: Draw) -> int:
        """This round: a Horde's magnitude lost, or a character's damage."""
        return draw(hd if horde else die) + extra

    this = expand(burn)
    if horde:
        steps = [f"Hordes automatically lose 1d{hd} magnitude at the end of each turn"]
        total = this.repeat(round)
        what = "magnitude"
    else:
        total = d.repeat(round) + sum(step * i for i in range(round))
        steps = [
            f"1d{die} energy damage to a random location, ignoring AP",
            f"+{step} for every round that passes: round {round} → 1d{die}{extra:+d}",
        ]
        what = "damage"
    lo, hi = min(this.outcomes()), max(this.outcomes())

    def say(got: int, faces: Faces) -> Roll:
        (s, v), = faces
        return Roll(f"Round {round}: {got} {what}", (Die(s, v, f"{got} {what}", "fire"),))

    steps.append(f"Total over rounds 1-{round}: mean {float(total.mean()):.1f}")
    return rolled(Result(
        f"Round {round}: {what} {lo}-{hi} (mean {float(this.mean()):.1f})",
        (
            ("This round", f"{min(this.outcomes())}-{max(this.outcomes())}"),
            ("Mean total", total.mean()),
        ),
        tuple(steps),
        (
            Odds.of(this, f"{what.capitalize()} in round {round}"),
            Odds.of(total, f"Total {what} over {round} round(s)"),
        ),
        (),
        (r.highlight,),
        ("Willpower test to act, Agility test to put it out: their results are yours to roll.",),
    ), rng, burn, say)


def blood_loss_chain(toughness: int, modifier: int, rounds: int, decay_die: int) -> dict[int, int]:
    """Toughness after `rounds` tests: counts over (100 x die)^rounds equally likely ways.

    Each round test Toughness (current value + modifier); on a failure lose 1d`decay_die`.
    At 0 Toughness the character dies (state 0 absorbs).
    """
    states = {toughness: 1}
    for _ in range(rounds):
        nxt: dict[int, int] = {}
        for t, c in states.items():
            if t <= 0:
                nxt[0] = nxt.get(0, 0) + c * 100 * decay_die
                continue
            succ = min(100, max(0, t + modifier))
            nxt[t] = nxt.get(t, 0) + c * succ * decay_die
            for k in range(1, decay_die + 1):
                nt = max(0, t - k)
                nxt[nt] = nxt.get(nt, 0) + c * (100 - succ)
        states = nxt
    return states


@STATUS_EFFECTS.calculator(
    title="Blood Loss over rounds",
    at="Blood Loss + standard d100 test (roll at most the target)",
)
def blood_loss(
    *,
    toughness: Annotated[int, In("Toughness (or a Horde's)", 1, 100)] = 30,
    modifier: ToughnessModifier = 0,
    rounds: Annotated[int, In("Rounds", 1, 30)] = 3,
    horde: Horde = False,
    magnitude: Annotated[int, In("Horde magnitude", 1, 500)] = 30,
) -> Result:
    """Test Toughness every round; a failure costs 1d5 Toughness (Hordes: 1d5 magnitude)."""
    if not 1 <= rounds <= 30:
        raise LimitError(f"at most 30 rounds (got {rounds})")
    r = row("Blood Loss")
    die = _BLOOD_DIE.read()
    if horde:
        hd = _BLOOD_HORDE_DIE.read()
        succ = min(100, max(0, toughness + modifier))
        per = Distribution.from_counts({0: succ * hd, **{k: 100 - succ for k in range(1, hd + 1)}})
        lost = per.repeat(rounds)
        after = lost.map(lambda x: max(0, magnitude - x))
        return Result(
            f"After {rounds} round(s): magnitude mean {float(after.mean()):.1f}",
            (("P(destroyed)", after.probability(0)), ("Mean magnitude", after.mean())),
            (
                f"Test Toughness {toughness}{modifier:+d} = {succ} each round",
                f"On a failure the Horde loses 1d{hd} magnitude at the end of the turn",
            ),
            (Odds.of(after, "Magnitude after"),),
            highlight=(r.highlight,),
        )
    states = blood_loss_chain(toughness, modifier, rounds, die)
    dist = Distribution.from_counts(states)
    p_dead = dist.probability(0)
    steps = (
        f"Each round test Toughness (current Toughness {modifier:+d}); "
        f"on a failure suffer 1d{die} Toughness decay",
        "The test is against the decayed Toughness (decay lowers the characteristic)",
        f"At 0 Toughness you die: {float(p_dead):.2%} within {rounds} round(s)",
    )
    return Result(
        f"P(dead within {rounds} rounds) = {float(p_dead):.2%}",
        (("P(dead)", p_dead), ("Mean Toughness", dist.mean())),
        steps,
        (Odds.of(dist, f"Toughness after {rounds} round(s)"),),
        highlight=(r.highlight,),
        notes=("Until the blood loss is staunched (Medicae).",),
    )


@STATUS_EFFECTS.calculator(title="Crippled: acting beyond a Half Action", at="Crippled")
def crippled(
    *,
    toughness: Annotated[int, characteristic_in("Toughness")] = 30,
    modifier: ToughnessModifier = 0,
    wounds: Annotated[int, In("Wounds remaining", 0, 1000)] = 10,
    horde: Horde = False,
    rng: random.Random | None = None,
) -> Result:
    """More than a Half Action: test Toughness; on a failure 1d10 damage ignoring AP and TB."""
    r = row("Crippled")
    if horde:
        return Result(
            "Hordes instead instantly gain the Blood Loss status effect.",
            (("Blood Loss", True),),
            ("Hordes instead instantly gain Blood Loss",),
            highlight=(r.highlight, row("Blood Loss").highlight),
        )
    die = _CRIPPLED_DIE.read()
    target = toughness + modifier
    succ = min(100, max(0, target))
    d = Distribution.d(die)

    def more_than_half(draw: Draw) -> tuple[int, int | None]:
        """The Toughness roll, and on a failure the damage ignoring AP and TB."""
        t = draw(100)
        return t, None if t <= target else draw(die)

    after = expand(more_than_half).map(lambda o: wounds if o[1] is None
                                       else max(0, wounds - o[1]))
    p_bl = after.probability(0) if wounds > 0 else Fraction(0)
    steps = [
        f"Test Toughness {target}: pass on {succ} or less ({Fraction(succ, 100)})",
        f"On a failure suffer 1d{die} damage that ignores AP and TB "
        "(it cannot inflict critical damage)",
        f"Reduced to 0 wounds: lose Crippled, gain Blood Loss ({p_bl})",
    ]

    def say(got: tuple[int, int | None], faces: Faces) -> Roll:
        t, v = got
        toughness_die = Die(100, t, "pass" if v is None else "fail", "toughness")
        if v is None:
            return Roll(f"Rolled {t:02d}: passed, no damage", (toughness_die,))
        left = max(0, wounds - v)
        return Roll(f"Rolled {t:02d}: failed, {v} damage, {left} wounds left"
                    + (" → Blood Loss" if left == 0 and wounds > 0 else ""),
                    (toughness_die, Die(die, v, f"{v} damage", "damage")))

    return rolled(Result(
        f"P(damage) = {Fraction(100 - succ, 100)}; P(Blood Loss) = {p_bl}",
        (("P(damage)", Fraction(100 - succ, 100)), ("P(Blood Loss)", p_bl)),
        tuple(steps),
        (
            Odds.of(after, "Wounds after", cumulative=False),
            Odds.of(d, f"Damage on a failure (1d{die})"),
        ),
        (),
        (r.highlight,),
    ), rng, more_than_half, say)


@dataclass(frozen=True)
class Collapse:
    collapses: bool
    minutes: int
    penalty: int
    rest_hours: int


def fatigue_collapse(fatigue: int, threshold: int, tb: int) -> Collapse:
    """Fatigue equal to or over the Threshold: collapse for 10-TB minutes, +10 minutes per
    point of Fatigue above TB+1; 1 hour of rest removes 1 rank, 6 hours all of it."""
    base, per = _COLLAPSE_BASE.read(), _COLLAPSE_PER.read()
    above, all_hours = _COLLAPSE_ABOVE.read(), _REST_ALL_HOURS.read()
    penalty = FATIGUE_EFFECT.read() if fatigue > 0 else 0
    minutes = 0
    if fatigue >= threshold:
        minutes = max(0, base - tb) + per * max(0, fatigue - (tb + above))
    return Collapse(fatigue >= threshold, minutes, penalty, min(fatigue, all_hours))


@STATUS_EFFECTS.calculator(title="Fatigue: penalty, collapse and rest", at="Fatigue")
def fatigue(
    *,
    fatigue: Annotated[int, In("Levels of Fatigue", 0, 100)] = 1,
    threshold: Annotated[int, In(
        "Fatigue Threshold",
        1,
        100,
        help="Not defined in the sheet (standard rule: TB + WPB).",
    )] = 6,
    tb: Annotated[int, In("Toughness Bonus (TB)", 0, 20)] = 3,
) -> Result:
    c = fatigue_collapse(fatigue, threshold, tb)
    r = row("Fatigue effect")
    steps = [f"With a level of Fatigue: {c.penalty:+d} to all tests" if fatigue else "No Fatigue"]
    if c.collapses:
        steps.append(
            f"Fatigue {fatigue} ≥ Threshold {threshold}: collapse for 10 - TB "
            f"= {max(0, 10 - tb)} minutes + 10 per point above TB+1 "
            f"({max(0, fatigue - tb - 1)}) = {c.minutes} minutes"
        )
    steps.append(f"Rest: 1 hour removes 1 rank, 6 hours removes all: {c.rest_hours} hour(s)")
    summary = (f"Collapsed for {c.minutes} minutes" if c.collapses else "No collapse") + (
        f"; {c.penalty:+d} to all tests" if fatigue else ""
    )
    return Result(
        summary,
        (
            ("Collapses", c.collapses),
            ("Minutes", c.minutes),
            ("Penalty", c.penalty),
            ("Hours of rest", c.rest_hours),
        ),
        tuple(steps),
        highlight=(r.highlight, row("Fatigue").highlight),
        notes=(
            "The Fatigue Threshold is not defined in the sheet.",
            "10 - TB below 0 is counted as 0 minutes (not in the source).",
            "Hordes take the penalty, and lose 1d10 magnitude in any turn they act "
            "whilst over the Threshold.",
        ),
    )


@calculator(
    title="Damage against a Helpless target",
    source=f"{CIRC} § Helpless (Status Modifiers), {STATUS} § Helpless",
    tables=("status-modifiers", "status-effects"),
)
def helpless_damage(
    *,
    dice: Annotated[int, In("Damage dice", 1, MAX_HELPLESS_DICE)] = 1,
    sides: Annotated[int, In("Sides", 2, 20)] = 10,
    bonus: Annotated[int, In("Damage modifier", -50, 100)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Roll the damage dice twice and add both, damage modifiers only once."""
    if not 1 <= dice <= MAX_HELPLESS_DICE:
        raise LimitError(f"1 to {MAX_HELPLESS_DICE} damage dice (asked for {dice})")
    if not 2 <= sides <= 20:
        raise LimitError(f"damage dice of 2 to 20 sides (asked for d{sides})")
    base = Distribution.d(sides).repeat(dice)
    normal = base + bonus

    def twice(draw: Draw) -> int:
        """The damage dice rolled twice and added, the modifier once."""
        return total(draw, 2 * dice, sides) + bonus

    doubled = expand(twice)
    steps = [
        f"Normal: {dice}d{sides}{bonus:+d}, mean {float(normal.mean()):.1f}",
        f"Helpless: roll the damage dice twice and add both: {2 * dice}d{sides}{bonus:+d} "
        f"(modifier once), mean {float(doubled.mean()):.1f}",
    ]

    def say(got: int, faces: Faces) -> Roll:
        vs = [v for _, v in faces]
        return Roll(f"Rolled {' + '.join(map(str, vs))} {bonus:+d} = {got}",
                    tuple(Die(sides, v, "", "damage") for v in vs))

    return rolled(Result(
        f"{2 * dice}d{sides}{bonus:+d}: mean {float(doubled.mean()):.1f}",
        (("Mean", doubled.mean()), ("Mean normally", normal.mean())),
        tuple(steps),
        (Odds.of(doubled, "Damage against a Helpless target"),),
        (),
        (row("Helpless").highlight, row("Helpless effect").highlight),
    ), rng, twice, say)
