"""Combat Order: attack, reaction, armour save and damage (Reference Tables § Attacks)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from ..dice import Distribution, Draw
from ..errors import InputError, LimitError, RulesError
from ..kernel import Faces, In, Roll, rolled
from ..result import Highlight, Odds, Result
from .dice import (
    PUSH_CHOICES,
    DicePool,
    PoolRoll,
    RolledDie,
    _faces,
    _p,
    _policy,
    _succ_label,
    make_pool,
    net_successes,
    pool_vectors,
    pushed_roll,
    roll_pool,
    show,
    successes,
    successes_and_banes,
    tally,
)
from .sheet import (
    BANE,
    MAX_ARMOUR,
    SHEET,
    STANDARD_MODS,
    STANDARD_PUSH,
    SUCCESS,
    T_ATTACKS,
    T_FEATURES,
    T_NON_ATTACK,
    T_RANGE,
    TABLES,
    _clean,
    _slug,
    attribute_in,
    dice_in,
    modifier,
    outside_rules,
)

# -- attack, reaction, armour -------------------------------------------------------------------
REACTIONS = (("none", "No reaction"), ("dodge", "Dodge (Agility + Move + bonus)"),
             ("parry_parrying", "Parry with a Parrying weapon (Strength + Melee + bonus)"),
             ("parry_weapon", "Parry with a weapon without Parrying (Strength + Melee + bonus)"),
             ("parry_shield", "Parry with a shield (Strength + Melee + bonus)"))
_REACTION_COLUMN = {"dodge": "Dodge", "parry_parrying": "Parrying Wpn", "parry_weapon": "Wpn",
                    "parry_shield": "Shield"}


def _attack_choices() -> tuple[tuple[str, str], ...]:
    return tuple((_slug(_clean(r[0])), _clean(r[0])) for r in TABLES[T_ATTACKS].rows())


def _range_choices() -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for r in TABLES[T_RANGE].rows():
        cell = r[1]
        if "/" in cell:  # "Arm's Length -3/+3": the sheet gives both without saying when
            for part in cell.split("/"):
                out.append((f"{_slug(r[0])}:{part.strip()}", f"{r[0]} ({part.strip()})"))
        else:
            out.append((_slug(r[0]), f"{r[0]} ({cell})"))
    return tuple(out)


RANGE_DEFAULT = "near"  # the Range input's default: no modifier ("-" on the sheet)


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
    header = TABLES[T_ATTACKS].header()
    for i, r in enumerate(TABLES[T_ATTACKS].rows()):
        if _slug(_clean(r[0])) == choice:
            cells = dict(zip(header, r, strict=False))
            return AttackRow(i, _clean(r[0]), cells["Speed"], cells["Skill"], cells["Required"],
                             {c: modifier(cells[c]) for c in _REACTION_COLUMN.values()},
                             cells["Effect"])
    raise RulesError(f"{choice!r} is not an attack on the sheet")


def range_modifier(choice: str) -> tuple[int, int, str]:
    """(row index, modifier, cell) from Reference Tables § Range Modifiers."""
    slug, _, part = choice.partition(":")
    for i, r in enumerate(TABLES[T_RANGE].rows()):
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


def damage_before_armour(weapon_damage: int, hits: int, bonus: int) -> int:
    """A single ✘ does the weapon's damage; each extra ✘ +1 (Combat Order § Roll Action),
    and Swing/Aim their bonus."""
    return weapon_damage + hits - 1 + bonus if hits >= 1 else 0


def armour_result(rating: int, damage: int, armour_successes: int,
                  armour_banes: int) -> tuple[int, int]:
    """(damage through, rating lost): each ✘ cuts 1 damage; each ☠ and each point through
    lowers the rating by 1 (Combat Order § Armor Save, steps 3-4), never below zero."""
    through = max(0, damage - armour_successes)
    return through, min(rating, armour_banes + through)


@SHEET.calculator(title="Armour save", at="Armor Save", id="forbidden_lands.armour")
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

    def say(armour_dice: tuple[RolledDie, ...], _: Faces) -> Roll:
        got = tally(armour_dice)
        through, lost = armour_result(save.rating, damage, got[0], got[3])
        return Roll(
            f"{through} damage through; armour rating {save.rating} → {save.rating - lost}",
            show(armour_dice, "armour "), (("Damage through", through),
                                           ("Armour rating lost", lost)),
            steps=(f"Rolled {_faces(armour_dice)}: {got[0]} {SUCCESS}, {got[3]} {BANE} → "
                   f"{through} damage through, rating {save.rating} → {save.rating - lost}.",))

    return rolled(Result(f"Average damage through {float(mean):.2f}",
                         (("Mean damage through", mean),), tuple(steps), odds, notes=notes),
                  rng, lambda draw: roll_pool(draw, save.pool()), say)


@SHEET.calculator(title="Attack, reaction, armour and damage",
                  at="Combat Order (Declare Action to Apply Damage), Reference Tables § Attacks, "
                     "§ Range Modifiers, § Non-Attack (Swing, Aim), "
                     f"§ Weapon Features (Heavy, Parrying) + {STANDARD_MODS}; {STANDARD_PUSH}",
                  tables=(T_ATTACKS, T_RANGE, T_FEATURES),
                  description="Exact odds of the damage an attack does after the target's reaction "
                              "and armour.")
def attack(
    *,
    action: Annotated[str, In("Attack", choices=_attack_choices())] = "slash",
    attribute: Annotated[int, attribute_in("Attribute: Strength (melee) or Agility (Shoot)")] = 4,
    skill: Annotated[int, dice_in("Skill: Melee or Marksmanship")] = 2,
    weapon_bonus: Annotated[int, dice_in("Weapon bonus (gear dice)")] = 1,
    weapon_damage: Annotated[int, In(
        "Weapon damage rating",
        0,
        10,
        help="from your weapon; not on the sheet",
    )] = 1,
    modification: Annotated[int, In("Other modification (skill dice)", -6, 6)] = 0,
    range: Annotated[str, In("Range (Shoot only)", choices=_range_choices())] = RANGE_DEFAULT,
    heavy_swing: Annotated[bool, In("Heavy weapon: Swing first (+1 damage)")] = False,
    aim: Annotated[bool, In("Aim first (+1 damage; Shoot only)")] = False,
    push: Annotated[str, In("Attacker pushes?", choices=PUSH_CHOICES)] = "no",
    reaction: Annotated[str, In("Target's reaction", choices=REACTIONS)] = "none",
    defender_attribute: Annotated[int, attribute_in(
        "Target: Agility (dodge) or Strength (parry)")] = 3,
    defender_skill: Annotated[int, dice_in("Target: Move (dodge) or Melee (parry)")] = 1,
    defender_bonus: Annotated[int, dice_in("Target: bonus (gear dice)")] = 0,
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
        raise InputError("aim", "Aim needs a readied ranged weapon and a Shoot in the same round")
    if heavy_swing and row.action not in ("Slash", "Stab"):
        raise InputError(
            "heavy_swing", "Swing (Heavy weapon) must be followed by a stab or a slash")
    mod = modification
    if shoot:
        r_index, r_mod, r_cell = range_modifier(range)
        if "requires aim" in r_cell.lower() and not aim:
            raise InputError("range", f"the sheet says {r_cell}: Aim first to shoot at that range")
        highlights.append(Highlight(T_RANGE, r_index))
        mod += r_mod
        steps.append(f"Range {TABLES[T_RANGE].rows()[r_index][0]}: {r_mod:+d} (skill dice).")
        if "/" in r_cell:
            notes.append(f"The sheet gives Arm's Length as {r_cell} without saying when each "
                         "applies: choose the one your table uses.")
    elif range != RANGE_DEFAULT:  # a melee blow has no range modifier (issue #29 item 4)
        name = TABLES[T_RANGE].rows()[range_modifier(range)[0]][0]
        notes.append(f"Range {name} ignored: the Range Modifiers are for Shoot (Marksmanship); "
                     f"{row.action} is a {row.skill} attack, and gets no range modifier.")
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
            raise InputError(
                "reaction", f"{row.action} cannot be met with that reaction (X on the sheet)")
        kind = "Dodge" if reaction == "dodge" else "Parry"
        dmod = rmod
        extra = ""
        if reaction == "parry_weapon":  # Weapon Features § Parrying
            dmod -= 2
            extra = "; -2 for a weapon without the Parrying feature"
            highlights.append(Highlight(T_FEATURES, TABLES[T_FEATURES].index("Parrying")))
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
        highlights += [Highlight(T_NON_ATTACK, TABLES[T_NON_ATTACK].index("Swing")),
                       Highlight(T_FEATURES, TABLES[T_FEATURES].index("Heavy"))]
    if aim:
        highlights.append(Highlight(T_NON_ATTACK, TABLES[T_NON_ATTACK].index("Aim")))
    save = ArmourSave(armour, helmet)
    pushed, dpushed = _policy(push), _policy(defender_push)

    def damage_of(hits: int) -> int:
        return damage_before_armour(weapon_damage, hits, bonus)

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

    def fight(draw: Draw) -> tuple[PoolRoll, PoolRoll | None, tuple[RolledDie, ...] | None]:
        """The attack (and its push), the reaction (and its push), and the armour dice on a
        damaging hit: in the order the Combat Order rolls them."""
        a = pushed_roll(pool, pushed)(draw)
        d = pushed_roll(defence, dpushed)(draw) if defence else None
        h = max(0, net_successes(tally(a[1] or a[0]))
                - (net_successes(tally(d[1] or d[0])) if d else 0))
        armour = roll_pool(draw, save.pool()) if row.damaging and h and save.rating else None
        return a, d, armour

    def say(got: tuple[PoolRoll, PoolRoll | None, tuple[RolledDie, ...] | None],
            _: Faces) -> Roll:
        (a_first, a_again), d, s_dice = got
        dice = show(a_first, "attack ") + (show(a_again, "attack pushed ") if a_again else ())
        a = tally(a_again or a_first)
        d_succ = 0
        if d is not None:
            dice += show(d[0], "reaction ") + (show(d[1], "reaction pushed ") if d[1] else ())
            d_succ = net_successes(tally(d[1] or d[0]))
        h = max(0, net_successes(a) - d_succ)
        steps = [f"Rolled: attack {net_successes(a)} {SUCCESS}, reaction {d_succ} "
                 f"{SUCCESS} → {h} {SUCCESS} left."]
        first: tuple[tuple[str, Any], ...] = ((f"Attack {SUCCESS} left", h),)
        more: tuple[tuple[str, Any], ...] = ()
        if a_again:
            more = (("Attacker's attribute damage (pushed)", a[2]),
                    ("Weapon bonus lost (pushed)", a[3]))
        summary = "Miss" if h == 0 else "Hit"
        if row.damaging and h:
            dmg = damage_of(h)
            through, lost = dmg, 0
            if s_dice is not None:
                dice += show(s_dice, "armour ")
                sv = tally(s_dice)
                through, lost = armour_result(save.rating, dmg, sv[0], sv[3])
                steps.append(f"Armour: {sv[0]} {SUCCESS}, {sv[3]} {BANE} → {through} of {dmg} "
                             f"damage through; rating {save.rating} → {save.rating - lost}.")
            first += (("Damage to Strength", through), ("Armour rating lost", lost))
            summary = f"Hit: {through} damage to Strength"
        elif h:
            summary = f"Success ({h} {SUCCESS}): {row.effect}"
        return Roll(summary, dice, first, more, tuple(steps))

    notes.append("Weapon damage ratings are on the weapon, not on the sheet.")
    notes += outside_rules(pushed != "no" or dpushed != "no",
                           mod != 0 or (reaction != "none" and dmod != 0))
    return rolled(Result(summary, tuple(values), tuple(steps), tuple(odds), (),
                         tuple(highlights), tuple(notes)), rng, fight, say)
