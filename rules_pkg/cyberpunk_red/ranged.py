"""§ Resolving Ranged Combat, § Aimed Shots, § Autofire, § Suppressive Fire, § Shotgun."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Any

from ..dice import Distribution, Draw, check_dice, expand
from ..errors import RulesError
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Odds, Result
from .checks import Opposed
from .core import (
    MELEE_HALF_DEFAULT,
    Autofirer,
    Defence,
    Defender,
    Shooter,
    ShotgunShooter,
    Target,
    _odds_check,
    crit_bonus,
    damage_dice,
    dice_with_crit,
    head_multiplier,
    hit_summary,
    p_beat,
    sp_in,
    stat_in,
    strike,
    take_damage,
)
from .sheet import NO_CRIT_10, SHEET, dice_of, number

# -- ranged attacks ---------------------------------------------------------------------------

AIM_CHOICES = (
    ("none", "No Aimed Shot"),
    ("head", "Head"),
    ("held_item", "Held Item"),
    ("leg", "Leg"),
)

# where a ranged attack's damage is read (`_attack_damage`): every such calculator cites it
DAMAGE_READ = "§ Taking damage, § Critical Injuries"


aim_penalty = number("aimed-shots", r"a (-\d+) to your check to aim").read


def _attack_damage(
    hit_p_margin: Distribution[int],
    n: int,
    sp: int,
    head: bool,
    melee: bool,
    mult_cap: int | None = None,
    half: str = MELEE_HALF_DEFAULT,
) -> tuple[Distribution[int], Fraction]:
    """HP lost over the attack: 0 on a miss; on a hit dice (x margin up to cap) vs SP + crit."""
    dmg = dice_with_crit(n)

    def on(margin: int, roll_: tuple[int, bool]) -> int:
        if margin <= 0:
            return 0
        total = roll_[0] * (min(margin, mult_cap) if mult_cap else 1)
        return take_damage(total, sp, head=head, melee=melee, crit=roll_[1], half=half).hp

    hp = hit_p_margin.combine(dmg, on)
    crit = hit_p_margin.combine(dmg, lambda mg, r: mg > 0 and r[1]).probability(True)
    return hp, crit


@SHEET.calculator(title="Ranged attack (single shot, Aimed Shots)",
                  at="§ Resolving Ranged Combat, § Aimed Shots",
                  see=DAMAGE_READ)
def ranged(
    *,
    shooter: Shooter,  # input groups: the kernel builds them from their inputs
    aim: Annotated[str, In("Aimed Shot", choices=AIM_CHOICES)] = "none",
    target: Defender,  # an input group: the kernel builds it from its inputs
    dice: Annotated[int, In("Weapon damage (d6)", 1, 20)] = 3,
    sp_body: Annotated[int, sp_in("Body SP")] = 11,
    sp_head: Annotated[int, sp_in("Head SP")] = 11,
    rng: random.Random | None = None,
) -> Result:
    """REF + Weapon Skill + 1d10 vs the range DV or a dodge; damage against SP."""
    if aim not in dict(AIM_CHOICES):
        raise RulesError(f"unknown Aimed Shot {aim!r}")
    check_dice(dice)
    dfn = target.against("a Ranged Attack")
    base = shooter.base
    steps = [f"{shooter.says('Weapon Skill')} + 1d10 vs {dfn.describe()}"]
    if aim != "none":
        pen = aim_penalty()
        base += pen
        steps.append(
            f"Aimed Shot ({dict(AIM_CHOICES)[aim]}): {pen:+d}, at ROF 1, your entire Action"
        )
    head = aim == "head"
    return shot(base, dfn, dice, sp_head if head else sp_body, aim, steps, rng, (
        NO_CRIT_10,
        "Weapon damage dice and the range table's DVs are not in the sheet: enter them.",
    ))


def shot(base: int, dfn: Defence, dice: int, sp: int, aim: str, steps: list[str],
         rng: random.Random | None, notes: tuple[str, ...]) -> Result:
    """One Ranged Attack resolved (§ Resolving Ranged Combat, § Taking damage): the attack
    base + 1d10 against the defence, then the damage dice against the SP (not halved)."""
    head = aim == "head"
    m = dfn.margin(base)
    p_hit = m.p(lambda v: v > 0)
    hp, p_crit = _attack_damage(m, dice, sp, head, False)
    steps += [
        f"Hit (beat the defence; a tie misses): {p_hit}",
        f"Damage {dice}d6 - {'head' if head else 'body'} SP {sp}"
        + (f", then \u00d7{head_multiplier()} for the head" if head else ""),
        "If any damage gets through, the SP is ablated by 1",
        f"Two or more 6s: a Critical Injury, +{crit_bonus()} direct ({p_crit})",
    ]
    if aim in ("held_item", "leg"):
        p_eff = m.combine(dice_with_crit(dice), lambda mg, r: mg > 0 and r[0] > sp).probability(
            True
        )
        what = (
            "the target drops one held item of your choice"
            if aim == "held_item"
            else "the target suffers the Broken Leg Critical Injury"
        )
        steps.append(f"If a single point gets through body armour, {what}: {p_eff}")
    values: list[tuple[str, Any]] = [
        ("P(hit)", p_hit),
        ("P(Critical Injury)", p_crit),
        ("Mean HP lost", hp.mean()),
    ]

    def say(got: tuple[int, tuple[int, bool] | None], faces: Faces) -> Roll:
        a = faces[0][1]
        d_total, defended = dfn.rolled(faces)
        shown = (Die(10, a, "attack", "attack"), *defended,
                 *damage_dice(faces[1 + len(defended):]))
        if got[1] is None:
            return Roll(f"Miss ({base + a} vs {d_total})", shown)
        total, crit = got[1]
        h = take_damage(total, sp, head=head, crit=crit)
        return Roll(f"Hit ({base + a} vs {d_total}): {total} damage, {h.hp} HP lost"
                    f"{', Critical Injury' if crit else ''}; SP {sp} → {h.sp_after}", shown)

    return rolled(Result(
        hit_summary(p_hit, hp),
        tuple(values),
        tuple(steps),
        (_odds_check(m, "Attack minus defence"), Odds.of(hp, "HP lost")),
        notes=notes,
    ), rng, strike(dfn.beat(base), dice), say)


# "(3 for SMGS, 4 for Assault Rifles)": the most Autofire multiplies damage by, per weapon
_CAPS = r"\((\d+) for SMGS?, (\d+) for Assault Rifles\)"
AUTOFIRE_WEAPONS = (("smg", "SMG"), ("assault_rifle", "Assault Rifle"))  # in _CAPS's order
AUTOFIRE_CAPS = {weapon: number("auto-fire-mode", _CAPS, group)
                 for group, (weapon, _) in enumerate(AUTOFIRE_WEAPONS, 1)}


def autofire_caps() -> dict[str, int]:
    return {weapon: cap.read() for weapon, cap in AUTOFIRE_CAPS.items()}


# "costs an Action and 10 bullets": the form's least and the engine's, declared once
AUTOFIRE_BULLETS = number("auto-fire-mode", r"costs an Action and (\d+) bullets").read()
SUPPRESSIVE_BULLETS = number("suppressive-fire", r"costs an Action and (\d+) bullets").read()


_AUTOFIRE_DMG = number("auto-fire-mode", r"roll (\d+)d(\d+) for damage")


@SHEET.calculator(title="Autofire", at="§ Auto fire mode", see=DAMAGE_READ)
def autofire(
    *,
    shooter: Autofirer,
    weapon: Annotated[str, In("Weapon", choices=AUTOFIRE_WEAPONS)] = "smg",
    bullets: Annotated[int, In("Bullets in the clip", AUTOFIRE_BULLETS, 500,
                               help=f"Autofire costs {AUTOFIRE_BULLETS} bullets")] = 30,
    target: Defender,  # an input group: the kernel builds it from its inputs
    sp_body: Annotated[int, sp_in("Body SP")] = 11,
    rng: random.Random | None = None,
) -> Result:
    """Hit: 2d6 x the amount you beat the DV by, up to the weapon's Autofire (3 SMG, 4 AR)."""
    need = AUTOFIRE_BULLETS  # the least the form offers for bullets: checked there
    caps = autofire_caps()
    if weapon not in caps:
        raise RulesError(f"weapon is 'smg' or 'assault_rifle' (got {weapon!r})")
    cap = caps[weapon]
    dmg = dice_of(_AUTOFIRE_DMG)
    dfn = target.against("Autofire")
    base = shooter.base
    m = dfn.margin(base)
    p_hit = m.p(lambda v: v > 0)
    mult = m.map(lambda v: max(0, min(v, cap)))
    hp, p_crit = _attack_damage(m, dmg.n, sp_body, False, False, cap)
    rolled_dmg = m.combine(dmg.dist(), lambda mg, s: s * min(mg, cap) if mg > 0 else 0)
    steps = [
        f"{need} bullets; {shooter.says('Autofire')} + 1d10 vs {dfn.describe()}"
        " (the Autofire Range Table's DVs are not in the sheet)",
        f"Hit: {p_hit}; roll {dmg} \u00d7 the amount you beat it by, up to {cap}",
        f"Damage - body SP {sp_body}; any damage through ablates the SP by 1",
        f"Both dice 6: a Critical Injury, +{crit_bonus()} direct ({p_crit})",
    ]
    mult_odds = Odds.of(mult, "Multiplier", lambda v: "miss" if v == 0 else f"\u00d7{v}")

    def say(got: tuple[int, tuple[int, bool] | None], faces: Faces) -> Roll:
        mg, a = got[0], faces[0][1]
        d_total, defended = dfn.rolled(faces)
        shown = (Die(10, a, "attack", "attack"), *defended,
                 *damage_dice(faces[1 + len(defended):]))
        if got[1] is None:
            return Roll(f"Miss ({base + a} vs {d_total})", shown)
        total, crit = got[1]
        k = min(mg, cap)
        h = take_damage(total * k, sp_body, crit=crit)
        return Roll(f"Hit by {mg}: {total} \u00d7 {k} = {total * k} damage, {h.hp} HP lost"
                    f"{', Critical Injury' if crit else ''}", shown)

    return rolled(Result(
        hit_summary(p_hit, hp),
        (
            ("P(hit)", p_hit),
            ("P(Critical Injury)", p_crit),
            ("Mean damage", rolled_dmg.mean()),
            ("Mean HP lost", hp.mean()),
        ),
        tuple(steps),
        (mult_odds, Odds.of(rolled_dmg, "Autofire damage (0 = miss)"), Odds.of(hp, "HP lost")),
        notes=(NO_CRIT_10, "Autofire cannot be used to make an Aimed Shot."),
    ), rng, strike(dfn.beat(base), dmg.n, dmg.sides), say)


_SUPPRESSIVE_LO = number("suppressive-fire", r"within (\d+)-(\d+) Squares")
_SUPPRESSIVE_HI = number("suppressive-fire", r"within (\d+)-(\d+) Squares", 2)


@SHEET.calculator(title="Suppressive Fire", at="§ Suppressive Fire")
def suppressive(
    *,
    ref: Annotated[int, stat_in("Your REF")] = 6,
    autofire: Annotated[int, stat_in("Your Autofire Skill")] = 4,
    bullets: Annotated[int, In("Bullets in the clip", SUPPRESSIVE_BULLETS, 500,
                               help=f"Suppressive Fire costs {SUPPRESSIVE_BULLETS} bullets")] = 30,
    will: Annotated[int, stat_in("Target WILL")] = 5,
    concentration: Annotated[int, stat_in("Target Concentration")] = 2,
    rng: random.Random | None = None,
) -> Result:
    """Everyone on foot in 7-12 squares, out of cover and in sight, rolls WILL +
    Concentration + 1d10 against your REF + Autofire + 1d10; those who fail take cover."""
    need = SUPPRESSIVE_BULLETS  # the least the form offers for bullets: checked there
    lo = _SUPPRESSIVE_LO.read()
    hi = _SUPPRESSIVE_HI.read()
    o = Opposed(ref + autofire, will + concentration)
    steps = [
        f"{need} bullets; everyone on foot within {lo}-{hi} squares, out of cover, in sight",
        f"They roll WILL {will} + Concentration {concentration} + 1d10 against "
        f"your REF {ref} + Autofire {autofire} + 1d10",
        "Anyone that fails uses their next Move Action (and Run if needed) to get into cover",
    ]
    return o.result(
        steps,
        rng,
        "target fails",
        "target holds",
        notes=("Ties: read with the sheet's 'defender wins in a tie' (the target holds).",),
    )


SHOTGUN_DV = number("shotgun-shells", r"vs\.? a DV ?(\d+)")
SHOTGUN_DICE = number("shotgun-shells", r"takes (\d+)d(\d+)")


@SHEET.calculator(title="Shotgun Shell", at="§ Shotgun Shells", see=DAMAGE_READ)
def shotgun_shell(
    *,
    shooter: ShotgunShooter,
    defence: Annotated[str, In(
        "Target",
        choices=(("dv", "Does not dodge"), ("dodge", "Dodges (REF 8+)")),
    )] = "dv",
    target: Target,
    sp_body: Annotated[int, sp_in("Target body SP")] = 11,
    rng: random.Random | None = None,
) -> Result:
    """One Ranged Attack vs DV13; on a hit every target in a 3x3 area in front takes 3d6."""
    dv = SHOTGUN_DV.read()
    dmg = dice_of(SHOTGUN_DICE)
    base = shooter.base
    if defence == "dodge":
        target.against("dodge", dv, "a Shotgun Shell")
    elif defence != "dv":
        raise RulesError(f"defence is 'dv' or 'dodge' (got {defence!r})")

    def hits(draw: Draw) -> int:
        """1 on a hit: one attack roll must beat DV13, and then the target's dodge."""
        a = draw(10)
        ok = base + a > dv
        if ok and defence == "dodge":
            ok = base + a > target.dodge + draw(10)
        return 1 if ok else 0

    m = expand(hits)
    p_hit = m.probability(1)
    hp, p_crit = _attack_damage(m, dmg.n, sp_body, False, False)
    steps = [
        f"({shooter.says('Shoulder Arms')} + 1d10) vs DV{dv}: {p_beat(base, dv)}",
        f"Every target in a 3 by 3 square area in front of you takes {dmg}",
        "No Aimed Shot with a Shotgun Shell",
    ]
    if defence == "dodge":
        steps.append(
            f"This target dodges: the same attack roll must also beat {target.says()} + "
            f"1d10: {p_hit}"
        )
    steps.append(f"Two or more 6s: a Critical Injury, +{crit_bonus()} ({p_crit})")

    def shot(draw: Draw) -> tuple[int, tuple[int, bool] | None]:
        return strike(hits, dmg.n, dmg.sides)(draw)

    def say(got: tuple[int, tuple[int, bool] | None], faces: Faces) -> Roll:
        shown = (Die(10, faces[0][1], "attack", "attack"),
                 *(Die(10, f, "dodge", "defence") for _, f in faces[1:2] if defence == "dodge"))
        shown += tuple(damage_dice(faces[len(shown):]))
        if got[1] is None:
            return Roll("Miss", shown)
        total, crit = got[1]
        h = take_damage(total, sp_body, crit=crit)
        return Roll(f"Hit: {total} damage, {h.hp} HP lost{', Critical Injury' if crit else ''}",
                    shown)

    return rolled(Result(
        hit_summary(p_hit, hp, "this target"),
        (("P(hit)", p_hit), ("P(Critical Injury)", p_crit), ("Mean HP lost", hp.mean())),
        tuple(steps),
        (Odds.of(hp, "HP lost by this target"),),
        notes=(NO_CRIT_10,),
    ), rng, shot, say)
