"""§ Skill checks and opposed rolls."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated

from ..dice import Distribution, roll
from ..kernel import In, calculator
from ..registry import Die, Highlight, Result
from .core import MAX_DV, MAX_STAT, _odds_check, margin_opposed, margin_vs_dv
from .sheet import NO_CRIT_10, SRC

# -- calculators: checks --------------------------------------------------------------------


@calculator(
    id="cyberpunk_red.check",
    sections=("resolving-ranged-combat",),
    title="Check against a DV",
    source=f"{SRC} § Resolving Ranged Combat (STAT + Skill + 1d10; beat the DV)",
)
def check_dv(
    *,
    stat: Annotated[int, In("STAT", 0, MAX_STAT)] = 6,
    skill: Annotated[int, In("Skill", 0, MAX_STAT)] = 4,
    modifier: Annotated[int, In("Modifiers (e.g. -8 aimed, -2 grappled)", -30, 30)] = 0,
    dv: Annotated[int, In("DV", 0, MAX_DV)] = 15,
    rng: random.Random | None = None,
) -> Result:
    """STAT + Skill + 1d10 must beat the DV; a tie fails."""
    base = stat + skill + modifier
    m = margin_vs_dv(base, dv)
    p = m.p(lambda v: v > 0)
    steps = [
        f"STAT {stat} + Skill {skill} {modifier:+d} + 1d10 = {base + 1}-{base + 10}",
        f"Beat DV {dv}: need {dv - base + 1}+ on the d10 (a tie fails)",
    ]
    dice: tuple[Die, ...] = ()
    summary = f"{float(p):.0%} to beat DV {dv}"
    if rng is not None:
        v = roll(rng, 10)[0]
        ok = base + v > dv
        dice = (Die(10, v, "success" if ok else "failure", "d10"),)
        summary = f"Rolled {v}: {base + v} vs DV {dv}, {'success' if ok else 'failure'}"
    return Result(
        summary,
        (("P(success)", p), ("Total", f"{base + 1}-{base + 10}")),
        tuple(steps),
        (_odds_check(m, "Check minus DV"),),
        dice,
        notes=(NO_CRIT_10,),
    )


@calculator(
    id="cyberpunk_red.opposed",
    sections=("resolving-ranged-combat", "resolving-melee-combat"),
    title="Opposed roll (defender wins ties)",
    source=f"{SRC} § Resolving Ranged Combat, § Resolving Melee Combat, § Brawling/Grappling",
)
def opposed(
    *,
    att_stat: Annotated[int, In("Attacker STAT", 0, MAX_STAT)] = 6,
    att_skill: Annotated[int, In("Attacker Skill", 0, MAX_STAT)] = 4,
    att_mod: Annotated[int, In("Attacker modifiers", -30, 30)] = 0,
    def_stat: Annotated[int, In("Defender STAT", 0, MAX_STAT)] = 6,
    def_skill: Annotated[int, In("Defender Skill", 0, MAX_STAT)] = 4,
    def_mod: Annotated[int, In("Defender modifiers", -30, 30)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Both roll STAT + Skill + 1d10; the attacker must roll higher (defender wins a tie)."""
    a, d = att_stat + att_skill + att_mod, def_stat + def_skill + def_mod
    m = margin_opposed(a, d)
    p = m.p(lambda v: v > 0)
    steps = [
        f"Attacker {att_stat} + {att_skill} {att_mod:+d} + 1d10",
        f"Defender {def_stat} + {def_skill} {def_mod:+d} + 1d10",
        f"The attacker wins only by rolling higher: P = {p}; a tie ({m.probability(0)}) "
        "goes to the defender",
    ]
    return _opposed_result(m, p, a, d, steps, rng, "attacker wins", "defender wins")


def _opposed_result(
    m: Distribution[int],
    p: Fraction,
    a: int,
    d: int,
    steps: list[str],
    rng: random.Random | None,
    win: str,
    lose: str,
    highlight: tuple[Highlight, ...] = (),
    notes: tuple[str, ...] = (),
) -> Result:
    dice: tuple[Die, ...] = ()
    summary = f"{float(p):.0%}: {win}"
    if rng is not None:
        x, y = roll(rng, 10, 2)
        ok = a + x > d + y
        dice = (Die(10, x, "attacker", "attacker"), Die(10, y, "defender", "defender"))
        summary = f"{a + x} vs {d + y}: {win if ok else lose}"
    return Result(
        summary,
        (("P(" + win + ")", p), ("P(tie)", m.probability(0))),
        tuple(steps),
        (_odds_check(m, "Attacker minus defender"),),
        dice,
        highlight,
        (NO_CRIT_10, *notes),
    )
