"""Other types of damage: fire, drowning, electrocution, exposure, falling, poison and drugs."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Annotated, Any

from .. import data
from ..dice import Distribution, Draw, check_dice, expand, total
from ..errors import LimitError, RulesError
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Highlight, Odds, Result
from .core import (
    MAX_DAYS,
    MAX_FALL,
    Athlete,
    body_in,
    p_beat,
    sp_in,
    stat_in,
    take_damage,
)
from .sheet import NO_CRIT_10, SHEET, Dice, dice_of, number, table

# -- other types of damage --------------------------------------------------------------------


# § Fire, § Poisons and Drugs: severity, what it is, damage or DV and effect
FIRE = table("fire", ("text", "text", "amount"), 3)
POISONS = table("poisons", ("text", "text", "amount", "dice"), 3)
DRUGS = table("drugs", ("text", "text", "amount", "text"), 3)


@cache
def fire_table() -> list[tuple[str, str, int]]:
    return [(c[0], c[1], data.amount(c[2])) for c in FIRE.rows()]


def _severity_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple((s, f"{s}: {what}") for s, what, _ in fire_table())
    except RulesError:
        return ()


def _fire_index(severity: str) -> int:
    for i, (s, _, _) in enumerate(fire_table()):
        if s.lower() == severity.lower():
            return i
    raise RulesError(f"no fire severity {severity!r}")


@SHEET.calculator(title="On Fire and high radiation", at="§ Being On Fire, § Radiation",
                  tables=("fire",))
def fire(
    *,
    severity: Annotated[str, In("Fire", choices=_severity_choices())] = "Mild",
    radiation: Annotated[str, In("Radiation instead", choices=(
                ("none", "No: a fire"),
                ("hot", "Hot zone (Mildly on Fire)"),
                ("extreme", "Extremely hot zone (Deadly On Fire)"),
            ))] = "none",
    turns: Annotated[int, In("Turns", 1, 1000)] = 1,
) -> Result:
    """Damage direct to HP at the end of each Turn on fire; armour is not ablated."""
    if radiation == "hot":
        severity = fire_table()[0][0]
    elif radiation == "extreme":
        severity = fire_table()[-1][0]
    elif radiation != "none":
        raise RulesError(f"unknown radiation {radiation!r}")
    i = _fire_index(severity)
    s, what, per = fire_table()[i]
    steps = [
        f"{s} ({what}): {per} damage direct to HP at the end of each Turn",
        f"{turns} Turn(s): {per} \u00d7 {turns} = {per * turns}",
    ]
    if radiation != "none":
        steps.insert(
            0,
            "High radiation: treated as "
            + ("Mildly" if radiation == "hot" else "Deadly")
            + " On Fire every Turn in the hot zone; you cannot put yourself out there",
        )
    return Result(
        f"{per * turns} damage over {turns} Turn(s)",
        (("Per Turn", per), ("Total", per * turns)),
        tuple(steps),
        highlight=(Highlight("fire", i),),
        notes=("Each Turn is three seconds.",),
    )


VACUUM_DICE = number("drowning-and-asphyxiation", r"additional (\d+)d(\d+) in damage")


@SHEET.calculator(title="Drowning and Asphyxiation", at="§ Drowning and Asphyxiation")
def drowning(
    *,
    body: Annotated[int, body_in("BODY")] = 6,
    turns: Annotated[int, In("Turns drowning", 1, 100)] = 1,
    space: Annotated[bool, In("Asphyxiating in space")] = False,
    rng: random.Random | None = None,
) -> Result:
    """Hold your breath BODY minutes; then BODY direct to HP each Turn (no ablation)."""
    steps = [
        f"Hold your breath for {body} minutes (BODY)",
        f"Then, at the beginning of each Turn drowning: BODY {body} directly to HP",
        f"{turns} Turn(s): {body * turns}",
    ]
    odds: tuple[Odds, ...] = ()
    vac = dice_of(VACUUM_DICE)
    stats = ("INT", "REF", "DEX") if space else ()
    n = vac.n * turns

    def loss(draw: Draw) -> tuple[int, ...]:
        """In space, the loss to each of INT, REF and DEX (none under water)."""
        return tuple(total(draw, n, vac.sides) for _ in stats)

    if space:
        check_dice(n)
        stat_loss = expand(lambda draw: total(draw, n, vac.sides))
        steps.append(
            f"In space: +{vac} to INT, REF and DEX at the end of each Turn "
            "(at INT 0 you are dead; reversed by a breath of air)"
        )
        odds = (Odds.of(stat_loss, f"Loss to each of INT, REF, DEX over {turns} Turn(s)"),)
    summary = f"{body * turns} HP over {turns} Turn(s)"

    def say(_: tuple[int, ...], faces: Faces) -> Roll:
        return Roll(summary, tuple(Die(vac.sides, v, stats[i // n], stats[i // n])
                                   for i, (_, v) in enumerate(faces)))

    return rolled(Result(
        summary,
        (("HP lost", body * turns), ("Breath (minutes)", body)),
        tuple(steps),
        odds,
    ), rng, loss, say)


ELECTROCUTION_DICE = number("electrocution", r"immediately take (\d+)d(\d+) damage")


@SHEET.calculator(title="Electrocution", at="§ Electrocution", see="§ Taking damage")
def electrocution(
    *,
    sp: Annotated[int, sp_in("Body SP")] = 11,
    turns: Annotated[int, In("Shocks (staying in contact)", 1, 10)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """6d6 soaked by armour, repeating each Turn you stay; each shock that gets through ablates."""
    if not 1 <= turns <= 10:
        raise LimitError(f"1 to 10 shocks (asked for {turns})")
    d = dice_of(ELECTROCUTION_DICE)
    one = d.dist()
    # One shock from each SP the armour can be at, as (SP after, HP lost) -> count: SP only
    # ever goes down, so this table is small and each shock below is a lookup, not a rule.
    shock: dict[int, dict[tuple[int, int], int]] = {}
    for s in range(sp + 1):
        shock[s] = {}
        for v, cv in one:
            h = take_damage(v, s)
            shock[s][h.sp_after, h.hp] = shock[s].get((h.sp_after, h.hp), 0) + cv
    # state: (SP now, HP lost so far), exact over (sides^n)^turns
    states: dict[tuple[int, int], int] = {(sp, 0): 1}
    for _ in range(turns):
        nxt: dict[tuple[int, int], int] = {}
        for (s, so_far), c in states.items():
            for (s2, hp), cv in shock[s].items():
                k = (s2, so_far + hp)
                nxt[k] = nxt.get(k, 0) + c * cv
        states = nxt
    lost = Distribution.from_counts(states).map(lambda t: t[1])
    steps = [
        f"{d} damage, soaked by armour as normal (SP {sp})",
        "Any damage through ablates the SP by 1",
        f"It repeats at the end of each of your Turns until you move away: {turns} shock(s)",
    ]

    def shocks(draw: Draw) -> tuple[int, int]:
        """(SP after, HP lost) after every shock. The exact odds above walk the same shocks
        with equal states merged (expand() would list (sides^n)^turns dice paths)."""
        s, tot = sp, 0
        for _ in range(turns):
            h = take_damage(total(draw, d.n, d.sides), s)
            s, tot = h.sp_after, tot + h.hp
        return s, tot

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        return Roll(f"{got[1]} HP lost; SP {sp} → {got[0]}",
                    tuple(Die(d.sides, v, "", "shock") for _, v in faces))

    return rolled(Result(
        f"Mean {float(lost.mean()):.1f} HP over {turns} shock(s)",
        (("Mean HP lost", lost.mean()),),
        tuple(steps),
        (Odds.of(lost, "HP lost"),),
        notes=(
            "Not an attack: no Critical Injury on two 6s (the sheet ties that to "
            "melee and ranged attacks).",
        ),
    ), rng, shocks, say)


_EXPOSURE_DICE = number("exposure", r"deal (\d+)d(\d+) damage directly")


@SHEET.calculator(title="Exposure", at="§ Exposure")
def exposure(
    *,
    days: Annotated[int, In("Days of exposure", 1, MAX_DAYS)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """1d6 directly to HP at the end of each day of exposure; no natural healing meanwhile."""
    if not 1 <= days <= MAX_DAYS:
        raise LimitError(f"1 to {MAX_DAYS} days of exposure (asked for {days})")
    d = dice_of(_EXPOSURE_DICE)

    def lost(draw: Draw) -> int:
        return total(draw, d.n * days, d.sides)

    def say(hp: int, faces: Faces) -> Roll:
        return Roll(f"{hp} HP over {days} day(s)",
                    tuple(Die(d.sides, v, f"day {i + 1}", "exposure")
                          for i, (_, v) in enumerate(faces)))

    dist = expand(lost)
    return rolled(Result(
        f"{d.n * days}d{d.sides}: mean {float(dist.mean()):.1f} HP",
        (("Mean HP lost", dist.mean()),),
        (
            f"{d} directly to HP at the end of each day: {days} day(s)",
            "While exposed you cannot heal naturally, even if stabilized",
            "Proper equipment for the environment: no risk of exposure",
        ),
        (Odds.of(dist, "HP lost"),),
    ), rng, lost, say)


_FALLING_PER = number("falling", r"take \d+d\d+ damage for every (\d+) m")
_FALLING_DICE = number("falling", r"take (\d+)d(\d+) damage for every")
FALLING_DV = number("falling", r"unless they then succeed a DV ?(\d+)")
_FALLING_LEGS = number("falling", r"Characters with (\d+) Cyberlegs")
_FALLING_CAP = number("falling", r"if the fall is greater than (\d+) m")
_FALLING_TURN = number("falling", r"fall (\d+) ?m/yds at the end")


@SHEET.calculator(title="Falling", at="§ Falling", see="§ Taking damage")
def falling(
    *,
    metres: Annotated[int, In("Height fallen (m/yds)", 0, MAX_FALL)] = 20,
    sp: Annotated[int, sp_in("Body SP")] = 11,
    cyberlegs: Annotated[int, In("Number of Cyberlegs", 0, 2)] = 0,
    athlete: Athlete,  # an input group: the kernel builds it from its inputs
    rng: random.Random | None = None,
) -> Result:
    """2d6 per 10 m fallen (10 m or more), soaked by body armour; DV15 Athletics or Broken Leg."""
    if not 0 <= metres <= MAX_FALL:
        raise LimitError(f"falls of 0 to {MAX_FALL} m (asked for {metres})")
    per = _FALLING_PER.read()
    d = dice_of(_FALLING_DICE)
    dv = FALLING_DV.read()
    legs = _FALLING_LEGS.read()
    cap = _FALLING_CAP.read()
    turn = _FALLING_TURN.read()
    steps = [f"Falling Characters fall {turn} m/yds at the end of their Turn"]
    if metres < per:
        return Result(
            f"Under {per} m: no falling damage",
            (("Damage", 0),),
            (*steps, f"Only falls of {per} m/yds or more deal damage"),
        )
    if cyberlegs >= legs and metres <= cap:
        return Result(
            f"{legs} Cyberlegs: no damage and no Broken Leg",
            (("Damage", 0),),
            (
                *steps,
                f"Characters with {legs} Cyberlegs take no damage from a fall of "
                f"{cap} m/yds or less",
            ),
        )
    n = d.n * (metres // per)
    check_dice(n)

    def fall(draw: Draw) -> tuple[int, bool]:
        """The damage rolled, and the Broken Leg (a failed DV Athletics check)."""
        dmg = total(draw, n, d.sides)
        return dmg, athlete.base + draw(10) <= dv

    dist = expand(lambda draw: total(draw, n, d.sides))
    hp = dist.map(lambda v: take_damage(v, sp).hp)
    p_leg = 1 - p_beat(athlete.base, dv)
    steps += [
        f"{metres} m: {d} for every {per} m → {n}d{d.sides}",
        f"Soaked by body armour (SP {sp}); ablation if any gets through",
        f"DV{dv} Athletics ({athlete.says()} + 1d10) or the Broken Leg "
        f"Critical Injury: {p_leg}",
    ]
    if cyberlegs >= legs:
        steps.append(f"Cyberlegs do nothing for a fall greater than {cap} m/yds")

    def say(got: tuple[int, bool], faces: Faces) -> Roll:
        dmg, broke = got
        shown = (*(Die(d.sides, v, "", "fall") for _, v in faces[:-1]),
                 Die(10, faces[-1][1], "Athletics", "athletics"))
        return Roll(f"{dmg} - {sp}: {take_damage(dmg, sp).hp} HP lost"
                    + ("; Broken Leg" if broke else ""), shown)

    return rolled(Result(
        f"{n}d{d.sides} - SP {sp}: mean {float(hp.mean()):.1f} HP; Broken Leg {float(p_leg):.0%}",
        (("Mean HP lost", hp.mean()), ("P(Broken Leg)", p_leg)),
        tuple(steps),
        (Odds.of(hp, "HP lost"),),
        notes=(
            "A fall off a skyscraper without a parachute: don't bother rolling a "
            "Death Save, you are dead.",
            "Athletics is taken as DEX-based (not stated in the sheet).",
            NO_CRIT_10,
        ),
    ), rng, fall, say)


@cache
def poison_table() -> list[tuple[str, str, int, str, int, str]]:
    """(table id, severity, DV, effect, row index, substances) for poisons and drugs."""
    out: list[tuple[str, str, int, str, int, str]] = []
    for spec in (POISONS, DRUGS):
        for i, c in enumerate(spec.rows()):
            out.append((spec.id, c[0], data.amount(c[2]), c[3], i, c[1]))
    return out


def _poison_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple(
            (f"{tid}:{i}", f"{'Poison' if tid == 'poisons' else 'Drug'}, {sev}: {subs}")
            for tid, sev, _, _, i, subs in poison_table()
        )
    except RulesError:
        return ()


@SHEET.calculator(title="Poisons and Drugs", at="§ Poisons and Drugs", tables=("poisons", "drugs"))
def poison(
    *,
    kind: Annotated[str, In("Poison or drug", choices=_poison_choices())] = "poisons:0",
    will: Annotated[int, stat_in("STAT for Resist Torture/Drugs")] = 5,
    skill: Annotated[int, stat_in("Resist Torture/Drugs")] = 2,
    rng: random.Random | None = None,
) -> Result:
    """Resist Torture/Drugs against the DV; on a failure the effect (armour not ablated)."""
    found = [p for p in poison_table() if f"{p[0]}:{p[4]}" == kind]
    if not found:
        raise RulesError(f"unknown poison or drug {kind!r}")
    tid, sev, dv, effect, i, subs = found[0]
    p_fail = 1 - p_beat(will + skill, dv)
    steps = [
        f"{sev}: {subs}: DV {dv}",
        f"Resist Torture/Drugs: STAT {will} + Skill {skill} + 1d10 must beat DV {dv}",
        f"On a failure: {effect} ({p_fail})",
    ]
    odds: tuple[Odds, ...] = ()
    values: list[tuple[str, Any]] = [("DV", dv), ("P(fail)", p_fail)]
    m = re.search(r"(\d+)d(\d+)", effect)
    if m:
        d = Dice(int(m.group(1)), int(m.group(2)))
        hp = Distribution.from_counts({0: 1}).combine(d.dist(), lambda _, v: v)
        odds = (Odds.of(hp, f"Damage on a failure ({d}, direct to HP)"),)
        values.append(("Mean HP lost", p_fail * d.dist().mean()))

    def resist(draw: Draw) -> tuple[int, int | None]:
        """The Resist Torture/Drugs total, and the damage of the effect on a failure."""
        got = will + skill + draw(10)
        return got, total(draw, int(m.group(1)), int(m.group(2))) if got <= dv and m else None

    def say(got: tuple[int, int | None], faces: Faces) -> Roll:
        ok = got[0] > dv
        shown = (Die(10, faces[0][1], "resisted" if ok else "failed", "resist"),
                 *(Die(s, x, "", "damage") for s, x in faces[1:]))
        return Roll(f"{got[0]} vs DV {dv}: " + ("resisted" if ok else f"failed: {effect}")
                    + ("" if got[1] is None else f" = {got[1]}"), shown)

    return rolled(Result(
        f"{float(p_fail):.0%} to suffer {effect}",
        tuple(values),
        tuple(steps),
        odds,
        (),
        (Highlight(tid, i),),
        notes=("The STAT of Resist Torture/Drugs is not named in the sheet.", NO_CRIT_10),
    ), rng, resist, say)
