"""The d10 mecha game: personal-scale (non-mecha) combat.

Source: sources/mecha-d10-non-mecha-combat.md. Table values are read from the
extracted data (rules_pkg/data/mecha.json); the few numbers the source gives in
its lists (aim +4/+6, cover, blindfighting, auto fire -2, entangled -4, break
away on 6-10) are named constants below, each checked against the source text
by the tests.

The game's die is a d10 ("1 die + Reflex"; "Roll one die: 6-10 = break away").
A skill test is one die plus the character's score for that skill; the source
does not spell the test out, so the score is an explicit input.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from . import data
from .dice import Distribution, roll
from .errors import LimitError, RulesError
from .kernel import In, calculator
from .registry import Die, Highlight, Odds, Result

GAME = "mecha"
DOC = "Mecha d10 Non-Mecha Combat"
SIDES = 10
MAX_DAMAGE_DICE = 60  # the most d10s one damage roll may hold (checked before any work)
MAX_ARMOUR_DICE = 10
MAX_SCORE = 30  # the largest skill / Reflex / feat score accepted

# Numbers the source states in its lists (Combat Actions), not in tables.
AIM_BONUS = {0: 0, 1: 4, 2: 6}  # § Aiming: one action +4, two actions +6
COVER = {"none": 0, "light": -2, "heavy": -4}  # § Cover: to those attacking you
SIGHT = {"clear": 0, "difficult": -2, "obscuring": -4}  # § Blindfighting
AUTO_FIRE_DEFENCE = -2  # § Automatic Weapons fire, 2: all targets defend with -2
ENTANGLED = -4  # § Entangling: -4 to all physical actions while entangled
BREAK_AWAY_FROM = 6  # § Breaking Away: 6-10 breaks away; one less chance per extra opponent
ACTIONS_PER_LOST = 5  # § Entangling: 1 action lost per 5 points the strength test is beaten by


# -- reading the extracted tables -------------------------------------------------------------
def _table_id(keyword: str) -> str:
    """The id of the table whose title (header or first row) starts with `keyword`.

    Looked up by content so a re-extraction that renames ids still finds the table.
    """
    for tid, t in data.tables(GAME).items():
        cells = [*t["header"][:1], *(t["rows"][0]["cells"][:1] if t["rows"] else [])]
        if any(c.strip().lower().startswith(keyword.lower()) for c in cells):
            return tid
    raise RulesError(f"no {keyword!r} table in the {GAME} data")


@cache
def table_ids() -> dict[str, str]:
    return {k: _table_id(v) for k, v in (
        ("types", "TYPE OF COMBAT"), ("actions", "Multiple Action"), ("range", "Range"),
        ("success", "Success Based"), ("strength", "Strength Based"), ("called", "Target Size"))}


def _rows(key: str) -> list[tuple[str, ...]]:
    return [tuple(r["cells"]) for r in data.table(GAME, table_ids()[key])["rows"]]


_INT = re.compile(r"^\s*([+\-]?\d+)")
_SPAN = re.compile(r"^\s*(\d+)\s*[-\u2013]\s*(\d+)\s*$")


def number(cell: str) -> int:
    """'+2' -> 2, '-1 Die' -> -1, '0' -> 0."""
    m = _INT.match(cell)
    if not m:
        raise RulesError(f"cannot read a number from {cell!r}")
    return int(m.group(1))


def span(cell: str) -> tuple[int, int] | None:
    """'6-10' -> (6, 10); a non-range cell (a sub-header) -> None."""
    m = _SPAN.match(cell)
    return (int(m.group(1)), int(m.group(2))) if m else None


def banded(key: str, value: int) -> tuple[int, int]:
    """(row index, number) of the band holding `value` in a banded table, or RulesError."""
    for i, r in enumerate(_rows(key)):
        band = span(r[0])
        if band and band[0] <= value <= band[1]:
            return i, number(r[1])
    raise RulesError(f"{value} is outside the {table_ids()[key]} table (not in the source)")


def success_dice(margin: int) -> tuple[int, int]:
    """§ 4 Roll Damage, Success Based Damage: result greater than the defender's by …"""
    return banded("success", margin)


def strength_dice(strength: int) -> tuple[int, int]:
    """§ 5 Check Wounds, Strength Based Damage: Strength -> ± dice."""
    return banded("strength", strength)


def action_penalty(actions: int) -> tuple[int, int]:
    """§ 2 Declare Number of Actions, Multiple Action Penalty (per action)."""
    for i, r in enumerate(_rows("actions")):
        if r[0].strip() == str(actions):
            return i, number(r[1])
    raise RulesError(f"the source gives no penalty for {actions} actions")


def max_success_margin() -> int:
    return max(b[1] for r in _rows("success") if (b := span(r[0])))


def max_success_dice() -> int:
    return max(number(r[1]) for r in _rows("success") if span(r[0]))


def _choices(key: str) -> tuple[tuple[str, str], ...]:
    return tuple((str(i), f"{r[0]} ({r[1]})") for i, r in enumerate(_rows(key)))


# -- dice ---------------------------------------------------------------------------------------
_SUMS: list[list[int]] = [[1]]  # _SUMS[n][t]: ways n d10 total t, built one die at a time


def _add_d10(counts: list[int]) -> list[int]:
    """One more d10: each new total is the sum of a window of 10 old totals (prefix sums)."""
    prefix = [0]
    for c in counts:
        prefix.append(prefix[-1] + c)
    top = len(counts) - 1 + SIDES
    n = len(counts)
    # new[t] = old[t-10] + ... + old[t-1] = prefix[t] - prefix[t-10], clamped to the list
    return [prefix[max(0, min(t, n))] - prefix[max(0, min(t - SIDES, n))] for t in range(top + 1)]


def d10_sum(n: int) -> Distribution[int]:
    """The total of n d10 (0 for no dice): exact integer counts, kept between calls so a
    mixture over many dice counts costs one linear step per extra die."""
    if n > MAX_DAMAGE_DICE:
        raise LimitError(f"at most {MAX_DAMAGE_DICE} damage dice (asked for {n})")
    while len(_SUMS) <= n:
        _SUMS.append(_add_d10(_SUMS[-1]))
    return Distribution.from_counts(dict(enumerate(_SUMS[max(n, 0)])))


def mixture(weights: Distribution[int]) -> Distribution[int]:
    """Σ_n P(n) · (sum of n d10), kept in integer counts (each part scaled to 10^max)."""
    top = max(max(n, 0) for n in weights.outcomes())
    counts: dict[int, int] = {}
    for n, w in weights:
        part = d10_sum(max(n, 0))
        scale = w * SIDES ** (top - max(n, 0))
        for v, c in part:
            counts[v] = counts.get(v, 0) + c * scale
    return Distribution.from_counts(counts)


def after_armour(damage: Distribution[int], armour_dice: int) -> Distribution[int]:
    """§ 5 Check Wounds: subtract the total of the armour roll from the damage."""
    if armour_dice > MAX_ARMOUR_DICE:
        raise LimitError(f"at most {MAX_ARMOUR_DICE} armour dice (asked for {armour_dice})")
    if armour_dice == 0:
        return damage
    if min(damage.outcomes()) < 0:
        raise RulesError("damage cannot be negative")
    armour = _SUMS[armour_dice] if len(_SUMS) > armour_dice else None
    if armour is None:
        d10_sum(armour_dice)
        armour = _SUMS[armour_dice]
    top = max(damage.outcomes())
    dmg = [0] * (top + 1)
    for d, c in damage:
        dmg[d] = c
    prefix = [0]
    for c in dmg:
        prefix.append(prefix[-1] + c)
    out = [0] * (top + 1)
    for a, ca in enumerate(armour):
        if not ca:
            continue
        out[0] += ca * prefix[min(a + 1, top + 1)]  # damage at or below the roll: nothing through
        # damage d > a leaves d - a: add the shifted tail in one list pass
        tail = dmg[a + 1:]
        out[1:1 + len(tail)] = [x + ca * y for x, y in zip(out[1:1 + len(tail)], tail,
                                                           strict=True)]
    return Distribution.from_counts(dict(enumerate(out)))


# -- the combat contest ------------------------------------------------------------------------
MISS, HIT, FUMBLE = "miss", "hit", "fumble"


@dataclass(frozen=True)
class Contest:
    """§ 3 Make Combat Contests: attacker's die + score + modifiers against the defender's.

    The attack succeeds only if its result is higher; equal or lower fails. `fumble_face`
    (0 = not used) is the die face that is a critical failure: the source names critical
    failures but not the roll that causes them.
    """

    attack: int  # attacker's score + modifiers
    defence: int  # defender's score + modifiers
    fumble_face: int = 0

    def outcome(self, a_die: int, d_die: int) -> tuple[str, int]:
        if self.fumble_face and a_die == self.fumble_face:
            return FUMBLE, 0  # § Critical Failures, Attack: lose the next two actions
        # § Critical Failures, Defence: treat the defence roll as zero.
        d_total = 0 if self.fumble_face and d_die == self.fumble_face else d_die + self.defence
        margin = a_die + self.attack - d_total
        return (HIT, margin) if margin > 0 else (MISS, margin)

    def distribution(self) -> Distribution[tuple[str, int]]:
        d = Distribution.d(SIDES)
        return d.combine(d, self.outcome)


@dataclass(frozen=True)
class DamageSpec:
    """Damage dice: success dice + weapon dice + strength dice (+ called shot, + rounds)."""

    weapon: int  # weapon's dice (+1 weapon = one die)
    strength: int  # strength-based ± dice (0 if not a hand weapon)
    called: int = 0  # called shot DMG bonus, counted as dice
    extra_rounds: int = 0  # rounds after the first (auto fire) or 1 (burst)

    def dice(self, success: int) -> int:
        return success + self.weapon + self.strength + self.called + self.weapon * self.extra_rounds


def damage_dice_distribution(contest: Distribution[tuple[str, int]], spec: DamageSpec,
                             rounds: Distribution[int] | None = None,
                             ) -> Distribution[int] | None:
    """Number of damage dice for each hit (misses and margins past the table excluded);
    None when no hit inside the table is possible."""
    top = max_success_margin()
    counts = {m: c for (k, m), c in contest if k == HIT and m <= top}
    if not counts:
        return None
    hits = Distribution.from_counts(counts)
    n = hits.map(lambda m: success_dice(m)[1])
    if rounds is None:
        return n.map(spec.dice)
    return n.combine(rounds, lambda s, r: spec.dice(s) + spec.weapon * (r - 1))


# -- presenting ---------------------------------------------------------------------------------
def _p(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator} ≈ {float(f):.1%}"


FIRE_MODES = (("single", "Single shot / blow"), ("burst", "Three-round burst"),
              ("auto5", "Auto fire, rate 1-5 (half a die)"),
              ("auto10", "Auto fire, rate 1-10 (a full die)"),
              ("suppressive", "Suppressive fire (target moves into the arc)"))


def rounds_distribution(mode: str) -> Distribution[int] | None:
    """§ Automatic Weapons fire, 3: roll the rate: 1/2 a die (1-5) or 1 full die (1-10)."""
    if mode == "auto5":
        return Distribution.d(SIDES).map(lambda f: (f + 1) // 2)
    if mode == "auto10":
        return Distribution.d(SIDES)
    return None


def _combat_type_choices() -> tuple[tuple[str, str], ...]:
    return tuple((str(i), r[0].strip("•- ").strip()) for i, r in enumerate(_rows("types")))


def _called_choices() -> tuple[tuple[str, str], ...]:
    rows = _rows("called")
    return (("none", "None"),
            *((str(i), f"{r[0]} (test {r[1]}, DMG {r[2]})") for i, r in enumerate(rows)))


def _range_choices() -> tuple[tuple[str, str], ...]:
    return _choices("range")


def _action_choices() -> tuple[tuple[str, str], ...]:
    return tuple((r[0].strip(), f"{r[0].strip()} ({r[1].strip()})") for r in _rows("actions")
                 if r[0].strip().isdigit())


@dataclass(frozen=True)
class Modifier:
    what: str
    value: int
    highlight: Highlight | None = None


def _lookup_row(key: str, choice: str) -> tuple[int, tuple[str, ...]]:
    rows = _rows(key)
    if not choice.isdigit() or int(choice) >= len(rows):
        raise RulesError(f"{choice!r} is not a row of the {table_ids()[key]} table")
    return int(choice), rows[int(choice)]


# == calculators ===============================================================================
# Inputs the attack and the damage calculators share, declared once. The weapon's dice
# default to a +1 weapon: the form always offered 1, while the attack's signature once said 0.
WeaponDiceIn = Annotated[int, In("Weapon damage dice (+1 weapon = 1)", -3, 6)]
WEAPON_DICE_DEFAULT = 1
ArmourDiceIn = Annotated[int, In("Defender's armour dice", 0, MAX_ARMOUR_DICE)]
ARMOUR_DICE_DEFAULT = 0


@calculator(
    id="mecha.attack",
    title="Combat contest and damage",
    source=f"{DOC} § COMBAT (Non-Mecha) 2-5 (actions, contests, range, damage, wounds), "
           "§ Combat Actions (Aiming, Automatic Weapons fire, Suppressive Fire, "
           "Blindfighting, Called Shots, Cover, Critical Failures, Entangling)",
    tables=tuple(table_ids()[k] for k in ("types", "actions", "range", "success",
                                          "strength", "called")),
    description="Exact odds that the attack beats the defence, and of the damage after armour.",
)
def attack(
    *,
    combat: Annotated[str, In(
        "Type of combat",
        choices=_combat_type_choices(),
    )] = _combat_type_choices()[-1][0],
    thrown: Annotated[bool, In("Thrown weapon")] = False,
    mode: Annotated[str, In("Fire mode", choices=FIRE_MODES)] = "single",
    attack_score: Annotated[int, In("Attacker's skill score (added to the die)", 0, MAX_SCORE)] = 6,
    defence_score: Annotated[int, In(
        "Defender's skill score (added to the die)",
        0,
        MAX_SCORE,
    )] = 5,
    actions: Annotated[str, In("Attacker's actions this turn", choices=_action_choices())] = "1",
    defender_actions: Annotated[str, In(
        "Defender's actions this turn",
        choices=_action_choices(),
    )] = "1",
    range: Annotated[str, In(
        "Range (firefight or thrown)",
        choices=_range_choices(),
    )] = next((v for v, lab in _range_choices() if "(0)" in lab), _range_choices()[0][0]),
    aim: Annotated[str, In(
        "Actions spent aiming",
        choices=(("0", "None"), ("1", "One (+4)"), ("2", "Two (+6)")),
    )] = "0",
    called: Annotated[str, In("Called shot", choices=_called_choices())] = "none",
    cover: Annotated[str, In(
        "Defender's cover",
        choices=(("none", "None"), ("light", "Light (-2)"), ("heavy", "Heavy (-4)")),
    )] = "none",
    attacker_sight: Annotated[str, In(
        "Attacker's sight",
        choices=(("clear", "Clear"), ("difficult", "Difficult: light fog/dusk (-2)"),
                       ("obscuring", "Obscuring: heavy smoke/darkness (-4)")),
    )] = "clear",
    defender_sight: Annotated[str, In(
        "Defender's sight",
        choices=(("clear", "Clear"), ("difficult", "Difficult: light fog/dusk (-2)"),
                       ("obscuring", "Obscuring: heavy smoke/darkness (-4)")),
    )] = "clear",
    attacker_entangled: Annotated[bool, In("Attacker entangled (-4)")] = False,
    defender_entangled: Annotated[bool, In("Defender entangled (-4)")] = False,
    weapon_dice: WeaponDiceIn = WEAPON_DICE_DEFAULT,
    strength: Annotated[int, In("Attacker's Strength (hand weapons, bare hands)", 1, 15)] = 5,
    armour_dice: ArmourDiceIn = ARMOUR_DICE_DEFAULT,
    fumble_face: Annotated[int, In(
        "Critical failure on a die of (0 = off)",
        0,
        SIDES,
        help="the source does not say which roll is a critical failure",
    )] = 0,
    rng: random.Random | None = None,
) -> Result:
    """§ 3 Make Combat Contests, § 4 Roll Damage, § 5 Check Wounds, with § Combat Actions."""
    ids = table_ids()
    ci, crow = _lookup_row("types", combat)
    firefight = "firefight" in crow[0].lower()
    if mode != "single" and not firefight:
        raise RulesError("burst, auto and suppressive fire are firefight modes")
    if thrown and firefight:
        raise RulesError("thrown weapons are close quarters armed fighting on the source's "
                         "table; choose that type")
    hl = [Highlight(ids["types"], ci)]
    att: list[Modifier] = []
    dfn: list[Modifier] = []
    automatic = mode in ("auto5", "auto10")
    if automatic:  # § Automatic Weapons fire, 1: uses all the character's actions
        if actions != "1":
            raise RulesError("an auto fire attack uses all a character's actions for the turn")
        dfn.append(Modifier("auto fire: targets defend with", AUTO_FIRE_DEFENCE))
    ai, apen = action_penalty(int(actions)) if actions.isdigit() else (-1, 0)
    if ai < 0:
        raise RulesError(f"{actions!r} is not a number of actions")
    att.append(Modifier(f"{actions} action(s)", apen, Highlight(ids["actions"], ai)))
    di, dpen = action_penalty(int(defender_actions)) if defender_actions.isdigit() else (-1, 0)
    if di < 0:
        raise RulesError(f"{defender_actions!r} is not a number of actions")
    dfn.append(Modifier(f"defender's {defender_actions} action(s)", dpen))
    if firefight or thrown:  # § 3: if firefight or thrown weapons, check range
        ri, rrow = _lookup_row("range", range)
        att.append(Modifier(f"range {rrow[0]}", number(rrow[1]), Highlight(ids["range"], ri)))
    if aim not in ("0", "1", "2"):
        raise RulesError("aiming takes 0, 1 or 2 actions")
    att.append(Modifier("aiming", AIM_BONUS[int(aim)]))
    called_dice = 0
    if called != "none":
        ki, krow = _lookup_row("called", called)
        att.append(Modifier(f"called shot: {krow[0]}", number(krow[1]),
                            Highlight(ids["called"], ki)))
        called_dice = number(krow[2])
    for name, table, value in (("cover", COVER, cover), ("attacker's sight", SIGHT,
                                                          attacker_sight)):
        if value not in table:
            raise RulesError(f"{value!r} is not a choice for {name}")
    if defender_sight not in SIGHT:
        raise RulesError(f"{defender_sight!r} is not a choice for the defender's sight")
    att.append(Modifier(f"defender's {cover} cover", COVER[cover]))
    att.append(Modifier(f"{attacker_sight} sight", SIGHT[attacker_sight]))
    dfn.append(Modifier(f"defender's {defender_sight} sight", SIGHT[defender_sight]))
    if attacker_entangled:
        att.append(Modifier("attacker entangled", ENTANGLED))
    if defender_entangled:
        dfn.append(Modifier("defender entangled", ENTANGLED))
    # Damage dice: strength dice only for hand weapons, bare hands, natural weapons.
    si, sdice = strength_dice(strength) if not firefight else (-1, 0)
    if si >= 0:
        hl.append(Highlight(ids["strength"], si))
    extra = 1 if mode in ("burst", "suppressive") else 0
    spec = DamageSpec(weapon_dice, sdice, called_dice, extra)
    hl += [m.highlight for m in (*att, *dfn) if m.highlight]
    a_mod = sum(m.value for m in att)
    d_mod = sum(m.value for m in dfn)
    contest = Contest(attack_score + a_mod, defence_score + d_mod, fumble_face)
    # Limits before the heavy work: the most dice any hit could need.
    rounds = rounds_distribution(mode)
    most = spec.dice(max_success_dice()) + (
        spec.weapon * (max(rounds.outcomes()) - 1) if rounds else 0)
    if most > MAX_DAMAGE_DICE:
        raise LimitError(f"at most {MAX_DAMAGE_DICE} damage dice (this attack could need {most})")
    if armour_dice > MAX_ARMOUR_DICE:
        raise LimitError(f"at most {MAX_ARMOUR_DICE} armour dice")
    cd = contest.distribution()
    p_hit = cd.p(lambda o: o[0] == HIT)
    top = max_success_margin()
    p_past = cd.p(lambda o: o[0] == HIT and o[1] > top)
    fmt = ", ".join(f"{m.what} {m.value:+d}" for m in att if m.value)
    dfmt = ", ".join(f"{m.what} {m.value:+d}" for m in dfn if m.value)
    steps = [f"Attacker: 1 die + {attack_score}" + (f" ({fmt})" if fmt else "")
             + f" = die + {contest.attack}.",
             f"Defender: 1 die + {defence_score}" + (f" ({dfmt})" if dfmt else "")
             + f" = die + {contest.defence}.",
             "If the attacker's result is higher the attack succeeds; equal or lower fails."]
    if aim != "0":
        steps.append(f"Aiming ({aim} action(s)): +{AIM_BONUS[int(aim)]}; the bonus is lost if "
                     "you had to defend yourself in any way between aiming and firing.")
    if mode == "suppressive":
        steps.insert(0, "Suppressive fire: a normal attack roll without a target; each of the "
                        "first ten targets moving into the arc within short range defends "
                        "against it or is struck as by a three-round burst.")
    dice_n = damage_dice_distribution(cd, spec, rounds)
    steps.append("Damage dice = success dice (margin 1-5: 1, 6-10: 2, … from the table)"
                 + f" {weapon_dice:+d} weapon" + (f" {sdice:+d} Strength" if si >= 0 else "")
                 + (f" {called_dice:+d} called shot" if called_dice else "")
                 + (" + the weapon's dice once more (burst)" if extra else "")
                 + (" + the weapon's dice for each round after the first (auto fire)"
                    if rounds else "") + "; roll them all and add.")
    if armour_dice:
        steps.append(f"Armour roll: {armour_dice} dice, subtracted from the damage "
                     "(one armour roll against the total).")
    odds = [Odds.of(cd.map(lambda o: o[1] if o[0] == HIT else 0),
                    "Margin of success (0 = the attack fails)", str)]
    if rounds:
        odds.append(Odds.of(rounds, "Rounds that hit (given a hit)", str))
    values: list[tuple[str, Any]] = [("P(attack succeeds)", p_hit)]
    summary = f"P(hit) = {_p(p_hit)}"
    if dice_n is not None:
        final = after_armour(mixture(dice_n), armour_dice)
        odds += [Odds.of(dice_n, "Damage dice (given a hit)", str),
                 Odds.of(final, "Damage after armour (given a hit)", str)]
        values.append(("Mean damage after armour (given a hit)", final.mean()))
        summary += f"; mean damage on a hit {float(final.mean()):.1f}"
    notes = ["The source does not spell out a skill test: here 1 die + the skill score "
             "(as initiative is 1 die + Reflex).",
             "Damage dice are d10s, the game's die; a total below one die does no damage "
             "(the source gives no minimum).",
             "Called-shot DMG bonus counted as dice, like the weapon's bonus (the source "
             "does not say)."]
    if p_past:
        notes.append(f"P(margin above {top}) = {_p(p_past)}: the Success Based Damage table "
                     f"stops at {top}, so those hits are left out of the damage odds.")
    if fumble_face:
        p_f = cd.p(lambda o: o[0] == FUMBLE)
        values.append(("P(attacker's critical failure)", p_f))
        notes.append("Critical failure (your choice of face): attack — lose the next two "
                     "actions or one full turn; defence — its roll counts as zero.")
    dice: tuple[Die, ...] = ()
    if rng is not None:
        a_die, d_die = roll(rng, SIDES, 2)
        kind, margin = contest.outcome(a_die, d_die)
        dice = (Die(SIDES, a_die, "attack", "attack"), Die(SIDES, d_die, "defence", "defence"))
        steps.append(f"Rolled: attack {a_die} + {contest.attack} = {a_die + contest.attack}, "
                     f"defence {d_die} + {contest.defence} = {d_die + contest.defence}.")
        summary = "The attack fails"
        if kind == FUMBLE:
            summary = "Critical failure: the attack fails; lose the next two actions"
        elif kind == HIT and margin > top:
            summary = f"Hit by {margin}: past the Success Based Damage table (not in the source)"
        elif kind == HIT:
            idx, sdie = success_dice(margin)
            hl.append(Highlight(ids["success"], idx))
            r = 1
            if rounds:
                face = roll(rng, SIDES)[0]
                r = (face + 1) // 2 if mode == "auto5" else face
                dice += (Die(SIDES, face, f"{r} rounds", "rate"),)
            n = spec.dice(sdie) + spec.weapon * (r - 1)
            faces = roll(rng, SIDES, max(n, 0))
            dice += tuple(Die(SIDES, f, "", "damage") for f in faces)
            armour = roll(rng, SIDES, armour_dice)
            dice += tuple(Die(SIDES, f, "", "armour") for f in armour)
            total = max(0, sum(faces) - sum(armour))
            steps.append(f"Hit by {margin}: {sdie} success dice → {n} damage dice"
                         + (f" ({r} rounds)" if rounds else "") + f" = {sum(faces)}; armour "
                         f"{sum(armour)} → {total} damage.")
            values = [("Margin", margin), ("Damage dice", n), ("Damage", total), *values]
            summary = f"Hit by {margin}: {total} damage"
    return Result(summary, tuple(values), tuple(steps), tuple(odds), dice, tuple(hl),
                  tuple(notes))


@calculator(
    id="mecha.damage",
    title="Damage dice and armour roll",
    source=f"{DOC} § 4 Roll Damage, § 5 Check Wounds, § Called Shots, § Automatic Weapons fire",
    tables=(table_ids()["success"], table_ids()["strength"]),
)
def damage(
    *,
    margin: Annotated[int, In("Result greater than the defender's by", 1, 20)] = 3,
    weapon_dice: WeaponDiceIn = WEAPON_DICE_DEFAULT,
    hand_weapon: Annotated[bool, In("Hand weapon, bare hands or natural weapons")] = False,
    strength: Annotated[int, In("Strength (hand weapons)", 1, 15)] = 5,
    called: Annotated[str, In("Called shot", choices=_called_choices())] = "none",
    mode: Annotated[str, In("Fire mode", choices=(
            *FIRE_MODES[:2], ("rounds", "Auto fire: rounds that hit (below)")))] = "single",
    rounds: Annotated[int, In("Rounds that hit (auto fire)", 1, 10)] = 1,
    armour_dice: ArmourDiceIn = ARMOUR_DICE_DEFAULT,
    rng: random.Random | None = None,
) -> Result:
    """§ 4 Roll Damage: success dice + weapon dice + strength dice; § 5: minus the armour
    roll. Auto fire (§ Automatic Weapons fire, 4): the weapon's base damage again for each
    round after the first — 'a +1 weapon that hits with 5 rounds: success damage + 1, then
    a further four damage dice'. Burst: the weapon's base damage once more."""
    ids = table_ids()
    si, sdie = success_dice(margin)
    hl = [Highlight(ids["success"], si)]
    steps = [f"Result greater than the defender's by {margin}: {sdie} success dice."]
    stdie = 0
    if hand_weapon:
        ti, stdie = strength_dice(strength)
        hl.append(Highlight(ids["strength"], ti))
        steps.append(f"Strength {strength}: {stdie:+d} dice.")
    called_dice = 0
    if called != "none":
        ki, krow = _lookup_row("called", called)
        called_dice = number(krow[2])
        hl.append(Highlight(ids["called"], ki))
        steps.append(f"Called shot ({krow[0]}): DMG {krow[2]}.")
    if mode not in ("single", "burst", "rounds"):
        raise RulesError(f"{mode!r} is not a fire mode here")
    extra = 1 if mode == "burst" else (rounds - 1 if mode == "rounds" else 0)
    spec = DamageSpec(weapon_dice, stdie, called_dice, extra)
    n = spec.dice(sdie)
    if n > MAX_DAMAGE_DICE:
        raise LimitError(f"at most {MAX_DAMAGE_DICE} damage dice (asked for {n})")
    steps.append(f"Weapon {weapon_dice:+d} dice"
                 + (f"; {extra} more time(s) the weapon's {weapon_dice} dice "
                    f"({'burst' if mode == 'burst' else f'{rounds} rounds: each after the first'})"
                    if extra else "") + f" → {max(n, 0)} damage dice; roll and add them.")
    dmg = d10_sum(max(n, 0))
    final = after_armour(dmg, armour_dice)
    if armour_dice:
        steps.append(f"Armour roll: {armour_dice} dice; subtract the total.")
    odds = (Odds.of(dmg, "Damage before armour", str), Odds.of(final, "Damage after armour", str))
    values: list[tuple[str, Any]] = [("Damage dice", max(n, 0)), ("Mean damage", final.mean())]
    summary = f"{max(n, 0)} damage dice; mean {float(final.mean()):.1f} after armour"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        faces = roll(rng, SIDES, max(n, 0))
        armour = roll(rng, SIDES, armour_dice)
        total = max(0, sum(faces) - sum(armour))
        dice = tuple(Die(SIDES, f, "", "damage") for f in faces) + tuple(
            Die(SIDES, f, "", "armour") for f in armour)
        steps.append(f"Rolled {sum(faces)} damage, armour {sum(armour)} → {total}.")
        values = [("Damage", total), *values]
        summary = f"{total} damage ({max(n, 0)} dice)"
    notes = (("A total below one die does no damage (the source gives no minimum).",)
             if n < 1 else ())
    return Result(summary, tuple(values), tuple(steps), odds, dice, tuple(hl), notes)


@calculator(
    id="mecha.initiative",
    title="Initiative",
    source=f"{DOC} § 1 Determine initiative",
)
def initiative(
    *,
    reflex: Annotated[int, In("Your Reflex", 0, MAX_SCORE)] = 5,
    other_reflex: Annotated[int, In("Opponent's Reflex", 0, MAX_SCORE)] = 5,
    rng: random.Random | None = None,
) -> Result:
    """§ 1: 1 die + Reflex = Initiative; highest goes first, acting in descending order."""
    d = Distribution.d(SIDES)
    diff = d.combine(d, lambda a, b: (a + reflex) - (b + other_reflex))
    first, tie = diff.p(lambda x: x > 0), diff.probability(0)
    steps = [f"You: 1 die + Reflex {reflex}; opponent: 1 die + Reflex {other_reflex}.",
             "Highest initiative goes first; the rest act in descending order."]
    odds = (Odds.of(d + reflex, "Your initiative", str),
            Odds.of(diff.map(lambda x: "you first" if x > 0 else ("tie" if x == 0 else
                                                                   "opponent first")),
                    "Who acts first", str, cumulative=False))
    values: list[tuple[str, Any]] = [("P(you first)", first), ("P(tie)", tie)]
    summary = f"P(you act first) = {_p(first)}; P(tie) = {_p(tie)}"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        a, b = roll(rng, SIDES, 2)
        dice = (Die(SIDES, a, "you", "initiative"), Die(SIDES, b, "opponent", "initiative"))
        mine, theirs = a + reflex, b + other_reflex
        who = "you go first" if mine > theirs else ("tie" if mine == theirs else
                                                    "the opponent goes first")
        steps.append(f"Rolled {a} + {reflex} = {mine} against {b} + {other_reflex} = {theirs}: "
                     f"{who}.")
        values = [("Your initiative", mine), ("Opponent's initiative", theirs), *values]
        summary = f"Initiative {mine} against {theirs}: {who}"
    return Result(summary, tuple(values), tuple(steps), odds, dice,
                  notes=("The source does not say how ties are broken.",))


def break_away_target(opponents: int) -> int:
    """§ Breaking Away: 6-10 breaks away; the chance falls by one per opponent beyond the
    first (3 opponents: 8-10). Returns the lowest face that breaks away."""
    if opponents < 1:
        raise RulesError("breaking away needs at least one opponent")
    return BREAK_AWAY_FROM + opponents - 1


@calculator(
    id="mecha.break_away",
    title="Breaking away from close combat",
    source=f"{DOC} § Breaking Away",
)
def break_away(
    *,
    opponents: Annotated[int, In("Opponents in close combat with you", 1, 10)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """§ Breaking Away: roll one die; 6-10 breaks away, one less for each extra opponent."""
    low = break_away_target(opponents)
    d = Distribution.d(SIDES)
    p = d.at_least(low)
    need = f"{low}-{SIDES}" if low < SIDES else (f"{SIDES}" if low == SIDES else "no roll")
    steps = [f"Roll one die: 6-10 breaks away with one opponent; {opponents} opponent(s): "
             f"{need}."]
    notes: tuple[str, ...] = ()
    if low > SIDES:
        notes = ("With this many opponents no roll of the die breaks away; the source does "
                 "not say more.",)
    values: list[tuple[str, Any]] = [("Break away on", need), ("P(break away)", p)]
    summary = f"Break away on {need}: {_p(p)}"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        face = roll(rng, SIDES)[0]
        ok = face >= low
        dice = (Die(SIDES, face, "breaks away" if ok else "held", "break away"),)
        steps.append(f"Rolled {face}: " + ("you break away." if ok else "you are held."))
        values = [("Broke away", ok), *values]
        summary = f"Rolled {face}: " + ("broke away" if ok else "held") + f" (needed {need})"
    return Result(summary, tuple(values), tuple(steps),
                  (Odds.of(d.map(lambda f: f >= low), "Break away",
                           lambda b: "yes" if b else "no", cumulative=False),),
                  dice, notes=notes)


@calculator(
    id="mecha.entangle",
    title="Entangling and disarming",
    source=f"{DOC} § Entangling & Disarming",
)
def entangle(
    *,
    attacker_strength: Annotated[int, In(
        "Entangler's strength feat score (added to the die)",
        0,
        MAX_SCORE,
    )] = 6,
    target_strength: Annotated[int, In(
        "Target's strength feat score (added to the die)",
        0,
        MAX_SCORE,
    )] = 5,
    choice: Annotated[str, In(
        "Attempt",
        choices=(("entangle", "Entangle"), ("disarm", "Disarm")),
    )] = "entangle",
    lost_before: Annotated[int, In("Actions already lost to the entanglement", 0, 20)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """§ Entangling & Disarming: after a successful attack, a strength feat contest; the
    winner entangles (1 action lost per 5 points of the win, cumulative; -4 to physical
    actions while entangled) or disarms one weapon (no damage)."""
    if choice not in ("entangle", "disarm"):
        raise RulesError(f"{choice!r} is not entangle or disarm")
    d = Distribution.d(SIDES)
    diff = d.combine(d, lambda a, b: (a + attacker_strength) - (b + target_strength))
    win = diff.p(lambda x: x > 0)
    lost = diff.map(lambda x: x // ACTIONS_PER_LOST if x > 0 else 0)
    steps = ["The attack contest succeeded: now a strength feat contest, 1 die + score each.",
             "The attacker wins with a higher result (as in combat contests: equal or lower "
             "fails)."]
    if choice == "entangle":
        steps += [f"The target loses 1 action for every {ACTIONS_PER_LOST} points the "
                  "attacker won by (cumulative over turns) and has -4 to all physical actions "
                  "while entangled.",
                  "He can still defend while he has at least one action in the turn; out of "
                  "actions, he cannot defend and every attack on him is a surprise attack.",
                  "The entangler spends one action each turn to keep it; no further contests. "
                  "The entangler may choose to do no damage and simply restrain."]
    else:
        steps.append("The target is disarmed of one weapon instead; this does no damage.")
    odds = [Odds.of(diff.map(lambda x: x > 0), "Attacker wins the strength feat contest",
                    lambda b: "wins" if b else "loses", cumulative=False)]
    if choice == "entangle":
        odds.append(Odds.of(lost, "Actions the target loses this time", str))
    values: list[tuple[str, Any]] = [("P(attacker wins)", win)]
    summary = f"P({'entangled' if choice == 'entangle' else 'disarmed'}) = {_p(win)}"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        a, b = roll(rng, SIDES, 2)
        dice = (Die(SIDES, a, "entangler", "strength feat"),
                Die(SIDES, b, "target", "strength feat"))
        by = (a + attacker_strength) - (b + target_strength)
        if by > 0 and choice == "entangle":
            n = by // ACTIONS_PER_LOST
            summary = (f"Entangled (won by {by}): {n} action(s) lost, {lost_before + n} in all;"
                       " -4 to physical actions")
            values = [("Actions lost", n), ("Actions lost in all", lost_before + n), *values]
        elif by > 0:
            summary = f"Disarmed (won by {by})"
        else:
            summary = "The target holds (the attacker did not win the strength feat contest)"
        steps.append(f"Rolled {a} + {attacker_strength} against {b} + {target_strength}.")
    notes = ("The source does not spell out the strength feat test; here 1 die + a score, "
             "like the combat contests.",)
    return Result(summary, tuple(values), tuple(steps), tuple(odds), dice, notes=notes)
