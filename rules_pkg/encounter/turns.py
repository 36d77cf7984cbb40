"""Turns and rounds: a turn ends (its end-of-turn rules, the bearer's own durations), the
next one starts (skipping those out of the fight, losing the turns a condition costs), a
round begins; a player's roll the rules asked for is answered.

Durations count the affected combatant's own turns (#25 item 5): "for N of its turns",
ending at the end of its N-th turn; a condition set during its bearer's own turn does not
count that turn ("until the end of its next turn").
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .. import dice
from ..errors import RulesError
from . import events as ev
from . import order
from .common import HALF_ACTION, Log, Rules, cond_text, no_turn_effect
from .model import Combatant, Encounter, replace
from .seeded import Seeded

OUT = "out"  # counter: the GM took the combatant out of the fight


def out_reason(rules: Rules, c: Combatant) -> str:
    """Why a combatant is out of the fight ("": it is in): the GM's call, or the rules'."""
    return "the GM's call" if c.counters and c.counter(OUT) else rules.out(c)


def waiting(enc: Encounter) -> None:
    if enc.asks:
        a = enc.asks[0]
        raise RulesError(f"{enc.combatant(a.id).name}'s {a.name} first: enter the "
                         f"d{a.sides} or Roll")


def started(enc: Encounter) -> None:
    if enc.round == 0 or not enc.order:
        raise RulesError("roll initiative first")


def next_turn(rules: Rules, enc: Encounter, rng: random.Random,
              log: Log, half_action: bool = False) -> tuple[Encounter, str]:
    started(enc)
    cur = enc.current
    assert cur is not None
    enc = _end(rules, enc, cur, rng, log, half_action)
    # the place tried is `turn`, set in the state only once someone's turn starts there
    # (a state made for every place passed over was a fifth of a long replay, issue 24)
    turn, places, passes = enc.turn, enc.places(), rules.passes
    for _ in _tries(rules, enc):
        turn += 1
        if turn >= len(enc.order):
            turn = 0
            enc = _wrap(rules, enc, rng, log)
            places = enc.places()
        nxt = enc.combatants[places[enc.order[turn]]]  # enc.combatant, without a call
        if passes and passes(nxt) < enc.pass_no:
            continue  # takes no action in this pass
        why = out_reason(rules, nxt)
        if why:  # #25 item 3: no turn for those out of the fight
            log.step(f"{nxt.name} is out of the fight ({why}): no turn")
            continue
        enc = replace(enc, turn=turn)
        enc = enc.replace_combatant(rules.start_turn(rules.sheet, nxt, enc, rng, log))
        lost = lost_turn(rules, enc.combatant(nxt.id))
        if not lost:
            break
        # a condition that costs the turn: it passes (its end-of-turn rules, its durations)
        log.step(f"{nxt.name} is {lost}: this turn is lost")
        enc = _end(rules, enc, enc.combatant(nxt.id), rng, log, True)
        places = enc.places()
    if enc.turn != turn:
        enc = replace(enc, turn=turn)
    now = enc.current
    assert now is not None
    return enc, f"Round {enc.round}: {now.name}'s turn"


def _tries(rules: Rules, enc: Encounter) -> Iterator[int]:
    """The places tried for the next turn, at most: twice round the order (all out, or
    losing turns), in every pass (Rules.passes). The passes are counted only when the first
    two rounds are tried in vain (never, mostly): a count over every combatant on every
    turn was a third of a long mecha fold (issue 24's replay)."""
    yield from range(2 * len(enc.order))
    if rules.passes:
        most = max((rules.passes(c) for c in enc.combatants), default=1)
        yield from range(2 * len(enc.order), 2 * len(enc.order) * most)


def back(rules: Rules, enc: Encounter) -> Encounter:
    """The previous turn of this round: one place up the order, or, in a later pass, up to
    the last one acting in the pass before (Rules.passes)."""
    turn, pass_no = enc.turn, enc.pass_no
    while True:
        turn -= 1
        if turn < 0:
            if pass_no == 1:
                raise RulesError("this is the round's first turn: Undo takes back further")
            turn, pass_no = len(enc.order) - 1, pass_no - 1
        c = enc.combatant(enc.order[turn])
        if rules.passes is None or rules.passes(c) >= pass_no:
            return replace(enc, turn=turn, pass_no=pass_no)


def lost_turn(rules: Rules, c: Combatant) -> str:
    """The condition (with its source) that costs this combatant its turn ("": none)."""
    for cond in c.conditions:
        d = rules.sheet.find(cond.name)  # None: the table's own condition
        if d and d.loses_turn:
            return f"{cond_text(cond)} ({d.source})"
    return ""


def _wrap(rules: Rules, enc: Encounter, rng: random.Random, log: Log) -> Encounter:
    """Past the last place of the order: the round's next pass, or a new round (neither
    reads the turn, which starts again at the top)."""
    if _more(rules, enc):  # "Repeat each stage for all characters taking a second action"
        enc = replace(enc, pass_no=enc.pass_no + 1)
        log.step(f"Round {enc.round}, pass {enc.pass_no}: those taking action "
                 f"{enc.pass_no} act, in the same order")
        return enc
    return new_round(rules, enc, rng, log)


def _more(rules: Rules, enc: Encounter) -> bool:
    """Someone in the fight takes another action this round (Rules.passes)."""
    return rules.passes is not None and any(
        rules.passes(c) > enc.pass_no and not out_reason(rules, c)
        for c in enc.combatants if c.id in enc.order)


def _end(rules: Rules, enc: Encounter, c: Combatant, rng: random.Random, log: Log,
         half_action: bool) -> Encounter:
    """A turn ends: the game's end-of-turn rules (which read `half_action` as a counter, for
    this one call: d100 Crippled), then the bearer's durations count this turn."""
    if rules.end_turn is no_turn_effect and list(c.counters) == sorted(c.counters):
        ended = c  # no rule to read the counter: set and taken out, it leaves c as it is
    else:
        marked = c.with_counter(HALF_ACTION, int(half_action))
        ended = rules.end_turn(rules.sheet, marked, enc, rng, log)
        counters = tuple(x for x in ended.counters if x[0] != HALF_ACTION)
        # nothing done (the counter set and taken out): c itself, so that an unchanged
        # turn's end changes no state (most turns of a long replay, issue 24)
        ended = c if ended is marked and counters == c.counters else replace(
            ended, counters=counters)
    kept = []
    for cond in ended.conditions:
        if cond.rounds is None:
            kept.append(cond)  # until cleared
        elif cond.own_turn and cond.since == enc.round:  # set in this very turn: not counted
            kept.append(replace(cond, own_turn=False))  # (once: a pass may bring it again)
        elif cond.rounds <= 1:
            log.step(f"{c.name}: {cond_text(cond)} ends")
        else:
            kept.append(replace(cond, rounds=cond.rounds - 1, own_turn=False))
            log.step(f"{c.name}: {cond_text(cond)}, {turns_left(cond.rounds - 1)}")
    if tuple(kept) != ended.conditions:
        ended = replace(ended, conditions=tuple(kept))
    return enc if ended is c else enc.replace_combatant(ended)  # (a state is a value)


def turns_left(n: int) -> str:
    return f"{n} of its turns left" if n != 1 else "1 of its turns left"


def answer(rules: Rules, enc: Encounter, e: ev.Answer, log: Log) -> tuple[Encounter, str]:
    """A player's dice for a roll the rules asked for, checked against the die's faces."""
    ask = next((a for a in enc.asks if a.id == e.target and a.name == e.name), None)
    c = enc.combatant(e.target)
    if ask is None:
        raise RulesError(f"no {e.name[:40]} is waiting for {c.name}")
    faces = e.faces
    if faces:
        if len(faces) != ask.count or any(not 1 <= f <= ask.sides for f in faces):
            dice_name = f"{ask.count}d{ask.sides}" if ask.count > 1 else f"a d{ask.sides}"
            raise RulesError(f"{c.name}'s {ask.name} is {dice_name}: "
                             f"{'each die is' if ask.count > 1 else 'enter'} 1 to {ask.sides}")
        log.step(f"{c.name} rolled {', '.join(map(str, faces))} at the table")
    else:
        faces = tuple(dice.roll(Seeded(e.seed), ask.sides, ask.count))
        log.step(f"rolled for {c.name}: {', '.join(map(str, faces))}")
    rest = list(enc.asks)
    rest.remove(ask)
    enc = replace(enc, asks=tuple(rest))
    log.asking = True  # what the answer leads to is asked too (a failed test's damage die)
    after = rules.answer(rules.sheet, c, ask.name, faces, enc, Seeded(e.seed), log)
    if after.initiative != c.initiative:  # an initiative roll (Horizon's Awareness test)
        return order.answered(rules, enc, after), \
            f"{c.name}: {ask.name} {', '.join(map(str, faces))}, initiative {after.initiative}"
    return enc.replace_combatant(after), f"{c.name}: {ask.name} {', '.join(map(str, faces))}"


def new_round(rules: Rules, enc: Encounter, rng: random.Random, log: Log) -> Encounter:
    log.step(f"Round {enc.round + 1} begins")
    if not rules.reroll_each_round:
        return replace(enc, round=enc.round + 1, pass_no=1)
    log.step(rules.sheet.initiative)
    scores = rules.initiative(enc.combatants, rng, frozenset(), log, frozenset())
    enc = replace(enc, round=enc.round + 1, pass_no=1, combatants=tuple([
        c if c.initiative == scores[c.id] else replace(c, initiative=scores[c.id])
        for c in enc.combatants]))
    enc = order.sort(rules, enc, keep_current=False)
    log.step("Turn order: " + order.order_text(enc))
    return enc


