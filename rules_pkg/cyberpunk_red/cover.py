"""§ Explosives, § Cover and § Human Shields."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated

from .. import data
from ..dice import Draw, check_dice
from ..errors import InputError, RulesError
from ..kernel import Bound, Faces, In, Roll, rolled
from ..result import Die, Highlight, Odds, Result
from .core import (
    MAX_BODY,
    MAX_DV,
    Shooter,
    Target,
    damage_dice,
    damage_pool,
    dice_with_crit,
    dodge_ref,
    hit_summary,
    margin_opposed,
    p_beat,
    sp_in,
    take_damage,
)
from .sheet import GAME, SHEET, number, table

# § Cover: each material's HP as thick and as thin cover; § Using Shields: a shield's HP
COVER_HP = table("cover-hp", ("text", "amount", "amount"), 6)
SHIELDS = table("shields", ("text", "text"), 2)
SHIELD_HP = data.entry(GAME, "Bullet proof shields", pattern=r"(\d+)")

# -- explosives, cover, shields -----------------------------------------------------------------


@cache
def cover_table() -> dict[str, tuple[int, int, int]]:
    """Material -> (row index, thick HP, thin HP), read from the cover table."""
    out: dict[str, tuple[int, int, int]] = {}
    for i, cells in enumerate(COVER_HP.rows()):
        out[cells[0]] = (i, data.amount(cells[1]), data.amount(cells[2]))
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


@SHEET.calculator(title="Cover HP and damage", at="§ Cover (Type of Cover)", see="§ Explosives",
                  tables=("cover-hp",))
def cover(
    *,
    material: Annotated[str, In("Material", choices=_cover_choices())] = "Concrete",
    thickness: Annotated[str, In(
        "Thickness",
        choices=(("thick", "Thick"), ("thin", "Thin")),
    )] = "thick",
    current_hp: Annotated[int, In("Current HP (-1 = undamaged)", -1, 1000, max_by=Bound(
        ("material", "thickness"), "that cover's HP (§ Cover)",
        lambda: {(m, t): hp for m, (_, thick, thin) in cover_table().items()
                 for t, hp in (("thick", thick), ("thin", thin))}))] = -1,
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


_EXPLOSIVE_SIDE = number("explosives", r"(\d+) Square by \d+ Square")


@SHEET.calculator(title="Explosives: one damage roll for the blast", at="§ Explosives",
                  see="§ Cover, § Taking damage", tables=("cover-hp",))
def explosive(
    *,
    shooter: Shooter,  # input groups: the kernel builds them from their inputs
    dv: Annotated[int, In("DV to hit the target square", 0, MAX_DV)] = 15,
    dice: Annotated[int, In("Explosive damage (d6)", 1, 30)] = 6,
    cover_hp: Annotated[int, In("Target's cover HP (0 = none)", 0, 1000)] = 0,
    sp_body: Annotated[int, sp_in("Target body SP")] = 11,
    dodge: Annotated[bool, In("Target dodges the blast (REF 8+)")] = False,
    target: Target,
    rng: random.Random | None = None,
) -> Result:
    """Damage to everything in 5x5 squares, rolled once; cover stops it unless destroyed."""
    check_dice(dice)
    base = shooter.base
    p = p_beat(base, dv)
    side = _EXPLOSIVE_SIDE.read()

    def hp_of(r: tuple[int, bool]) -> int:
        reach = hit_cover(r[0], cover_hp, True).to_target if cover_hp else r[0]
        return take_damage(reach, sp_body, crit=r[1] and reach > 0).hp if reach else 0

    dist = dice_with_crit(dice)
    hp = dist.map(hp_of)
    p_dodge = Fraction(0)
    if dodge:
        target.against("dodge", dv, "a blast")
        # the dodge must roll higher than the attacker's original Check: a tie is caught
        m = margin_opposed(base, target.dodge)
        p_dodge = m.p(lambda v: v < 0)
        hp = m.combine(dist, lambda mg, r: 0 if mg < 0 else hp_of(r))
    steps = [
        f"{shooter.says('Skill')} + 1d10 vs DV {dv}: {p}; "
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
            f"This target dodges: {target.says()} + 1d10 higher than "
            f"your Check places them outside the blast ({p_dodge})"
        )

    def blast(draw: Draw) -> tuple[int, tuple[int, bool], int | None]:
        """Your Check, the blast rolled once, and this target's dodge (if it dodges)."""
        check = base + draw(10)
        r = damage_pool(draw, dice)
        return check, r, target.dodge + draw(10) if dodge else None

    def say(got: tuple[int, tuple[int, bool], int | None], faces: Faces) -> Roll:
        check, (total, _), dodged = got
        shown = (Die(10, faces[0][1], "Check", "attack"), *damage_dice(faces[1:1 + dice]),
                 *(Die(10, f, "dodge", "defence") for _, f in faces[1 + dice:]))
        if dodged is not None and dodged > check:
            return Roll(f"Check {check}: dodged ({dodged}), outside the blast", shown)
        on = "on the target square" if check > dv else "off target: the GM places it"
        return Roll(f"Check {check} ({on}); blast {total}: {hp_of(got[1])} HP", shown)

    return rolled(Result(
        hit_summary(p, hp, "the square", " to this target"),
        (("P(on target)", p), ("P(dodged)", p_dodge), ("Mean HP lost", hp.mean())),
        tuple(steps),
        (Odds.of(hp, "HP lost by this target (if caught in the blast)"),),
        notes=(
            "Explosive damage dice are not in the sheet: enter them.",
            "Critical Injury on two 6s is applied as for any attack (the sheet's "
            "§ Critical Injuries) and only when damage reaches the target; an "
            "interpretation.",
        ),
    ), rng, blast, say)


def _shield_hp() -> dict[tuple[str, int], int]:
    """(shield, BODY) -> full HP: a bullet proof shield's from the table, a corpse's BODY."""
    proof = SHIELD_HP.read()
    return {(s, b): proof if s == "bulletproof" else b
            for s in ("bulletproof", "corpse") for b in range(MAX_BODY + 1)}


@SHEET.calculator(title="Shields and Human Shields", at="§ Using Shields, § Human Shields",
                  see="§ Taking damage", tables=("shields",))
def shield(
    *,
    shield: Annotated[str, In("Shield", choices=(
                ("bulletproof", "Bullet proof shield"),
                ("corpse", "Corpse"),
                ("human", "Human Shield (alive)"),
            ))] = "bulletproof",
    body: Annotated[int, In("BODY of the corpse / Human Shield", 0, MAX_BODY)] = 6,
    current_hp: Annotated[int, In("Shield's current HP (-1 = full)", -1, 200, max_by=Bound(
        ("shield", "body"), "that shield's HP (§ Using Shields)", _shield_hp))] = -1,
    human_sp: Annotated[int, sp_in("Human Shield's body SP")] = 7,
    damage: Annotated[int, In("Damage of the attack", 0, 500)] = 15,
    attack: Annotated[str, In(
        "Attack",
        choices=(("ranged", "Ranged"), ("melee", "Melee"), ("head", "Aimed Shot at your head")),
    )] = "ranged",
) -> Result:
    """Interpose a shield: it takes the entire attack to its HP (no dodging)."""
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
        full = SHIELD_HP.read()
        what = SHIELDS.rows()[0][0]
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
        raise InputError("current_hp", "a shield at 0 HP is destroyed and cannot be used as cover")
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
