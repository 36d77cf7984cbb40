"""§ The Move Action, § Reload, § Turn order and Surprise."""

from __future__ import annotations

import random
from typing import Annotated, Any

from ..dice import Draw
from ..errors import InputError, RulesError
from ..kernel import Bound, Faces, In, Roll, calculator, rolled
from ..result import Odds, OddsRow, Result
from .attacks import _hl
from .combat_test import WEAPON_DEFAULT, Scored, WeaponIn
from .profiles import ProfileRow, WeaponProfile, parse_move, profile, profiles
from .sheet import MAX_ACTIONS, NOT_IN_SOURCE, PROFILES, SOURCE, X, dice_in, rank_in
from .skills import SkillTest, _check_rank, _dice

# --- move ------------------------------------------------------------------------------------

def base_move(agility: int) -> int:
    """§ The Move Action, BASE MOVE: "Each rank in AGI increases your Base movement range by
    +5m per round" (AGI 4 → 20 m)."""
    _check_rank(agility, "AGI")
    return agility * 5


def move_modifier(w: WeaponProfile, row: ProfileRow) -> tuple[int | None, str]:
    """The Move cell of the row, or the profile-wide Move of a banded profile."""
    cell = row.cell("move", "speed")
    if cell is None and w.layout == "banded":
        cell = str(w.get("move") or "") or None
    if cell is None:
        return None, ""
    return parse_move(cell), cell


@PROFILES.calculator(
    title="Move: distance this round",
    at="The Move Action")
def move(
    *,
    scored: Scored,
    agi: Annotated[int, rank_in("AGI (Agility)")] = 4,
    endurance: Annotated[bool, In(
        "Push with Endurance",
        help="needs the Endurance Skill unlocked",
    )] = False,
    end_dice: Annotated[int, dice_in("Endurance rank (dice)")] = 2,
    end_bonus: Annotated[int, rank_in("Endurance Trait bonus")] = 2,
    rng: random.Random | None = None,
) -> Result:
    """§ The Move Action: base move AGI x 5 m plus the row's Move modifier ("Base": none);
    ENDURANCE adds the Endurance test's AP score in metres."""
    w = scored.profile()
    base = base_move(agi)
    row, step = scored.row()
    if row is None:
        return scored.no_row(step)
    mod, cell = move_modifier(w, row)
    if mod is None:
        return Result(f"{w.name}: Move not in the source for {row.label}", steps=(step,),
                      notes=(f"{NOT_IN_SOURCE}the Move cell is {cell or 'blank'}",),
                      highlight=_hl(row))
    total = base + mod
    steps = [step, f"base move AGI {agi} {X} 5 m = {base} m",
             f"Move {cell}: " + (f"({base}m{mod:+d}m) = {total} m" if mod else
                                 f"base move, {total} m")]
    notes: list[str] = []
    if total < 0:
        notes.append(f"{NOT_IN_SOURCE}a move below 0 m ({total} m)")
    values: list[tuple[str, Any]] = [("Base move (m)", base), ("Modifier (m)", mod),
                                              ("Move (m)", total)]
    if not endurance:
        return Result(f"Move {total} m", tuple(values), tuple(steps), notes=tuple(notes),
                      highlight=_hl(row))
    if end_dice < 1:
        raise RulesError("Push with Endurance needs the Endurance Skill unlocked: Endurance "
                         "rank (dice) 1 or more (§ The Move Action, ENDURANCE)")
    test = SkillTest(end_dice, end_bonus)
    dist = test.distribution()
    steps.append(f"Endurance: the test's AP score is extra metres ({test.explain()})")
    odds = (Odds.of(dist.map(lambda ap: pushed_move(total, ap)), "Move with Endurance",
                    lambda m: f"{m} m"),)
    values.append(("Mean move with Endurance (m)", dist.mean() + total))

    def say(score: int, rolled_faces: Faces) -> Roll:
        faces = [f for _, f in rolled_faces]
        pushed = pushed_move(total, score)
        return Roll(f"Move {pushed} m", _dice(faces, "endurance"),
                    more=(("Move with Endurance (m)", pushed),),
                    steps=(f"Endurance {test.explain(faces)} → +{score} m: {pushed} m",))

    return rolled(Result(f"Move {total} m + Endurance (mean {float(dist.mean() + total):.2f} m)",
                         tuple(values), tuple(steps), odds, notes=tuple(notes),
                         highlight=_hl(row)), rng, test.ap, say)


def pushed_move(move_m: int, endurance_ap: int) -> int:
    """§ The Move Action, ENDURANCE: "Your AP score for the test is your extra movement in
    meters" (5AP → an additional 5m)."""
    return move_m + endurance_ap


# --- reload ----------------------------------------------------------------------------------

def reload_magazine(loaded: int, magazine: int, per_action: int, actions: int) -> int:
    """§ Reload Actions: each Reload adds its number of Attacks; "If a Reload action would add
    more Attacks than the Magazine can hold, it will be completely filled but no more"."""
    if loaded < 0 or loaded > magazine:
        raise RulesError(f"a Magazine of {magazine} holds 0 to {magazine} Attacks "
                         f"(got {loaded})")
    return min(magazine, loaded + per_action * actions)


MAGAZINE = Bound(("weapon",), "that weapon's Magazine (§ Reload Actions)",
                 lambda: {(w.id,): m for w in profiles().values()
                          if (m := w.count("magazine")) is not None})


@PROFILES.calculator(
    title="Reload: Attacks in the Magazine",
    at="Reload Actions")
def reload(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    loaded: Annotated[int, In("Attacks left in the Magazine", 0, 1000,
                              max_by=MAGAZINE)] = 0,
    actions: Annotated[int, In("Reload actions", 1, MAX_ACTIONS)] = 1,
) -> Result:
    """§ Reload Actions: fixed for each weapon, not improved by AP; capped at the Magazine."""
    w = profile(weapon)
    mag, per = w.count("magazine"), w.count("reload")
    raw_mag, raw_reload = w.get("magazine") or "", w.get("reload") or ""
    if mag is None or per is None:
        missing = "Magazine" if mag is None else "Reload"
        shown = raw_mag if mag is None else raw_reload
        other = _other_reloads(w)
        extra = (f"; it lists {' and '.join(other)} without saying how they work"
                 if other else "")
        raise InputError("weapon", f"the {w.name} has no {missing} number in the source "
                         f"({shown or 'blank'}){extra}")
    after = reload_magazine(loaded, mag, per, actions)
    added = per * actions
    steps = [f"{w.name}: Magazine {raw_mag}, Reload {raw_reload}",
             f"{actions} Reload action{'s' * (actions != 1)}: "
             + (f"({per}{X}{actions}) = {added}" if actions > 1 else f"{added}")
             + f" Attacks added to {loaded}"]
    if loaded + added > mag:
        steps.append(f"the Magazine holds {mag}: completely filled but no more")
    notes = [f"{NOT_IN_SOURCE}how the profile's {o} differs from the Reload used here"
             for o in _other_reloads(w)]
    return Result(f"{after} of {mag} Attacks loaded", (("Magazine", mag), ("Reload", per),
                  ("Loaded", after)), tuple(steps), notes=tuple(notes))


def _other_reloads(w: WeaponProfile) -> list[str]:
    """Reload-like fields besides "Reload" (the Rusty Assault Rifle's Half/Full Reload)."""
    fields = w.get("fields")
    if not isinstance(fields, dict):
        return []
    return [f"{k} {v}" for k, v in fields.items()
            if "reload" in str(k).lower() and str(k) != "Reload" and v]


# --- turn order and surprise ----------------------------------------------------------------

def awareness(dice: int, acu: int, surprise: bool) -> SkillTest:
    """§ Starting Combat: an Awareness test (linked to Acuity); without the Skill, the ACU
    rank alone. § Surprise!: the surprising side adds its ACU rank again."""
    return SkillTest(dice, acu, acu if surprise else 0, "Surprise")


@calculator(
    title="Turn order: Awareness tests",
    source=SOURCE + "Starting Combat; Surprise!")
def turn_order(
    *,
    my_dice: Annotated[int, dice_in(
        "Your Awareness rank (dice)", help="0 without the Skill: your ACU rank is the score")] = 2,
    my_acu: Annotated[int, rank_in("Your ACU (Acuity)")] = 3,
    my_surprise: Annotated[bool, In("Your side has Surprise")] = False,
    their_dice: Annotated[int, dice_in("Their Awareness rank (dice)")] = 2,
    their_acu: Annotated[int, rank_in("Their ACU (Acuity)")] = 3,
    their_surprise: Annotated[bool, In("Their side has Surprise")] = False,
    rng: random.Random | None = None,
) -> Result:
    """§ Starting Combat: turn order runs from the highest Awareness score to the lowest."""
    if my_surprise and their_surprise:
        raise InputError(
            "their_surprise", "only the side that strikes first gains the Surprise bonus")
    me, them = awareness(my_dice, my_acu, my_surprise), awareness(their_dice, their_acu,
                                                                  their_surprise)
    diff = me.distribution().combine(them.distribution(), lambda a, b: a - b)
    first, second = diff.p(lambda d: d > 0), diff.p(lambda d: d < 0)
    tie = 1 - first - second
    steps = [f"you: {me.explain()}", f"them: {them.explain()}",
             "highest score goes first"]
    for who, t, s in (("you", me, my_surprise), ("they", them, their_surprise)):
        if s:
            steps.append(f"Surprise!: {who} add ACU {t.extra} → +{t.extra} AP")
    notes = [f"{NOT_IN_SOURCE}how equal Awareness scores are ordered"] if tie else []
    odds = (Odds("Turn order", (OddsRow("you act first", first), OddsRow("equal scores", tie),
                                OddsRow("they act first", second))),)
    values: list[tuple[str, Any]] = [("P(you first)", first), ("P(equal)", tie),
                                              ("P(they first)", second)]

    def scores(draw: Draw) -> tuple[int, int]:
        return me.ap(draw), them.ap(draw)

    def say(got: tuple[int, int], faces: Faces) -> Roll:
        (ms, ts), mine = got, me.dice
        mf, tf = [f for _, f in faces[:mine]], [f for _, f in faces[mine:]]
        who = "you act first" if ms > ts else "they act first" if ts > ms else "equal scores"
        return Roll(f"{ms} AP against {ts} AP: {who}", _dice(mf, "you") + _dice(tf, "them"),
                    (("Your Awareness", ms), ("Their Awareness", ts)),
                    steps=(f"you: {me.explain(mf)}", f"them: {them.explain(tf)}"))

    return rolled(Result(f"you act first with probability {float(first):.1%}", tuple(values),
                         tuple(steps), odds, notes=tuple(notes)), rng, scores, say)
