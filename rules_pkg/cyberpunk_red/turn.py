"""§ Initiative, § Movement and § Armor: who acts first, how far you move, what armour does."""

from __future__ import annotations

import random
from typing import Annotated

from ..dice import Draw, expand
from ..kernel import Faces, In, Roll, rolled
from ..result import Die, Odds, Result
from .core import sp_in, stat_in
from .sheet import SHEET, number, words

# § Initiative: "REF+1d10=Initiative score" (the die's sides, read from the sheet).
_initiative_die = number("initiative", r"REF\s*\+\s*1d(\d+)").read


@SHEET.calculator(title="Initiative (REF + 1d10)", at="§ Initiative")
def initiative(
    *,
    ref: Annotated[int, stat_in("Your REF")] = 6,
    other_ref: Annotated[int, stat_in("Opponent's REF")] = 6,
    rng: random.Random | None = None,
) -> Result:
    """Everyone rolls REF + 1d10; the higher Initiative score acts first."""
    sides = _initiative_die()

    def scores(draw: Draw) -> tuple[int, int]:  # the rule, once: both exact and rolled
        return ref + draw(sides), other_ref + draw(sides)

    dist = expand(scores)
    first = dist.p(lambda s: s[0] > s[1])
    tie = dist.p(lambda s: s[0] == s[1])
    steps = [f"You: REF {ref} + 1d{sides} = {ref + 1}-{ref + sides}",
             f"Opponent: REF {other_ref} + 1d{sides} = {other_ref + 1}-{other_ref + sides}",
             f"You act first with the higher score: {first}; the same score: {tie}"]

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        mine, theirs = got
        return Roll(f"You {mine}, opponent {theirs}: " + (
            "you act first" if mine > theirs else "they act first" if theirs > mine else "a tie"),
            tuple(Die(s, f, who, "initiative")
                  for (s, f), who in zip(faces, ("you", "them"), strict=True)),
            more=(("Your initiative", mine), ("Opponent's initiative", theirs)))

    return rolled(Result(
        f"{float(first):.0%} to act first ({float(tie):.0%} tie)",
        (("P(you first)", first), ("P(tie)", tie)), tuple(steps),
        (Odds.of(dist.map(lambda s: s[0] - s[1]), "Your score minus theirs"),),
        notes=("The sheet does not say how a tie is broken.",)), rng, scores, say)


# § Movement: "Special movement like jumping swimming cost double the squares"
_DOUBLE = words("movement", "cost double the squares")
# § Armor: SP "does not "stack,"", the "most punishing Armor Penalty" lowers "REF, DEX, and MOVE"
_ARMOR = tuple(words("armor", w) for w in (
    "does not \"stack,\"", "most punishing Armor Penalty", "REF, DEX, and MOVE"))


def _special_cost() -> int:
    _DOUBLE.check()
    return 2


@SHEET.calculator(title="Move: squares this turn", at="§ Movement")
def move(
    *,
    move: Annotated[int, stat_in("MOVE (after any armour penalty)")] = 6,
    walk: Annotated[int, In("Squares walked or run", 0, 40)] = 4,
    special: Annotated[int, In("Squares jumped or swum", 0, 40)] = 1,
) -> Result:
    """Move a number of squares equal to MOVE; jumping and swimming cost double."""
    cost = _special_cost()
    used = walk + cost * special
    ok = used <= move
    steps = (f"MOVE {move}: that many squares in a Move Action",
             f"{walk} + {cost} \u00d7 {special} (jumping, swimming cost double) = {used}",
             f"{'Within' if ok else 'Over'} MOVE {move}" + ("" if ok else f" by {used - move}"))
    return Result(f"{used} of {move} squares: " + ("allowed" if ok else "too far"),
                  (("Squares used", used), ("Allowed", ok), ("Squares left", max(0, move - used))),
                  steps)


@SHEET.calculator(title="Armor worn: SP per location and the Armor Penalty", at="§ Armor")
def armor(
    *,
    body_sp: Annotated[int, sp_in("Highest body SP worn")] = 11,
    other_body_sp: Annotated[int, sp_in("Another body piece's SP (0 = none)")] = 7,
    head_sp: Annotated[int, sp_in("Highest head SP worn")] = 11,
    penalty: Annotated[int, In("Most punishing Armor Penalty worn", 0, 10)] = 0,
    ref: Annotated[int, stat_in("REF")] = 6,
    dex: Annotated[int, stat_in("DEX")] = 6,
    move: Annotated[int, stat_in("MOVE")] = 6,
) -> Result:
    """Only the highest SP in a location counts; the worst Armor Penalty lowers REF, DEX and
    MOVE once, and can leave a character at MOVE 0, immobile."""
    for said in _ARMOR:
        said.check()
    body = max(body_sp, other_body_sp)
    after = {k: max(0, v - penalty) for k, v in (("REF", ref), ("DEX", dex), ("MOVE", move))}
    steps = [f"Body SP: the highest of {body_sp} and {other_body_sp} = {body} (SP does not stack)",
             f"Head SP {head_sp}",
             f"Armor Penalty -{penalty}, taken once: REF {ref} → {after['REF']}, "
             f"DEX {dex} → {after['DEX']}, MOVE {move} → {after['MOVE']}"]
    if after["MOVE"] == 0:
        steps.append("MOVE 0: the character is completely immobile")
    return Result(f"Body SP {body}, head SP {head_sp}; REF {after['REF']}, DEX {after['DEX']}, "
                  f"MOVE {after['MOVE']}",
                  (("Body SP", body), ("Head SP", head_sp), ("REF", after["REF"]),
                   ("DEX", after["DEX"]), ("MOVE", after["MOVE"])), tuple(steps),
                  notes=("An Armor Penalty below 0 is not in the sheet: stats stop at 0.",))
