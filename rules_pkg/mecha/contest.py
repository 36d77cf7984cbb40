"""§ 3 Make Combat Contests and § 4 damage dice: the contest, the damage, the choices offered."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .. import dice
from ..dice import Distribution, Draw, dice_sum, minus_floor_zero, total
from ..errors import LimitError, RulesError
from ..kernel import Faces, Roll
from ..result import Die, Highlight
from .sheet import (
    MAX_ARMOUR_DICE,
    MAX_DAMAGE_DICE,
    SIDES,
    TABLES,
    _choices,
    max_success_margin,
    success_dice,
    table_ids,
)


# -- dice ---------------------------------------------------------------------------------------
def d10_sum(n: int) -> Distribution[int]:
    """The total of n d10 (0 for no dice), with the damage roll's own limit."""
    if n > MAX_DAMAGE_DICE:
        raise LimitError(f"at most {MAX_DAMAGE_DICE} damage dice (asked for {n})")
    return dice_sum(SIDES, max(n, 0))


def mixture(weights: Distribution[int]) -> Distribution[int]:
    """Σ_n P(n) · (sum of n d10): damage dice whose number itself is uncertain."""
    if max(weights.outcomes()) > MAX_DAMAGE_DICE:
        raise LimitError(f"at most {MAX_DAMAGE_DICE} damage dice "
                         f"(asked for {max(weights.outcomes())})")
    return dice.mixture(weights, SIDES)


def after_armour(damage: Distribution[int], armour_dice: int) -> Distribution[int]:
    """§ 5 Check Wounds: subtract the total of the armour roll from the damage."""
    if armour_dice > MAX_ARMOUR_DICE:
        raise LimitError(f"at most {MAX_ARMOUR_DICE} armour dice (asked for {armour_dice})")
    if armour_dice == 0:
        return damage
    if min(damage.outcomes()) < 0:
        raise RulesError("damage cannot be negative")
    return minus_floor_zero(damage, dice_sum(SIDES, armour_dice))


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
    return tuple((str(i), r[0].strip("•- ").strip()) for i, r in enumerate(TABLES["types"].rows()))


def _called_choices() -> tuple[tuple[str, str], ...]:
    rows = TABLES["called"].rows()
    return (("none", "None"),
            *((str(i), f"{r[0]} (test {r[1]}, DMG {r[2]})") for i, r in enumerate(rows)))


def _range_choices() -> tuple[tuple[str, str], ...]:
    return _choices("range")


def _action_choices() -> tuple[tuple[str, str], ...]:
    return tuple((r[0].strip(), f"{r[0].strip()} ({r[1].strip()})")
                 for r in TABLES["actions"].rows() if r[0].strip().isdigit())


@dataclass(frozen=True)
class Modifier:
    what: str
    value: int
    highlight: Highlight | None = None


def _lookup_row(key: str, choice: str) -> tuple[int, tuple[str, ...]]:
    rows = TABLES[key].rows()
    if not choice.isdigit() or int(choice) >= len(rows):
        raise RulesError(f"{choice!r} is not a row of the {table_ids()[key]} table")
    return int(choice), rows[int(choice)]


def damage_roll(draw: Draw, n: int, armour_dice: int) -> tuple[int, int]:
    """§ 4 and § 5 as a function of the dice: (damage rolled, armour rolled). The exact odds
    take the armour off with after_armour(), one pass per armour total."""
    return total(draw, n, SIDES), total(draw, armour_dice, SIDES)


def rolled_damage(got: tuple[int, int], faces: Faces, n: int) -> Roll:
    """What a rolled damage_roll() says (faces: its n damage dice, then the armour's)."""
    dmg, armour = got
    through = max(0, dmg - armour)
    return Roll(f"{through} damage ({n} dice)",
                tuple(Die(SIDES, f, "", "damage" if i < n else "armour")
                      for i, (_, f) in enumerate(faces)),
                (("Damage", through),),
                steps=(f"Rolled {dmg} damage, armour {armour} → {through}.",))
