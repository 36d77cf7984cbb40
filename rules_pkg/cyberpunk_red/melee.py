"""§ Brawling, § Melee combat, § Grab and Grapple."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated

from ..dice import Draw, check_dice, expand
from ..errors import RulesError
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Highlight, Odds, Result
from .checks import Opposed
from .core import (
    MELEE_HALF_DEFAULT,
    MeleeHalfIn,
    beat_roll,
    body_in,
    crit_bonus,
    damage_dice,
    damage_pool,
    dice_with_crit,
    head_multiplier,
    hit_summary,
    margin_opposed,
    melee_note,
    melee_sp,
    modifier_in,
    sp_in,
    stat_in,
    strike,
    take_damage,
)
from .damage import brawling_dice
from .ranged import AIM_CHOICES, _attack_damage, aim_penalty
from .sheet import NO_CRIT_10, SHEET, number


@SHEET.calculator(title="Brawling damage by BODY",
                  at="§ Brawling/Grappling (Damage from bare fist)", see="§ Taking damage",
                  tables=("brawling-damage",))
def brawling(
    *,
    body: Annotated[int, body_in("BODY")] = 6,
    cyberarm: Annotated[bool, In("Cyberarm")] = False,
    sp: Annotated[int, sp_in("Defender SP")] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Damage from bare fist by BODY (a Cyberarm: 2d6 unless BODY is 7+)."""
    d, i = brawling_dice(body, cyberarm)

    def punch(draw: Draw) -> tuple[int, bool]:
        return damage_pool(draw, d.n, d.sides)

    dist = expand(punch)
    hp = dist.map(lambda r: take_damage(r[0], sp, crit=r[1]).hp)
    steps = [
        f"BODY {body}{' with a Cyberarm' if cyberarm else ''}: {d}",
        f"Damage - SP {sp} (Brawling is not a melee weapon: SP is not halved)",
    ]

    def say(got: tuple[int, bool], faces: Faces) -> Roll:
        total, c = got
        h = take_damage(total, sp, crit=c)
        return Roll(f"{d} = {total}: {h.hp} HP lost" + (", Critical Injury" if c else ""),
                    tuple(damage_dice(faces)))

    return rolled(Result(
        f"{d}: mean {float(d.dist().mean()):.1f}",
        (
            ("Dice", str(d)),
            ("Mean HP lost", hp.mean()),
            ("P(Critical Injury)", dist.p(lambda r: r[1])),
        ),
        tuple(steps),
        (Odds.of(hp, "HP lost"),),
        (),
        (Highlight("brawling-damage", i),),
        notes=("Attack: DEX + Brawling + 1d10 vs DEX + Evasion + 1d10 (use the opposed roll).",),
    ), rng, punch, say)


@SHEET.calculator(title="Melee attack (armour halved)",
                  at="§ Melee combat, § Resolving Melee Combat", see="§ Taking damage")
def melee(
    *,
    dex: Annotated[int, stat_in("Attacker DEX")] = 6,
    skill: Annotated[int, stat_in("Melee skill")] = 4,
    modifier: Annotated[int, modifier_in("Other modifiers (-2 grappled …)")] = 0,
    aim: Annotated[str, In("Aimed Shot", choices=AIM_CHOICES)] = "none",
    def_dex: Annotated[int, stat_in("Defender DEX")] = 6,
    def_evasion: Annotated[int, stat_in("Defender Evasion")] = 4,
    dice: Annotated[int, In("Weapon damage (d6)", 1, 20)] = 2,
    sp: Annotated[int, sp_in("Defender body SP")] = 11,
    sp_head: Annotated[int, sp_in("Defender head SP")] = 11,
    melee_half: MeleeHalfIn = MELEE_HALF_DEFAULT,
    rng: random.Random | None = None,
) -> Result:
    """DEX + Melee skill + 1d10 vs DEX + Evasion + 1d10; damage ignores half the SP (rounded up).

    An Aimed Shot (§ Aimed Shots: "a Single Ranged or Melee Attack") takes -8."""
    check_dice(dice)
    if aim not in dict(AIM_CHOICES):
        raise RulesError(f"unknown Aimed Shot {aim!r}")
    head = aim == "head"
    a = dex + skill + modifier + (aim_penalty() if aim != "none" else 0)
    body_sp = sp
    sp = sp_head if head else sp
    d = def_dex + def_evasion
    attack = strike(beat_roll(a, d), dice)
    # exact: the same two steps composed (the margin, then damage on a hit)
    m = margin_opposed(a, d)
    p_hit = m.p(lambda v: v > 0)
    hp, p_crit = _attack_damage(m, dice, sp, head, True, half=melee_half)
    used = melee_sp(sp, melee_half)
    steps = [
        f"DEX {dex} + skill {skill} {modifier:+d} + 1d10 vs DEX {def_dex} + Evasion "
        f"{def_evasion} + 1d10 (defender wins a tie): {p_hit}",
        f"The weapon ignores half of {'head' if head else 'body'} SP {sp}, "
        + ("the ignored half rounded up" if melee_half == "ignored_up"
           else "the SP left rounded up") + f": {used}",
        f"{dice}d6 - {used}; any damage through ablates the SP by 1"
        + (f"; the damage through is \u00d7{head_multiplier()} for the head" if head else ""),
        f"Two or more 6s: Critical Injury, +{crit_bonus()} ({p_crit})",
    ]
    if aim != "none":
        steps.insert(1, f"Aimed Shot ({dict(AIM_CHOICES)[aim]}): {aim_penalty():+d}")
    if aim in ("held_item", "leg"):
        p_eff = m.combine(
            dice_with_crit(dice), lambda mg, r: mg > 0 and r[0] > melee_sp(body_sp, melee_half)
        ).probability(True)
        steps.append(
            f"A single point through body armour: the {dict(AIM_CHOICES)[aim]} effect ({p_eff})"
        )

    def say(got: tuple[int, tuple[int, bool] | None], faces: Faces) -> Roll:
        (_, x), (_, y) = faces[:2]
        shown = (Die(10, x, "attack", "attack"), Die(10, y, "defence", "defence"),
                 *damage_dice(faces[2:]))
        if got[1] is None:
            return Roll(f"Miss ({a + x} vs {d + y})", shown)
        total, c = got[1]
        h = take_damage(total, sp, head=head, melee=True, crit=c, half=melee_half)
        return Roll(f"Hit: {total} - {used} → {h.hp} HP lost"
                    + (", Critical Injury" if c else ""), shown)

    return rolled(Result(
        hit_summary(p_hit, hp),
        (("P(hit)", p_hit), ("P(Critical Injury)", p_crit), ("Mean HP lost", hp.mean())),
        tuple(steps),
        (Odds.of(hp, "HP lost"),),
        notes=(
            NO_CRIT_10,
            melee_note(melee_half),
            "Weapon damage dice are not in the sheet.",
        ),
    ), rng, attack, say)


throw_max = number("throw", r"maximum of (\d+) SQ").read
grapple_penalty = number("brawling-grappling", r"take a (-\d+) to all actions").read


@SHEET.calculator(title="Grab (start or break a Grapple)", at="§ Brawling/Grappling")
def grab(
    *,
    dex: Annotated[int, stat_in("Your DEX")] = 6,
    brawling: Annotated[int, stat_in("Your Brawling")] = 4,
    def_dex: Annotated[int, stat_in("Target DEX")] = 6,
    def_brawling: Annotated[int, stat_in("Target Brawling")] = 4,
    breaking: Annotated[bool, In("Breaking a Grapple (both at -2)")] = False,
    rng: random.Random | None = None,
) -> Result:
    """Both roll DEX + Brawling + 1d10; win to grab the Defender or an object in their hands."""
    pen = grapple_penalty() if breaking else 0
    o = Opposed(dex + brawling + pen, def_dex + def_brawling + pen)
    steps = [
        f"You: DEX {dex} + Brawling {brawling}{f' {pen:+d}' if pen else ''} + 1d10",
        f"Target: DEX {def_dex} + Brawling {def_brawling}{f' {pen:+d}' if pen else ''} + 1d10",
        f"You win only by rolling higher: {o.p}",
    ]
    if breaking:
        steps.append("A successful Grab against the Attacker ends the Grapple for everyone")
    else:
        steps.append(
            f"Win: grab the Defender (both in a Grapple, {grapple_penalty():+d} to all "
            "actions) or take one object from their hands"
        )
    return o.result(
        steps,
        rng,
        "grab succeeds",
        "grab fails",
        notes=(
            "Both participants are at -2 while grappled; applied to both when breaking a Grapple.",
        ),
    )


@dataclass(frozen=True)
class GrappleDamage:
    hp_after: int
    unconscious: bool
    note: str


_CHOKE_NEED = number("choke", r"for (\d+) successive Rounds")


def choke(body: int, hp: int, rounds: int) -> GrappleDamage:
    """§ Choke: BODY direct to HP; a target with more than 1 HP that would go below 0 is
    left at 1 HP and Unconscious; choked 3 successive Rounds: Unconscious regardless."""
    need = _CHOKE_NEED.read()
    after = hp - body
    if hp > 1 and after < 0:
        return GrappleDamage(1, True, "left at 1 HP and Unconscious")
    if rounds >= need:
        return GrappleDamage(after, True, f"Unconscious after {need} successive Rounds of Choke")
    return GrappleDamage(after, False, "")


@SHEET.calculator(title="Choke or Throw", at="§ Choke, § Throw", tables=("brawling-damage",))
def grapple_action(
    *,
    action: Annotated[str, In(
        "Action",
        choices=(("choke", "Choke"), ("throw", "Throw")),
    )] = "choke",
    body: Annotated[int, body_in("Your BODY")] = 6,
    hp: Annotated[int, In("Defender's HP", -100, 200)] = 20,
    rounds: Annotated[int, In("Successive Rounds of Choke (including this one)", 1, 100)] = 1,
) -> Result:
    """Choke or Throw the Defender you are grappling: BODY straight to HP, armour ignored."""
    if action == "choke":
        g = choke(body, hp, rounds)
        steps = [
            f"Choke: BODY {body} directly to HP, ignoring armour (no ablation)",
            f"HP {hp} → {hp - body}",
        ]
        if g.note:
            steps.append(g.note)
        return Result(
            f"HP {hp} → {g.hp_after}" + (", Unconscious" if g.unconscious else ""),
            (("HP after", g.hp_after), ("Unconscious", g.unconscious)),
            tuple(steps),
            notes=("Wound State thresholds are not in the sheet.",),
        )
    if action == "throw":
        return Result(
            f"HP {hp} → {hp - body}; the target is Prone",
            (("HP after", hp - body), ("Prone", True)),
            (
                f"Throw: BODY {body} directly to HP, ignoring armour (no ablation)",
                "The Grapple ends (both free of the -2); the target is Prone until they "
                "use the Get Up Action",
                f"Throwing an object: DEX + Athletics + 1d10, up to {throw_max()} SQ, "
                "using the Grenade Launcher "
                "DV (not in the sheet)",
            ),
        )
    raise RulesError(f"action is 'choke' or 'throw' (got {action!r})")
