"""§ Skill checks and opposed rolls."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Annotated

from ..dice import Distribution
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Result
from .core import (
    MAX_DV,
    _odds_check,
    beat_dv,
    beat_roll,
    margin_opposed,
    margin_vs_dv,
    modifier_in,
    stat_in,
)
from .sheet import NO_CRIT_10, SHEET

# -- calculators: checks --------------------------------------------------------------------


@SHEET.calculator(title="Check against a DV",
                  at="§ Resolving Ranged Combat (STAT + Skill + 1d10; beat the DV)")
def check(
    *,
    stat: Annotated[int, stat_in("STAT")] = 6,
    skill: Annotated[int, stat_in("Skill")] = 4,
    modifier: Annotated[int, modifier_in("Modifiers (e.g. -8 aimed, -2 grappled)")] = 0,
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

    def say(margin: int, faces: Faces) -> Roll:
        v, ok = faces[0][1], margin > 0
        return Roll(f"Rolled {v}: {base + v} vs DV {dv}, {'success' if ok else 'failure'}",
                    (Die(10, v, "success" if ok else "failure", "d10"),))

    return rolled(Result(
        f"{float(p):.0%} to beat DV {dv}",
        (("P(success)", p), ("Total", f"{base + 1}-{base + 10}")),
        tuple(steps),
        (_odds_check(m, "Check minus DV"),),
        notes=(NO_CRIT_10,),
    ), rng, beat_dv(base, dv), say)


@SHEET.calculator(title="Opposed roll (defender wins ties)",
                  at="§ Resolving Ranged Combat, § Resolving Melee Combat",
                  see="§ Brawling/Grappling")
def opposed(
    *,
    att_stat: Annotated[int, stat_in("Attacker STAT")] = 6,
    att_skill: Annotated[int, stat_in("Attacker Skill")] = 4,
    att_mod: Annotated[int, modifier_in("Attacker modifiers")] = 0,
    def_stat: Annotated[int, stat_in("Defender STAT")] = 6,
    def_skill: Annotated[int, stat_in("Defender Skill")] = 4,
    def_mod: Annotated[int, modifier_in("Defender modifiers")] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Both roll STAT + Skill + 1d10; the attacker must roll higher (defender wins a tie)."""
    o = Opposed(att_stat + att_skill + att_mod, def_stat + def_skill + def_mod)
    steps = [
        f"Attacker {att_stat} + {att_skill} {att_mod:+d} + 1d10",
        f"Defender {def_stat} + {def_skill} {def_mod:+d} + 1d10",
        f"The attacker wins only by rolling higher: P = {o.p}; a tie "
        f"({o.margin.probability(0)}) goes to the defender",
    ]
    return o.result(steps, rng, "attacker wins", "defender wins")


@dataclass(frozen=True)
class Opposed:
    """An opposed roll: `a` + 1d10 against `d` + 1d10, the attacker winning only by rolling
    higher (§ Resolving Melee Combat: "defender wins in a tie")."""

    a: int
    d: int

    @cached_property
    def margin(self) -> Distribution[int]:
        return margin_opposed(self.a, self.d)

    @property
    def p(self) -> Fraction:
        """P(the attacker wins)."""
        return self.margin.p(lambda v: v > 0)

    def result(self, steps: list[str], rng: random.Random | None, win: str, lose: str,
               notes: tuple[str, ...] = ()) -> Result:
        a, d = self.a, self.d

        def say(margin: int, faces: Faces) -> Roll:
            (_, x), (_, y) = faces
            return Roll(f"{a + x} vs {d + y}: {win if margin > 0 else lose}",
                        (Die(10, x, "attacker", "attacker"), Die(10, y, "defender", "defender")))

        return rolled(Result(
            f"{float(self.p):.0%}: {win}",
            (("P(" + win + ")", self.p), ("P(tie)", self.margin.probability(0))),
            tuple(steps),
            (_odds_check(self.margin, "Attacker minus defender"),),
            notes=(NO_CRIT_10, *notes),
        ), rng, beat_roll(a, d), say)
