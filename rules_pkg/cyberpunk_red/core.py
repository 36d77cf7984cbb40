"""The core roll (STAT + Skill + 1d10 vs DV or an opposed roll), the defender, SP and damage."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from ..dice import Distribution, Draw, check_dice, expand
from ..errors import InputError, RulesError
from ..kernel import Faces, In
from ..result import Die, Odds
from .sheet import number

# -- the core roll ----------------------------------------------------------------------------

D10 = Distribution.d(10)
MAX_DAYS = 50  # exposure: 50d6 keeps the exact odds quick in the browser
MAX_FALL = 300  # m: 60d6; far beyond the height the sheet calls certain death
MAX_STAT = 30  # stats + skills beyond this are not a RED character
MAX_DV = 60
MAX_SP = 50  # the form's limit on an armour's (or a shield's) SP
MAX_MODIFIER = 30  # the form's limit on a check's modifiers, either way
MAX_BODY = 20  # the form's limit on a BODY


# The inputs many rules share, each limit declared once.
def stat_in(label: str) -> In:
    """A STAT or a Skill: 0 to MAX_STAT."""
    return In(label, 0, MAX_STAT)


def sp_in(label: str) -> In:
    """Stopping Power: 0 to MAX_SP."""
    return In(label, 0, MAX_SP)


def modifier_in(label: str) -> In:
    """The sum of a check's modifiers."""
    return In(label, -MAX_MODIFIER, MAX_MODIFIER)


def body_in(label: str) -> In:
    """A living character's BODY: 1 to MAX_BODY."""
    return In(label, 1, MAX_BODY)


# "A Defender with a REF 8 or higher can choose to attempt to dodge a Ranged Attack".
dodge_ref = number("resolving-ranged-combat",
                   r"REF (\d+) or higher can choose to attempt to dodge").read


def p_beat(base: int, dv: int) -> Fraction:
    """P(STAT + Skill + 1d10 beats the DV): ties go to the defender."""
    return (D10 + base).p(lambda t: t > dv)


def beat_dv(base: int, dv: int) -> Callable[[Draw], int]:
    """The amount STAT + Skill + 1d10 beats the DV by (<= 0 is a miss), from the d10."""
    return lambda draw: base + draw(10) - dv


def beat_roll(attack: int, defence: int) -> Callable[[Draw], int]:
    """Attacker total minus defender total (each + 1d10, the attacker's first); the attacker
    wins only above 0."""
    return lambda draw: attack + draw(10) - (defence + draw(10))


def margin_vs_dv(base: int, dv: int) -> Distribution[int]:
    return expand(beat_dv(base, dv))


def margin_opposed(attack: int, defence: int) -> Distribution[int]:
    return expand(beat_roll(attack, defence))


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

    def beat(self, attack_base: int) -> Callable[[Draw], int]:
        """The attack's margin over this defence, from the attack's d10 (and the dodge's)."""
        if self.dodge:
            return beat_roll(attack_base, self.dex + self.evasion)
        return beat_dv(attack_base, self.dv)

    def margin(self, attack_base: int) -> Distribution[int]:
        return expand(self.beat(attack_base))

    def rolled(self, faces: Faces) -> tuple[int, tuple[Die, ...]]:
        """The defence total a seeded roll met (faces: the attack's d10, then any dodge's),
        and the defence's die as shown."""
        if not self.dodge:
            return self.dv, ()
        dd = faces[1][1]
        return self.dex + self.evasion + dd, (Die(10, dd, "dodge", "defence"),)

    def describe(self) -> str:
        if self.dodge:
            return f"Defender dodges: DEX {self.dex} + Evasion {self.evasion} + 1d10"
        return f"DV {self.dv}"


def _defence(defence: str, dv: int, ref: int, dex: int, evasion: int, what: str) -> Defence:
    if defence == "dodge":
        need = dodge_ref()
        if ref < need:
            raise InputError(
                "defence", f"only a defender with REF {need} or higher can dodge {what} (REF {ref})"
            )
        return Defence(dv, True, ref, dex, evasion)
    if defence != "dv":
        raise RulesError(f"defence is 'dv' or 'dodge' (got {defence!r})")
    return Defence(dv)


@dataclass(frozen=True)
class Defender:
    """The defender's inputs of a ranged attack, declared once (a kernel input group): a DV
    from the range table, or a dodge."""

    defence: Annotated[str, In("Defence", choices=(("dv", "DV from the range table"),
                                                   ("dodge", "Dodge (REF 8+)")))] = "dv"
    dv: Annotated[int, In("DV (the range table is not in the sheet)", 0, MAX_DV)] = 15
    def_ref: Annotated[int, stat_in("Defender REF")] = 6
    def_dex: Annotated[int, stat_in("Defender DEX")] = 6
    def_evasion: Annotated[int, stat_in("Defender Evasion")] = 4

    def against(self, what: str) -> Defence:
        """The defence against `what` (a dodge needs REF 8+)."""
        return _defence(self.defence, self.dv, self.def_ref, self.def_dex, self.def_evasion,
                        what)


@dataclass(frozen=True)
class Target:
    """A target's inputs for a dodge it may choose (a blast, a shotgun shell), declared once
    (a kernel input group): "a Defender with a REF 8 or higher" dodges with DEX + Evasion."""

    def_ref: Annotated[int, stat_in("Target REF")] = 6
    def_dex: Annotated[int, stat_in("Target DEX")] = 6
    def_evasion: Annotated[int, stat_in("Target Evasion")] = 4

    def against(self, defence: str, dv: int, what: str) -> Defence:
        """The defence against `what`: the DV, or a dodge (REF 8+)."""
        return _defence(defence, dv, self.def_ref, self.def_dex, self.def_evasion, what)

    @property
    def dodge(self) -> int:
        """DEX + Evasion: what a dodge adds its 1d10 to."""
        return self.def_dex + self.def_evasion

    def says(self) -> str:
        return f"DEX {self.def_dex} + Evasion {self.def_evasion}"


# the attacker's other modifiers, as every Ranged Attack's form names them
OtherModifiers = Annotated[int, modifier_in("Other modifiers")]


@dataclass(frozen=True)
class Shooter:
    """The attacker's inputs of a Ranged Attack, declared once (a kernel input group): REF +
    the weapon's Skill + modifiers. A weapon whose Skill the sheet names (Autofire, Shoulder
    Arms) declares only that label again, as a subclass: same inputs, same order."""

    ref: Annotated[int, stat_in("REF")] = 6
    skill: Annotated[int, stat_in("Weapon Skill")] = 4
    modifier: OtherModifiers = 0

    @property
    def base(self) -> int:
        """REF + Skill + modifiers: what the 1d10 is added to."""
        return self.ref + self.skill + self.modifier

    def says(self, skill: str) -> str:
        """ "REF 6 + Weapon Skill 4 +0": the Skill as the rule names it."""
        return f"REF {self.ref} + {skill} {self.skill} {self.modifier:+d}"


@dataclass(frozen=True)
class Autofirer(Shooter):
    skill: Annotated[int, stat_in("Autofire Skill")] = 4


@dataclass(frozen=True)
class ShotgunShooter(Shooter):
    skill: Annotated[int, stat_in("Shoulder Arms")] = 4


@dataclass(frozen=True)
class Athlete:
    """DEX + Athletics, declared once (a kernel input group): § Falling's Athletics check
    and, with modifiers, § Throw's attack."""

    dex: Annotated[int, stat_in("DEX")] = 6
    athletics: Annotated[int, stat_in("Athletics")] = 4

    @property
    def base(self) -> int:
        """What the 1d10 is added to."""
        return self.dex + self.athletics

    def says(self) -> str:
        return f"DEX {self.dex} + Athletics {self.athletics}"


@dataclass(frozen=True)
class Thrower(Athlete):
    """The attacker's inputs of a thrown object (§ Throw: "DEX + Athletics + 1d10")."""

    modifier: OtherModifiers = 0

    @property
    def base(self) -> int:
        return self.dex + self.athletics + self.modifier

    def says(self) -> str:
        return f"{super().says()} {self.modifier:+d}"


# "deal 5 Bonus Damage directly to the target's Hit Points".
crit_bonus = number("critical-injuries", r"deal (\d+) Bonus Damage").read
# "two or more Dice ... come up 6".
crit_face = number("critical-injuries", r"come up (\d+)").read
head_multiplier = number("aimed-shots", r"head armor by (\d+)").read
ablation = number("taking-damage", r"reducing its SP by (\d+) point").read


@dataclass(frozen=True)
class Hit:
    """One hit against SP: what got through, HP lost, ablation, Critical Injury."""

    rolled: int
    sp: int  # SP used (halved for melee weapons)
    through: int
    hp: int
    sp_after: int
    crit: bool


# § Melee combat: "Melee weapons ignore half of the defender's Armor. rounded up". Two readings;
# the literal one rounds up the half that is ignored (so the SP left is rounded down).
MELEE_HALF = (("ignored_up", "The ignored half is rounded up (literal reading)"),
              ("left_up", "The SP left is rounded up"))
MeleeHalfIn = Annotated[str, In(
    "Melee: which half is rounded up", choices=MELEE_HALF,
    help="The sheet: 'ignore half of the defender's Armor. rounded up'")]
MELEE_HALF_DEFAULT = "ignored_up"


def melee_sp(sp: int, half: str = MELEE_HALF_DEFAULT) -> int:
    """The SP a melee weapon faces: half of it ignored, as `half` reads 'rounded up'."""
    if half == "ignored_up":
        return sp - math.ceil(Fraction(sp, 2))
    if half == "left_up":
        return math.ceil(Fraction(sp, 2))
    raise RulesError(f"{half!r} is not a reading of the melee armour rule")


def melee_note(half: str) -> str:
    """The note naming the reading used (the sheet can be read two ways)."""
    if half == "ignored_up":
        return ("Melee armour: 'ignore half of the Armor, rounded up' is read literally: the "
                "ignored half is rounded up, so SP 11 leaves 5 (the other reading leaves 6).")
    return ("Melee armour: 'ignore half of the Armor, rounded up' is read as the SP left "
            "rounded up, so SP 11 leaves 6 (the literal reading leaves 5).")


def take_damage(
    rolled: int,
    sp: int,
    *,
    head: bool = False,
    melee: bool = False,
    crit: bool = False,
    direct: bool = False,
    half: str = MELEE_HALF_DEFAULT,
) -> Hit:
    """§ Taking damage: subtract SP; any damage through ablates SP by 1.

    Head (Aimed Shot): the damage through head armour x2. A Critical Injury adds 5
    directly, whether or not damage got through. `direct`: bypasses armour, no ablation.
    """
    used = 0 if direct else (melee_sp(sp, half) if melee else sp)
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


def hit_summary(p_hit: Fraction, hp: Distribution[int], target: str = "", tail: str = "") -> str:
    """An attack's answer at a glance: "62% to hit; mean 7.4 HP" (`target`: "this target")."""
    aim = f" {target}" if target else ""
    return f"{float(p_hit):.0%} to hit{aim}; mean {float(hp.mean()):.1f} HP{tail}"


def damage_pool(draw: Draw, n: int, sides: int = 6) -> tuple[int, bool]:
    """Nd6 as (sum, Critical Injury?), drawn as one pool (exact by dice_with_crit)."""
    def each(d: Draw) -> tuple[int, bool]:
        vs = [d(sides) for _ in range(n)]
        return sum(vs), sum(1 for v in vs if v == crit_face()) >= 2

    return draw.pool(dice_with_crit(n, sides), each)


def strike(beat: Callable[[Draw], int], n: int, sides: int = 6,
           ) -> Callable[[Draw], tuple[int, tuple[int, bool] | None]]:
    """An attack as a function of the dice: its margin, then the damage dice on a hit only."""
    def program(draw: Draw) -> tuple[int, tuple[int, bool] | None]:
        mg = beat(draw)
        return mg, damage_pool(draw, n, sides) if mg > 0 else None

    return program


def damage_dice(faces: Faces, kind: str = "damage") -> list[Die]:
    """The damage dice of a seeded roll, as shown."""
    return [Die(s, v, "", kind) for s, v in faces]
