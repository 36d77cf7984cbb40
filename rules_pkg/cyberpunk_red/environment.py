"""Other types of damage: fire, drowning, electrocution, exposure, falling, poison and drugs."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Annotated, Any

from ..dice import Distribution, check_dice, roll
from ..errors import LimitError, RulesError
from ..kernel import In, calculator
from ..registry import Die, Highlight, Odds, Result
from .core import MAX_DAYS, MAX_FALL, MAX_STAT, p_beat, take_damage
from .sheet import NO_CRIT_10, SRC, Dice, _int, rows, rule, rule_dice

# -- other types of damage --------------------------------------------------------------------


@cache
def fire_table() -> list[tuple[str, str, int]]:
    return [(c[0], c[1], _int(c[2])) for c in rows("fire")]


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


@calculator(
    id="cyberpunk_red.fire",
    sections=("being-on-fire", "radiation"),
    title="On Fire and high radiation",
    source=f"{SRC} § Being On Fire, § Radiation",
    tables=("fire",),
)
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


@calculator(
    id="cyberpunk_red.drowning",
    sections=("drowning-and-asphyxiation",),
    title="Drowning and Asphyxiation",
    source=f"{SRC} § Drowning and Asphyxiation",
)
def drowning(
    *,
    body: Annotated[int, In("BODY", 1, 20)] = 6,
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
    dice_out: list[Die] = []
    if space:
        vac = rule_dice("drowning-and-asphyxiation", r"additional (\d+)d(\d+) in damage")
        check_dice(vac.n * turns)
        stat_loss = Distribution.d(vac.sides).repeat(vac.n * turns)
        steps.append(
            f"In space: +{vac} to INT, REF and DEX at the end of each Turn "
            "(at INT 0 you are dead; reversed by a breath of air)"
        )
        odds = (Odds.of(stat_loss, f"Loss to each of INT, REF, DEX over {turns} Turn(s)"),)
        if rng is not None:
            for stat in ("INT", "REF", "DEX"):
                for v in roll(rng, vac.sides, vac.n * turns):
                    dice_out.append(Die(vac.sides, v, stat, stat))
    return Result(
        f"{body * turns} HP over {turns} Turn(s)",
        (("HP lost", body * turns), ("Breath (minutes)", body)),
        tuple(steps),
        odds,
        tuple(dice_out),
    )


@calculator(
    id="cyberpunk_red.electrocution",
    sections=("electrocution",),
    title="Electrocution",
    source=f"{SRC} § Electrocution, § Taking damage",
)
def electrocution(
    *,
    sp: Annotated[int, In("Body SP", 0, 50)] = 11,
    turns: Annotated[int, In("Shocks (staying in contact)", 1, 10)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """6d6 soaked by armour, repeating each Turn you stay; each shock that gets through ablates."""
    if not 1 <= turns <= 10:
        raise LimitError(f"1 to 10 shocks (asked for {turns})")
    d = rule_dice("electrocution", r"immediately take (\d+)d(\d+) damage")
    one = d.dist()
    # state: (SP now, HP lost so far), exact over (sides^n)^turns
    states: dict[tuple[int, int], int] = {(sp, 0): 1}
    for _ in range(turns):
        nxt: dict[tuple[int, int], int] = {}
        for (s, so_far), c in states.items():
            for v, cv in one:
                h = take_damage(v, s)
                k = (h.sp_after, so_far + h.hp)
                nxt[k] = nxt.get(k, 0) + c * cv
        states = nxt
    lost = Distribution.from_counts(states).map(lambda t: t[1])
    steps = [
        f"{d} damage, soaked by armour as normal (SP {sp})",
        "Any damage through ablates the SP by 1",
        f"It repeats at the end of each of your Turns until you move away: {turns} shock(s)",
    ]
    dice_out: list[Die] = []
    summary = f"Mean {float(lost.mean()):.1f} HP over {turns} shock(s)"
    if rng is not None:
        s, tot = sp, 0
        for _ in range(turns):
            vs = roll(rng, d.sides, d.n)
            dice_out += [Die(d.sides, v, "", "shock") for v in vs]
            h = take_damage(sum(vs), s)
            s, tot = h.sp_after, tot + h.hp
        summary = f"{tot} HP lost; SP {sp} → {s}"
    return Result(
        summary,
        (("Mean HP lost", lost.mean()),),
        tuple(steps),
        (Odds.of(lost, "HP lost"),),
        tuple(dice_out),
        notes=(
            "Not an attack: no Critical Injury on two 6s (the sheet ties that to "
            "melee and ranged attacks).",
        ),
    )


@calculator(
    id="cyberpunk_red.exposure",
    sections=("exposure",),
    title="Exposure",
    source=f"{SRC} § Exposure",
)
def exposure(
    *,
    days: Annotated[int, In("Days of exposure", 1, MAX_DAYS)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """1d6 directly to HP at the end of each day of exposure; no natural healing meanwhile."""
    if not 1 <= days <= MAX_DAYS:
        raise LimitError(f"1 to {MAX_DAYS} days of exposure (asked for {days})")
    d = rule_dice("exposure", r"deal (\d+)d(\d+) damage directly")
    dist = Distribution.d(d.sides).repeat(d.n * days)
    dice_out: tuple[Die, ...] = ()
    summary = f"{d.n * days}d{d.sides}: mean {float(dist.mean()):.1f} HP"
    if rng is not None:
        vs = roll(rng, d.sides, d.n * days)
        dice_out = tuple(Die(d.sides, v, f"day {i + 1}", "exposure") for i, v in enumerate(vs))
        summary = f"{sum(vs)} HP over {days} day(s)"
    return Result(
        summary,
        (("Mean HP lost", dist.mean()),),
        (
            f"{d} directly to HP at the end of each day: {days} day(s)",
            "While exposed you cannot heal naturally, even if stabilized",
            "Proper equipment for the environment: no risk of exposure",
        ),
        (Odds.of(dist, "HP lost"),),
        dice_out,
    )


@calculator(
    id="cyberpunk_red.falling",
    sections=("falling",),
    title="Falling",
    source=f"{SRC} § Falling, § Taking damage",
)
def falling(
    *,
    metres: Annotated[int, In("Height fallen (m/yds)", 0, MAX_FALL)] = 20,
    sp: Annotated[int, In("Body SP", 0, 50)] = 11,
    cyberlegs: Annotated[int, In("Number of Cyberlegs", 0, 2)] = 0,
    dex: Annotated[int, In("DEX", 0, MAX_STAT)] = 6,
    athletics: Annotated[int, In("Athletics", 0, MAX_STAT)] = 4,
    rng: random.Random | None = None,
) -> Result:
    """2d6 per 10 m fallen (10 m or more), soaked by body armour; DV15 Athletics or Broken Leg."""
    if not 0 <= metres <= MAX_FALL:
        raise LimitError(f"falls of 0 to {MAX_FALL} m (asked for {metres})")
    t = "falling"
    per = rule(t, r"take \d+d\d+ damage for every (\d+) m")
    d = rule_dice(t, r"take (\d+)d(\d+) damage for every")
    dv = rule(t, r"unless they then succeed a DV ?(\d+)")
    legs = rule(t, r"Characters with (\d+) Cyberlegs")
    cap = rule(t, r"if the fall is greater than (\d+) m")
    turn = rule(t, r"fall (\d+) ?m/yds at the end")
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
    dist = Distribution.d(d.sides).repeat(n)
    hp = dist.map(lambda v: take_damage(v, sp).hp)
    p_leg = 1 - p_beat(dex + athletics, dv)
    steps += [
        f"{metres} m: {d} for every {per} m → {n}d{d.sides}",
        f"Soaked by body armour (SP {sp}); ablation if any gets through",
        f"DV{dv} Athletics (DEX {dex} + Athletics {athletics} + 1d10) or the Broken Leg "
        f"Critical Injury: {p_leg}",
    ]
    if cyberlegs >= legs:
        steps.append(f"Cyberlegs do nothing for a fall greater than {cap} m/yds")
    dice_out: list[Die] = []
    summary = (
        f"{n}d{d.sides} - SP {sp}: mean {float(hp.mean()):.1f} HP; Broken Leg {float(p_leg):.0%}"
    )
    if rng is not None:
        vs = roll(rng, d.sides, n)
        dice_out = [Die(d.sides, v, "", "fall") for v in vs]
        a = roll(rng, 10)[0]
        dice_out.append(Die(10, a, "Athletics", "athletics"))
        h = take_damage(sum(vs), sp)
        broke = dex + athletics + a <= dv
        summary = f"{sum(vs)} - {sp}: {h.hp} HP lost" + ("; Broken Leg" if broke else "")
    return Result(
        summary,
        (("Mean HP lost", hp.mean()), ("P(Broken Leg)", p_leg)),
        tuple(steps),
        (Odds.of(hp, "HP lost"),),
        tuple(dice_out),
        notes=(
            "A fall off a skyscraper without a parachute: don't bother rolling a "
            "Death Save, you are dead.",
            "Athletics is taken as DEX-based (not stated in the sheet).",
            NO_CRIT_10,
        ),
    )


@cache
def poison_table() -> list[tuple[str, str, int, str, int, str]]:
    """(table id, severity, DV, effect, row index, substances) for poisons and drugs."""
    out: list[tuple[str, str, int, str, int, str]] = []
    for tid in ("poisons", "drugs"):
        for i, c in enumerate(rows(tid)):
            out.append((tid, c[0], _int(c[2]), c[3], i, c[1]))
    return out


def _poison_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple(
            (f"{tid}:{i}", f"{'Poison' if tid == 'poisons' else 'Drug'}, {sev}: {subs}")
            for tid, sev, _, _, i, subs in poison_table()
        )
    except RulesError:
        return ()


@calculator(
    id="cyberpunk_red.poison",
    sections=("poisons-and-drugs",),
    title="Poisons and Drugs",
    source=f"{SRC} § Poisons and Drugs",
    tables=("poisons", "drugs"),
)
def poison(
    *,
    kind: Annotated[str, In("Poison or drug", choices=_poison_choices())] = "poisons:0",
    will: Annotated[int, In("STAT for Resist Torture/Drugs", 0, MAX_STAT)] = 5,
    skill: Annotated[int, In("Resist Torture/Drugs", 0, MAX_STAT)] = 2,
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
    dice_out: list[Die] = []
    summary = f"{float(p_fail):.0%} to suffer {effect}"
    if rng is not None:
        v = roll(rng, 10)[0]
        ok = will + skill + v > dv
        dice_out.append(Die(10, v, "resisted" if ok else "failed", "resist"))
        summary = f"{will + skill + v} vs DV {dv}: " + ("resisted" if ok else f"failed: {effect}")
        if not ok and m:
            vs = roll(rng, int(m.group(2)), int(m.group(1)))
            dice_out += [Die(int(m.group(2)), x, "", "damage") for x in vs]
            summary += f" = {sum(vs)}"
    return Result(
        summary,
        tuple(values),
        tuple(steps),
        odds,
        tuple(dice_out),
        (Highlight(tid, i),),
        notes=("The STAT of Resist Torture/Drugs is not named in the sheet.", NO_CRIT_10),
    )
