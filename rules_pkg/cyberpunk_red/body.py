"""§ Melee combat and § Cover: what a high enough BODY lets a character do."""

from __future__ import annotations

from typing import Annotated

from ..errors import RulesError
from ..kernel import In
from ..result import Result
from .core import MAX_STAT
from .sheet import SHEET, number

ONE_HAND_BODY = number("melee-combat", r"BODY (\d+) or higher can wield a Melee Weapon designed")
THICK_COVER_BODY = number("cover", r"without BODY (\d+) or higher to move")


def one_hand_body() -> int:
    """ "A character with a BODY 8 or higher can wield a Melee Weapon designed to be
    wielded in two hands in one hand" (§ Melee combat)."""
    return ONE_HAND_BODY.read()


def thick_cover_body() -> int:
    """ "thick cover is too unwieldy for Characters without BODY 10 or higher to move without
    special equipment" (§ Cover)."""
    return THICK_COVER_BODY.read()


FEATS = (
    ("one_hand", "Wield a two-handed Melee Weapon in one hand"),
    ("thick_cover", "Move thick cover"),
    ("thin_cover", "Move thin cover slightly"),
)


@SHEET.calculator(title="BODY: a two-handed weapon in one hand, moving cover",
                  at="§ Melee combat, § Cover")
def body_feats(
    *,
    feat: Annotated[str, In("What you want to do", choices=FEATS)] = "one_hand",
    body: Annotated[int, In("Your BODY", 1, MAX_STAT)] = 6,
    equipment: Annotated[bool, In("With special equipment (moving cover)")] = False,
) -> Result:
    """BODY 8+ wields a two-handed Melee Weapon in one hand; BODY 10+ (or special equipment)
    moves thick cover; thin cover "might be able to be moved slightly in a pinch"."""
    if feat == "one_hand":
        need = one_hand_body()
        ok = body >= need
        step = (f"BODY {body} {'≥' if ok else '<'} {need}: a Melee Weapon designed for two "
                "hands " + ("can" if ok else "cannot") + " be wielded in one hand")
        notes: tuple[str, ...] = ("In a Grapple no one can use a weapon that requires two "
                                  "hands (§ Brawling/Grappling).",)
    elif feat == "thick_cover":
        need = thick_cover_body()
        ok = body >= need or equipment
        step = (f"thick cover: BODY {body} {'≥' if body >= need else '<'} {need}"
                + (", with special equipment" if equipment else ", no special equipment")
                + (": it can be moved" if ok else ": too unwieldy to move"))
        notes = ()
    elif feat == "thin_cover":
        ok, step = True, ("thin cover might be able to be moved slightly in a pinch "
                          "(no BODY is named)")
        notes = ("How far thin cover moves is not in the sheet.",)
    else:
        raise RulesError(f"unknown feat {feat!r}")
    return Result(("Yes: " if ok else "No: ") + dict(FEATS)[feat].lower(), (("Allowed", ok),),
                  (step,), notes=notes)
