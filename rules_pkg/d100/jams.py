"""§ Weapon Jams: clearing a jam, missile weapons."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated

from ..dice import Distribution
from ..errors import InputError
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Odds, OddsRow, Result
from .degrees import clamp_note, d100_test, degree_odds, test_distribution
from .modifiers import modifiers
from .sheet import (
    CIRCUMSTANCES,
    JAM_AT,
    AttackerHorde,
    characteristic_in,
    entry,
    row,
)

# § Weapon Jams: "a Full Action and a Ballistic Skill+20 test, +10 for ...", "the test is -20"
_CLEAR = entry("Weapon Jams", "Ballistic Skill")
_CLEAR_TALENT = entry("Weapon Jams", "test,")
_CLEAR_UNPROFICIENT = entry("Weapon Jams", "the test is")
# § Missile and Grenade Jams: "on a 1-9 ..., On a 10, however"
_DUD_FROM = entry("Missile and Grenade Jams", pattern=r"on a (\d+)-(\d+)")
_DUD_TO = entry("Missile and Grenade Jams", pattern=r"on a (\d+)-(\d+)", group=2)
_BOOM = entry("Missile and Grenade Jams", pattern=r"On a (\d+), however")

# -- jams -------------------------------------------------------------------------------------


@CIRCUMSTANCES.calculator(title="Clearing a weapon jam", at="Weapon Jams")
def jam_clear(
    *,
    bs: Annotated[int, characteristic_in("Ballistic Skill")] = 40,
    proficient: Annotated[bool, In("Proficient with the weapon")] = True,
    specialised: Annotated[bool, In("Specialised talent for the weapon")] = False,
    mastery: Annotated[bool, In("Mastery talent for the weapon")] = False,
    fatigue: Annotated[bool, In("You have a level of Fatigue")] = False,
    rng: random.Random | None = None,
) -> Result:
    """A Full Action: Ballistic Skill +20 (+10 per Specialised/Mastery), or -20 unproficient."""
    r = row("Weapon Jams")
    steps = [f"Ballistic Skill {bs}"]
    if proficient:
        base, talent = _CLEAR.read(), _CLEAR_TALENT.read()
        mod = base + talent * (specialised + mastery)
        steps.append(f"Clearing test: {base:+d}")
        for name, has in (("Specialised", specialised), ("Mastery", mastery)):
            if has:
                steps.append(f"{name}: {talent:+d} (cumulative)")
    else:
        if specialised or mastery:
            raise InputError(
                "proficient", "Specialised or Mastery talents imply proficiency with the weapon")
        mod = _CLEAR_UNPROFICIENT.read()
        steps.append(f"No proficiency with the weapon: the test is {mod:+d} instead")
    hl = [r.highlight]
    if fatigue:
        f = modifiers()["fatigue"]
        mod += f.value("other") or 0
        steps.append(f"Fatigue: {f.value('other'):+d}")
        hl.append(f.row.highlight)
    target = bs + mod
    steps.append(
        f"Target {target}; if passed, the jam is cleared, the ammo within is lost "
        "and the weapon must be reloaded"
    )
    dist = test_distribution(target)
    p = dist.p(lambda d: d > 0)
    summary = f"Clear the jam on {target} or less: {float(p):.0%}"

    def say(_: int, faces: Faces) -> Roll:
        v = faces[0][1]
        ok = v <= target
        return Roll(summary + f"; rolled {v:02d}: {'cleared' if ok else 'still jammed'}",
                    (Die(100, v, "cleared" if ok else "still jammed", "d100"),))

    return rolled(Result(
        summary,
        (("Target", target), ("P(cleared)", p)),
        tuple(steps),
        degree_odds(dist),
        (),
        tuple(hl),
        ("'Cumulative' is read as +10 for each of the two talents.", *clamp_note(target)),
    ), rng, d100_test(target), say)


@CIRCUMSTANCES.calculator(
    title="Missile and grenade jams",
    at="Missile and Grenade Jams, § Weapon Jams",
)
def missile_jam(
    *,
    horde: AttackerHorde = False,
    rng: random.Random | None = None,
) -> Result:
    """On a jam roll 1d10: 1-9 a dud, 10 it explodes in the user's hands."""
    r = row("Missile and Grenade Jams")
    lo, hi = _DUD_FROM.read(), _DUD_TO.read()
    boom, jam_at = _BOOM.read(), JAM_AT.read()
    if horde:
        return Result(
            "Hordes do not jam; they just miss.",
            (("P(explodes)", Fraction(0)),),
            ("Hordes do not jam; they just miss.",),
            highlight=(r.highlight,),
        )
    d10 = Distribution.d(10)
    p_dud = d10.p(lambda v: lo <= v <= hi)
    p_boom = d10.p(lambda v: v == boom)
    p_jam = Fraction(101 - jam_at, 100)
    steps = (
        f"A ranged attack jams on {jam_at}+ ({p_jam})",
        f"Roll 1d10: on {lo}-{hi} a dud, expended ({p_dud})",
        f"On a {boom} it explodes in the user's hands, centred on them; "
        f"a launcher is destroyed too ({p_boom})",
        f"Per attack: {p_jam} \u00d7 {p_boom} = {p_jam * p_boom} to explode",
    )

    def say(explodes: bool, faces: Faces) -> Roll:
        v = faces[0][1]
        return Roll(f"Rolled {v}: " + ("it explodes in your hands" if explodes else "a dud"),
                    (Die(10, v, "explodes!" if explodes else "dud", "d10"),))

    odds = Odds("After a jam", (OddsRow("Dud", p_dud), OddsRow("Explodes", p_boom)))
    return rolled(Result(
        f"A jammed missile or grenade explodes {p_boom}; per attack {p_jam * p_boom}",
        (("P(dud)", p_dud), ("P(explodes)", p_boom), ("P(explodes per attack)", p_jam * p_boom)),
        steps,
        (odds,),
        (),
        (r.highlight,),
    ), rng, lambda draw: draw(10) == boom, say)
