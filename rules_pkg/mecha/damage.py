"""§ 4 Roll Damage and § 5 Check Wounds."""

from __future__ import annotations

import random
from typing import Annotated, Any

from ..errors import InputLimitError, RulesError
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Highlight, Odds, Result
from .attack import ARMOUR_DICE_DEFAULT, WEAPON_DICE_DEFAULT, ArmourDiceIn, WeaponDiceIn
from .contest import (
    FIRE_MODES,
    DamageSpec,
    _called_choices,
    _lookup_row,
    after_armour,
    d10_sum,
    damage_roll,
    rolled_damage,
)
from .sheet import DOC, MAX_DAMAGE_DICE, number, strength_dice, success_dice, table_ids


@calculator(
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
        raise InputLimitError(
            "weapon_dice", f"at most {MAX_DAMAGE_DICE} damage dice (asked for {n})")
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

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        return rolled_damage(got, faces, max(n, 0))

    notes = (("A total below one die does no damage (the source gives no minimum).",)
             if n < 1 else ())
    return rolled(Result(f"{max(n, 0)} damage dice; mean {float(final.mean()):.1f} after armour",
                         tuple(values), tuple(steps), odds, (), tuple(hl), notes),
                  rng, lambda draw: damage_roll(draw, max(n, 0), armour_dice), say)

