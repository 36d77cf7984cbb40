"""Cyberpunk RED combat, as the homebrew cheat sheet writes it.

Source: sources/cyberpunk-red-combat-cheat-sheet.txt. Checks are STAT + Skill + 1d10
against a DV or an opposed roll, and the attacker must *beat* it: "If you beat the DV
(defender wins in a tie)". The sheet does not mention RED's critical 10/1 on the d10,
so it is not applied. Numbers are read from the extracted data: table cells for the
tables, and the sheet's own sentences (`rule`) for numbers written in prose.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from . import data
from .dice import Distribution, check_dice, roll
from .errors import LimitError, RulesError
from .kernel import In, calculator
from .registry import Die, Highlight, Odds, OddsRow, Result

GAME = "cyberpunk_red"
SRC = "Cyberpunk RED Combat Cheat Sheet"
NO_CRIT_10 = (
    "The sheet does not mention RED's critical success/failure on a d10 roll of "
    "10 or 1, so the d10 is rolled once, as written."
)

# -- reading numbers from the extracted document ---------------------------------------------


def _texts(blocks: Iterable[dict[str, Any]]) -> Iterable[str]:
    for b in blocks:
        if b["type"] == "paragraph":
            yield b["text"]
        elif b["type"] == "list":
            stack = list(b["items"])
            while stack:
                it = stack.pop(0)
                yield it["text"]
                stack[:0] = it.get("children", [])
        elif b["type"] == "table":
            for r in b["rows"]:
                yield " ".join(r["cells"])


def _sections(ss: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for s in ss:
        yield s
        yield from _sections(s["sections"])


@cache
def section_text(section_id: str) -> str:
    """All text of a section and its subsections, whitespace normalised."""
    for s in _sections(data.document(GAME)["sections"]):
        if s["id"] == section_id:
            parts = list(_texts(s["blocks"]))
            parts += [t for sub in _sections(s["sections"]) for t in _texts(sub["blocks"])]
            return re.sub(r"\s+", " ", " ".join(parts).replace("\u00a0", " "))
    raise RulesError(f"cyberpunk_red data: no section {section_id!r}")


def rule(section_id: str, pattern: str, group: int = 1) -> int:
    """A number the sheet writes in prose, found by a regex in its section."""
    m = re.search(pattern, section_text(section_id), re.IGNORECASE)
    if not m:
        raise RulesError(f"cyberpunk_red data: {pattern!r} not found in § {section_id}")
    return int(m.group(group))


@dataclass(frozen=True)
class Dice:
    """NdS as the sheet writes it, e.g. "2d6"."""

    n: int
    sides: int

    def __str__(self) -> str:
        return f"{self.n}d{self.sides}"

    def dist(self) -> Distribution[int]:
        return Distribution.d(self.sides).repeat(self.n)


def parse_dice(text: str) -> Dice:
    m = re.search(r"(\d+)\s*d\s*(\d+)", text, re.IGNORECASE)
    if not m:
        raise RulesError(f"cyberpunk_red data: no dice in {text!r}")
    return Dice(int(m.group(1)), int(m.group(2)))


def rule_dice(section_id: str, pattern: str) -> Dice:
    """Dice the sheet writes in prose: `pattern` has groups for N and sides."""
    m = re.search(pattern, section_text(section_id), re.IGNORECASE)
    if not m:
        raise RulesError(f"cyberpunk_red data: {pattern!r} not found in § {section_id}")
    return Dice(int(m.group(1)), int(m.group(2)))


def rows(table_id: str) -> list[tuple[str, ...]]:
    return [tuple(str(c) for c in r["cells"]) for r in data.table(GAME, table_id)["rows"]]


def _int(text: str) -> int:
    m = re.search(r"\d+", text)
    if not m:
        raise RulesError(f"cyberpunk_red data: no number in {text!r}")
    return int(m.group(0))


# -- the core roll ----------------------------------------------------------------------------

D10 = Distribution.d(10)
MAX_DAYS = 50  # exposure: 50d6 keeps the exact odds quick in the browser
MAX_FALL = 300  # m: 60d6; far beyond the height the sheet calls certain death
MAX_STAT = 30  # stats + skills beyond this are not a RED character
MAX_DV = 60


def dodge_ref() -> int:
    """ "A Defender with a REF 8 or higher can choose to attempt to dodge a Ranged Attack"."""
    return rule("resolving-ranged-combat", r"REF (\d+) or higher can choose to attempt to dodge")


def check(base: int) -> Distribution[int]:
    """STAT + Skill (+ modifiers) + 1d10."""
    return D10 + base


def p_beat(base: int, dv: int) -> Fraction:
    """P(STAT + Skill + 1d10 beats the DV): ties go to the defender."""
    return check(base).p(lambda t: t > dv)


def margin_vs_dv(base: int, dv: int) -> Distribution[int]:
    """The amount the check beats the DV by (<= 0 is a miss)."""
    return check(base).map(lambda t: t - dv)


def margin_opposed(attack: int, defence: int) -> Distribution[int]:
    """Attacker total minus defender total; the attacker wins only above 0."""
    return check(attack).combine(check(defence), lambda a, d: a - d)


def _odds_check(m: Distribution[int], title: str) -> Odds:
    return Odds.of(
        m,
        title,
        lambda v: f"beat by {v}" if v > 0 else ("tie (defender)" if v == 0 else f"short by {-v}"),
    )


@dataclass(frozen=True)
class Defence:
    """A DV, or a dodge: DEX + Evasion + 1d10 (needs REF 8+ against ranged attacks)."""

    dv: int
    dodge: bool = False
    ref: int = 0
    dex: int = 0
    evasion: int = 0

    def margin(self, attack_base: int) -> Distribution[int]:
        if self.dodge:
            return margin_opposed(attack_base, self.dex + self.evasion)
        return margin_vs_dv(attack_base, self.dv)

    def describe(self) -> str:
        if self.dodge:
            return f"Defender dodges: DEX {self.dex} + Evasion {self.evasion} + 1d10"
        return f"DV {self.dv}"


def _defence(defence: str, dv: int, ref: int, dex: int, evasion: int, what: str) -> Defence:
    if defence == "dodge":
        need = dodge_ref()
        if ref < need:
            raise RulesError(
                f"only a defender with REF {need} or higher can dodge {what} (REF {ref})"
            )
        return Defence(dv, True, ref, dex, evasion)
    if defence != "dv":
        raise RulesError(f"defence is 'dv' or 'dodge' (got {defence!r})")
    return Defence(dv)


# The defender's inputs, shared by every attack: declared once (type, label, limits, default).
DefenceIn = Annotated[str, In("Defence", choices=(("dv", "DV from the range table"),
                                                  ("dodge", "Dodge (REF 8+)")))]
DEFENCE_DEFAULT = "dv"
DvIn = Annotated[int, In("DV (the range table is not in the sheet)", 0, MAX_DV)]
DV_DEFAULT = 15
DefRefIn = Annotated[int, In("Defender REF", 0, MAX_STAT)]
DEF_REF_DEFAULT = 6
DefDexIn = Annotated[int, In("Defender DEX", 0, MAX_STAT)]
DEF_DEX_DEFAULT = 6
DefEvasionIn = Annotated[int, In("Defender Evasion", 0, MAX_STAT)]
DEF_EVASION_DEFAULT = 4


def crit_bonus() -> int:
    """ "deal 5 Bonus Damage directly to the target's Hit Points"."""
    return rule("critical-injuries", r"deal (\d+) Bonus Damage")


def crit_face() -> int:
    """ "two or more Dice ... come up 6"."""
    return rule("critical-injuries", r"come up (\d+)")


def head_multiplier() -> int:
    return rule("aimed-shots", r"head armor by (\d+)")


def ablation() -> int:
    return rule("taking-damage", r"reducing its SP by (\d+) point")


@dataclass(frozen=True)
class Hit:
    """One hit against SP: what got through, HP lost, ablation, Critical Injury."""

    rolled: int
    sp: int  # SP used (halved for melee weapons)
    through: int
    hp: int
    sp_after: int
    crit: bool


def melee_sp(sp: int) -> int:
    """Melee weapons ignore half of the defender's armour, rounded up: SP halved, rounded up."""
    return math.ceil(Fraction(sp, 2))


def take_damage(
    rolled: int,
    sp: int,
    *,
    head: bool = False,
    melee: bool = False,
    crit: bool = False,
    direct: bool = False,
) -> Hit:
    """§ Taking damage: subtract SP; any damage through ablates SP by 1.

    Head (Aimed Shot): the damage through head armour x2. A Critical Injury adds 5
    directly, whether or not damage got through. `direct`: bypasses armour, no ablation.
    """
    used = 0 if direct else (melee_sp(sp) if melee else sp)
    through = max(0, rolled - used)
    hp = through * (head_multiplier() if head else 1) + (crit_bonus() if crit else 0)
    sp_after = sp if direct or not through else max(0, sp - ablation())
    return Hit(rolled, used, through, hp, sp_after, crit)


def dice_with_crit(n: int, sides: int = 6) -> Distribution[tuple[int, bool]]:
    """Nd6 as (sum, Critical Injury?) — a crit when two or more dice come up 6."""
    check_dice(n)
    face = crit_face()
    one = Distribution.die((v, int(v == face)) for v in range(1, sides + 1))
    folded = one.repeat(n, lambda a, b: (a[0] + b[0], min(2, a[1] + b[1])))
    return folded.map(lambda t: (t[0], t[1] >= 2))


def _hp_odds(dist: Distribution[int], title: str) -> Odds:
    return Odds.of(dist, title)


def _roll_damage(rng: random.Random, n: int, sides: int = 6) -> tuple[tuple[int, ...], bool]:
    vs = roll(rng, sides, n)
    return vs, sum(1 for v in vs if v == crit_face()) >= 2


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


# -- ranged attacks ---------------------------------------------------------------------------

AIM_CHOICES = (
    ("none", "No Aimed Shot"),
    ("head", "Head"),
    ("held_item", "Held Item"),
    ("leg", "Leg"),
)


def aim_penalty() -> int:
    return rule("aimed-shots", r"a (-\d+) to your check to aim")


def _attack_damage(
    hit_p_margin: Distribution[int],
    n: int,
    sp: int,
    head: bool,
    melee: bool,
    mult_cap: int | None = None,
) -> tuple[Distribution[int], Fraction]:
    """HP lost over the attack: 0 on a miss; on a hit dice (x margin up to cap) vs SP + crit."""
    dmg = dice_with_crit(n)

    def on(margin: int, roll_: tuple[int, bool]) -> int:
        if margin <= 0:
            return 0
        total = roll_[0] * (min(margin, mult_cap) if mult_cap else 1)
        return take_damage(total, sp, head=head, melee=melee, crit=roll_[1]).hp

    hp = hit_p_margin.combine(dmg, on)
    crit = hit_p_margin.combine(dmg, lambda mg, r: mg > 0 and r[1]).probability(True)
    return hp, crit


@calculator(
    id="cyberpunk_red.ranged",
    sections=("resolving-ranged-combat", "aimed-shots"),
    title="Ranged attack (single shot, Aimed Shots)",
    source=f"{SRC} § Resolving Ranged Combat, § Aimed Shots, § Taking damage, § Critical Injuries",
)
def ranged(
    *,
    ref: Annotated[int, In("REF", 0, MAX_STAT)] = 6,
    skill: Annotated[int, In("Weapon Skill", 0, MAX_STAT)] = 4,
    modifier: Annotated[int, In("Other modifiers", -30, 30)] = 0,
    aim: Annotated[str, In("Aimed Shot", choices=AIM_CHOICES)] = "none",
    defence: DefenceIn = DEFENCE_DEFAULT,
    dv: DvIn = DV_DEFAULT,
    def_ref: DefRefIn = DEF_REF_DEFAULT,
    def_dex: DefDexIn = DEF_DEX_DEFAULT,
    def_evasion: DefEvasionIn = DEF_EVASION_DEFAULT,
    dice: Annotated[int, In("Weapon damage (d6)", 1, 20)] = 3,
    sp_body: Annotated[int, In("Body SP", 0, 50)] = 11,
    sp_head: Annotated[int, In("Head SP", 0, 50)] = 11,
    rng: random.Random | None = None,
) -> Result:
    """REF + Weapon Skill + 1d10 vs the range DV or a dodge; damage against SP."""
    if aim not in dict(AIM_CHOICES):
        raise RulesError(f"unknown Aimed Shot {aim!r}")
    check_dice(dice)
    dfn = _defence(defence, dv, def_ref, def_dex, def_evasion, "a Ranged Attack")
    base = ref + skill + modifier
    steps = [f"REF {ref} + Weapon Skill {skill} {modifier:+d} + 1d10 vs {dfn.describe()}"]
    if aim != "none":
        pen = aim_penalty()
        base += pen
        steps.append(
            f"Aimed Shot ({dict(AIM_CHOICES)[aim]}): {pen:+d}, at ROF 1, your entire Action"
        )
    head = aim == "head"
    sp = sp_head if head else sp_body
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
    dice_out: list[Die] = []
    summary = f"{float(p_hit):.0%} to hit; mean {float(hp.mean()):.1f} HP"
    if rng is not None:
        a = roll(rng, 10)[0]
        dice_out.append(Die(10, a, "attack", "attack"))
        d_total = dv
        if dfn.dodge:
            dd = roll(rng, 10)[0]
            dice_out.append(Die(10, dd, "dodge", "defence"))
            d_total = def_dex + def_evasion + dd
        if base + a > d_total:
            vs, crit = _roll_damage(rng, dice)
            dice_out += [Die(6, v, "", "damage") for v in vs]
            h = take_damage(sum(vs), sp, head=head, crit=crit)
            summary = (
                f"Hit ({base + a} vs {d_total}): {sum(vs)} damage, {h.hp} HP lost"
                f"{', Critical Injury' if crit else ''}; SP {sp} → {h.sp_after}"
            )
        else:
            summary = f"Miss ({base + a} vs {d_total})"
    return Result(
        summary,
        tuple(values),
        tuple(steps),
        (_odds_check(m, "Attack minus defence"), _hp_odds(hp, "HP lost")),
        tuple(dice_out),
        notes=(
            NO_CRIT_10,
            "Weapon damage dice and the range table's DVs are not in the sheet: enter them.",
        ),
    )


def autofire_caps() -> dict[str, int]:
    t = section_text("auto-fire-mode")
    m = re.search(r"\((\d+) for SMGS?, (\d+) for Assault Rifles\)", t, re.IGNORECASE)
    if not m:
        raise RulesError("cyberpunk_red data: the Autofire maximums are not in § Auto fire mode")
    return {"smg": int(m.group(1)), "assault_rifle": int(m.group(2))}


def _bullets(section: str) -> int:
    return rule(section, r"costs an Action and (\d+) bullets")


@calculator(
    id="cyberpunk_red.autofire",
    sections=("auto-fire-mode",),
    title="Autofire",
    source=f"{SRC} § Auto fire mode, § Taking damage, § Critical Injuries",
)
def autofire(
    *,
    ref: Annotated[int, In("REF", 0, MAX_STAT)] = 6,
    skill: Annotated[int, In("Autofire Skill", 0, MAX_STAT)] = 4,
    modifier: Annotated[int, In("Other modifiers", -30, 30)] = 0,
    weapon: Annotated[str, In(
        "Weapon",
        choices=(("smg", "SMG"), ("assault_rifle", "Assault Rifle")),
    )] = "smg",
    bullets: Annotated[int, In("Bullets in the clip", 0, 500)] = 30,
    defence: DefenceIn = DEFENCE_DEFAULT,
    dv: DvIn = DV_DEFAULT,
    def_ref: DefRefIn = DEF_REF_DEFAULT,
    def_dex: DefDexIn = DEF_DEX_DEFAULT,
    def_evasion: DefEvasionIn = DEF_EVASION_DEFAULT,
    sp_body: Annotated[int, In("Body SP", 0, 50)] = 11,
    rng: random.Random | None = None,
) -> Result:
    """Hit: 2d6 x the amount you beat the DV by, up to the weapon's Autofire (3 SMG, 4 AR)."""
    need = _bullets("auto-fire-mode")
    if bullets < need:
        raise RulesError(f"Autofire needs {need} bullets in the clip (you have {bullets})")
    caps = autofire_caps()
    if weapon not in caps:
        raise RulesError(f"weapon is 'smg' or 'assault_rifle' (got {weapon!r})")
    cap = caps[weapon]
    dmg = rule_dice("auto-fire-mode", r"roll (\d+)d(\d+) for damage")
    dfn = _defence(defence, dv, def_ref, def_dex, def_evasion, "Autofire")
    base = ref + skill + modifier
    m = dfn.margin(base)
    p_hit = m.p(lambda v: v > 0)
    mult = m.map(lambda v: max(0, min(v, cap)))
    hp, p_crit = _attack_damage(m, dmg.n, sp_body, False, False, cap)
    rolled = m.combine(dmg.dist(), lambda mg, s: s * min(mg, cap) if mg > 0 else 0)
    steps = [
        f"{need} bullets; REF {ref} + Autofire {skill} {modifier:+d} + 1d10 vs {dfn.describe()}"
        " (the Autofire Range Table's DVs are not in the sheet)",
        f"Hit: {p_hit}; roll {dmg} \u00d7 the amount you beat it by, up to {cap}",
        f"Damage - body SP {sp_body}; any damage through ablates the SP by 1",
        f"Both dice 6: a Critical Injury, +{crit_bonus()} direct ({p_crit})",
    ]
    mult_odds = Odds.of(mult, "Multiplier", lambda v: "miss" if v == 0 else f"\u00d7{v}")
    dice_out: list[Die] = []
    summary = f"{float(p_hit):.0%} to hit; mean {float(hp.mean()):.1f} HP"
    if rng is not None:
        a = roll(rng, 10)[0]
        dice_out.append(Die(10, a, "attack", "attack"))
        d_total = dv
        if dfn.dodge:
            dd = roll(rng, 10)[0]
            dice_out.append(Die(10, dd, "dodge", "defence"))
            d_total = def_dex + def_evasion + dd
        mg = base + a - d_total
        if mg > 0:
            vs, crit = _roll_damage(rng, dmg.n, dmg.sides)
            dice_out += [Die(dmg.sides, v, "", "damage") for v in vs]
            k = min(mg, cap)
            h = take_damage(sum(vs) * k, sp_body, crit=crit)
            summary = (
                f"Hit by {mg}: {sum(vs)} \u00d7 {k} = {sum(vs) * k} damage, {h.hp} HP lost"
                f"{', Critical Injury' if crit else ''}"
            )
        else:
            summary = f"Miss ({base + a} vs {d_total})"
    return Result(
        summary,
        (
            ("P(hit)", p_hit),
            ("P(Critical Injury)", p_crit),
            ("Mean damage", rolled.mean()),
            ("Mean HP lost", hp.mean()),
        ),
        tuple(steps),
        (mult_odds, Odds.of(rolled, "Autofire damage (0 = miss)"), _hp_odds(hp, "HP lost")),
        tuple(dice_out),
        notes=(NO_CRIT_10, "Autofire cannot be used to make an Aimed Shot."),
    )


@calculator(
    id="cyberpunk_red.suppressive",
    sections=("suppressive-fire",),
    title="Suppressive Fire",
    source=f"{SRC} § Suppressive Fire",
)
def suppressive(
    *,
    ref: Annotated[int, In("Your REF", 0, MAX_STAT)] = 6,
    autofire: Annotated[int, In("Your Autofire Skill", 0, MAX_STAT)] = 4,
    bullets: Annotated[int, In("Bullets in the clip", 0, 500)] = 30,
    will: Annotated[int, In("Target WILL", 0, MAX_STAT)] = 5,
    concentration: Annotated[int, In("Target Concentration", 0, MAX_STAT)] = 2,
    rng: random.Random | None = None,
) -> Result:
    """Everyone on foot in 7-12 squares, out of cover and in sight, rolls WILL +
    Concentration + 1d10 against your REF + Autofire + 1d10; those who fail take cover."""
    need = _bullets("suppressive-fire")
    if bullets < need:
        raise RulesError(f"Suppressive Fire needs {need} bullets in the clip (you have {bullets})")
    lo = rule("suppressive-fire", r"within (\d+)-(\d+) Squares")
    hi = rule("suppressive-fire", r"within (\d+)-(\d+) Squares", 2)
    m = margin_opposed(ref + autofire, will + concentration)
    p = m.p(lambda v: v > 0)
    steps = [
        f"{need} bullets; everyone on foot within {lo}-{hi} squares, out of cover, in sight",
        f"They roll WILL {will} + Concentration {concentration} + 1d10 against "
        f"your REF {ref} + Autofire {autofire} + 1d10",
        "Anyone that fails uses their next Move Action (and Run if needed) to get into cover",
    ]
    return _opposed_result(
        m,
        p,
        ref + autofire,
        will + concentration,
        steps,
        rng,
        "target fails",
        "target holds",
        notes=("Ties: read with the sheet's 'defender wins in a tie' (the target holds).",),
    )


@calculator(
    id="cyberpunk_red.shotgun_shell",
    sections=("shotgun-shells",),
    title="Shotgun Shell",
    source=f"{SRC} § Shotgun Shells, § Taking damage, § Critical Injuries",
)
def shotgun_shell(
    *,
    ref: Annotated[int, In("REF", 0, MAX_STAT)] = 6,
    skill: Annotated[int, In("Shoulder Arms", 0, MAX_STAT)] = 4,
    modifier: Annotated[int, In("Other modifiers", -30, 30)] = 0,
    defence: Annotated[str, In(
        "Target",
        choices=(("dv", "Does not dodge"), ("dodge", "Dodges (REF 8+)")),
    )] = "dv",
    def_ref: Annotated[int, In("Target REF", 0, MAX_STAT)] = 6,
    def_dex: Annotated[int, In("Target DEX", 0, MAX_STAT)] = 6,
    def_evasion: Annotated[int, In("Target Evasion", 0, MAX_STAT)] = 4,
    sp_body: Annotated[int, In("Target body SP", 0, 50)] = 11,
    rng: random.Random | None = None,
) -> Result:
    """One Ranged Attack vs DV13; on a hit every target in a 3x3 area in front takes 3d6."""
    dv = rule("shotgun-shells", r"vs\.? a DV ?(\d+)")
    dmg = rule_dice("shotgun-shells", r"takes (\d+)d(\d+)")
    base = ref + skill + modifier
    hit_dv = margin_vs_dv(base, dv)
    if defence == "dodge":
        _defence("dodge", dv, def_ref, def_dex, def_evasion, "a Shotgun Shell")
        # the attack must beat DV13 and then the target's dodge, with one attack roll:
        counts: dict[int, int] = {}
        for a in range(1, 11):
            for d in range(1, 11):
                v = 1 if base + a > dv and base + a > def_dex + def_evasion + d else 0
                counts[v] = counts.get(v, 0) + 1
        m = Distribution.from_counts(counts)
    elif defence == "dv":
        m = hit_dv.map(lambda v: 1 if v > 0 else 0)
    else:
        raise RulesError(f"defence is 'dv' or 'dodge' (got {defence!r})")
    p_hit = m.probability(1)
    hp, p_crit = _attack_damage(m, dmg.n, sp_body, False, False)
    steps = [
        f"(REF {ref} + Shoulder Arms {skill} {modifier:+d} + 1d10) vs DV{dv}: {p_beat(base, dv)}",
        f"Every target in a 3 by 3 square area in front of you takes {dmg}",
        "No Aimed Shot with a Shotgun Shell",
    ]
    if defence == "dodge":
        steps.append(
            f"This target dodges: the same attack roll must also beat DEX {def_dex} + "
            f"Evasion {def_evasion} + 1d10: {p_hit}"
        )
    steps.append(f"Two or more 6s: a Critical Injury, +{crit_bonus()} ({p_crit})")
    dice_out: list[Die] = []
    summary = f"{float(p_hit):.0%} to hit this target; mean {float(hp.mean()):.1f} HP"
    if rng is not None:
        a = roll(rng, 10)[0]
        dice_out.append(Die(10, a, "attack", "attack"))
        ok = base + a > dv
        if ok and defence == "dodge":
            dd = roll(rng, 10)[0]
            dice_out.append(Die(10, dd, "dodge", "defence"))
            ok = base + a > def_dex + def_evasion + dd
        if ok:
            vs, crit = _roll_damage(rng, dmg.n, dmg.sides)
            dice_out += [Die(dmg.sides, v, "", "damage") for v in vs]
            h = take_damage(sum(vs), sp_body, crit=crit)
            summary = f"Hit: {sum(vs)} damage, {h.hp} HP lost{', Critical Injury' if crit else ''}"
        else:
            summary = "Miss"
    return Result(
        summary,
        (("P(hit)", p_hit), ("P(Critical Injury)", p_crit), ("Mean HP lost", hp.mean())),
        tuple(steps),
        (_hp_odds(hp, "HP lost by this target"),),
        tuple(dice_out),
        notes=(NO_CRIT_10,),
    )


# -- explosives, cover, shields -----------------------------------------------------------------


@cache
def cover_table() -> dict[str, tuple[int, int, int]]:
    """Material -> (row index, thick HP, thin HP), read from the cover table."""
    out: dict[str, tuple[int, int, int]] = {}
    for i, cells in enumerate(rows("cover-hp")):
        out[cells[0]] = (i, _int(cells[1]), _int(cells[2]))
    return out


def _cover_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple((m, m) for m in cover_table())
    except RulesError:  # no data yet: the calculator reports it when run
        return ()


@dataclass(frozen=True)
class CoverHit:
    cover_after: int
    to_target: int
    destroyed: bool


def hit_cover(damage: int, cover_hp: int, explosive: bool = False) -> CoverHit:
    """§ Cover: at 0 HP cover is destroyed and excess damage is lost — except an explosive
    that would destroy the cover: the individual is no longer behind cover and takes full damage."""
    destroyed = damage >= cover_hp
    after = max(0, cover_hp - damage)
    if explosive:
        return CoverHit(after, damage if destroyed else 0, destroyed)
    return CoverHit(after, 0, destroyed)


@calculator(
    id="cyberpunk_red.cover",
    sections=("cover",),
    title="Cover HP and damage",
    source=f"{SRC} § Cover (Type of Cover), § Explosives",
    tables=("cover-hp",),
)
def cover(
    *,
    material: Annotated[str, In("Material", choices=_cover_choices())] = "Concrete",
    thickness: Annotated[str, In(
        "Thickness",
        choices=(("thick", "Thick"), ("thin", "Thin")),
    )] = "thick",
    current_hp: Annotated[int, In("Current HP (-1 = undamaged)", -1, 1000)] = -1,
    damage: Annotated[int, In("Damage", 0, 1000)] = 30,
    attack: Annotated[str, In("Attack", choices=(
                ("ranged", "Ranged or melee weapon"),
                ("explosive", "Explosive"),
                ("brawling", "Brawling or Martial Arts"),
            ))] = "ranged",
    cyberarm_or_body10: Annotated[bool, In("Attacker has a Cyberarm or BODY 10+")] = False,
) -> Result:
    """Cover HP by material and thickness; damage against it, excess lost (not explosives)."""
    table = cover_table()
    if material not in table:
        raise RulesError(f"no cover material {material!r}: one of {', '.join(table)}")
    if thickness not in ("thick", "thin"):
        raise RulesError(f"thickness is 'thick' or 'thin' (got {thickness!r})")
    i, thick, thin = table[material]
    full = thick if thickness == "thick" else thin
    hl = (Highlight("cover-hp", i),)
    steps = [f"{material}, {thickness}: {full} HP"]
    if full == 0:
        return Result(
            f"{thickness.capitalize()} {material.lower()} has 0 HP: it cannot stop a "
            "bullet and provides no cover",
            (("Cover HP", 0), ("Damage to target", damage)),
            (*steps, "If it cannot stop a bullet, it provides no cover and has no HP"),
            highlight=hl,
        )
    hp = full if current_hp < 0 else current_hp
    if hp > full:
        raise RulesError(f"current HP {hp} is more than the cover's {full}")
    if attack == "brawling" and material.lower().startswith("steel") and not cyberarm_or_body10:
        return Result(
            "Steel cover cannot be damaged by Brawling or Martial Arts attacks",
            (("Cover HP", hp), ("Damage to target", 0)),
            (
                *steps,
                "Only a Character with a Cyberarm or BODY 10+ can damage steel "
                "cover with Brawling or Martial Arts",
            ),
            highlight=hl,
        )
    if attack not in ("ranged", "explosive", "brawling"):
        raise RulesError(f"unknown attack {attack!r}")
    h = hit_cover(damage, hp, attack == "explosive")
    steps.append(f"{damage} damage against {hp} HP → {h.cover_after} HP")
    if h.destroyed:
        steps.append("At 0 HP the cover is destroyed")
        steps.append(
            "Explosive: the damage would destroy the cover, so the target is no longer "
            f"behind it and takes full damage ({damage})"
            if attack == "explosive"
            else "Excess damage is lost and doesn't harm anyone behind it"
        )
    elif attack == "explosive":
        steps.append("The blast is insufficient to destroy the cover: no damage to the target")
    return Result(
        f"Cover {hp} → {h.cover_after} HP; {h.to_target} damage to the target",
        (
            ("Cover HP", full),
            ("Cover HP after", h.cover_after),
            ("Destroyed", h.destroyed),
            ("Damage to target", h.to_target),
        ),
        tuple(steps),
        highlight=hl,
        notes=("Damage to the target is before its own SP.",),
    )


@calculator(
    id="cyberpunk_red.explosive",
    sections=("explosives",),
    title="Explosives: one damage roll for the blast",
    source=f"{SRC} § Explosives, § Cover, § Taking damage",
    tables=("cover-hp",),
)
def explosive(
    *,
    ref: Annotated[int, In("REF", 0, MAX_STAT)] = 6,
    skill: Annotated[int, In("Weapon Skill", 0, MAX_STAT)] = 4,
    modifier: Annotated[int, In("Other modifiers", -30, 30)] = 0,
    dv: Annotated[int, In("DV to hit the target square", 0, MAX_DV)] = 15,
    dice: Annotated[int, In("Explosive damage (d6)", 1, 30)] = 6,
    cover_hp: Annotated[int, In("Target's cover HP (0 = none)", 0, 1000)] = 0,
    sp_body: Annotated[int, In("Target body SP", 0, 50)] = 11,
    dodge: Annotated[bool, In("Target dodges the blast (REF 8+)")] = False,
    def_ref: Annotated[int, In("Target REF", 0, MAX_STAT)] = 6,
    def_dex: Annotated[int, In("Target DEX", 0, MAX_STAT)] = 6,
    def_evasion: Annotated[int, In("Target Evasion", 0, MAX_STAT)] = 4,
    rng: random.Random | None = None,
) -> Result:
    """Damage to everything in 5x5 squares, rolled once; cover stops it unless destroyed."""
    check_dice(dice)
    base = ref + skill + modifier
    p = p_beat(base, dv)
    side = rule("explosives", r"(\d+) Square by \d+ Square")

    def hp_of(r: tuple[int, bool]) -> int:
        reach = hit_cover(r[0], cover_hp, True).to_target if cover_hp else r[0]
        return take_damage(reach, sp_body, crit=r[1] and reach > 0).hp if reach else 0

    dist = dice_with_crit(dice)
    hp = dist.map(hp_of)
    p_dodge = Fraction(0)
    if dodge:
        _defence("dodge", dv, def_ref, def_dex, def_evasion, "a blast")
        # the dodge must roll higher than the attacker's original Check: a tie is caught
        m = margin_opposed(base, def_dex + def_evasion)
        p_dodge = m.p(lambda v: v < 0)
        hp = m.combine(dist, lambda mg, r: 0 if mg < 0 else hp_of(r))
    steps = [
        f"REF {ref} + Skill {skill} {modifier:+d} + 1d10 vs DV {dv}: {p}; "
        f"a miss lands where the GM decides within the {side}\u00d7{side} squares",
        f"{dice}d6 rolled once for every target in {side}\u00d7{side} squares",
    ]
    if cover_hp:
        steps.append(
            f"Behind {cover_hp} HP cover: no damage unless the blast would destroy it; "
            "then the full damage"
        )
    steps += [
        f"Full damage - body SP {sp_body}; ablation if any gets through",
        f"Anyone with REF {dodge_ref()}+ may dodge by rolling higher than your Check",
    ]
    if dodge:
        steps.append(
            f"This target dodges: DEX {def_dex} + Evasion {def_evasion} + 1d10 higher than "
            f"your Check places them outside the blast ({p_dodge})"
        )
    dice_out: list[Die] = []
    summary = f"{float(p):.0%} to hit the square; mean {float(hp.mean()):.1f} HP to this target"
    if rng is not None:
        a = roll(rng, 10)[0]
        dice_out.append(Die(10, a, "Check", "attack"))
        vs, crit = _roll_damage(rng, dice)
        dice_out += [Die(6, v, "", "damage") for v in vs]
        on = "on the target square" if base + a > dv else "off target: the GM places it"
        summary = f"Check {base + a} ({on}); blast {sum(vs)}: {hp_of((sum(vs), crit))} HP"
        if dodge:
            e = roll(rng, 10)[0]
            dice_out.append(Die(10, e, "dodge", "defence"))
            if def_dex + def_evasion + e > base + a:
                summary = (
                    f"Check {base + a}: dodged ({def_dex + def_evasion + e}), outside the blast"
                )
    return Result(
        summary,
        (("P(on target)", p), ("P(dodged)", p_dodge), ("Mean HP lost", hp.mean())),
        tuple(steps),
        (_hp_odds(hp, "HP lost by this target (if caught in the blast)"),),
        tuple(dice_out),
        notes=(
            "Explosive damage dice are not in the sheet: enter them.",
            "Critical Injury on two 6s is applied as for any attack (the sheet's "
            "§ Critical Injuries) and only when damage reaches the target; an "
            "interpretation.",
        ),
    )


@calculator(
    id="cyberpunk_red.shield",
    sections=("using-shields", "human-shields"),
    title="Shields and Human Shields",
    source=f"{SRC} § Using Shields, § Human Shields, § Taking damage",
    tables=("shields",),
)
def shield(
    *,
    shield: Annotated[str, In("Shield", choices=(
                ("bulletproof", "Bullet proof shield"),
                ("corpse", "Corpse"),
                ("human", "Human Shield (alive)"),
            ))] = "bulletproof",
    body: Annotated[int, In("BODY of the corpse / Human Shield", 0, 20)] = 6,
    current_hp: Annotated[int, In("Shield's current HP (-1 = full)", -1, 200)] = -1,
    human_sp: Annotated[int, In("Human Shield's body SP", 0, 50)] = 7,
    damage: Annotated[int, In("Damage of the attack", 0, 500)] = 15,
    attack: Annotated[str, In(
        "Attack",
        choices=(("ranged", "Ranged"), ("melee", "Melee"), ("head", "Aimed Shot at your head")),
    )] = "ranged",
) -> Result:
    """Interpose a shield: it takes the entire attack to its HP (no dodging)."""
    srows = rows("shields")
    if shield == "human":
        if attack != "ranged":
            raise RulesError("Human Shields cannot block Melee Attacks or Aimed Shots at your head")
        h = take_damage(damage, human_sp)
        return Result(
            f"The Human Shield takes {h.hp} damage (SP {human_sp} → {h.sp_after})",
            (
                ("Damage to Human Shield", h.hp),
                ("Human Shield SP after", h.sp_after),
                ("Damage to you", 0),
            ),
            (
                "A Human Shield takes damage as if shot normally",
                f"{damage} - SP {human_sp} = {h.hp}; ablated if any got through",
                "Your Human Shield cannot dodge while equipped",
                f"If they die, they become a shield with HP equal to their BODY ({body})",
            ),
            highlight=(Highlight("shields", 1),),
        )
    if shield == "bulletproof":
        idx = 0
        full = _int(srows[0][1])
        what = srows[0][0]
    elif shield == "corpse":
        idx = 1
        full = body
        what = f"Corpse (HP is the BODY of the corpse: {body})"
    else:
        raise RulesError(f"unknown shield {shield!r}")
    hp = full if current_hp < 0 else current_hp
    if hp > full:
        raise RulesError(f"current HP {hp} is more than the shield's {full}")
    if hp == 0:
        raise RulesError("a shield at 0 HP is destroyed and cannot be used as cover")
    sh = hit_cover(damage, hp)
    steps = [
        f"{what}: {hp} HP",
        "You cannot dodge the attack when you interpose the shield",
        f"The shield takes the entire attack: {damage} → {sh.cover_after} HP",
    ]
    if sh.destroyed:
        steps.append(
            "At 0 HP it is destroyed (until repaired if inorganic); it stays "
            "equipped until you use an Action to drop it"
        )
    return Result(
        f"Shield {hp} → {sh.cover_after} HP",
        (("Shield HP after", sh.cover_after), ("Destroyed", sh.destroyed), ("Damage to you", 0)),
        tuple(steps),
        highlight=(Highlight("shields", idx),),
        notes=(
            "Excess damage past a destroyed shield is treated as lost, as for "
            "cover; the sheet calls a shield 'a movable source of cover'.",
        ),
    )


# -- damage, melee, brawling, grapple -----------------------------------------------------------


@calculator(
    id="cyberpunk_red.damage",
    sections=("taking-damage", "critical-injuries", "armor"),
    title="Damage against SP (ablation, head, melee, Critical Injury)",
    source=f"{SRC} § Taking damage, § Aimed Shots, § Melee combat, § Critical Injuries",
)
def damage(
    *,
    dice: Annotated[int, In("Damage dice (d6)", 1, 30)] = 3,
    sp: Annotated[int, In("SP at that location", 0, 50)] = 11,
    location: Annotated[str, In(
        "Location",
        choices=(("body", "Body"), ("head", "Head (Aimed Shot)")),
    )] = "body",
    melee: Annotated[bool, In("Melee weapon (armour halved, rounded up)")] = False,
    rolled: Annotated[int, In("Damage rolled (0 = use the odds)", 0, 500)] = 0,
    sixes: Annotated[bool, In("Two or more 6s on that roll")] = False,
    rng: random.Random | None = None,
) -> Result:
    """Subtract SP, HP loss, ablation; x2 head after armour; crit +5 direct regardless."""
    check_dice(dice)
    if location not in ("body", "head"):
        raise RulesError(f"location is 'body' or 'head' (got {location!r})")
    head = location == "head"
    dist = dice_with_crit(dice)
    hp = dist.map(lambda r: take_damage(r[0], sp, head=head, melee=melee, crit=r[1]).hp)
    p_crit = dist.p(lambda r: r[1])
    used = melee_sp(sp) if melee else sp
    steps = [
        f"{location.capitalize()} SP {sp}"
        + (f": a melee weapon ignores half → {used}" if melee else "")
    ]
    dice_out: list[Die] = []
    h: Hit | None = None
    if rng is not None:
        vs, c = _roll_damage(rng, dice)
        dice_out = [Die(6, v, "", "damage") for v in vs]
        h = take_damage(sum(vs), sp, head=head, melee=melee, crit=c)
    elif rolled:
        if not dice <= rolled <= 6 * dice:
            raise RulesError(f"{dice}d6 rolls {dice} to {6 * dice} (got {rolled})")
        if sixes and dice < 2:
            raise RulesError("two 6s need at least two dice")
        h = take_damage(rolled, sp, head=head, melee=melee, crit=sixes)
    summary = f"Mean {float(hp.mean()):.1f} HP; Critical Injury {p_crit}"
    if h is not None:
        steps += [
            f"{h.rolled} - {h.sp} = {h.through} through"
            + (f", \u00d7{head_multiplier()} for the head" if head and h.through else ""),
            (
                f"Damage got through: SP {sp} → {h.sp_after}"
                if h.through
                else "No damage through: no ablation"
            ),
        ]
        if h.crit:
            steps.append(
                f"Critical Injury: +{crit_bonus()} directly to HP (no ablation, not "
                "modified by hit location, even if nothing got through)"
            )
        summary = f"{h.hp} HP lost; SP {sp} → {h.sp_after}" + (
            ", Critical Injury" if h.crit else ""
        )
    return Result(
        summary,
        (
            ("Mean HP lost", hp.mean()),
            ("P(Critical Injury)", p_crit),
            *((("HP lost", h.hp), ("SP after", h.sp_after)) if h else ()),
        ),
        tuple(steps),
        (_hp_odds(hp, "HP lost"),),
        tuple(dice_out),
        notes=(
            "Rolling on the Critical Injury tables: the tables are not in the sheet.",
            "'Ignore half of the Armor, rounded up' is read as SP halved, rounded up.",
        ),
    )


@cache
def brawling_table() -> list[tuple[int, int, Dice, bool]]:
    """(low BODY, high BODY, dice, mentions Cyberarms) for each row of the bare-fist table."""
    out: list[tuple[int, int, Dice, bool]] = []
    for cells in rows("brawling-damage"):
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


@calculator(
    id="cyberpunk_red.brawling",
    sections=("brawling-grappling",),
    title="Brawling damage by BODY",
    source=f"{SRC} § Brawling/Grappling (Damage from bare fist), § Taking damage",
    tables=("brawling-damage",),
)
def brawling(
    *,
    body: Annotated[int, In("BODY", 1, 20)] = 6,
    cyberarm: Annotated[bool, In("Cyberarm")] = False,
    sp: Annotated[int, In("Defender SP", 0, 50)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Damage from bare fist by BODY (a Cyberarm: 2d6 unless BODY is 7+)."""
    d, i = brawling_dice(body, cyberarm)
    dist = dice_with_crit(d.n, d.sides)
    hp = dist.map(lambda r: take_damage(r[0], sp, crit=r[1]).hp)
    steps = [
        f"BODY {body}{' with a Cyberarm' if cyberarm else ''}: {d}",
        f"Damage - SP {sp} (Brawling is not a melee weapon: SP is not halved)",
    ]
    dice_out: list[Die] = []
    summary = f"{d}: mean {float(d.dist().mean()):.1f}"
    if rng is not None:
        vs, c = _roll_damage(rng, d.n, d.sides)
        dice_out = [Die(d.sides, v, "", "damage") for v in vs]
        h = take_damage(sum(vs), sp, crit=c)
        summary = f"{d} = {sum(vs)}: {h.hp} HP lost" + (", Critical Injury" if c else "")
    return Result(
        summary,
        (
            ("Dice", str(d)),
            ("Mean HP lost", hp.mean()),
            ("P(Critical Injury)", dist.p(lambda r: r[1])),
        ),
        tuple(steps),
        (_hp_odds(hp, "HP lost"),),
        tuple(dice_out),
        (Highlight("brawling-damage", i),),
        notes=("Attack: DEX + Brawling + 1d10 vs DEX + Evasion + 1d10 (use the opposed roll).",),
    )


@calculator(
    id="cyberpunk_red.melee",
    sections=("melee-combat", "resolving-melee-combat"),
    title="Melee attack (armour halved)",
    source=f"{SRC} § Melee combat, § Resolving Melee Combat, § Taking damage",
)
def melee(
    *,
    dex: Annotated[int, In("Attacker DEX", 0, MAX_STAT)] = 6,
    skill: Annotated[int, In("Melee skill", 0, MAX_STAT)] = 4,
    modifier: Annotated[int, In("Other modifiers (-2 grappled …)", -30, 30)] = 0,
    aim: Annotated[str, In("Aimed Shot", choices=AIM_CHOICES)] = "none",
    def_dex: Annotated[int, In("Defender DEX", 0, MAX_STAT)] = 6,
    def_evasion: Annotated[int, In("Defender Evasion", 0, MAX_STAT)] = 4,
    dice: Annotated[int, In("Weapon damage (d6)", 1, 20)] = 2,
    sp: Annotated[int, In("Defender body SP", 0, 50)] = 11,
    sp_head: Annotated[int, In("Defender head SP", 0, 50)] = 11,
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
    m = margin_opposed(a, def_dex + def_evasion)
    p_hit = m.p(lambda v: v > 0)
    hp, p_crit = _attack_damage(m, dice, sp, head, True)
    used = melee_sp(sp)
    steps = [
        f"DEX {dex} + skill {skill} {modifier:+d} + 1d10 vs DEX {def_dex} + Evasion "
        f"{def_evasion} + 1d10 (defender wins a tie): {p_hit}",
        f"The weapon ignores half of {'head' if head else 'body'} SP {sp}, rounded up: {used}",
        f"{dice}d6 - {used}; any damage through ablates the SP by 1"
        + (f"; the damage through is \u00d7{head_multiplier()} for the head" if head else ""),
        f"Two or more 6s: Critical Injury, +{crit_bonus()} ({p_crit})",
    ]
    if aim != "none":
        steps.insert(1, f"Aimed Shot ({dict(AIM_CHOICES)[aim]}): {aim_penalty():+d}")
    if aim in ("held_item", "leg"):
        p_eff = m.combine(
            dice_with_crit(dice), lambda mg, r: mg > 0 and r[0] > melee_sp(body_sp)
        ).probability(True)
        steps.append(
            f"A single point through body armour: the {dict(AIM_CHOICES)[aim]} effect ({p_eff})"
        )
    dice_out: list[Die] = []
    summary = f"{float(p_hit):.0%} to hit; mean {float(hp.mean()):.1f} HP"
    if rng is not None:
        x, y = roll(rng, 10, 2)
        dice_out = [Die(10, x, "attack", "attack"), Die(10, y, "defence", "defence")]
        if a + x > def_dex + def_evasion + y:
            vs, c = _roll_damage(rng, dice)
            dice_out += [Die(6, v, "", "damage") for v in vs]
            h = take_damage(sum(vs), sp, head=head, melee=True, crit=c)
            summary = f"Hit: {sum(vs)} - {used} → {h.hp} HP lost" + (
                ", Critical Injury" if c else ""
            )
        else:
            summary = f"Miss ({a + x} vs {def_dex + def_evasion + y})"
    return Result(
        summary,
        (("P(hit)", p_hit), ("P(Critical Injury)", p_crit), ("Mean HP lost", hp.mean())),
        tuple(steps),
        (_hp_odds(hp, "HP lost"),),
        tuple(dice_out),
        notes=(
            NO_CRIT_10,
            "'Ignore half of the Armor, rounded up' is read as SP halved, "
            "rounded up; weapon damage dice are not in the sheet.",
        ),
    )


def throw_max() -> int:
    return rule("throw", r"maximum of (\d+) SQ")


def grapple_penalty() -> int:
    return rule("brawling-grappling", r"take a (-\d+) to all actions")


@calculator(
    id="cyberpunk_red.grab",
    sections=("brawling-grappling",),
    title="Grab (start or break a Grapple)",
    source=f"{SRC} § Brawling/Grappling",
)
def grab(
    *,
    dex: Annotated[int, In("Your DEX", 0, MAX_STAT)] = 6,
    brawling: Annotated[int, In("Your Brawling", 0, MAX_STAT)] = 4,
    def_dex: Annotated[int, In("Target DEX", 0, MAX_STAT)] = 6,
    def_brawling: Annotated[int, In("Target Brawling", 0, MAX_STAT)] = 4,
    breaking: Annotated[bool, In("Breaking a Grapple (both at -2)")] = False,
    rng: random.Random | None = None,
) -> Result:
    """Both roll DEX + Brawling + 1d10; win to grab the Defender or an object in their hands."""
    pen = grapple_penalty() if breaking else 0
    a, d = dex + brawling + pen, def_dex + def_brawling + pen
    m = margin_opposed(a, d)
    p = m.p(lambda v: v > 0)
    steps = [
        f"You: DEX {dex} + Brawling {brawling}{f' {pen:+d}' if pen else ''} + 1d10",
        f"Target: DEX {def_dex} + Brawling {def_brawling}{f' {pen:+d}' if pen else ''} + 1d10",
        f"You win only by rolling higher: {p}",
    ]
    if breaking:
        steps.append("A successful Grab against the Attacker ends the Grapple for everyone")
    else:
        steps.append(
            f"Win: grab the Defender (both in a Grapple, {grapple_penalty():+d} to all "
            "actions) or take one object from their hands"
        )
    return _opposed_result(
        m,
        p,
        a,
        d,
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


def choke(body: int, hp: int, rounds: int) -> GrappleDamage:
    """§ Choke: BODY direct to HP; a target with more than 1 HP that would go below 0 is
    left at 1 HP and Unconscious; choked 3 successive Rounds: Unconscious regardless."""
    need = rule("choke", r"for (\d+) successive Rounds")
    after = hp - body
    if hp > 1 and after < 0:
        return GrappleDamage(1, True, "left at 1 HP and Unconscious")
    if rounds >= need:
        return GrappleDamage(after, True, f"Unconscious after {need} successive Rounds of Choke")
    return GrappleDamage(after, False, "")


@calculator(
    id="cyberpunk_red.grapple_action",
    sections=("choke", "throw"),
    title="Choke or Throw",
    source=f"{SRC} § Choke, § Throw",
    tables=("brawling-damage",),
)
def grapple_action(
    *,
    action: Annotated[str, In(
        "Action",
        choices=(("choke", "Choke"), ("throw", "Throw")),
    )] = "choke",
    body: Annotated[int, In("Your BODY", 1, 20)] = 6,
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


# -- death save -----------------------------------------------------------------------------


def death_save_faces() -> tuple[int, int, int]:
    """(die sides, the face that always fails, penalty added per save), from § Death Save."""
    t = "death-save"
    return (
        rule(t, r"Roll a d(\d+)"),
        rule(t, r"If you roll a (\d+), you automatically fail"),
        rule(t, r"additional \+(\d+)"),
    )


def death_save_pass(body: int, penalty: int) -> int:
    """How many d10 faces live: roll + penalty under BODY, and never the automatic fail."""
    sides, fail, _ = death_save_faces()
    return sum(1 for r in range(1, sides + 1) if r != fail and r + penalty < body)


def death_saves(body: int, penalty: int, saves: int) -> Distribution[int]:
    """Saves passed before the first failure (= `saves` if all pass), counts over 10^saves."""
    sides, _, step = death_save_faces()
    counts: dict[int, int] = {}
    alive = 1  # ways to have passed every save so far
    for k in range(saves):
        ok = death_save_pass(body, penalty + step * k)
        counts[k] = alive * (sides - ok) * sides ** (saves - k - 1)
        alive *= ok
    counts[saves] = alive
    return Distribution.from_counts(counts) if any(counts.values()) else Distribution.constant(0)


@calculator(
    id="cyberpunk_red.death_save",
    sections=("death-save",),
    title="Death Save",
    source=f"{SRC} § Death Save",
)
def death_save(
    *,
    body: Annotated[int, In("BODY", 1, 20)] = 6,
    penalty: Annotated[int, In("Death Save Penalty so far", 0, 20)] = 0,
    saves: Annotated[int, In("Turns to survive", 1, 20)] = 3,
    rng: random.Random | None = None,
) -> Result:
    """Roll a d10 each Turn Mortally Wounded: under BODY lives, 10 always fails, +1 per save."""
    if not 1 <= saves <= 20:
        raise LimitError(f"at most 20 turns (got {saves})")
    sides, fail, step = death_save_faces()
    dist = death_saves(body, penalty, saves)
    steps = []
    p_all = Fraction(1)
    for k in range(saves):
        ok = death_save_pass(body, penalty + step * k)
        p_all *= Fraction(ok, sides)
        steps.append(
            f"Turn {k + 1}: d{sides} + {penalty + step * k} under BODY {body}, "
            f"a {fail} always fails: {ok}/{sides} → alive {p_all}"
        )
    dice_out: list[Die] = []
    summary = f"P(survive {saves} Death Saves) = {p_all} ({float(p_all):.1%})"
    if rng is not None:
        pen = penalty
        for k in range(saves):
            v = roll(rng, sides)[0]
            ok = v != fail and v + pen < body
            dice_out.append(Die(sides, v, "lives" if ok else "dies", "death save"))
            pen += step
            if not ok:
                summary = f"Died on Death Save {k + 1} (rolled {v})"
                break
        else:
            summary = f"Survived {saves} Death Saves"
    odds = Odds(
        "Death Saves passed before the first failure",
        tuple(
            OddsRow(f"{k} passed" if k < saves else f"all {saves}", p)
            for k, p in dist.pmf().items()
        ),
    )
    return Result(
        summary,
        (
            ("P(survive all)", p_all),
            ("P(first save)", Fraction(death_save_pass(body, penalty), sides)),
        ),
        tuple(steps),
        (odds,),
        tuple(dice_out),
        notes=(
            "'Under your BODY' is read as strictly less than BODY, as written.",
            "The starting Death Save Penalty is an input: the sheet only says it "
            "increases by 1 per save.",
        ),
    )


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

