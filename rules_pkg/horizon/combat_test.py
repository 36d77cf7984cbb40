"""§ Weapons and Combat Skills, § Weapon Profiles, § Surprise!: the tests and the profile row."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .. import data
from ..dice import Distribution
from ..errors import InputError, RulesError
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Highlight, Odds, OddsRow, Result
from .profiles import ProfileRow, WeaponProfile, _default_weapon, _weapon_choices, lookup, profile
from .sheet import GAME, MAX_AP, NOT_IN_SOURCE, PROFILES, SOURCE, TRAITS, dice_in, rank_in
from .skills import SkillTest, _ap_odds, _check_rank, _dice

# --- combat test ----------------------------------------------------------------------------

# § Weapons and Combat Skills: Weapon | Skill used | Trait Bonus used ("ACU or AGI rank")
SKILLS = data.table_spec(GAME, "Weapon", ("text", "text", "text"), 9, by_title=True)


def linked_traits(weapon: WeaponProfile) -> tuple[str, ...]:
    """§ Weapons and Combat Skills: the Traits whose highest rank is the Trait bonus."""
    group = str(weapon.get("category") or weapon.group).lower()
    for cells in SKILLS.rows():
        name = cells[0].lower().split(" (")[0]
        # "Melee weapons" / "Melee", "SMGs" / "SMGs (Sub-Machine Guns)", "Unarmed styles"
        if name and (group.startswith(name.split()[0]) or name.startswith(group.split(" (")[0])):
            traits = tuple(tr for tr in TRAITS if re.search(rf"\b{tr}\b", cells[-1]))
            if traits:
                return traits
    raise RulesError(f"the source's Weapons and Combat Skills table has no row for {group}")


def trait_bonus(traits: Sequence[str], ranks: dict[str, int]) -> tuple[int, str]:
    """§ Forgotten how to use Skills?: the bonus is "the highest rank in its linked Traits"."""
    best = max(traits, key=lambda tr: ranks[tr])
    shown = " or ".join(f"{tr} {ranks[tr]}" for tr in traits)
    return ranks[best], f"Trait bonus: highest of {shown} → +{ranks[best]} AP"


def row_odds(weapon: WeaponProfile, dist: Distribution[int]) -> Odds:
    """Exact odds of landing on each profile row, and of reaching it or better."""
    pmf = dist.pmf()
    rows: list[OddsRow] = []
    below = sum((p for s, p in pmf.items() if s < weapon.first), Fraction(0))
    if below:
        rows.append(OddsRow(f"below {weapon.first} AP: no row ({NOT_IN_SOURCE.strip(': ')})",
                            below, Fraction(1)))
    for r in weapon.rows:
        exactly = sum((p for s, p in pmf.items() if r.low <= s <= r.high), Fraction(0))
        at_least = sum((p for s, p in pmf.items() if s >= r.low), Fraction(0))
        if exactly or 0 < at_least < 1:  # rows surely passed or out of reach are left out
            rows.append(OddsRow(f"{r.label}: {r.describe()}", exactly, at_least))
    above = sum((p for s, p in pmf.items() if s > weapon.last), Fraction(0))
    if above:
        rows.append(OddsRow(f"above {weapon.last} AP: no row ({NOT_IN_SOURCE.strip(': ')})",
                            above, above))
    return Odds(f"{weapon.name}: row reached", tuple(rows))


# Inputs several calculators share, declared once: the type (with the form's label and
# limits) and the default.
WeaponIn = Annotated[str, In("Weapon", choices=_weapon_choices(),
                             help="the weapon's Combat Profile", from_table="profile-")]
WEAPON_DEFAULT = _default_weapon(_weapon_choices())
ApScoreIn = Annotated[int, In("AP score", 0, MAX_AP, help="your combat test's score")]
AP_SCORE_DEFAULT = 10


@dataclass(frozen=True)
class Scored:
    """Your weapon and your combat test's AP score: together they pick the row of the
    weapon's profile (§ Attack Actions: "find the row in your weapon's combat profile that
    matches your AP score")."""

    weapon: WeaponIn = WEAPON_DEFAULT
    ap: ApScoreIn = AP_SCORE_DEFAULT

    def profile(self) -> WeaponProfile:
        return profile(self.weapon)

    def row(self) -> tuple[ProfileRow | None, str]:
        """The row the AP score picks (None: none does) and the step that says which."""
        return lookup(self.profile(), self.ap)

    def no_row(self, step: str, values: tuple[tuple[str, Any], ...] = ()) -> Result:
        return Result(f"{self.ap} AP: no row in the {self.profile().name} profile", values,
                      notes=(step,))


@calculator(
    title="Skill test: AP score",
    source=SOURCE + "Forgotten how to use Skills?")
def skill_test(
    *,
    dice: Annotated[int, dice_in(
        "Skill rank (dice)",
        help="0 if you don't have the Skill: the Trait rank alone is the score")] = 3,
    bonus: Annotated[int, rank_in(
        "Trait bonus", help="the highest rank among the Skill's linked Traits")] = 3,
    rng: random.Random | None = None,
) -> Result:
    """§ Forgotten how to use Skills?: dice results plus the Trait bonus."""
    test = SkillTest(dice, bonus)
    dist = test.distribution()
    steps = [f"roll {dice} dice (the Skill rank): 1-3 score 0, 4-5 +1 AP, 6 +2 AP",
             f"add the Trait bonus: +{bonus} AP"]
    if not dice:
        steps[0] = "no Skill: no dice are rolled; the Trait rank alone is the score"
    values: list[tuple[str, Any]] = [("Mean AP", dist.mean())]
    summary = f"{dice} dice + {bonus}: {min(dist.outcomes())}-{max(dist.outcomes())} AP, " \
              f"mean {float(dist.mean()):.2f}"

    def say(score: int, rolled_faces: Faces) -> Roll:
        faces = [f for _, f in rolled_faces]
        return Roll(f"{score} AP", _dice(faces, "skill"), (("AP score", score),),
                    steps=(test.explain(faces),))

    return rolled(Result(summary, tuple(values), tuple(steps), (_ap_odds(dist, "AP score"),)),
                  rng, test.ap, say)


@PROFILES.calculator(
    title="Combat test with a weapon profile",
    at="Weapons and Combat Skills; Weapon Profiles; Surprise!")
def combat_test(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    skill: Annotated[int, dice_in(
        "Combat Skill rank (dice)",
        help="High-Caliber, Rapid-Fire or Special Combat, as the weapon needs")] = 3,
    acuity: Annotated[int, rank_in("ACU (Acuity)")] = 2,
    agility: Annotated[int, rank_in("AGI (Agility)")] = 2,
    strength: Annotated[int, rank_in("STR (Strength)")] = 2,
    surprise: Annotated[bool, In(
        "Surprise (first combat test)",
        help="your side started combat by surprise: +ACU AP",
    )] = False,
    rng: random.Random | None = None,
) -> Result:
    """§ Weapons and Combat Skills (Skill and Trait bonus), § Weapon Profiles (the row),
    § Surprise! (+ACU AP on the first combat test)."""
    w = profile(weapon)
    ranks = {"ACU": acuity, "AGI": agility, "STR": strength}
    for tr, v in ranks.items():
        _check_rank(v, tr)
    traits = linked_traits(w)
    bonus, bonus_step = trait_bonus(traits, ranks)
    test = SkillTest(skill, bonus, acuity if surprise else 0, "Surprise")
    steps = [f"{w.name}: roll {skill} dice ({w.skill or 'its Combat Skill'} rank)", bonus_step]
    if surprise:
        steps.append(f"Surprise!: +ACU = +{acuity} AP on the first combat test")
    dist = test.distribution()
    odds = (row_odds(w, dist), _ap_odds(dist, "AP score"))
    values: list[tuple[str, Any]] = [("Trait bonus", bonus), ("Mean AP", dist.mean())]

    def say(score: int, rolled_faces: Faces) -> Roll:
        faces = [f for _, f in rolled_faces]
        row, step = lookup(w, score)
        return Roll(f"{score} AP" + (f": {row.describe()}" if row else ": no row in the profile"),
                    _dice(faces, "skill"), (("AP score", score),),
                    steps=(test.explain(faces), *((step,) if row else ())),
                    highlight=(Highlight(w.table, row.index),) if row else (),
                    notes=() if row else (step,))

    summary = f"{w.name}: {skill} dice + {test.bonus} → mean {float(dist.mean()):.2f} AP"
    return rolled(Result(summary, tuple(values), tuple(steps), odds), rng, test.ap, say)


@PROFILES.calculator(
    title="Combat profile: row for an AP score",
    at="Weapon Profiles; Attack Actions")
def profile_row(
    *,
    scored: Scored,
) -> Result:
    """§ Attack Actions / Defense Actions / The Move Action: "find the row in your weapon's
    combat profile that matches your AP score"; banded profiles: the band holding it."""
    w, ap = scored.profile(), scored.ap
    row, step = scored.row()
    if row is None:
        return scored.no_row(step, (("AP score", ap),))
    values: list[tuple[str, Any]] = [("AP score", ap), ("Row", row.label)]
    values += [(h, row.cells[i] if i < len(row.cells) else "")
               for i, h in enumerate(row.header) if i]
    blanks = [h for i, h in enumerate(row.header)
              if i and (i >= len(row.cells) or not row.cells[i].strip())]
    notes = tuple(f"{NOT_IN_SOURCE}the {h} cell of row {row.label} is blank" for h in blanks)
    return Result(f"{w.name}, {ap} AP: {row.describe()}", tuple(values), (step,),
                  highlight=(Highlight(w.table, row.index),), notes=notes)


# § Weapon Profiles (horizon…txt:103): "the Combat Profile will tell you ... how much range
# you have" that round; § Point Blank Range (:1741): "2m or less"; (:1744) "Thrown Melee
# weapons have the range of the Attack considered as normal"
RANGE_SAYS = data.words(GAME, "weapon-profiles", "how much range you have")
POINT_BLANK_M = data.prose(GAME, "point-blank-range", r"at a range of (\d+)m or less")
_MELEE_RANGE = re.compile(r"^\s*Melee\s*(?:/\s*(\d+))?\s*$", re.I)


def weapon_range(w: WeaponProfile, row: ProfileRow) -> tuple[int | None, int | None, str]:
    """(metres a strike reaches, metres a throw reaches, the cell): a number is read as
    metres; "Melee" as Melee range; "Melee / 3" as Melee range, or 3 m thrown."""
    cell = row.cell("range") or ("" if row.column("range") else str(w.get("range") or ""))
    melee = _MELEE_RANGE.match(cell)
    if melee:
        return POINT_BLANK_M.read(), int(melee.group(1)) if melee.group(1) else None, cell
    m = re.fullmatch(r"\s*(\d+)\s*m?\s*", cell)
    return (int(m.group(1)), None, cell) if m else (None, None, cell)


@PROFILES.calculator(title="Is the target in range?", at="Weapon Profiles; Point Blank Range")
def in_range(
    *,
    scored: Scored,
    distance: Annotated[int, In("Distance to the target (m)", 0, 2000)] = 10,
    thrown: Annotated[bool, In("Thrown (a Melee weapon)")] = False,
) -> Result:
    """§ Weapon Profiles: the row of your AP score tells "how much range you have" this
    round: a target within it can be attacked; beyond it, not with this score."""
    RANGE_SAYS.check()
    w = scored.profile()
    row, step = scored.row()
    if row is None:
        return scored.no_row(step, (("AP score", scored.ap),))
    strike, throw, cell = weapon_range(w, row)
    steps = [step]
    notes = []
    if thrown and not _MELEE_RANGE.match(cell):
        raise InputError("thrown", f"the {w.name}'s Range {cell or '(blank)'} gives no thrown "
                         "range: only Melee weapons are thrown")
    reach = throw if thrown else strike
    if reach is None:
        why = ("the source gives no thrown range in this row" if thrown
               else f"the source prints no Range for row {row.label}")
        return Result(f"{w.name}, {scored.ap} AP: no range to check ({why})",
                      (("AP score", scored.ap), ("Range", cell, "text")), tuple(steps),
                      highlight=(Highlight(w.table, row.index),),
                      notes=(f"{NOT_IN_SOURCE}{why}",))
    if _MELEE_RANGE.match(cell) and not thrown:
        notes.append(f"{NOT_IN_SOURCE}Melee range in metres: read as {reach} m, the Point "
                     "Blank Range every Melee strike gains")
    elif not thrown and not cell.strip().lower().endswith("m"):
        notes.append(f"{NOT_IN_SOURCE}the Range column prints no unit: read as metres, as "
                     "the banded profiles print theirs (\u201cRange: 15m\u201d)")
    ok = distance <= reach
    steps.append(f"{'thrown' if thrown else 'Range'} {cell}: {reach} m; the target at "
                 f"{distance} m is {'within' if ok else 'beyond'} it")
    if ok and distance <= POINT_BLANK_M.read():
        steps.append(f"{POINT_BLANK_M.read()} m or less: Point Blank Range, +5 AP "
                     "(§ Point Blank Range)")
    return Result(f"{w.name}, {scored.ap} AP: {'in range' if ok else 'out of range'} "
                  f"({distance} of {reach} m)",
                  (("In range", ok), ("Range (m)", reach), ("AP score", scored.ap)),
                  tuple(steps), highlight=(Highlight(w.table, row.index),), notes=tuple(notes))
