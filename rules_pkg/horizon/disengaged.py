"""§ Draw / Holster / Switch, § Stealth, Extended Actions and Escaping Combat (Disengaged
Rules), § Communication: what a turn allows, each number read from the source's words."""

from __future__ import annotations

import random
from typing import Annotated

from .. import data
from ..dice import Draw
from ..kernel import Faces, In, Part, Roll, calculator, rolled
from ..result import Odds, OddsRow, Result
from .movement import awareness
from .sheet import GAME, MAX_ACTIONS, NOT_IN_SOURCE, SOURCE, dice_in, rank_in
from .skills import SkillTest, _dice

S_DRAW = "draw-holster-switch"
S_DISENGAGED = "stealth-extended-actions-and-escaping-combat-disengaged-rules"
S_TALK = "communication"
DISENGAGED = Part(SOURCE + "Stealth, Extended Actions and Escaping Combat (Disengaged Rules)",
                  sections=(S_DISENGAGED,))


# Each number read from the source's words, declared once (data.Prose, listed in data.SPECS)
DRAW_COST = {
    "draw": data.prose(GAME, S_DRAW, r"Drawing a weapon of your choice requires (\d+) action"),
    "holster": data.prose(GAME, S_DRAW, r"Holstering your current weapon requires (\d+) action"),
    "switch": data.prose(GAME, S_DRAW, r"Switching weapons requires (\d+) action"),
}
TALK_WORDS = data.prose(GAME, S_TALK, r"speak up to (\d+) words per round")
EXTENDED_ROLLS = data.prose(GAME, S_DISENGAGED,
                            r"you can make (\d+) roll per turn on any Extended Action")
ESCAPE_ROUNDS = data.prose(GAME, S_DISENGAGED, r"fail to locate you for (\d+) consecutive rounds")
AGI_METRES = data.words(GAME, S_DISENGAGED, "AGI rank in meters")


def weapon_action_cost() -> dict[str, int]:
    """"Drawing a weapon ... requires 1 action", holstering, switching: 1 action each."""
    return {what: spec.read() for what, spec in DRAW_COST.items()}


@calculator(
    title="Draw, holster, switch and talk in a turn",
    source=SOURCE + "Draw / Holster / Switch; Communication",
    sections=(S_DRAW, S_TALK),
)
def turn_actions(
    *,
    actions: Annotated[int, In("Actions this turn", 1, MAX_ACTIONS,
                               help="Characters normally make 2 actions per turn")] = 2,
    draws: Annotated[int, In("Weapons drawn", 0, MAX_ACTIONS)] = 1,
    holsters: Annotated[int, In("Weapons holstered", 0, MAX_ACTIONS)] = 0,
    switches: Annotated[int, In("Weapon switches", 0, MAX_ACTIONS)] = 0,
    words: Annotated[int, In("Words you say this round", 0, 200)] = 12,
) -> Result:
    """Each draw, holster or switch takes its actions; up to 20 words a round, any time."""
    cost = weapon_action_cost()
    used = draws * cost["draw"] + holsters * cost["holster"] + switches * cost["switch"]
    limit = TALK_WORDS.read()
    left = actions - used
    steps = [f"Draw {draws} \u00d7 {cost['draw']} + holster {holsters} \u00d7 {cost['holster']} "
             f"+ switch {switches} \u00d7 {cost['switch']} = {used} action(s) of {actions}",
             f"Speech: {words} of {limit} words this round (at any time, even on another's turn)"]
    if holsters:
        steps.append("With no weapon drawn your combat test uses the Unarmed profile.")
    ok = left >= 0 and words <= limit
    problems = ([f"{-left} action(s) short"] if left < 0 else []) + (
        [f"{words - limit} words over the limit"] if words > limit else [])
    return Result(("Allowed: " if ok else "Not allowed: ") + (
        f"{left} action(s) left" if ok else "; ".join(problems)),
        (("Actions used", used), ("Actions left", max(left, 0)), ("Allowed", ok),
         ("Words left", max(limit - words, 0))), tuple(steps),
        notes=("More than 5 seconds of speech is up to the Director (the source).",))


@DISENGAGED.calculator(title="Extended Action in combat")
def extended_action(
    *,
    disengaged: Annotated[bool, In("Disengaged (no enemy can see you)")] = True,
    agility: Annotated[int, rank_in("AGI rank")] = 3,
    metres: Annotated[int, In("Metres you move this turn", 0, 500)] = 2,
    other_actions: Annotated[int, In("Other actions this turn", 0, MAX_ACTIONS)] = 0,
) -> Result:
    """1 roll per turn while Disengaged; no other action; move at most AGI rank in metres."""
    rolls = EXTENDED_ROLLS.read()
    AGI_METRES.check()
    problems = []
    if not disengaged:
        problems.append("you must be Disengaged first (break line of sight with every enemy)")
    if other_actions:
        problems.append(f"no other actions ({other_actions} declared)")
    if metres > agility:
        problems.append(f"you may move at most AGI {agility} m ({metres} m declared)")
    steps = (f"Disengaged: {'yes' if disengaged else 'no'}",
             f"{rolls} roll per turn on the Extended Action, and no other action",
             f"Move at most your AGI rank in metres: {agility} m",
             "If an enemy sees you, the progress pauses until you are Disengaged again.")
    ok = not problems
    return Result(f"{rolls} Extended Action roll this turn" if ok
                  else "No Extended Action roll: " + "; ".join(problems),
                  (("Allowed", ok), ("Rolls", rolls if ok else 0), ("Most metres", agility)),
                  steps, notes=("The Director may disallow any Extended Action in combat.",))


# § Stealth (horizon…txt:1836-1837): Disengaged first; a contest if an enemy sees you
STEALTH_DISENGAGED = data.words(GAME, S_DISENGAGED,
                                "You need to be Disengaged before you can use Stealth in combat")
STEALTH_CONTEST = data.words(GAME, S_DISENGAGED, "contested Awareness-Vs-Stealth test")


@DISENGAGED.calculator(title="Stealth against Awareness")
def stealth(
    *,
    disengaged: Annotated[bool, In("Disengaged (no enemy can see you)")] = True,
    my_dice: Annotated[int, dice_in("Your Stealth rank (dice)")] = 2,
    my_bonus: Annotated[int, rank_in("Your Stealth Trait bonus")] = 3,
    their_dice: Annotated[int, dice_in("Their Awareness rank (dice)")] = 2,
    their_acu: Annotated[int, rank_in("Their ACU (Acuity)",
                                      help="the Awareness test's Trait bonus")] = 3,
    rng: random.Random | None = None,
) -> Result:
    """§ Stealth: Disengaged first; an enemy who gains sight of you rolls a contested
    Awareness-Vs-Stealth test: you win, they are none the wiser; you lose, they see or hear
    you and can alert their allies."""
    STEALTH_DISENGAGED.check()
    STEALTH_CONTEST.check()
    if not disengaged:
        return Result("No Stealth: you must be Disengaged first", (("Allowed", False),),
                      ("Stealth in combat needs you Disengaged: break line of sight with "
                       "every enemy",))
    me, them = SkillTest(my_dice, my_bonus), awareness(their_dice, their_acu, False)
    diff = me.distribution().combine(them.distribution(), lambda a, b: a - b)
    win, lose = diff.p(lambda d: d > 0), diff.p(lambda d: d < 0)
    tie = 1 - win - lose
    steps = (f"your Stealth: {me.explain()}", f"their Awareness: {them.explain()}",
             "higher score wins the contest")
    odds = (Odds("Awareness-Vs-Stealth", (OddsRow("you win: they are none the wiser", win),
                                          OddsRow("equal scores", tie),
                                          OddsRow("you lose: they see or hear you", lose))),)
    notes = [f"{NOT_IN_SOURCE}who wins on equal scores"] if tie else []
    notes.append("The contest is rolled only if an enemy gains sight of you with their "
                 "natural vision after you use Stealth.")

    def scores(draw: Draw) -> tuple[int, int]:
        return me.ap(draw), them.ap(draw)

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        (ms, ts), mf, tf = got, [f for _, f in faces[:my_dice]], [f for _, f in faces[my_dice:]]
        who = "you win" if ms > ts else "you lose" if ts > ms else "equal scores"
        return Roll(f"Stealth {ms} AP against Awareness {ts} AP: {who}",
                    _dice(mf, "stealth") + _dice(tf, "awareness"),
                    (("Your Stealth", ms), ("Their Awareness", ts)),
                    steps=(f"you: {me.explain(mf)}", f"them: {them.explain(tf)}"))

    return rolled(Result(f"you stay unseen with probability {float(win):.1%}",
                         (("Allowed", True), ("P(you win)", win), ("P(equal)", tie),
                          ("P(you lose)", lose)), steps, odds, notes=tuple(notes)),
                  rng, scores, say)


@DISENGAGED.calculator(title="Escaping combat")
def escape(
    *,
    rounds: Annotated[int, In("Rounds in a row the enemies failed to locate you", 0, 20)] = 1,
) -> Result:
    """You have escaped when your enemies fail to locate you for 3 consecutive rounds."""
    need = ESCAPE_ROUNDS.read()
    left = max(0, need - rounds)
    steps = ("1) Disengage: break line of sight with all enemies",
             "2) Hide really well, or run (holstered, the Unarmed profile does not slow you)",
             f"Escaped after {need} consecutive rounds unlocated: {rounds} so far")
    return Result("Escaped: combat is over" if not left else f"{left} more round(s) unlocated",
                  (("Escaped", not left), ("Rounds left", left)), steps,
                  notes=("Re-engaging starts a new combat, with a new turn order.",))
