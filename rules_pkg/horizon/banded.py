"""§ Weapon Profiles, the banded layout (the Rusty Pistol, the Rusty Assault Rifle): their
columns, read from the headings since the source has no rules text for them."""

from __future__ import annotations

from ..errors import RulesError
from .profiles import ProfileRow, WeaponProfile, parse_hits, parse_int
from .sheet import NOT_IN_SOURCE, X

BANDED_READING = (f"{NOT_IN_SOURCE}the banded profiles' columns have no rules text (§ Weapon "
                  "Profiles prints only the table): read here from their headings, a Lethal "
                  "Attack cell \"3 (x3)\" as 3 damage a hit and 3 hits an Attack, the Aim Bonus "
                  "as AP added to an aimed Attack (as the source's other bonuses are AP) and the "
                  "Initiative modifier as added to your turn-order score")


def _banded_damage(weapon: WeaponProfile, row: ProfileRow, cell: str, steps: list[str],
                   notes: list[str]) -> tuple[tuple[int, ...] | None, int]:
    """A banded profile's Lethal Attack cell: damage a hit and hits an Attack."""
    head = row.header[row.column("damage", "lethal") or 1]
    got = parse_hits(cell)
    notes.append(BANDED_READING)
    if got is None:
        notes.append(f"{NOT_IN_SOURCE}the {weapon.name}'s {head} cell of row {row.label} is "
                     f"{cell or 'blank'!r}: no damage to read")
        return None, 1
    hits = got.hits or 1
    steps.append(f"{head} {cell!r}: {got.per_hit} damage a hit {X} {hits} "
                 f"hit{'s' * (hits != 1)} = {got.total} damage an Attack")
    if got.hits is None:
        notes.append(f"{NOT_IN_SOURCE}row {row.label} of the {weapon.name} prints no hits "
                     f"(xN): read as 1 hit")
    if got.aside is not None:
        notes.append(f"{NOT_IN_SOURCE}the bracketed ({got.aside}) in {cell!r} is not "
                     "explained; not used")
    special = row.cell("special")
    if special:
        notes.append(f"{NOT_IN_SOURCE}which Attack is a Special Attack: its cell {special!r} "
                     "is shown, not used")
    return (got.per_hit,), hits


def aim_bonus(weapon: WeaponProfile, score: int) -> tuple[int, str]:
    """A banded profile's Aim Bonus for the row a combat test score falls in (read as AP,
    see BANDED_READING); 0 when that row's cell is blank."""
    if not weapon.rows or weapon.rows[0].column("aim") is None:
        raise RulesError(f"the {weapon.name} profile has no Aim Bonus column")
    row = weapon.row_for(score)
    if row is None:
        raise RulesError(weapon.outside(score).removeprefix(NOT_IN_SOURCE)
                         + ": no Aim Bonus to read")
    bonus = parse_int(row.cell("aim") or "")
    if bonus is None:
        return 0, f"Aim Bonus of row {row.label}: blank in the source, no bonus"
    return bonus, f"Aim Bonus of row {row.label}: {bonus:+d} AP"
