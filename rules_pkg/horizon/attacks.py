"""§ Attack Actions, § Point Blank Range, § Wounding Attacks."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from .. import data
from ..dice import Distribution
from ..errors import InputError, RulesError
from ..kernel import Bound, Faces, In, Roll, calculator, rolled
from ..result import Highlight, Odds, OddsRow, Result
from .banded import AIM_DEFAULT, AIM_READINGS, AIM_SAID, _banded_damage, aim_bonus
from .combat_test import Scored
from .profiles import (
    ProfileRow,
    WeaponProfile,
    lookup,
    parse_damage,
    profiles,
)
from .sheet import (
    GAME,
    MAX_ACTIONS,
    NOT_IN_SOURCE,
    POINT_BLANK_AP,
    PROFILES,
    SOURCE,
    dice_in,
    rank_in,
)
from .skills import SkillTest, _ap_odds, _dice

# --- attacks ---------------------------------------------------------------------------------

MODES: tuple[tuple[str, str], ...] = (
    ("normal", "Normal Attack (Melee and Unarmed strikes are always Point Blank)"),
    ("point_blank", "Point Blank: 2 m or less from the target (+5 AP)"),
    ("thrown", "Thrown Melee weapon, more than 2 m (no bonus)"),
    ("struck", "Non-Melee weapon striking at Melee range or thrown under 2 m "
               "(+5 AP, half damage)"),
    ("improvised", "Improvised weapon, Melee profile (+5 AP, half damage)"),
)
ModeIn = Annotated[str, In("How you Attack", choices=MODES)]
MODE_DEFAULT = "normal"


@dataclass(frozen=True)
class AttackResult:
    """Damage of one Attack after § Point Blank Range and § Wounding Attacks."""

    weapon: WeaponProfile
    ap: int  # the AP used for the row: score + Point Blank - Wounding penalty
    row: ProfileRow | None
    damage: tuple[int, ...] | None  # per Attack; per target in turn for grenades
    ignores_defense: bool
    steps: tuple[str, ...]
    notes: tuple[str, ...]
    hits: int = 1  # hits an Attack (a banded profile's "(x3)"); damage is a hit's

    @property
    def per_attack(self) -> int | None:
        """One Attack's damage on a single target: a hit's damage times the hits."""
        return self.damage[0] * self.hits if self.damage and len(self.damage) == 1 else None


def _half_up(n: int) -> int:
    return -(-n // 2)  # "half the damage amount, rounding all fractions up"


def attack(weapon: WeaponProfile, score: int, mode: str = "normal", penalty: int = 0,
           double: bool = False, condition: str = "", aim: bool = False,
           aim_as: str = AIM_DEFAULT) -> AttackResult:
    """One Attack's damage (§ Attack Actions), with § Point Blank Range (+5 AP; half damage,
    rounded up, for non-Melee weapons at Melee range and improvised weapons) and a Wounding
    Attack's penalty (§ Wounding Attacks; Shatter Head: double damage)."""
    kind = weapon.kind
    steps: list[str] = []
    notes: list[str] = []
    melee_strike = kind in ("melee", "unarmed") and mode == "normal"
    if mode == "thrown" and kind != "melee":
        raise InputError("mode", "only Melee weapons are thrown as a Melee weapon")
    if mode == "struck" and kind in ("melee", "unarmed"):
        raise InputError("mode", f"the {weapon.name} is a Melee/Unarmed profile: its strikes are "
                         "normal Point Blank Attacks")
    if mode == "improvised" and kind != "melee":
        raise RulesError("improvised weapons use a Melee weapon combat profile "
                         "(§ Improvised Weapons): choose one of the Melee profiles")
    if mode == "point_blank" and kind == "grenade":
        raise InputError("mode", "a grenade thrown under 2 m is a non-Melee weapon thrown at Melee "
                         "range: choose that option (+5 AP, half damage)")
    ap = score
    if aim_as not in AIM_SAID:
        raise RulesError(f"{aim_as!r} is not a reading of the Aim Bonus")
    if aim and weapon.layout == "ap":  # either reading needs the banded column
        aim_bonus(weapon, score)
    if aim:
        notes.append(AIM_SAID[aim_as])
    if aim and aim_as == "ap":
        bonus, why = aim_bonus(weapon, score)
        steps.append(f"{why} → {score} {bonus:+d} = {score + bonus} AP")
        ap += bonus
    if mode in ("point_blank", "struck", "improvised") or melee_strike:
        ap += POINT_BLANK_AP
        why = "a Melee/Unarmed strike always gains it" if melee_strike else "2 m or less"
        steps.append(f"Point Blank Range ({why}): +{POINT_BLANK_AP} AP → "
                     f"{score} + {POINT_BLANK_AP} = {ap} AP")
    if penalty:
        steps.append(f"Wounding Attack ({condition}): -{penalty} AP → {ap} - {penalty} = "
                     f"{ap - penalty} AP")
        ap -= penalty
    elif condition:
        steps.append(f"Wounding Attack ({condition}): no Attack penalty")
    row, step = lookup(weapon, ap)
    damage: tuple[int, ...] | None = None
    hits = 1
    if row is None:
        notes.append(step)
    else:
        steps.append(step)
        cell = row.cell("damage", "lethal") or ""
        if weapon.layout == "ap":
            damage = parse_damage(cell)
            if damage is None:
                notes.append(f"{NOT_IN_SOURCE}the {weapon.name}'s damage cell {cell!r} is not "
                             "a plain number and the source does not explain it; read it as "
                             "printed")
        else:
            damage, hits = _banded_damage(weapon, row, cell, steps, notes, aim, aim_as)
    if damage is not None and mode in ("struck", "improvised"):
        halved = tuple(_half_up(d) for d in damage)
        steps.append("half the damage, fractions rounded up: "
                     + ", ".join(f"{d} → {h}" for d, h in zip(damage, halved, strict=True)))
        damage = halved
    if damage is not None and double:
        doubled = tuple(2 * d for d in damage)
        steps.append(f"{condition}: the target suffers double damage from the attack: "
                     + ", ".join(f"{d} → {h}" for d, h in zip(damage, doubled, strict=True)))
        damage = doubled
    ignores = (mode in ("point_blank", "struck", "improvised") or melee_strike
               or kind in ("melee", "unarmed", "grenade"))
    if ignores:
        why = ("Attacks with Grenades" if kind == "grenade" else
               "Melee or Unarmed Attacks" if kind in ("melee", "unarmed") or mode == "improvised"
               else "Attacks at Point Blank Range")
        steps.append(f"this Attack ignores the target's Defense ({why}); "
                     "Dive! armor is never ignored")
    if mode == "thrown":
        notes.append(f"{NOT_IN_SOURCE}whether a thrown Melee weapon counts as a Melee Attack "
                     "that ignores Defense")
    return AttackResult(weapon, ap, row, damage, ignores, tuple(steps), tuple(notes), hits)


def split_attacks(attacks: int, targets: int) -> tuple[int, ...]:
    """§ Attack Actions, MULTIPLE TARGETS: at least 1 Attack per target (spread evenly here;
    the player may assign them any way that gives each target one)."""
    if targets > attacks:
        raise InputError(
            "targets", f"{targets} targets need at least {targets} Attacks: you can't hit "
            f"more targets than you have Attacks (you have {attacks})")
    q, r = divmod(attacks, targets)
    return tuple(q + 1 if i < r else q for i in range(targets))


def _magazines() -> dict[tuple[str, str], int]:
    """(weapon, mode) -> its Magazine, where an Attack uses one (strikes use none)."""
    return {(w.id, mode): mag for w in profiles().values()
            if (mag := w.count("magazine")) is not None
            for mode, _ in MODES if mode == "thrown" or w.kind not in ("melee", "unarmed")}


MAGAZINE_BY_MODE = Bound(("weapon", "mode"), "that weapon's Magazine (§ Reload Actions)",
                         _magazines)


def _magazine_note(w: WeaponProfile, mode: str, notes: list[str]) -> None:
    """A blank Magazine cannot limit the Attacks (MAGAZINE_BY_MODE limits the others)."""
    if w.kind in ("melee", "unarmed") and mode != "thrown":
        return  # strikes use no ammunition
    if w.count("magazine") is None:
        notes.append(f"{NOT_IN_SOURCE}the {w.name}'s Magazine is blank, so the number of "
                     "Attacks is not checked")


@PROFILES.calculator(
    id="horizon.attack",
    title="Attack: damage per target",
    at="Attack Actions; Point Blank Range")
def attack_calc(
    *,
    scored: Scored,
    mode: ModeIn = MODE_DEFAULT,
    attacks: Annotated[int, In(
        "Attack actions",
        1,
        MAX_ACTIONS,
        help="Characters normally make 2 actions per turn",
        max_by=MAGAZINE_BY_MODE,
    )] = 2,
    targets: Annotated[int, In(
        "Targets",
        1,
        MAX_ACTIONS,
        help="each target needs at least 1 Attack (a grenade hits several)",
    )] = 1,
    aim: Annotated[bool, In(
        "Aim (banded profiles' Aim Bonus)",
        help="adds the Aim Bonus of the row to the Attack, read as the next input says",
    )] = False,
    aim_as: Annotated[str, In(
        "Aim Bonus read as", choices=AIM_READINGS,
        help="the source does not say: its Rusty Pistol brackets each attack plus the Aim "
             "Bonus, the aimed damage (the default)",
    )] = AIM_DEFAULT,
) -> Result:
    """§ Attack Actions: every Attack deals the row's damage; several on one target add up;
    several targets need at least one Attack each. Grenades damage several targets with one
    Attack, losing damage for each target "as shown in their profile"."""
    w = scored.profile()
    notes: list[str] = []
    _magazine_note(w, mode, notes)
    a = attack(w, scored.ap, mode, aim=aim, aim_as=aim_as)
    steps = list(a.steps)
    notes += a.notes
    if attacks > 2:
        notes.append("Characters normally make 2 actions per turn (§ The Basics); more "
                     "Attacks come from Augs")
    values: list[tuple[str, Any]] = [("AP used", a.ap),
                                               ("Ignores Defense", a.ignores_defense)]
    if a.damage is None:
        return Result(f"{w.name}: damage not in the source for {a.ap} AP", tuple(values),
                      tuple(steps), notes=tuple(notes), highlight=_hl(a.row))
    if w.kind == "grenade" or len(a.damage) > 1:
        if attacks != 1:
            raise RulesError("work out one grenade Attack at a time")
        if targets > len(a.damage):
            raise InputError("targets", f"the {w.name} profile gives damage for at most "
                             f"{len(a.damage)} targets")
        per = a.damage[:targets]
        steps.append("one Attack hits several targets, losing damage for each: "
                     + ", ".join(f"target {i + 1}: {d}" for i, d in enumerate(per)))
        values += [(f"Target {i + 1}", d) for i, d in enumerate(per)]
        values.append(("Total damage", sum(per)))
        return Result(f"{w.name}: " + " / ".join(map(str, per)) + " damage",
                      tuple(values), tuple(steps), notes=tuple(notes), highlight=_hl(a.row))
    dmg = a.per_attack or 0
    split = split_attacks(attacks, targets)
    values.insert(0, ("Damage per Attack", dmg))
    if w.layout != "ap":
        values[1:1] = [("Damage a hit", a.damage[0]), ("Hits an Attack", a.hits)]
    for i, n in enumerate(split):
        steps.append(f"target {i + 1}: {n} Attack{'s' * (n != 1)} → "
                     + ("+".join([str(dmg)] * n)) + f" = {n * dmg} damage")
        values.append((f"Target {i + 1}", n * dmg))
    values.append(("Total damage", attacks * dmg))
    if targets > 1 and attacks % targets:
        notes.append("Attacks are spread as evenly as possible here; any split giving each "
                     "target at least 1 Attack is allowed")
    summary = f"{w.name}: {dmg} damage per Attack, " + ", ".join(
        str(n * dmg) for n in split) + (" to the target" if targets == 1 else "")
    return Result(summary, tuple(values), tuple(steps), notes=tuple(notes), highlight=_hl(a.row))


def _hl(row: ProfileRow | None) -> tuple[Highlight, ...]:
    return (Highlight(row.table, row.index),) if row else ()


# --- wounding attacks ------------------------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    """A Wounding Attack condition (§ Wounding Attacks table)."""

    name: str
    effect: str
    penalty: int  # AP taken off the Attack ("-" in the source: none)


# § Wounding Attacks: Condition | Effect | Attack Penalty ("-5AP"; "-": none)
WOUNDING = data.table_spec(GAME, "Condition", ("text", "text", "modifier"), 6, by_title=True)


@cache
def conditions() -> tuple[Condition, ...]:
    out = []
    for r in WOUNDING.rows():
        cells = [c.strip() for c in r]
        m = re.search(r"(\d+)", cells[-1])
        out.append(Condition(cells[0], cells[1] if len(cells) > 2 else "",
                             int(m.group(1)) if m else 0))
    return tuple(out)


def _condition_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple((c.name, f"{c.name} (-{c.penalty} AP)" if c.penalty else c.name)
                     for c in conditions())
    except RulesError:
        return ()


def find_condition(name: str) -> Condition:
    for c in conditions():
        if c.name.lower() == name.lower():
            return c
    raise RulesError(f"no Wounding Attack condition called {name!r}")


def opposed(attack_ap: int, endurance: Distribution[int]) -> tuple[Fraction, Fraction, Fraction]:
    """§ Wounding Attacks: the Wounding Attack succeeds if its AP is higher than the target's
    Endurance test AP, is resisted if the Endurance AP is higher; returns (success, resisted,
    tie). The source does not say what an equal score does."""
    win = endurance.p(lambda e: e < attack_ap)
    lose = endurance.p(lambda e: e > attack_ap)
    return win, lose, 1 - win - lose


_COND = _condition_choices()


@calculator(
    title="Wounding Attack against Endurance",
    source=SOURCE + "Wounding Attacks", tables=("profile-*", "*wounding*"))
def wounding(
    *,
    scored: Scored,
    mode: ModeIn = MODE_DEFAULT,
    condition: Annotated[str, In("Condition", choices=_COND)] = _COND[0][0] if _COND else "",
    end_dice: Annotated[int, dice_in("Target's Endurance rank (dice)")] = 2,
    end_bonus: Annotated[int, rank_in("Target's Endurance Trait bonus")] = 2,
    rng: random.Random | None = None,
) -> Result:
    """§ Wounding Attacks: the penalty comes off the Attack first; then an opposed
    Attack-Vs-Endurance test decides the Condition. Damage is what the penalty leaves,
    whatever the opposed test gives."""
    w = scored.profile()
    cond = find_condition(condition)
    a = attack(w, scored.ap, mode, cond.penalty, cond.name.lower() == "shatter head", cond.name)
    steps = list(a.steps)
    notes = list(a.notes)
    endurance = SkillTest(end_dice, end_bonus)
    dist = endurance.distribution()
    win, lose, tie = opposed(a.ap, dist)
    steps.append(f"opposed test: your Wounding Attack {a.ap} AP against the target's "
                 f"Endurance ({endurance.explain()})")
    values: list[tuple[str, Any]] = [
        ("Wounding Attack AP", a.ap), ("Damage", a.per_attack if a.per_attack is not None
                                       else a.damage),
        ("P(condition applied)", win), ("P(resisted)", lose), ("P(equal scores)", tie)]
    if tie:
        notes.append(f"{NOT_IN_SOURCE}what happens when the scores are equal")
    odds = (Odds("Opposed test", (OddsRow(f"{cond.name} applied ({cond.effect})", win),
                                  OddsRow("resisted", lose),
                                  OddsRow("equal scores (not in the source)", tie))),
            _ap_odds(dist, "Target's Endurance AP"))

    def say(score: int, rolled_faces: Faces) -> Roll:
        faces = [f for _, f in rolled_faces]
        outcome = ("applied" if a.ap > score else "resisted" if score > a.ap
                   else "equal (not in the source)")
        return Roll(f"{cond.name}: {a.ap} AP against {score} AP: {outcome}",
                    _dice(faces, "endurance"), (("Outcome", outcome),),
                    steps=("target's Endurance: " + endurance.explain(faces),))

    return rolled(Result(f"{cond.name}: {a.ap} AP, applied with probability {float(win):.1%}",
                         tuple(values), tuple(steps), odds, (), _hl(a.row), tuple(notes)),
                  rng, endurance.ap, say,
                  closing=("the target takes the damage either way; the opposed test has no "
                           "effect on it",))
