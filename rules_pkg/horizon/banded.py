"""§ Weapon Profiles, the banded layout (the Rusty Pistol, the Rusty Assault Rifle): their
columns, read from the headings since the source has no rules text for them."""

from __future__ import annotations

from ..errors import InputError
from .profiles import ProfileRow, WeaponProfile, parse_hits, parse_int
from .sheet import NOT_IN_SOURCE, X

BANDED_READING = (f"{NOT_IN_SOURCE}the banded profiles' columns have no rules text (§ Weapon "
                  "Profiles prints only the table): read here from their headings, a Lethal "
                  "Attack cell \"3 (x3)\" as 3 damage a hit and 3 hits an Attack, and the "
                  "Initiative modifier as added to your turn-order score")

# The Aim Bonus, read two ways (issue #29 item 2); the first is the default. The Rusty
# Pistol's row "0 - 5 2(3) x2 5(6) x1 +1 10" (horizon…txt:144) brackets, beside each
# attack, that attack plus the row's Aim Bonus +1: the aimed damage, printed.
AIM_READINGS: tuple[tuple[str, str], ...] = (
    ("damage", "Added to the damage a hit (the Rusty Pistol's 2(3): aimed, 3)"),
    ("ap", "Added to the combat test's AP, before the row is read"),
)
AIM_DEFAULT = AIM_READINGS[0][0]
AIM_SAID = {
    "damage": (f"{NOT_IN_SOURCE}Aim Bonus read as added to the damage a hit: the Rusty "
               "Pistol's row 0 - 5 prints \"2(3) x2 5(6) x1 +1\" (horizon…txt:144), each "
               "bracket its attack plus that row's Aim Bonus, so the bracket is read as the "
               "aimed damage (the other reading, as AP, is a choice)"),
    "ap": (f"{NOT_IN_SOURCE}Aim Bonus read as AP added to the combat test before the row is "
           "read, as the source's other bonuses are AP; the Rusty Pistol's bracketed numbers "
           "are then not used (the other reading, as damage, is the default)"),
}


def _row_aim(weapon: WeaponProfile, row: ProfileRow) -> tuple[int, str]:
    """A banded row's Aim Bonus (0 when its cell is blank), and the step saying so."""
    if row.column("aim") is None:
        raise InputError("aim", f"the {weapon.name} profile has no Aim Bonus column")
    bonus = parse_int(row.cell("aim") or "")
    if bonus is None:
        return 0, f"Aim Bonus of row {row.label}: blank in the source, no bonus"
    return bonus, f"Aim Bonus of row {row.label}: {bonus:+d}"


def _banded_damage(weapon: WeaponProfile, row: ProfileRow, cell: str, steps: list[str],
                   notes: list[str], aimed: bool = False, aim_as: str = AIM_DEFAULT,
                   ) -> tuple[tuple[int, ...] | None, int]:
    """A banded profile's Lethal Attack cell: damage a hit and hits an Attack; aimed, with
    `aim_as` "damage", the row's Aim Bonus is added to the damage a hit."""
    head = row.header[row.column("damage", "lethal") or 1]
    got = parse_hits(cell)
    notes.append(BANDED_READING)
    if got is None:
        notes.append(f"{NOT_IN_SOURCE}the {weapon.name}'s {head} cell of row {row.label} is "
                     f"{cell or 'blank'!r}: no damage to read")
        return None, 1
    hits = got.hits or 1
    per_hit = got.per_hit
    steps.append(f"{head} {cell!r}: {got.per_hit} damage a hit {X} {hits} "
                 f"hit{'s' * (hits != 1)} = {got.total} damage an Attack")
    if aimed and aim_as == "damage":
        bonus, why = _row_aim(weapon, row)
        per_hit += bonus
        steps.append(f"Aimed: {why} → {got.per_hit} {bonus:+d} = {per_hit} damage a hit "
                     f"{X} {hits} = {per_hit * hits} damage an Attack")
    if got.hits is None:
        notes.append(f"{NOT_IN_SOURCE}row {row.label} of the {weapon.name} prints no hits "
                     f"(xN): read as 1 hit")
    if got.aside is not None and aim_as == "damage":
        notes.append(f"{NOT_IN_SOURCE}the bracketed ({got.aside}) in {cell!r} is read as the "
                     "aimed damage a hit" + ("" if aimed else ": used when you Aim"))
    elif got.aside is not None:
        notes.append(f"{NOT_IN_SOURCE}the bracketed ({got.aside}) in {cell!r} is not "
                     "used: Aim Bonus read as AP")
    special = row.cell("special")
    if special:
        notes.append(f"{NOT_IN_SOURCE}which Attack is a Special Attack: its cell {special!r} "
                     "is shown, not used")
    return (per_hit,), hits


def aim_bonus(weapon: WeaponProfile, score: int) -> tuple[int, str]:
    """A banded profile's Aim Bonus for the row a combat test score falls in, as AP (the
    "ap" reading of AIM_READINGS); 0 when that row's cell is blank."""
    if not weapon.rows or weapon.rows[0].column("aim") is None:
        raise InputError("aim", f"the {weapon.name} profile has no Aim Bonus column")
    row = weapon.row_for(score)
    if row is None:
        raise InputError("ap", weapon.outside(score).removeprefix(NOT_IN_SOURCE)
                         + ": no Aim Bonus to read")
    bonus, why = _row_aim(weapon, row)
    return bonus, why + (" AP" if bonus else "")
