"""§ Taking damage, § Critical Injuries, § Armor."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Annotated

from .. import kernel
from ..dice import Draw, check_dice
from ..errors import InputError, RulesError
from ..kernel import Bound, Faces, In, Roll
from ..result import Odds, Result
from .core import (
    MELEE_HALF_DEFAULT,
    MeleeHalfIn,
    crit_bonus,
    damage_dice,
    damage_pool,
    dice_with_crit,
    head_multiplier,
    melee_note,
    melee_sp,
    sp_in,
    take_damage,
)
from .sheet import SHEET, Dice, parse_dice, table

# -- damage, melee, brawling, grapple -----------------------------------------------------------


MAX_DAMAGE_DICE = 30


def _rolled_max() -> dict[tuple[int, bool], int]:
    """(dice, two 6s) -> the most those d6 show: 6 a die, or 5 a die + one 6 without two
    6s (two 6s need two dice)."""
    return {(n, sixes): 6 * n if sixes else min(6 * n, 5 * n + 1)
            for n in range(1, MAX_DAMAGE_DICE + 1) for sixes in (False, True)
            if n >= 2 or not sixes}


ROLLED_MAX = Bound(("dice", "sixes"), "those d6 and that box for two 6s", _rolled_max)


# placed where the sheet says how damage, Critical Injuries and armour work; it reads how
# an Aimed Shot at the head and a melee weapon change the SP
@SHEET.calculator(title="Damage against SP (ablation, head, melee, Critical Injury)",
                  at="§ Taking damage, § Critical Injuries, § Armor",
                  see="§ Aimed Shots, § Melee combat")
def damage(
    *,
    dice: Annotated[int, In("Damage dice (d6)", 1, MAX_DAMAGE_DICE)] = 3,
    sp: Annotated[int, sp_in("SP at that location")] = 11,
    location: Annotated[str, In(
        "Location",
        choices=(("body", "Body"), ("head", "Head (Aimed Shot)")),
    )] = "body",
    melee: Annotated[bool, In("Melee weapon (ignores half the armour)")] = False,
    melee_half: MeleeHalfIn = MELEE_HALF_DEFAULT,
    rolled: Annotated[int, In("Damage rolled (0 = use the odds)", 0, 500,
                              max_by=ROLLED_MAX)] = 0,
    sixes: Annotated[bool, In("Two or more 6s on that roll")] = False,
    rng: random.Random | None = None,
) -> Result:
    """Subtract SP, HP loss, ablation; x2 head after armour; crit +5 direct regardless."""
    check_dice(dice)
    if location not in ("body", "head"):
        raise RulesError(f"location is 'body' or 'head' (got {location!r})")
    head = location == "head"
    dist = dice_with_crit(dice)
    hp = dist.map(lambda r: take_damage(r[0], sp, head=head, melee=melee, crit=r[1],
                                              half=melee_half).hp)
    p_crit = dist.p(lambda r: r[1])
    used = melee_sp(sp, melee_half) if melee else sp
    steps = [
        f"{location.capitalize()} SP {sp}"
        + (f": a melee weapon ignores half → {used}" if melee else "")
    ]
    def hit(draw: Draw) -> tuple[int, bool]:
        return damage_pool(draw, dice)

    def say(got: tuple[int, bool], faces: Faces) -> Roll:
        """A damage roll, rolled here on seeded dice or typed in from the table's own dice
        (checked: the dice must be able to show it), reported one way."""
        total, crit = got
        if not dice <= total <= 6 * dice:
            raise InputError("rolled", f"{dice}d6 rolls {dice} to {6 * dice} (got {total})")
        if crit and dice < 2:
            raise InputError("sixes", "two 6s need at least two dice")
        # two 6s make at least 12 plus 1 a die; a total above 5 a die + 1 needs two 6s
        if crit and total < dice + 10:
            raise InputError(
                "rolled", f"two 6s on {dice}d6 make at least {dice + 10} (got {total})")
        if not crit and total > 5 * dice + 1:
            raise RulesError(f"{total} on {dice}d6 needs two or more 6s: tick that box")
        h = take_damage(total, sp, head=head, melee=melee, crit=crit, half=melee_half)
        return Roll(
            f"{h.hp} HP lost; SP {sp} → {h.sp_after}" + (", Critical Injury" if h.crit else ""),
            tuple(damage_dice(faces)), more=(("HP lost", h.hp), ("SP after", h.sp_after)),
            steps=(
                f"{h.rolled} - {h.sp} = {h.through} through"
                + (f", \u00d7{head_multiplier()} for the head" if head and h.through else ""),
                f"Damage got through: SP {sp} → {h.sp_after}" if h.through
                else "No damage through: no ablation",
                *((f"Critical Injury: +{crit_bonus()} directly to HP (no ablation, not "
                   "modified by hit location, even if nothing got through)",) if h.crit else ()),
            ))

    return kernel.rolled(Result(
        f"Mean {float(hp.mean()):.1f} HP; Critical Injury {p_crit}",
        (("Mean HP lost", hp.mean()), ("P(Critical Injury)", p_crit)),
        tuple(steps),
        (Odds.of(hp, "HP lost"),),
        notes=(
            "Rolling on the Critical Injury tables: the tables are not in the sheet.",
            *((melee_note(melee_half),) if melee else ()),
        ),
    ), rng, hit, say, given=(rolled, sixes) if rolled else None)


# § Melee Attacks: bare-fist damage by BODY
BRAWLING = table("brawling-damage", ("text", "dice"), 4)


@cache
def brawling_table() -> list[tuple[int, int, Dice, bool]]:
    """(low BODY, high BODY, dice, mentions Cyberarms) for each row of the bare-fist table."""
    out: list[tuple[int, int, Dice, bool]] = []
    for cells in BRAWLING.rows():
        label = cells[0]
        m_under = re.search(r"(\d+) or under", label)
        m_range = re.search(r"(\d+) to (\d+)", label)
        m_plus = re.search(r"(\d+)\s*\+", label)
        if m_under:
            lo, hi = 0, int(m_under.group(1))
        elif m_range:
            lo, hi = int(m_range.group(1)), int(m_range.group(2))
        elif m_plus:
            lo, hi = int(m_plus.group(1)), 10**6
        else:
            raise RulesError(f"cyberpunk_red data: cannot read the BODY range {label!r}")
        out.append((lo, hi, parse_dice(cells[1]), "cyberarm" in label.lower()))
    return out


def brawling_dice(body: int, cyberarm: bool) -> tuple[Dice, int]:
    """Bare-fist damage by BODY; a Cyberarm: the Cyberarm row's dice unless BODY gives more."""
    table = brawling_table()
    by_body = [(i, r) for i, r in enumerate(table) if r[0] <= body <= r[1]]
    if not by_body:
        raise RulesError(f"no bare-fist damage for BODY {body}")
    i, r = by_body[0]
    if cyberarm:
        arm = [(j, a) for j, a in enumerate(table) if a[3]]
        if arm and arm[0][1][2].n > r[2].n:
            return arm[0][1][2], arm[0][0]
    return r[2], i
