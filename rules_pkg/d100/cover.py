"""§ Cover: armour points of cover."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ..errors import RulesError
from ..kernel import In
from ..result import Result
from .sheet import (
    CIRCUMSTANCES,
    row,
)

# -- cover ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverHit:
    through: int  # damage in excess of the Cover's AP, applied to the character
    depletion: int
    cover_after: int


def deplete_cover(damage: int, cover_ap: int, depletion: int) -> CoverHit:
    """Damage beyond Cover AP reaches the character; only then does the Cover deplete."""
    through = max(0, damage - cover_ap)
    dep = depletion if through > 0 else 0
    return CoverHit(through, dep, max(0, cover_ap - dep))


def ranged_depletion(pen: int, blast: int, acid: int) -> int:
    """Depleting Cover (Ranged): Penetration + Blast + Acid."""
    return pen + blast + acid


def melee_depletion(pen: int, sb: int, charge: bool, dos: int) -> int:
    """Depleting Cover (Melee): Penetration + Strength Bonus, plus 1 per 2 DoS on a Charge."""
    return pen + sb + (dos // 2 if charge else 0)


@CIRCUMSTANCES.calculator(
    title="Cover: damage through and depletion",
    at="Cover, § Depleting Cover (Ranged), § Depleting Cover (Melee)",
)
def cover(
    *,
    attack: Annotated[str, In(
        "Attack",
        choices=(("ranged", "Ranged"), ("melee", "Melee")),
    )] = "ranged",
    damage: Annotated[int, In("Damage rolled", 0, 1000)] = 12,
    cover_ap: Annotated[int, In("Cover AP", 0, 1000)] = 8,
    pen: Annotated[int, In("Weapon Penetration", 0, 100)] = 3,
    blast: Annotated[int, In("Blast value (ranged)", 0, 100)] = 1,
    acid: Annotated[int, In("Acid value (ranged)", 0, 100)] = 2,
    sb: Annotated[int, In("Strength Bonus (melee)", 0, 100)] = 4,
    charge: Annotated[bool, In("Charge (melee)")] = False,
    dos: Annotated[int, In("DoS of the Charge", 0, 30)] = 0,
) -> Result:
    """The attack resolves against the Cover first; excess damage reaches the character."""
    if attack == "ranged":
        r = row("Depleting Cover (Ranged)")
        dep = ranged_depletion(pen, blast, acid)
        how = f"Penetration {pen} + Blast {blast} + Acid {acid} = {dep}"
    elif attack == "melee":
        r = row("Depleting Cover (Melee)")
        dep = melee_depletion(pen, sb, charge, dos)
        how = (
            f"Penetration {pen} + Strength Bonus {sb}"
            + (f" + 1 per 2 DoS on a Charge ({dos} DoS → {dos // 2})" if charge else "")
            + f" = {dep}"
        )
    else:
        raise RulesError(f"attack is 'ranged' or 'melee' (got {attack!r})")
    hit = deplete_cover(damage, cover_ap, dep)
    steps = [f"Damage {damage} against Cover AP {cover_ap}"]
    if hit.through:
        steps += [
            f"{hit.through} damage in excess of the Cover's reduction reaches the character",
            f"The Cover depletes by {how}: AP {cover_ap} → {hit.cover_after}",
        ]
    else:
        steps.append("No damage in excess of the Cover: it does not deplete")
    return Result(
        f"{hit.through} through; Cover AP {cover_ap} → {hit.cover_after}",
        (
            ("Damage to the character", hit.through),
            ("Depletion", hit.depletion),
            ("Cover AP after", hit.cover_after),
            ("Depletion if exceeded", dep),
        ),
        tuple(steps),
        highlight=(row("Cover").highlight, r.highlight),
        notes=(
            "The character's own armour and Toughness then apply as normal "
            "(standard rule; not in the sheet).",
            "Cover AP is not depleted below 0 (not in the source).",
        ),
    )
