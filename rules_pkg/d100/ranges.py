"""Range bands."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from ..errors import RulesError
from ..kernel import In
from ..result import Result
from .modifiers import range_modifiers
from .sheet import CIRCUMSTANCES, AttackerHorde, entry, row

# Point Blank: "Ranged attacks at a distance of 1km".
point_blank = entry("Point Blank", pattern=r"distance of (\d+)").read

# -- range bands ----------------------------------------------------------------------------

WEAPON_CLASSES = (
    ("assault", "Assault"),
    ("close", "Close"),
    ("medium", "Medium"),
    ("long", "Long"),
    ("very_long", "Very Long"),
)


# the Quick Reference of each band's row: "2km for Assault, n/a for Close" (n/a -> None)
_QUICK_REFERENCE = {
    (c, band): entry(name, pattern=rf"(n/a|(\d+)\s*km)\s+for\s+{label}\b(?!\s+Long)", group=2)
    for band, name in (("short", "Short Distance"), ("extreme", "Extreme Distance"),
                       ("maximum", "Maximum Distance"))
    for c, label in WEAPON_CLASSES}


@cache
def quick_reference() -> dict[str, dict[str, int | None]]:
    """The sheet's Quick Reference figures per weapon class and band (None = n/a)."""
    out: dict[str, dict[str, int | None]] = {c: {} for c, _ in WEAPON_CLASSES}
    for (c, band), spec in _QUICK_REFERENCE.items():
        out[c][band] = spec.maybe()
    return out


def class_range(weapon_class: str) -> int:
    """A class's Range value: "The maximum range of a ranged weapon is triple its Range value"."""
    qr = quick_reference()
    if weapon_class not in qr:
        raise RulesError(f"unknown weapon class {weapon_class!r}")
    mx = qr[weapon_class]["maximum"]
    assert mx is not None
    if mx % 3:
        raise RulesError(f"d100 data: maximum {mx} for {weapon_class} is not triple a Range")
    return mx // 3


def range_band(distance: int, rng_value: int) -> str:
    """point_blank / short / normal / long / extreme / out_of_range, by the sheet's rules."""
    pb = point_blank()
    if distance > 3 * rng_value:
        return "out_of_range"
    if distance <= pb:
        return "point_blank"
    if distance >= math.ceil(Fraction(3, 2) * rng_value):
        return "extreme"
    if distance > rng_value:
        return "long"
    if distance <= math.ceil(Fraction(rng_value, 2)):
        return "short"
    return "normal"


@CIRCUMSTANCES.calculator(title="Range band", at="Ranged Attack Distance", id="d100.range",
                          tables=("ranged-attack-distance",))
def range_calc(
    *,
    distance: Annotated[int, In("Distance to the target (as the sheet: km)", 1, 10000)] = 4,
    weapon_class: Annotated[str, In("Weapon class", choices=WEAPON_CLASSES)] = "medium",
    weapon_range: Annotated[int, In("Weapon Range (0 = from the class)", 0, 3000)] = 0,
    horde: AttackerHorde = False,
) -> Result:
    """The band a distance falls in, and its BS modifier (or a Horde's DoS)."""
    rv = weapon_range or class_range(weapon_class)
    steps = [
        f"Range {rv}" + ("" if weapon_range else f" (the class's Maximum Distance {3 * rv} ÷ 3)")
    ]
    band = range_band(distance, rv)
    if band == "out_of_range":
        steps.append(f"{distance} is beyond the maximum range, triple the Range ({3 * rv})")
        return Result(
            f"Out of range: the maximum is {3 * rv}",
            (("Band", "out of range"),),
            tuple(steps),
            highlight=(row("Maximum Distance").highlight,),
        )
    steps += [
        f"Point Blank at {point_blank()}",
        f"Short at half the Range or less, rounded up: {math.ceil(Fraction(rv, 2))}",
        f"Long beyond the Range: over {rv}",
        f"Extreme at 1.5 \u00d7 Range, rounded up: {math.ceil(Fraction(3, 2) * rv)}",
        f"Maximum: triple the Range: {3 * rv}",
    ]
    if band == "normal":
        return Result(
            f"{distance}: normal range, no modifier",
            (("Band", "normal"), ("Modifier", 0)),
            tuple(steps),
        )
    m = range_modifiers()[band]
    v = m.value("bs") or 0
    values: list[tuple[str, Any]] = [("Band", m.row.name), ("Modifier", v)]
    if horde and m.horde_dos is not None:
        values = [("Band", m.row.name), ("Modifier", 0), ("Horde DoS", m.horde_dos)]
        summary = f"{m.row.name}: Hordes gain {m.horde_dos:+d} DoS instead"
    else:
        summary = f"{m.row.name}: {v:+d} to hit"
    return Result(
        summary,
        tuple(values),
        tuple(steps),
        highlight=(m.row.highlight,),
        notes=("Distances are in km as the sheet writes them.",),
    )
