"""Forbidden Lands (Year Zero Engine): combat from the Combat Quick Reference.

Source: sources/forbidden-lands-combat-quick-reference.md. Every table value is
read from the extracted data (rules_pkg/data/forbidden_lands.json), never re-typed.

Dice: base dice (attribute), skill dice (skill) and gear dice (weapon, armour,
other gear) are d6. A 6 is a success (✘) on any die; a 1 is a bane (☠) on base
and gear dice only. Where the sheet only refers to a rule of the game (pushing,
modifications, negative dice) the standard Forbidden Lands rule is used and cited
as such in the calculator's `source`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Annotated, Any, Literal

from . import data
from .dice import Distribution, roll
from .errors import LimitError, RulesError
from .kernel import Each, In, calculator
from .registry import Die, Highlight, Input, Odds, Result

GAME = "forbidden_lands"
DOC = "Forbidden Lands Combat Quick Reference"
MAX_POOL = 15  # the largest pool (base + skill + gear dice) any calculator here rolls
MAX_ARMOUR = 15  # armour + helmet gear dice
SUCCESS, BANE = "✘", "☠"

# Table ids of the extracted document (checked by tests against the data).
T_ATTACKS, T_NON_ATTACK = "attacks", "non-attack"
T_RANGE, T_FLEE = "range-modifiers", "fleeing-modifiers"
T_SOCIAL_ACTIONS, T_SOCIAL_MODS = "social-actions", "social-modifiers"
T_FEATURES, T_BROKEN, T_ZERO = "weapon-features", "broken-effects", "apply-damage"

STANDARD_PUSH = ("Forbidden Lands standard rule (Player's Handbook, Pushing): a pushed roll "
                 "re-rolls every die not showing ✘ or ☠ (skill dice showing 1 are re-rolled); "
                 "each ☠ on base dice then costs 1 point of the attribute used, each ☠ on gear "
                 "dice lowers the gear bonus by 1")
STANDARD_MODS = ("Forbidden Lands standard rule (modifications): modifiers add or remove skill "
                 "dice only; below zero skill dice, roll negative dice whose ✘ cancel ✘ on "
                 "base/gear dice")


# -- reading the extracted tables ---------------------------------------------------------
def _rows(table_id: str) -> list[tuple[str, ...]]:
    return [tuple(r["cells"]) for r in data.table(GAME, table_id)["rows"]]


def _header(table_id: str) -> tuple[str, ...]:
    return tuple(data.table(GAME, table_id)["header"])


def _row_index(table_id: str, first_cell: str) -> int:
    for i, row in enumerate(_rows(table_id)):
        if row[0] == first_cell:
            return i
    raise RulesError(f"{first_cell!r} is not a row of the {table_id} table")


_SIGNED = re.compile(r"^\s*([+\--]\s*\d+|\d+)")


def modifier(cell: str) -> int | None:
    """A modifier cell of the sheet: '+2' -> 2, '-1' -> -1, 'OK'/'-'/'0' -> 0, 'X' -> None.

    'X' means the reaction is not allowed (Reference Tables § Attacks).
    """
    text = cell.strip()
    if text.upper() == "X":
        return None
    if text in {"", "OK", "-"}:
        return 0
    m = _SIGNED.match(text)
    if not m:
        raise RulesError(f"cannot read the modifier {cell!r} from the sheet")
    return int(m.group(1).replace("-", "-").replace(" ", ""))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _clean(action: str) -> str:
    return action.rstrip("*").strip()


# -- dice -----------------------------------------------------------------------------------
DieKind = Literal["base", "skill", "negative", "gear"]
# A die's outcome as a vector: (✘ on positive dice, ✘ on negative dice, ☠ on base, ☠ on gear).
Vec = tuple[int, int, int, int]
ZERO: Vec = (0, 0, 0, 0)


def _vadd(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def face_outcome(kind: DieKind, face: int) -> Vec:
    """What one face means: 6 = ✘ on any die (cancelling on a negative die); 1 = ☠ on base/gear."""
    if face == 6:
        return (0, 1, 0, 0) if kind == "negative" else (1, 0, 0, 0)
    if face == 1 and kind == "base":
        return (0, 0, 1, 0)
    if face == 1 and kind == "gear":
        return (0, 0, 0, 1)
    return ZERO


def locked(kind: DieKind, face: int) -> bool:
    """Dice a push leaves alone: ✘ on any die, ☠ on base and gear dice (standard rule)."""
    return face == 6 or (face == 1 and kind in ("base", "gear"))


@cache
def die_distribution(kind: DieKind, pushed: bool) -> Distribution[Vec]:
    """One die, first roll or pushed: built from the faces, so nothing is typed by hand."""
    d6 = Distribution.d(6)
    if not pushed:
        return d6.map(lambda f: face_outcome(kind, f))
    return d6.combine(d6, lambda f, g: face_outcome(kind, f if locked(kind, f) else g))


@dataclass(frozen=True)
class DicePool:
    """Base, skill and gear dice of one roll (Combat Order § Roll Action).

    `skill` is after modifications; below zero it is that many negative dice.
    """

    base: int
    skill: int
    gear: int

    def __post_init__(self) -> None:
        for name, n in (("base dice", self.base), ("gear dice", self.gear)):
            if n < 0:
                raise RulesError(f"the number of {name} cannot be negative")
        if self.size > MAX_POOL:
            raise LimitError(f"at most {MAX_POOL} dice in one Forbidden Lands roll "
                             f"(this one has {self.size})")

    @property
    def size(self) -> int:
        return self.base + abs(self.skill) + self.gear

    def kinds(self) -> tuple[tuple[DieKind, int], ...]:
        return (("base", self.base), ("skill", max(self.skill, 0)),
                ("negative", max(-self.skill, 0)), ("gear", self.gear))

    def describe(self) -> str:
        parts = [f"{self.base} base", f"{max(self.skill, 0)} skill"]
        if self.skill < 0:
            parts.append(f"{-self.skill} negative")
        parts.append(f"{self.gear} gear")
        return ", ".join(parts) + " dice"


def make_pool(attribute: int, skill: int, gear: int, modification: int = 0) -> DicePool:
    """Attribute + Skill + Gear, modifications on the skill dice (standard rule)."""
    return DicePool(attribute, skill + modification, gear)


PushPolicy = Literal["no", "always", "failed"]
PUSH_CHOICES = (("no", "Do not push"),
                ("failed", "Push if the roll has no ✘"),
                ("always", "Push whatever the roll shows"))


def _policy(pushed: bool | str) -> PushPolicy:
    if pushed is True or pushed == "always":
        return "always"
    if pushed is False or pushed == "no":
        return "no"
    if pushed == "failed":
        return "failed"
    raise RulesError(f"{pushed!r} is not a way to push")


Vec5 = tuple[int, int, int, int, int]


def _v5add(a: Vec5, b: Vec5) -> Vec5:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


@cache
def _die_first_and_pushed(kind: DieKind) -> Distribution[Vec5]:
    """One die over (first face, re-roll): (first-roll ✘ minus negative ✘, pushed outcome)."""
    d6 = Distribution.d(6)

    def joint(f: int, g: int) -> Vec5:
        first = face_outcome(kind, f)
        return (first[0] - first[1], *face_outcome(kind, f if locked(kind, f) else g))
    return d6.combine(d6, joint)


@cache
def pool_vectors(pool: DicePool, pushed: bool | str = False) -> Distribution[Vec]:
    """The exact joint distribution of the pool: counts per die type, combined.

    `pushed`: False/"no" (first roll), True/"always" (pushed whatever it shows) or
    "failed" (pushed only when the first roll has no ✘: the first roll where it has one,
    scaled by 6^n, plus the pushed outcomes of the failed first rolls). Under "failed" the
    ☠ parts count only the banes that hurt, i.e. those of pushed rolls."""
    policy = _policy(pushed)
    if policy == "failed":
        first = pool_vectors(pool, "no")
        joint: Distribution[Vec5] = Distribution.constant((0, 0, 0, 0, 0))
        for kind, n in pool.kinds():
            if n:
                joint = joint.combine(
                    _die_first_and_pushed(kind).repeat(n, _v5add, (0, 0, 0, 0, 0)), _v5add)
        scale = 6 ** pool.size
        counts: dict[Vec, int] = {}
        for v, c in first:
            if net_successes(v) >= 1:  # not pushed: its ☠ do nothing
                key = (v[0], v[1], 0, 0)
                counts[key] = counts.get(key, 0) + c * scale
        for w, c in joint:
            if w[0] <= 0:  # the first roll had no ✘ left: it was pushed
                key = (w[1], w[2], w[3], w[4])
                counts[key] = counts.get(key, 0) + c
        return Distribution.from_counts(counts)
    result: Distribution[Vec] = Distribution.constant(ZERO)
    for kind, n in pool.kinds():
        if n:
            result = result.combine(
                die_distribution(kind, policy == "always").repeat(n, _vadd, ZERO), _vadd)
    return result


def should_push(policy: str, first: Vec) -> bool:
    return policy == "always" or (policy == "failed" and net_successes(first) == 0)


def net_successes(v: Vec) -> int:
    """✘ left after negative dice cancel ✘ on the other dice (never below zero)."""
    return max(0, v[0] - v[1])


def successes(pool: DicePool, pushed: bool | str = False) -> Distribution[int]:
    return pool_vectors(pool, pushed).map(net_successes)


def successes_and_banes(pool: DicePool,
                        pushed: bool | str = False) -> Distribution[tuple[int, int]]:
    """Joint (✘, ☠) with ☠ counted on base and gear dice."""
    return pool_vectors(pool, pushed).map(lambda v: (net_successes(v), v[2] + v[3]))


# -- rolling -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RolledDie:
    kind: DieKind
    face: int


def roll_pool(rng: random.Random, pool: DicePool) -> tuple[RolledDie, ...]:
    out: list[RolledDie] = []
    for kind, n in pool.kinds():
        out.extend(RolledDie(kind, f) for f in roll(rng, 6, n))
    return tuple(out)


def push_roll(rng: random.Random, dice: Iterable[RolledDie]) -> tuple[RolledDie, ...]:
    """Re-roll every die not showing ✘ and not ☠ on base/gear (standard rule)."""
    return tuple(d if locked(d.kind, d.face) else RolledDie(d.kind, rng.randint(1, 6))
                 for d in dice)


def tally(dice: Iterable[RolledDie]) -> Vec:
    total = ZERO
    for d in dice:
        total = _vadd(total, face_outcome(d.kind, d.face))
    return total


def show(dice: Iterable[RolledDie], prefix: str = "") -> tuple[Die, ...]:
    def label(d: RolledDie) -> str:
        v = face_outcome(d.kind, d.face)
        if v[0]:
            return SUCCESS
        if v[1]:
            return "-" + SUCCESS  # a ✘ on a negative die cancels one ✘
        return BANE if v[2] or v[3] else ""
    return tuple(Die(6, d.face, label(d), f"{prefix}{d.kind}") for d in dice)


def _faces(dice: Iterable[RolledDie]) -> str:
    return " ".join(f"{d.face}" for d in dice) or "no dice"


# -- presenting odds --------------------------------------------------------------------------
def _succ_label(n: int) -> str:
    return f"{n} {SUCCESS}"


def pool_odds(pool: DicePool, pushed: bool | str, what: str) -> tuple[Odds, ...]:
    vec = pool_vectors(pool, pushed)
    tag = ""
    out = [Odds.of(vec.map(net_successes), f"{what}: {SUCCESS} successes{tag}", _succ_label),
           Odds.of(vec.map(lambda v: v[2] + v[3]),
                   f"{what}: {BANE} banes on base and gear dice{tag}",
                   lambda n: f"{n} {BANE}"),
           Odds.of(vec.map(lambda v: (net_successes(v), v[2] + v[3])),
                   f"{what}: {SUCCESS} and {BANE} together{tag}",
                   lambda o: f"{o[0]} {SUCCESS}, {o[1]} {BANE}", cumulative=False)]
    return tuple(out)


def _p(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator} ≈ {float(f):.1%}"




# == calculators ===============================================================================
@calculator(
    id="forbidden_lands.roll",
    title="Roll Attribute + Skill + Gear (and push)",
    source=f"{DOC} § Roll Action (Other: Attribute + Skill + Gear) + {STANDARD_MODS}; "
           f"{STANDARD_PUSH}",
    tables=(T_NON_ATTACK,),
    description="Exact odds of ✘ and ☠ for any roll, first roll and pushed.",
)
def roll_check(
    *,
    attribute: Annotated[int, In("Attribute (base dice)", 0, 6)] = 3,
    skill: Annotated[int, In("Skill level (skill dice)", 0, 6)] = 1,
    gear: Annotated[int, In("Gear bonus (gear dice)", 0, 6)] = 1,
    modification: Annotated[int, In("Modification (adds or removes skill dice)", -6, 6)] = 0,
    push: Annotated[str, In("Push the roll?", choices=PUSH_CHOICES)] = "no",
    needed: Annotated[int, In(f"{SUCCESS} needed", 1, MAX_POOL)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """Combat Order § Roll Action, 'Other: Attribute + Skill + Gear'; pushing: standard rule."""
    return check(attribute, skill, gear, modification, push, needed, rng)


def check(attribute: int, skill: int, gear: int, modification: int, push: str, needed: int,
          rng: random.Random | None) -> Result:
    """One roll of Attribute + Skill + Gear dice, as every action of the sheet rolls it."""
    pool = make_pool(attribute, skill, gear, modification)
    policy = _policy(push)
    pushed = policy != "no"
    first = successes(pool)
    odds = list(pool_odds(pool, False, "First roll"))
    steps = [f"Roll {pool.describe()}: base = attribute {attribute}, skill = skill level {skill}"
             f" {modification:+d} modification, gear = gear bonus {gear}.",
             f"Each 6 is a {SUCCESS}; each 1 on a base or gear die is a {BANE}."]
    if pool.skill < 0:
        steps.append(f"Skill dice below zero: {-pool.skill} negative dice; each {SUCCESS} on them "
                     f"cancels one {SUCCESS} on the base and gear dice.")
    values: list[tuple[str, Any]] = [("P(at least needed ✘), first roll", first.at_least(needed))]
    if pushed:
        vec = pool_vectors(pool, policy)
        odds.extend(pool_odds(pool, policy, "Pushed" if policy == "always"
                              else "Pushed if no ✘"))
        odds.append(Odds.of(vec.map(lambda v: v[2]),
                            f"Pushed: attribute damage ({BANE} on base dice)",
                            lambda n: f"{n} damage"))
        odds.append(Odds.of(vec.map(lambda v: v[3]),
                            f"Pushed: gear bonus lost ({BANE} on gear dice)",
                            lambda n: f"-{n} bonus"))
        values.append(("P(at least needed ✘), pushed", successes(pool, policy).at_least(needed)))
        steps.append(("Push whatever the first roll shows" if policy == "always" else
                      "Push only when the first roll has no ✘")
                     + ": re-roll every die that shows neither ✘ nor ☠ (skill dice showing 1 "
                     "are re-rolled too); then each ☠ on a base die costs 1 point of the "
                     "attribute, "
                     "each ☠ on a gear die lowers the gear bonus by 1.")
    dice: tuple[Die, ...] = ()
    summary = (f"P(≥{needed} {SUCCESS}) = {_p(values[0][1])}"
               + (f"; pushed {_p(values[1][1])}" if pushed else ""))
    if rng is not None:
        rolled = roll_pool(rng, pool)
        dice = show(rolled, "first ")
        got = tally(rolled)
        steps.append(f"Rolled {_faces(rolled)}: {net_successes(got)} {SUCCESS}, "
                     f"{got[2] + got[3]} {BANE}.")
        if should_push(policy, got):
            again = push_roll(rng, rolled)
            dice += show(again, "pushed ")
            got = tally(again)
            steps.append(f"Pushed to {_faces(again)}: {net_successes(got)} {SUCCESS}; "
                         f"{got[2]} {BANE} on base dice (attribute damage), "
                         f"{got[3]} {BANE} on gear dice (gear bonus lost).")
            values += [("Attribute damage", got[2]), ("Gear bonus lost", got[3])]
        values.insert(0, ("Successes", net_successes(got)))
        summary = (f"{net_successes(got)} {SUCCESS} — "
                   + ("success" if net_successes(got) >= needed else "failure") + "; " + summary)
    return Result(summary, tuple(values), tuple(steps), tuple(odds), dice)


# -- attack, reaction, armour -------------------------------------------------------------------
REACTIONS = (("none", "No reaction"), ("dodge", "Dodge (Agility + Move + bonus)"),
             ("parry_parrying", "Parry with a Parrying weapon (Strength + Melee + bonus)"),
             ("parry_weapon", "Parry with a weapon without Parrying (Strength + Melee + bonus)"),
             ("parry_shield", "Parry with a shield (Strength + Melee + bonus)"))
_REACTION_COLUMN = {"dodge": "Dodge", "parry_parrying": "Parrying Wpn", "parry_weapon": "Wpn",
                    "parry_shield": "Shield"}


def _attack_choices() -> tuple[tuple[str, str], ...]:
    return tuple((_slug(_clean(r[0])), _clean(r[0])) for r in _rows(T_ATTACKS))


def _range_choices() -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for r in _rows(T_RANGE):
        cell = r[1]
        if "/" in cell:  # "Arm's Length -3/+3": the sheet gives both without saying when
            for part in cell.split("/"):
                out.append((f"{_slug(r[0])}:{part.strip()}", f"{r[0]} ({part.strip()})"))
        else:
            out.append((_slug(r[0]), f"{r[0]} ({cell})"))
    return tuple(out)


@dataclass(frozen=True)
class AttackRow:
    """One row of Reference Tables § Attacks."""

    index: int
    action: str
    speed: str
    skill: str
    required: str
    reactions: dict[str, int | None]  # column -> modifier (None = not allowed)
    effect: str

    @property
    def damaging(self) -> bool:
        return "dmg" in self.effect.lower()


def attack_row(choice: str) -> AttackRow:
    header = _header(T_ATTACKS)
    for i, r in enumerate(_rows(T_ATTACKS)):
        if _slug(_clean(r[0])) == choice:
            cells = dict(zip(header, r, strict=False))
            return AttackRow(i, _clean(r[0]), cells["Speed"], cells["Skill"], cells["Required"],
                             {c: modifier(cells[c]) for c in _REACTION_COLUMN.values()},
                             cells["Effect"])
    raise RulesError(f"{choice!r} is not an attack on the sheet")


def range_modifier(choice: str) -> tuple[int, int, str]:
    """(row index, modifier, cell) from Reference Tables § Range Modifiers."""
    slug, _, part = choice.partition(":")
    for i, r in enumerate(_rows(T_RANGE)):
        if _slug(r[0]) == slug:
            cell = part or r[1]
            mod = modifier(cell)
            return i, 0 if mod is None else mod, r[1]
    raise RulesError(f"{choice!r} is not a range on the sheet")


@dataclass(frozen=True)
class ArmourSave:
    """Combat Order § Armor Save: armour + helmet rating in gear dice."""

    armour: int
    helmet: int

    def __post_init__(self) -> None:
        if self.armour < 0 or self.helmet < 0:
            raise RulesError("armour and helmet ratings cannot be negative")
        if self.rating > MAX_ARMOUR:
            raise LimitError(f"at most {MAX_ARMOUR} armour dice (asked for {self.rating})")

    @property
    def rating(self) -> int:
        return self.armour + self.helmet

    def pool(self) -> DicePool:
        return DicePool(0, 0, self.rating)


def armour_result(rating: int, damage: int, armour_successes: int,
                  armour_banes: int) -> tuple[int, int]:
    """(damage through, rating lost): each ✘ cuts 1 damage; each ☠ and each point through
    lowers the rating by 1 (Combat Order § Armor Save, steps 3-4), never below zero."""
    through = max(0, damage - armour_successes)
    return through, min(rating, armour_banes + through)


@calculator(
    id="forbidden_lands.armour",
    title="Armour save",
    source=f"{DOC} § Armor Save",
)
def armour_save(
    *,
    damage: Annotated[int, In("Damage of the attack", 0, 30)] = 3,
    armour: Annotated[int, In("Armour rating", 0, 10)] = 3,
    helmet: Annotated[int, In("Helmet rating", 0, 5)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Combat Order § Armor Save, steps 1-4."""
    save = ArmourSave(armour, helmet)
    dist = successes_and_banes(save.pool()).map(lambda o: armour_result(save.rating, damage, *o))
    steps = [f"1. Combine armour {armour} and helmet {helmet}: rating {save.rating}.",
             f"2. Roll {save.rating} gear dice.",
             f"3. Each {SUCCESS} subtracts 1 from the {damage} damage.",
             f"4. Each {BANE} and each point of damage that gets through lowers the rating by 1."]
    odds = (Odds.of(dist.map(lambda o: o[0]), "Damage that gets through", str),
            Odds.of(dist.map(lambda o: o[1]), "Armour rating lost", str))
    notes = ("The sheet does not say whether the armour or the helmet loses the points.",
             "Helmet special (sacrifice the helmet on a critical injury): see the rules, "
             "pg. 105 — not on the sheet.")
    mean = dist.map(lambda o: o[0]).mean()
    summary = f"Average damage through {float(mean):.2f}"
    values: list[tuple[str, Any]] = [("Mean damage through", mean)]
    dice: tuple[Die, ...] = ()
    if rng is not None:
        rolled = roll_pool(rng, save.pool())
        got = tally(rolled)
        through, lost = armour_result(save.rating, damage, got[0], got[3])
        dice = show(rolled, "armour ")
        steps.append(f"Rolled {_faces(rolled)}: {got[0]} {SUCCESS}, {got[3]} {BANE} → "
                     f"{through} damage through, rating {save.rating} → {save.rating - lost}.")
        values = [("Damage through", through), ("Armour rating lost", lost), *values]
        summary = f"{through} damage through; armour rating {save.rating} → {save.rating - lost}"
    return Result(summary, tuple(values), tuple(steps), odds, dice, notes=notes)


@calculator(
    id="forbidden_lands.attack",
    title="Attack, reaction, armour and damage",
    source=f"{DOC} § Combat Order (Declare Action to Apply Damage), Reference Tables § Attacks, "
           f"§ Range Modifiers, § Non-Attack (Swing, Aim), § Weapon Features (Heavy, Parrying) + "
           f"{STANDARD_MODS}; {STANDARD_PUSH}",
    tables=(T_ATTACKS, T_RANGE, T_FEATURES),
    description="Exact odds of the damage an attack does after the target's reaction and armour.",
)
def attack(
    *,
    action: Annotated[str, In("Attack", choices=_attack_choices())] = "slash",
    attribute: Annotated[int, In("Attribute: Strength (melee) or Agility (Shoot)", 1, 6)] = 4,
    skill: Annotated[int, In("Skill: Melee or Marksmanship", 0, 6)] = 2,
    weapon_bonus: Annotated[int, In("Weapon bonus (gear dice)", 0, 6)] = 1,
    weapon_damage: Annotated[int, In(
        "Weapon damage rating",
        0,
        10,
        help="from your weapon; not on the sheet",
    )] = 1,
    modification: Annotated[int, In("Other modification (skill dice)", -6, 6)] = 0,
    range: Annotated[str, In("Range (Shoot only)", choices=_range_choices())] = "near",
    heavy_swing: Annotated[bool, In("Heavy weapon: Swing first (+1 damage)")] = False,
    aim: Annotated[bool, In("Aim first (+1 damage; Shoot only)")] = False,
    push: Annotated[str, In("Attacker pushes?", choices=PUSH_CHOICES)] = "no",
    reaction: Annotated[str, In("Target's reaction", choices=REACTIONS)] = "none",
    defender_attribute: Annotated[int, In("Target: Agility (dodge) or Strength (parry)", 1, 6)] = 3,
    defender_skill: Annotated[int, In("Target: Move (dodge) or Melee (parry)", 0, 6)] = 1,
    defender_bonus: Annotated[int, In("Target: bonus (gear dice)", 0, 6)] = 0,
    remain_standing: Annotated[bool, In("Dodging target stays standing (-2)")] = False,
    defender_push: Annotated[str, In("Target pushes the reaction?", choices=PUSH_CHOICES)] = "no",
    armour: Annotated[int, In("Target's armour rating", 0, 10)] = 0,
    helmet: Annotated[int, In("Target's helmet rating", 0, 5)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Combat Order § Declare Action … § Apply Damage, with Reference Tables § Attacks."""
    row = attack_row(action)
    shoot = row.skill == "Marksmanship"
    highlights = [Highlight(T_ATTACKS, row.index)]
    steps = [f"Declare {row.action} ({row.speed.lower()} action; requires: {row.required})."]
    notes: list[str] = []
    # Fail fast on declarations the sheet forbids, before any dice work.
    if aim and not shoot:
        raise RulesError("Aim needs a readied ranged weapon and a Shoot in the same round")
    if heavy_swing and row.action not in ("Slash", "Stab"):
        raise RulesError("Swing (Heavy weapon) must be followed by a stab or a slash")
    mod = modification
    if shoot:
        r_index, r_mod, r_cell = range_modifier(range)
        if "requires aim" in r_cell.lower() and not aim:
            raise RulesError(f"the sheet says {r_cell}: Aim first to shoot at that range")
        highlights.append(Highlight(T_RANGE, r_index))
        mod += r_mod
        steps.append(f"Range {_rows(T_RANGE)[r_index][0]}: {r_mod:+d} (skill dice).")
        if "/" in r_cell:
            notes.append(f"The sheet gives Arm's Length as {r_cell} without saying when each "
                         "applies: choose the one your table uses.")
    pool = make_pool(attribute, skill, weapon_bonus, mod)
    what = "Agility + Marksmanship" if shoot else "Strength + Melee"
    steps.append(f"Roll {what} + weapon bonus: {pool.describe()}.")
    # The target's reaction: its modifier comes from the attack's row.
    defence: DicePool | None = None
    if reaction != "none":
        column = _REACTION_COLUMN.get(reaction)
        if column is None:
            raise RulesError(f"{reaction!r} is not a reaction")
        rmod = row.reactions[column]
        if rmod is None:
            raise RulesError(f"{row.action} cannot be met with that reaction (X on the sheet)")
        kind = "Dodge" if reaction == "dodge" else "Parry"
        dmod = rmod
        extra = ""
        if reaction == "parry_weapon":  # Weapon Features § Parrying
            dmod -= 2
            extra = "; -2 for a weapon without the Parrying feature"
            highlights.append(Highlight(T_FEATURES, _row_index(T_FEATURES, "Parrying")))
            notes.append("The sheet's Wpn column and the Parrying feature's -2 are both applied "
                         "(the column does not include the -2: Slash shows OK there).")
        if reaction == "dodge" and remain_standing:
            dmod -= 2
            extra += "; -2 to remain standing (else the target falls prone)"
        defence = make_pool(defender_attribute, defender_skill, defender_bonus, dmod)
        steps.append(f"{kind}: {column} column {rmod:+d}{extra}; roll {defence.describe()}. "
                     f"Each {SUCCESS} subtracts one {SUCCESS} from the attack. The reaction "
                     "uses one of the target's fast actions and is declared before the attack "
                     "is rolled.")
    bonus = (1 if heavy_swing else 0) + (1 if aim else 0)
    if heavy_swing:
        highlights += [Highlight(T_NON_ATTACK, _row_index(T_NON_ATTACK, "Swing")),
                       Highlight(T_FEATURES, _row_index(T_FEATURES, "Heavy"))]
    if aim:
        highlights.append(Highlight(T_NON_ATTACK, _row_index(T_NON_ATTACK, "Aim")))
    save = ArmourSave(armour, helmet)
    pushed, dpushed = _policy(push), _policy(defender_push)

    def damage_of(hits: int) -> int:
        # A single ✘ does the weapon's damage; each extra ✘ +1 (Combat Order § Roll Action).
        return weapon_damage + hits - 1 + bonus if hits >= 1 else 0

    att = pool_vectors(pool, pushed)
    dfd = successes(defence, dpushed) if defence else Distribution.constant(0)
    hits = att.map(net_successes).combine(dfd, lambda a, d: max(0, a - d))
    odds = [Odds.of(hits, f"Attack {SUCCESS} left after the reaction", _succ_label)]
    values: list[tuple[str, Any]] = [("P(attack succeeds)", hits.p(lambda h: h >= 1))]
    if row.damaging:
        steps.append(f"Damage: weapon damage {weapon_damage} for the first {SUCCESS}, +1 for "
                     f"each extra {SUCCESS}" + (f", +{bonus} (Swing/Aim)" if bonus else "") + ".")
        armour_dist = successes_and_banes(save.pool())
        final = hits.map(damage_of).combine(
            armour_dist, lambda dmg, a: armour_result(save.rating, dmg, *a) if dmg else (0, 0))
        odds.append(Odds.of(hits.map(damage_of), "Damage before armour", str))
        if save.rating:
            steps.append(f"Armour save: roll {save.rating} gear dice; each {SUCCESS} subtracts 1 "
                         f"damage; each {BANE} and each point through lowers the rating by 1.")
            odds.append(Odds.of(final.map(lambda o: o[1]), "Armour rating lost", str))
        odds.insert(1, Odds.of(final.map(lambda o: o[0]), "Damage to Strength", str))
        values.append(("Mean damage to Strength", final.map(lambda o: o[0]).mean()))
    else:
        steps.append(f"Effect on success: {row.effect}.")
        if "2" + SUCCESS in row.effect.replace(" ", ""):
            values.append((f"P(2 {SUCCESS} or more)", hits.at_least(2)))
    if pushed != "no":
        attr = "Agility" if shoot else "Strength"
        odds.append(Odds.of(att.map(lambda v: v[2]), f"Attacker's {attr} damage from pushing",
                            str))
        odds.append(Odds.of(att.map(lambda v: v[3]), "Weapon bonus lost from pushing", str))
    summary = f"P(hit) = {_p(values[0][1])}"
    if row.damaging:
        summary += f"; mean damage {float(values[1][1]):.2f}"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        a_dice = roll_pool(rng, pool)
        dice += show(a_dice, "attack ")
        a_pushed = should_push(pushed, tally(a_dice))
        if a_pushed:
            a_dice = push_roll(rng, a_dice)
            dice += show(a_dice, "attack pushed ")
        a = tally(a_dice)
        d_succ = 0
        if defence:
            d_dice = roll_pool(rng, defence)
            dice += show(d_dice, "reaction ")
            if should_push(dpushed, tally(d_dice)):
                d_dice = push_roll(rng, d_dice)
                dice += show(d_dice, "reaction pushed ")
            d_succ = net_successes(tally(d_dice))
        h = max(0, net_successes(a) - d_succ)
        steps.append(f"Rolled: attack {net_successes(a)} {SUCCESS}, reaction {d_succ} "
                     f"{SUCCESS} → {h} {SUCCESS} left.")
        values.insert(0, (f"Attack {SUCCESS} left", h))
        if a_pushed:
            values.append(("Attacker's attribute damage (pushed)", a[2]))
            values.append(("Weapon bonus lost (pushed)", a[3]))
        summary = "Miss" if h == 0 else "Hit"
        if row.damaging and h:
            dmg = damage_of(h)
            through, lost = dmg, 0
            if save.rating:
                s_dice = roll_pool(rng, save.pool())
                dice += show(s_dice, "armour ")
                s = tally(s_dice)
                through, lost = armour_result(save.rating, dmg, s[0], s[3])
                steps.append(f"Armour: {s[0]} {SUCCESS}, {s[3]} {BANE} → {through} of {dmg} "
                             f"damage through; rating {save.rating} → {save.rating - lost}.")
            values[1:1] = [("Damage to Strength", through), ("Armour rating lost", lost)]
            summary = f"Hit: {through} damage to Strength"
        elif h:
            summary = f"Success ({h} {SUCCESS}): {row.effect}"
    notes.append("Weapon damage ratings are on the weapon, not on the sheet.")
    return Result(summary, tuple(values), tuple(steps), tuple(odds), dice, tuple(highlights),
                  tuple(notes))


# -- other rolls from the tables ------------------------------------------------------------
def _flee_parts() -> tuple[list[tuple[int, str, int]], list[tuple[int, str, int]]]:
    ranges: list[tuple[int, str, int]] = []
    zones: list[tuple[int, str, int]] = []
    for i, r in enumerate(_rows(T_FLEE)):
        mod = modifier(r[1]) or 0
        (zones if "zone" in r[0].lower() else ranges).append((i, r[0], mod))
    return ranges, zones


def _flee_choices(zone: bool) -> tuple[tuple[str, str], ...]:
    part = _flee_parts()[1 if zone else 0]
    base = (("neither", "Neither"),) if zone else ()
    return base + tuple((_slug(name), f"{name} ({mod:+d})") for _, name, mod in part)


@calculator(
    id="forbidden_lands.flee",
    title="Flee",
    source=f"{DOC} § Non-Attack (Flee), § Fleeing Modifiers + {STANDARD_MODS}; {STANDARD_PUSH}",
    tables=(T_FLEE,),
)
def flee(
    *,
    agility: Annotated[int, In("Agility (base dice)", 1, 6)] = 3,
    move: Annotated[int, In("Move (skill dice)", 0, 6)] = 1,
    gear: Annotated[int, In("Gear bonus", 0, 6)] = 0,
    range: Annotated[str, In(
        "Range to the nearest enemy",
        choices=_flee_choices(False),
    )] = _flee_choices(False)[0][0],
    zone: Annotated[str, In("Zone", choices=_flee_choices(True))] = "neither",
    push: Annotated[str, In("Push the roll?", choices=PUSH_CHOICES)] = "no",
    rng: random.Random | None = None,
) -> Result:
    """Reference Tables § Non-Attack (Flee: slow, Move, no enemies at Arm's Length) and
    § Fleeing Modifiers. The sheet pairs Move with Agility (Dodge: Agility + Move)."""
    ranges, zones = _flee_parts()
    mod, highlights, steps = 0, [Highlight(T_NON_ATTACK, _row_index(T_NON_ATTACK, "Flee"))], []
    for choice, part in ((range, ranges), (zone, zones)):
        if choice == "neither":
            continue
        match = [p for p in part if _slug(p[1]) == choice]
        if not match:
            raise RulesError(f"{choice!r} is not on the Fleeing Modifiers table")
        i, name, m = match[0]
        mod += m
        highlights.append(Highlight(T_FLEE, i))
        steps.append(f"{name}: {m:+d}.")
    result = check(agility, move, gear, mod, push, 1, rng)
    steps.insert(0, "Flee is a slow action; it needs no enemies at Arm's Length. "
                    f"Success: you leave combat. Roll Agility + Move, modification {mod:+d}.")
    return Result(("Flee: " + result.summary), result.values, tuple(steps) + result.steps,
                  result.odds, result.dice, tuple(highlights), result.notes)


def _social_mods() -> list[tuple[int, int, str]]:
    return [(i, modifier(r[0]) or 0, r[1]) for i, r in enumerate(_rows(T_SOCIAL_MODS))]


def _social_mod_inputs() -> list[Input]:
    """One input per row of § Social Modifiers (a count where the row says 'for each point')."""
    out = []
    for i, m, text in _social_mods():
        if "for each point" in text.lower():
            out.append(Input(f"mod_{i}", f"Reputation above your opponent's ({m:+d} each)",
                             default=0, min=0, max=6))
        else:
            out.append(Input(f"mod_{i}", f"{m:+d}: {text}", "bool", False))
    return out


def _social_action_choices() -> tuple[tuple[str, str], ...]:
    return tuple((_slug(r[0]), f"{r[0]}: {r[2]}") for r in _rows(T_SOCIAL_ACTIONS))


@calculator(
    id="forbidden_lands.social",
    title="Taunt, persuade or bluff",
    source=f"{DOC} § Social Actions, § Social Modifiers + {STANDARD_MODS}; {STANDARD_PUSH}",
    tables=(T_SOCIAL_ACTIONS, T_SOCIAL_MODS),
)
def social(
    *,
    action: Annotated[str, In("Social action", choices=_social_action_choices())
                      ] = _social_action_choices()[0][0],
    empathy: Annotated[int, In("Empathy (base dice)", 1, 6)] = 3,
    skill: Annotated[int, In("Performance or Manipulation (skill dice)", 0, 6)] = 1,
    bonus: Annotated[int, In("Bonus (gear dice)", 0, 6)] = 0,
    mods: Annotated[Mapping[str, Any], Each(_social_mod_inputs)],
    push: Annotated[str, In("Push the roll?", choices=PUSH_CHOICES)] = "no",
    rng: random.Random | None = None,
) -> Result:
    """Reference Tables § Social Actions (Empathy + skill + bonus) and § Social Modifiers."""
    rows = _rows(T_SOCIAL_ACTIONS)
    match = [i for i, r in enumerate(rows) if _slug(r[0]) == action]
    if not match:
        raise RulesError(f"{action!r} is not a social action on the sheet")
    highlights = [Highlight(T_SOCIAL_ACTIONS, match[0])]
    total, steps = 0, [f"{rows[match[0]][0]} (slow action): roll {rows[match[0]][2]}."]
    for i, m, text in _social_mods():
        raw = mods.get(f"mod_{i}", 0)
        if raw is True or (not isinstance(raw, bool) and raw > 0):
            times = 1 if isinstance(raw, bool) else int(raw)
            total += m * times
            highlights.append(Highlight(T_SOCIAL_MODS, i))
            steps.append(f"{m:+d}{f' x {times}' if times > 1 else ''}: {text}")
    unknown = set(mods) - {f"mod_{i}" for i, _, _ in _social_mods()}
    if unknown:
        raise RulesError(f"unknown input(s): {', '.join(sorted(unknown))}")
    result = check(empathy, skill, bonus, total, push, 1, rng)
    steps.append(f"Total modification {total:+d} (to the skill dice).")
    return Result(result.summary, result.values, tuple(steps) + result.steps, result.odds,
                  result.dice, tuple(highlights), result.notes)


# -- actions, initiative -----------------------------------------------------------------------
def _action_choices() -> tuple[tuple[str, str], ...]:
    out = [("none", "—"), ("reaction", "Dodge or parry (reaction: a fast action)")]
    for tid in (T_ATTACKS, T_NON_ATTACK):
        out += [(f"{tid}:{_slug(_clean(r[0]))}", f"{_clean(r[0])} ({r[1].lower()})")
                for r in _rows(tid)]
    return tuple(out)


@calculator(
    id="forbidden_lands.actions",
    title="Fast and slow actions in a round",
    source=f"{DOC} § Declare Action, § Target Declares Reaction, Reference Tables § Attacks, "
           "§ Non-Attack",
    tables=(T_NON_ATTACK,),
)
def actions(
    *,
    action1: Annotated[str, In("Action 1", choices=_action_choices())] = "none",
    action2: Annotated[str, In("Action 2", choices=_action_choices())] = "none",
    action3: Annotated[str, In("Action 3", choices=_action_choices())] = "none",
) -> Result:
    """Combat Order § Declare Action: 1 fast + 1 slow action, or 2 fast actions; a dodge or
    parry needs a fast action left (§ Target Declares Reaction)."""
    fast = slow = 0
    steps, highlights = [], []
    for choice in (action1, action2, action3):
        if choice == "none":
            continue
        if choice == "reaction":
            fast += 1
            steps.append("Dodge/parry: a fast action.")
            continue
        tid, _, slug = choice.partition(":")
        if tid not in (T_ATTACKS, T_NON_ATTACK):
            raise RulesError(f"{choice!r} is not an action on the sheet")
        rows = _rows(tid)
        match = [i for i, r in enumerate(rows) if _slug(_clean(r[0])) == slug]
        if not match:
            raise RulesError(f"{choice!r} is not an action on the sheet")
        r = rows[match[0]]
        highlights.append(Highlight(tid, match[0]))
        if r[1].lower() == "slow":
            slow += 1
        else:
            fast += 1
        steps.append(f"{_clean(r[0])}: {r[1].lower()} action.")
    ok = slow <= 1 and slow + fast <= 2
    fast_left = max(0, (1 if slow else 2) - fast) if ok else 0
    steps.append("Each round: 1 fast action + 1 slow action, OR 2 fast actions.")
    if ok:
        summary = (f"Allowed ({slow} slow, {fast} fast); {fast_left} fast action(s) left "
                   "for a dodge or parry")
    else:
        summary = f"Not allowed: {slow} slow and {fast} fast actions is more than a round allows"
    return Result(summary, (("Allowed", ok), ("Slow actions", slow), ("Fast actions", fast),
                            ("Fast actions left", fast_left)),
                  tuple(steps), highlight=tuple(highlights))


DECK = tuple(range(1, 11))  # initiative cards 1-10; the lowest card acts first


def card_distribution(surprise: bool) -> Distribution[int]:
    """Your initiative card: one card from 1-10, or with surprise the better of two (no
    replacement): counts of the better card over all C(10, 2) pairs."""
    if not surprise:
        return Distribution.die(DECK)
    return Distribution.from_counts({k: sum(1 for j in DECK if j > k) for k in DECK})


def position_distribution(combatants: int, surprise: bool, return_other: bool) -> Distribution[int]:
    """Your place in the order (1 = first): others draw from what is left of the deck."""
    others = combatants - 1
    pool = len(DECK) - 1 - (1 if surprise and not return_other else 0)
    if others > pool:
        raise RulesError(f"{combatants} combatants need more than the {len(DECK)} cards")
    counts: dict[int, int] = {}
    for k, ck in card_distribution(surprise):
        lower = k - 1  # cards better than yours; the card you did not keep is always worse
        for j in range(0, min(lower, others) + 1):
            ways = comb(lower, j) * comb(pool - lower, others - j)
            if ways:
                counts[j + 1] = counts.get(j + 1, 0) + ck * ways
    return Distribution.from_counts(counts)


@calculator(
    id="forbidden_lands.initiative",
    title="Initiative cards",
    source=f"{DOC} § Start of Combat, § Start of Round, § End Round + Forbidden Lands "
           "standard rule: the initiative cards are numbered 1-10 and card 1 acts first",
)
def initiative(
    *,
    combatants: Annotated[int, In("Combatants drawing a card (you included)", 1, 10)] = 4,
    surprise: Annotated[bool, In("Surprise: you draw 2 cards and keep the better")] = False,
    other_card: Annotated[str, In(
        "The card you do not keep",
        choices=(("returned", "goes back into the deck"),
                       ("set_aside", "is set aside")),
        help="the sheet does not say",
    )] = "returned",
    rng: random.Random | None = None,
) -> Result:
    """Combat Order § Start of Combat: draw initiative cards; surprise: draw 2, choose better.
    The lowest card acts first; the cards are kept for the whole combat (§ End Round)."""
    returned = other_card == "returned"
    cards = card_distribution(surprise)
    place = position_distribution(combatants, surprise, returned)
    steps = ["Each combatant draws one initiative card (1-10); the lowest card acts first."]
    if surprise:
        steps.append("Surprise: draw 2 cards and keep the better (lower) one.")
    steps.append("The same cards are kept for the whole combat; at the start of each round "
                 "players may exchange cards; a Feint (fast action) swaps initiative.")
    odds = (Odds.of(cards, "Your initiative card", lambda k: f"card {k}", cumulative=False),
            Odds.of(place, "Your place in the order", lambda n: f"#{n}", cumulative=False))
    values: list[tuple[str, Any]] = [("P(you act first)", place.probability(1))]
    summary = f"P(act first) = {_p(place.probability(1))}"
    dice: tuple[Die, ...] = ()
    notes = ("The sheet does not say whether the card not kept after surprise goes back into "
             "the deck; choose above.",) if surprise else ()
    if rng is not None:
        deck = list(DECK)
        rng.shuffle(deck)
        drawn = deck[:2] if surprise else deck[:1]
        mine = min(drawn)
        rest = [c for c in deck if c not in drawn] + ([max(drawn)] if surprise and returned else [])
        rng.shuffle(rest)
        theirs = sorted(rest[:combatants - 1])
        dice = tuple(Die(10, c, "kept" if c == mine else "not kept", "you") for c in drawn)
        dice += tuple(Die(10, c, "", "other") for c in theirs)
        mine_place = 1 + sum(1 for c in theirs if c < mine)
        steps.append(f"You drew {', '.join(map(str, drawn))} → card {mine}; the others drew "
                     f"{', '.join(map(str, theirs)) or 'nothing'}: you act #{mine_place}.")
        values = [("Your card", mine), ("Your place", mine_place), *values]
        summary = f"Card {mine}: you act #{mine_place} of {combatants}"
    return Result(summary, tuple(values), tuple(steps), odds, dice, notes=notes)


@calculator(
    id="forbidden_lands.initiative_swap",
    title="Swap initiative cards",
    source=f"{DOC} § Start of Round (players may exchange cards), § Non-Attack (Feint)",
    tables=(T_NON_ATTACK,),
)
def initiative_swap(
    *,
    your_card: Annotated[int, In("Your card", 1, 10)] = 5,
    their_card: Annotated[int, In("Their card", 1, 10)] = 2,
    how: Annotated[str, In(
        "How",
        choices=(("exchange", "Players exchange cards at the start of a round"),
                       ("feint", "Feint (fast action; the enemy is at arm's length)")),
    )] = "exchange",
) -> Result:
    """Combat Order § Start of Round: players may exchange initiative cards; Reference Tables
    § Non-Attack, Feint: swap initiative (fast action, enemy in arm's length range)."""
    if your_card == their_card:
        raise RulesError("two combatants cannot hold the same initiative card")
    highlights: tuple[Highlight, ...] = ()
    if how == "feint":
        highlights = (Highlight(T_NON_ATTACK, _row_index(T_NON_ATTACK, "Feint")),)
        step = "Feint: a fast action against an enemy at arm's length; you swap initiative."
    else:
        step = "At the start of the round the players exchange their cards."
    first = "you" if their_card < your_card else "they"
    steps = (step, f"You now hold card {their_card}, they hold {your_card}: {first} act first "
                   "(the lowest card acts first); keep these cards for the rest of the combat.")
    return Result(f"You now act on card {their_card}", (("Your card", their_card),
                                                        ("Their card", your_card)),
                  steps, highlight=highlights)


# -- attributes at zero and conditions ----------------------------------------------------------
ATTRIBUTES = ("Strength", "Agility", "Wits", "Empathy")


@calculator(
    id="forbidden_lands.broken",
    title="Damage to an attribute and being Broken",
    source=f"{DOC} § Apply Damage (if an attribute reaches zero), § Broken Effects",
    tables=(T_BROKEN, T_ZERO),
)
def broken(
    *,
    attribute: Annotated[str, In(
        "Attribute",
        choices=tuple((a, a) for a in ATTRIBUTES),
    )] = "Strength",
    current: Annotated[int, In("Current value", 0, 6)] = 3,
    damage: Annotated[int, In("Damage taken", 0, 30)] = 1,
    from_push: Annotated[bool, In("The damage came from your own pushed roll")] = False,
) -> Result:
    """Combat Order § Apply Damage and Reference Tables § Broken Effects."""
    if attribute not in ATTRIBUTES:
        raise RulesError(f"{attribute!r} is not an attribute")
    left = max(0, current - damage)
    steps = [f"{attribute} {current} - {damage} damage = {left}."]
    if left > 0:
        return Result(f"{attribute} {left}: not Broken", (("Attribute", left), ("Broken", False)),
                      tuple(steps))
    zi, bi = _row_index(T_ZERO, attribute), _row_index(T_BROKEN, attribute)
    z, b = _rows(T_ZERO)[zi], dict(zip(_header(T_BROKEN), _rows(T_BROKEN)[bi], strict=False))
    steps.append(f"{attribute} reached zero: {z[1]}. Allowed actions: {z[2]}.")
    crit = b.get("Critical", "")
    if crit and crit != "NA":
        if from_push:
            steps.append(f"Critical ({crit}): none — no critical if self-inflicted with a "
                         "pushed roll.")
        else:
            steps.append(f"Critical: {crit}.")
    steps.append(f"Broken: {b.get('Actions', '')} — {b.get('Effect', '')}".rstrip(" —"))
    return Result(f"{attribute} is Broken: {z[1]}", (("Attribute", 0), ("Broken", True)),
                  tuple(steps), highlight=(Highlight(T_ZERO, zi), Highlight(T_BROKEN, bi)))


CONDITIONS = (("hungry", "HUNGRY (no food)"), ("thirsty", "THIRSTY (no water)"),
              ("sleepy", "SLEEPY (no sleep)"))


@dataclass(frozen=True)
class ConditionDay:
    day: int
    strength: int
    agility: int
    wits: int
    event: str


def condition_timeline(condition: str, days: int, strength: int, agility: int,
                       wits: int) -> tuple[ConditionDay, ...]:
    """Day by day, per § HUNGRY / § THIRSTY / § SLEEPY. The condition begins after the first
    day without food, water or sleep; its damage falls at the end of each further week
    (HUNGRY) or day (THIRSTY, SLEEPY) spent in the condition."""
    out: list[ConditionDay] = []
    broken_day: int | None = None
    period = 7 if condition == "hungry" else 1
    for day in range(1, days + 1):
        event = ""
        if day == 1:
            event = f"{condition.upper()}"
        elif (day - 1) % period == 0:
            if broken_day is not None and day - broken_day >= period:
                out.append(ConditionDay(day, strength, agility, wits, "dies"))
                break
            if condition == "hungry":
                strength = max(0, strength - 1)
            elif condition == "thirsty":
                strength, agility = max(0, strength - 1), max(0, agility - 1)
            else:
                wits = max(0, wits - 1)
            event = "1 damage"
            if broken_day is None and min(strength, agility, wits) == 0:
                broken_day = day
                event += "; Broken" + (" — you collapse and sleep at least a Quarter Day"
                                       if condition == "sleepy" else "")
                if condition == "sleepy":
                    out.append(ConditionDay(day, strength, agility, wits, event))
                    break
        out.append(ConditionDay(day, strength, agility, wits, event))
    return tuple(out)


@calculator(
    id="forbidden_lands.conditions",
    title="Hungry, thirsty, sleepy: damage over days",
    source=f"{DOC} § HUNGRY, § THIRSTY, § SLEEPY",
)
def conditions(
    *,
    condition: Annotated[str, In("Condition", choices=CONDITIONS)] = "hungry",
    days: Annotated[int, In("Days without", 1, 120)] = 8,
    strength: Annotated[int, In("Strength", 1, 6)] = 4,
    agility: Annotated[int, In("Agility", 1, 6)] = 3,
    wits: Annotated[int, In("Wits", 1, 6)] = 3,
) -> Result:
    """§ HUNGRY: 1 Strength per week; Broken → dies after another week without food.
    § THIRSTY: 1 Strength and 1 Agility every day; Broken → dies after another day.
    § SLEEPY: 1 Wits each day; Broken Wits → you collapse and sleep a Quarter Day."""
    if condition not in dict(CONDITIONS):
        raise RulesError(f"{condition!r} is not a condition")
    line = condition_timeline(condition, days, strength, agility, wits)
    last = line[-1]
    steps = [f"Day {d.day}: Str {d.strength}, Agi {d.agility}, Wits {d.wits}"
             + (f" — {d.event}" if d.event else "") for d in line if d.event]
    dead = last.event == "dies"
    summary = (f"Dies on day {last.day}" if dead else
               f"After {last.day} days: Strength {last.strength}, Agility {last.agility}, "
               f"Wits {last.wits}")
    notes = ["You recover no Strength while HUNGRY (other attributes recover), no attribute "
             "while THIRSTY, no Wits while SLEEPY, except through magic.",
             "The sheet does not say on which day within a week HUNGRY damage falls; here at "
             "the end of each full week in the condition."]
    return Result(summary, (("Strength", last.strength), ("Agility", last.agility),
                            ("Wits", last.wits), ("Dead", dead), ("Days", last.day)),
                  tuple(steps), notes=tuple(notes))


@calculator(
    id="forbidden_lands.cold",
    title="COLD: Endurance rolls over time",
    source=f"{DOC} § COLD + Forbidden Lands standard rule: ENDURANCE is a Strength skill",
)
def cold(
    *,
    strength: Annotated[int, In("Strength (base dice)", 1, 6)] = 4,
    endurance: Annotated[int, In("Endurance (skill dice)", 0, 6)] = 1,
    gear: Annotated[int, In("Gear bonus", 0, 6)] = 0,
    rolls: Annotated[int, In("Rolls required", 1, 48)] = 6,
    strength_loss: Annotated[int, In(
        "Strength lost per failed roll",
        0,
        6,
        help="not on the sheet: use your rules",
    )] = 1,
    wits_loss: Annotated[int, In(
        "Wits lost per failed roll",
        0,
        6,
        help="not on the sheet: use your rules",
    )] = 1,
    wits: Annotated[int, In("Wits", 1, 6)] = 3,
) -> Result:
    """§ COLD: roll ENDURANCE at each interval, same effect on each failure; Broken Strength
    while COLD → you die the next time you have to roll. Exact odds by a Markov chain whose
    states carry integer counts (each roll multiplies the total by 6^dice)."""
    DicePool(strength, endurance, gear)  # limit check before any work
    top = strength + endurance + gear
    State = tuple[int, int, str]  # (strength, wits, "ok" | "broken" | "dead")
    dist: dict[State, int] = {(strength, wits, "ok"): 1}
    for _ in range(rolls):
        nxt: dict[State, int] = {}
        for (s, w, status), c in dist.items():
            if status != "ok":  # broken: dead at this roll; dead stays dead
                key = (s, w, "dead")
                nxt[key] = nxt.get(key, 0) + c * 6 ** top
                continue
            n = s + endurance + gear
            fail = 5 ** n * 6 ** (top - n)  # no ✘ on n dice, scaled to 6^top
            ok_key = (s, w, "ok")
            nxt[ok_key] = nxt.get(ok_key, 0) + c * (6 ** top - fail)
            s2, w2 = max(0, s - strength_loss), max(0, w - wits_loss)
            key = (s2, w2, "broken" if s2 == 0 else "ok")
            nxt[key] = nxt.get(key, 0) + c * fail
        dist = nxt
    d = Distribution.from_counts(dist)
    p_dead = d.p(lambda o: o[2] == "dead")
    steps = (f"Roll Strength + Endurance + gear each time ({strength} + {endurance} + {gear} "
             "dice at full Strength); a roll fails on no ✘.",
             f"Each failure: -{strength_loss} Strength, -{wits_loss} Wits (your rules' effect).",
             "Strength Broken while COLD: you die the next time you have to roll.")
    odds = (Odds.of(d.map(lambda o: o[0]), "Strength after the rolls", str),
            Odds.of(d.map(lambda o: o[2]), "Outcome", str, cumulative=False))
    notes = ("The sheet does not give the effect of a failed ENDURANCE roll: set it above.",
             "You cannot recover Strength or Wits until you warm up.")
    return Result(f"P(dead) = {_p(p_dead)}", (("P(dead)", p_dead),
                                             ("P(Strength Broken)", d.p(lambda o: o[0] == 0))),
                  steps, odds, notes=notes)
