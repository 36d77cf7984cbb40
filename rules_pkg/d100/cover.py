"""§ Cover: armour points of cover."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from ..errors import InputError, RulesError
from ..kernel import In
from ..result import Odds, OddsRow, Result
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


# -- cover by hit location (d100:9, issue #29 item 3) ------------------------------------------
# Hit locations by the d100 (standard rule, DH2e: the sheet names body parts, not the table):
# (value, label, first roll, last roll)
LOCATIONS: tuple[tuple[str, str, int, int], ...] = (
    ("head", "Head", 1, 10), ("right_arm", "Right Arm", 11, 20),
    ("left_arm", "Left Arm", 21, 30), ("body", "Body", 31, 70),
    ("right_leg", "Right Leg", 71, 85), ("left_leg", "Left Leg", 86, 100))
LOCATION_RULE = ("hit locations by the d100 are the standard rule (DH2e: 01-10 Head, 11-20 "
                 "Right Arm, 21-30 Left Arm, 31-70 Body, 71-85 Right Leg, 86-00 Left Leg), "
                 "not in the sheet")
# The Cover row's words each branch stands on (tests/rules/test_d100.py checks them)
COVER_WORDS = (
    "may designate body parts which are considered to be shielded",
    "they must have their arms and head exposed in order to make valid ranged attacks",
    "Attacks against those body parts hit cover instead",
    "Horde attacks on Hordes in cover will roll to-hit, bypassing cover if the result is a "
    "hit to the head or arms",
)
_PART = {"head": "head", "right_arm": "arms", "left_arm": "arms", "body": "body",
         "right_leg": "legs", "left_leg": "legs"}


@CIRCUMSTANCES.calculator(title="Cover: does the hit reach the cover?", at="Cover")
def cover_location(
    *,
    location: Annotated[str, In("Hit location", choices=(
        ("roll", "Not rolled yet: the odds"), *((v, lab) for v, lab, _, _ in LOCATIONS)))
    ] = "roll",
    head: Annotated[bool, In("Head shielded")] = False,
    arms: Annotated[bool, In("Arms shielded")] = False,
    body: Annotated[bool, In("Body shielded")] = True,
    legs: Annotated[bool, In("Legs shielded")] = True,
    hordes: Annotated[bool, In("A Horde attacking a Horde in cover")] = False,
) -> Result:
    """The defender names the body parts the cover shields; an attack that hits one hits
    the cover instead (then "Cover: damage through and depletion"). A Horde attacking a
    Horde in cover rolls to hit, bypassing the cover on a hit to the head or arms."""
    shielded = {"head": head, "arms": arms, "body": body, "legs": legs}
    steps: list[str] = []
    notes = [f"The {LOCATION_RULE}."]
    if hordes:
        shielded = {"head": False, "arms": False, "body": True, "legs": True}
        steps.append("A Horde attacking a Horde in cover rolls to hit: a hit to the head or "
                     "arms bypasses the cover, any other hits it")
        if (head, arms, body, legs) != (False, False, True, True):
            notes.append("The parts shielded are ignored: between Hordes only a hit to the "
                         "head or arms bypasses the cover (the Cover row).")
    else:
        named = [p for p, on in shielded.items() if on]
        steps.append("Shielded: " + (", ".join(named) if named else "nothing") +
                     "; attacks against those body parts hit cover instead")
        if head or arms:
            notes.append("With the head or arms shielded the defender cannot make valid "
                         "ranged attacks from this cover: they must be exposed (the Cover row).")
    covered = [v for v, _, _, _ in LOCATIONS if shielded[_PART[v]]]
    rows = {v: (lo, hi) for v, _, lo, hi in LOCATIONS}
    label = {v: lab for v, lab, _, _ in LOCATIONS}
    hl = (row("Cover").highlight,)
    if location == "roll":
        p = Fraction(sum(rows[v][1] - rows[v][0] + 1 for v in covered), 100)
        steps.append("Covered locations: " + (", ".join(
            f"{label[v]} ({rows[v][0]:02d}-{rows[v][1] % 100:02d})" for v in covered)
            if covered else "none"))
        odds = (Odds("Where the hit lands", (OddsRow("the cover", p),
                                             OddsRow("the target", 1 - p))),)
        return Result(f"The hit lands on the cover with probability {float(p):.0%}",
                      (("P(hits the cover)", p),), tuple(steps), odds, highlight=hl,
                      notes=tuple(notes))
    if location not in rows:
        raise InputError("location", f"{location!r} is not a hit location")
    hits = location in covered
    steps.append(f"{label[location]}: " + ("shielded, the attack hits the cover" if hits
                                          else "exposed, the attack bypasses the cover"))
    return Result(f"{label[location]}: {'hits the cover' if hits else 'bypasses the cover'}",
                  (("Hits the cover", hits),), tuple(steps), highlight=hl, notes=tuple(notes))
