"""§ Breaking Away and § Entangling & Disarming."""

from __future__ import annotations

import random
from typing import Annotated

from ..dice import Draw, expand
from ..errors import RulesError
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Die, Odds, Result
from .contest import _p
from .sheet import ACTIONS_PER_LOST, BREAK_AWAY_FROM, DOC, MAX_SCORE, SIDES


def break_away_target(opponents: int) -> int:
    """§ Breaking Away: 6-10 breaks away; the chance falls by one per opponent beyond the
    first (3 opponents: 8-10). Returns the lowest face that breaks away."""
    if opponents < 1:
        raise RulesError("breaking away needs at least one opponent")
    return BREAK_AWAY_FROM + opponents - 1


@calculator(title="Breaking away from close combat", source=f"{DOC} § Breaking Away")
def break_away(
    *,
    opponents: Annotated[int, In("Opponents in close combat with you", 1, 10)] = 1,
    rng: random.Random | None = None,
) -> Result:
    """§ Breaking Away: roll one die; 6-10 breaks away, one less for each extra opponent."""
    low = break_away_target(opponents)

    def breaks(draw: Draw) -> bool:
        return draw(SIDES) >= low

    d = expand(breaks)
    p = d.probability(True)
    need = f"{low}-{SIDES}" if low < SIDES else (f"{SIDES}" if low == SIDES else "no roll")
    steps = [f"Roll one die: 6-10 breaks away with one opponent; {opponents} opponent(s): "
             f"{need}."]
    notes: tuple[str, ...] = ()
    if low > SIDES:
        notes = ("With this many opponents no roll of the die breaks away; the source does "
                 "not say more.",)

    def say(ok: bool, faces: Faces) -> Roll:
        face = faces[0][1]
        return Roll(f"Rolled {face}: " + ("broke away" if ok else "held") + f" (needed {need})",
                    (Die(SIDES, face, "breaks away" if ok else "held", "break away"),),
                    (("Broke away", ok),),
                    steps=(f"Rolled {face}: " + ("you break away." if ok else "you are held."),))

    return rolled(Result(f"Break away on {need}: {_p(p)}",
                         (("Break away on", need), ("P(break away)", p)), tuple(steps),
                         (Odds.of(d, "Break away", lambda b: "yes" if b else "no",
                                  cumulative=False),),
                         notes=notes), rng, breaks, say)


@calculator(title="Entangling and disarming", source=f"{DOC} § Entangling & Disarming")
def entangle(
    *,
    attacker_strength: Annotated[int, In(
        "Entangler's strength feat score (added to the die)",
        0,
        MAX_SCORE,
    )] = 6,
    target_strength: Annotated[int, In(
        "Target's strength feat score (added to the die)",
        0,
        MAX_SCORE,
    )] = 5,
    choice: Annotated[str, In(
        "Attempt",
        choices=(("entangle", "Entangle"), ("disarm", "Disarm")),
    )] = "entangle",
    lost_before: Annotated[int, In("Actions already lost to the entanglement", 0, 20)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """§ Entangling & Disarming: after a successful attack, a strength feat contest; the
    winner entangles (1 action lost per 5 points of the win, cumulative; -4 to physical
    actions while entangled) or disarms one weapon (no damage)."""
    if choice not in ("entangle", "disarm"):
        raise RulesError(f"{choice!r} is not entangle or disarm")

    def contest(draw: Draw) -> int:
        """What the entangler wins the strength feat contest by (<= 0: the target holds)."""
        return (draw(SIDES) + attacker_strength) - (draw(SIDES) + target_strength)

    diff = expand(contest)
    win = diff.p(lambda x: x > 0)
    lost = diff.map(lambda x: x // ACTIONS_PER_LOST if x > 0 else 0)
    steps = ["The attack contest succeeded: now a strength feat contest, 1 die + score each.",
             "The attacker wins with a higher result (as in combat contests: equal or lower "
             "fails)."]
    if choice == "entangle":
        steps += [f"The target loses 1 action for every {ACTIONS_PER_LOST} points the "
                  "attacker won by (cumulative over turns) and has -4 to all physical actions "
                  "while entangled.",
                  "He can still defend while he has at least one action in the turn; out of "
                  "actions, he cannot defend and every attack on him is a surprise attack.",
                  "The entangler spends one action each turn to keep it; no further contests. "
                  "The entangler may choose to do no damage and simply restrain."]
    else:
        steps.append("The target is disarmed of one weapon instead; this does no damage.")
    odds = [Odds.of(diff.map(lambda x: x > 0), "Attacker wins the strength feat contest",
                    lambda b: "wins" if b else "loses", cumulative=False)]
    if choice == "entangle":
        odds.append(Odds.of(lost, "Actions the target loses this time", str))

    def say(by: int, faces: Faces) -> Roll:
        (_, a), (_, b) = faces
        shown = (Die(SIDES, a, "entangler", "strength feat"),
                 Die(SIDES, b, "target", "strength feat"))
        rolled_step = (f"Rolled {a} + {attacker_strength} against {b} + {target_strength}.",)
        if by > 0 and choice == "entangle":
            n = by // ACTIONS_PER_LOST
            return Roll(f"Entangled (won by {by}): {n} action(s) lost, {lost_before + n} in "
                        "all; -4 to physical actions", shown,
                        (("Actions lost", n), ("Actions lost in all", lost_before + n)),
                        steps=rolled_step)
        if by > 0:
            return Roll(f"Disarmed (won by {by})", shown, steps=rolled_step)
        return Roll("The target holds (the attacker did not win the strength feat contest)",
                    shown, steps=rolled_step)

    notes = ("The source does not spell out the strength feat test; here 1 die + a score, "
             "like the combat contests.",)
    return rolled(Result(f"P({'entangled' if choice == 'entangle' else 'disarmed'}) = "
                         f"{_p(win)}", (("P(attacker wins)", win),), tuple(steps), tuple(odds),
                         notes=notes), rng, contest, say)
