"""The encounter as a pure fold of its event log (a reducer: state, event -> state).

Undo is the log without its last event; redo is the caller's stack of dropped events.
Every step of the fold adds one history entry that explains what happened, so the
history is the fight in the game's own words.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .. import dice
from ..errors import RulesError
from . import events as ev
from . import order
from .common import HALF_ACTION, Log, Rules, change, set_value
from .model import MAX_COMBATANTS, MAX_NAME, Combatant, Condition, Encounter, Entry

MAX_EVENTS = 5000
MAX_DAMAGE = 999
OUT = "out"  # counter: the GM took the combatant out of the fight


def rules_for(game: str) -> Rules:
    from . import games

    try:
        return games.RULES[game]
    except KeyError:
        raise RulesError(f"no encounter rules for the game {game[:40]!r}") from None


def fold(game: str, log: Iterable[ev.Event]) -> Encounter:
    """The state after every event of the log, in order."""
    rules = rules_for(game)
    enc = Encounter(game)
    for i, event in enumerate(log):
        if i >= MAX_EVENTS:
            raise RulesError(f"an encounter keeps at most {MAX_EVENTS} events")
        enc = step(rules, enc, event, i)
    return enc


def undo(log: Sequence[ev.Event]) -> tuple[list[ev.Event], ev.Event]:
    """The log without its last event, and that event (for the caller's redo stack)."""
    if not log:
        raise RulesError("nothing to undo")
    return list(log[:-1]), log[-1]


def step(rules: Rules, enc: Encounter, event: ev.Event, index: int) -> Encounter:
    """One event applied; a RulesError names the event that could not be applied."""
    log = Log(asking=bool(getattr(event, "ask", False)))
    try:
        enc, summary = _apply(rules, enc, event, log)
    except RulesError as e:
        raise RulesError(f"event {index + 1} ({event.KIND}): {e}") from None
    entry = Entry(index, enc.round, summary, tuple(log.steps), tuple(log.notes))
    return replace(enc, history=(*enc.history, entry), asks=(*enc.asks, *log.asks))


def out_reason(rules: Rules, c: Combatant) -> str:
    """Why a combatant is out of the fight ("": it is in): the GM's call, or the rules'."""
    return "the GM's call" if c.counter(OUT) else rules.out(c)


def _waiting(enc: Encounter) -> None:
    if enc.asks:
        a = enc.asks[0]
        raise RulesError(f"{enc.combatant(a.id).name}'s {a.name} first: enter the "
                         f"d{a.sides} or Roll")


def _apply(rules: Rules, enc: Encounter, e: ev.Event,
           log: Log) -> tuple[Encounter, str]:
    sheet = rules.sheet
    if isinstance(e, ev.AddCombatant):
        return _add(rules, enc, e, log)
    if isinstance(e, ev.RemoveCombatant):
        c = enc.combatant(e.id)
        kept = tuple(x for x in enc.order if x != e.id)
        turn = enc.turn
        if e.id in enc.order and enc.order.index(e.id) < turn:
            turn -= 1
        turn = min(turn, max(0, len(kept) - 1))
        enc = replace(enc, combatants=tuple(x for x in enc.combatants if x.id != e.id),
                      order=kept, turn=turn)
        return enc, f"{c.name} leaves the fight"
    if isinstance(e, ev.RollInitiative):
        return order.roll(rules, enc, e, log)
    if isinstance(e, ev.SetInitiative):
        return order.set_initiative(rules, enc, e, log)
    if isinstance(e, ev.SwapInitiative):
        return order.swap(rules, enc, e, log)
    if isinstance(e, ev.Move):
        return order.move(rules, enc, e, log)
    if isinstance(e, ev.NextTurn):
        _waiting(enc)
        return _next_turn(rules, enc, random.Random(e.seed), log, e.half_action)
    if isinstance(e, ev.NextRound):
        _started(enc)
        _waiting(enc)
        rng = random.Random(e.seed)
        start = enc.round
        summary = ""
        while enc.round == start:
            enc, summary = _next_turn(rules, enc, rng, log)
            if log.asks:  # a player rolls first; the round goes on after
                break
        return enc, summary
    if isinstance(e, ev.Answer):
        return _answer(rules, enc, e, log)
    if isinstance(e, ev.OutOfFight):
        c = enc.combatant(e.target)
        if e.out:
            return enc.replace_combatant(c.with_counter(OUT, 1)), \
                f"{c.name} is out of the fight (the GM's call)"
        after = rules.bring_back(sheet, c.with_counter(OUT, 0), log)
        after = replace(after, counters=tuple(x for x in after.counters if x[0] != OUT))
        return enc.replace_combatant(after), f"{c.name} is back in the fight"
    if isinstance(e, ev.Hit):
        c = enc.combatant(e.target)
        if e.damage < 0:
            raise RulesError("damage cannot be negative")
        log.step(f"{e.damage} damage to {c.name}" + (f" ({e.source})" if e.source else ""))
        if e.damage > MAX_DAMAGE:
            raise RulesError(f"at most {MAX_DAMAGE} damage in one hit")
        after = rules.hit(sheet, c, e, random.Random(e.seed), log)
        if e.condition:
            after = _set_condition(rules, enc, after, e.condition, None, "", log, default=True)
        return enc.replace_combatant(after), f"{c.name} is hit: {_diff(rules, c, after)}"
    if isinstance(e, ev.Apply):
        c = enc.combatant(e.target)
        log.step(e.source)
        after = c
        ceilings = dict(e.upto)
        for key, delta in e.changes:
            if key in ceilings:  # "completely filled but no more" (a Magazine)
                now, top = after.value(key), ceilings[key]
                delta = max(0, min(delta, top - now))
                log.step(f"{sheet.stat(key).label} {now} + {delta} → {now + delta} "
                         f"(holds {top})")
            after = change(sheet, after, key, delta, log)
        for key, value in e.sets:
            after = set_value(sheet, after, key, value, log)
        for name in e.conditions:
            after = _set_condition(rules, enc, after, name, None, "", log, default=True)
        return enc.replace_combatant(after), f"{c.name}: {_diff(rules, c, after)}"
    if isinstance(e, ev.Adjust):
        c = enc.combatant(e.target)
        after = change(sheet, c, e.key, e.delta, log)
        if e.reason:
            log.step(e.reason)
        return enc.replace_combatant(after), f"{c.name}: {_diff(rules, c, after)}"
    if isinstance(e, ev.SetValue):
        c = enc.combatant(e.target)
        after = set_value(sheet, c, e.key, e.value, log)
        return enc.replace_combatant(after), f"{c.name}: {_diff(rules, c, after)}"
    if isinstance(e, ev.SetCondition):
        c = enc.combatant(e.target)
        after = _set_condition(rules, enc, c, e.name, e.rounds, e.level, log)
        cond = after.has(sheet.condition(e.name).name)
        assert cond is not None
        how = "until cleared" if cond.rounds is None else f"for {cond.rounds} round(s)"
        return enc.replace_combatant(after), f"{c.name} is {_cond_text(cond)} {how}"
    if isinstance(e, ev.ClearCondition):
        c = enc.combatant(e.target)
        name = sheet.condition(e.name).name
        if not c.has(name):
            raise RulesError(f"{c.name} is not {name}")
        after = replace(c, conditions=tuple(x for x in c.conditions if x.name != name))
        after = rules.cleared(sheet, after, name, log)
        return enc.replace_combatant(after), f"{c.name} is no longer {name}"
    if isinstance(e, ev.Injury):
        c = enc.combatant(e.target)
        if not e.name.strip():
            raise RulesError("an injury needs a name")
        after = rules.injury(sheet, c, e.name.strip(), log)
        return enc.replace_combatant(after), f"{c.name}: {e.name.strip()}"
    if isinstance(e, ev.Note):
        return enc, e.text
    raise RulesError(f"unknown event {type(e).__name__}")


def _add(rules: Rules, enc: Encounter, e: ev.AddCombatant, log: Log) -> tuple[Encounter, str]:
    sheet = rules.sheet
    if len(enc.combatants) >= MAX_COMBATANTS:
        raise RulesError(f"at most {MAX_COMBATANTS} combatants in one encounter")
    if not e.id or any(c.id == e.id for c in enc.combatants):
        raise RulesError(f"the combatant id {e.id[:20]!r} is empty or already used")
    name = " ".join(e.name.split())
    if not name or len(name) > MAX_NAME:
        raise RulesError(f"a combatant needs a name of 1 to {MAX_NAME} characters")
    if e.kind not in sheet.kinds:
        raise RulesError(f"{sheet.title} combatants are {' or '.join(sheet.kinds)}, "
                         f"not {e.kind[:20]!r}")
    c = Combatant(e.id, name, e.kind, tuple((s.key, s.default) for s in sheet.stats))
    given = dict(e.values)
    for key in given:
        sheet.stat(key)  # an unknown value is an error, not silently dropped
    # maxima first, so "HP 30, max HP 40" is not clamped by the default maximum
    bounded_by = {s.hi for s in sheet.stats if isinstance(s.hi, str)}
    for key in sorted(given, key=lambda k: k not in bounded_by):
        c = set_value(sheet, c, key, given[key], log)
    # a value left at its default starts full when its maximum was given (HP = max HP)
    for s in sheet.stats:
        if isinstance(s.hi, str) and s.key not in given and s.hi in given:
            c = c.with_value(s.key, c.value(s.hi))
    enc = replace(enc, combatants=(*enc.combatants, c))
    if enc.round:
        enc = replace(enc, order=(*enc.order, c.id))
        log.step(f"{name} joins after the current turn order; set or roll their initiative")
    return enc, f"{name} joins the fight"


def _started(enc: Encounter) -> None:
    if enc.round == 0 or not enc.order:
        raise RulesError("roll initiative first")


def _next_turn(rules: Rules, enc: Encounter, rng: random.Random,
               log: Log, half_action: bool = False) -> tuple[Encounter, str]:
    _started(enc)
    sheet = rules.sheet
    cur = enc.current
    assert cur is not None
    # the end-of-turn rules read it as a counter for this one call (d100 Crippled)
    ended = rules.end_turn(sheet, cur.with_counter(HALF_ACTION, int(half_action)), enc, rng, log)
    enc = enc.replace_combatant(replace(ended, counters=tuple(
        x for x in ended.counters if x[0] != HALF_ACTION)))
    for _ in enc.order:  # those out of the fight are skipped (#25 item 3)
        turn = enc.turn + 1
        if turn >= len(enc.order):
            enc = _new_round(rules, enc, rng, log)
            turn = 0
        enc = replace(enc, turn=turn)
        nxt = enc.current
        assert nxt is not None
        why = out_reason(rules, nxt)
        if not why:
            break
        log.step(f"{nxt.name} is out of the fight ({why}): no turn")
    nxt = enc.current
    assert nxt is not None
    enc = enc.replace_combatant(rules.start_turn(sheet, nxt, enc, rng, log))
    return enc, f"Round {enc.round}: {nxt.name}'s turn"


def _answer(rules: Rules, enc: Encounter, e: ev.Answer, log: Log) -> tuple[Encounter, str]:
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
        faces = tuple(dice.roll(random.Random(e.seed), ask.sides, ask.count))
        log.step(f"rolled for {c.name}: {', '.join(map(str, faces))}")
    rest = list(enc.asks)
    rest.remove(ask)
    enc = replace(enc, asks=tuple(rest))
    log.asking = True  # what the answer leads to is asked too (a failed test's damage die)
    after = rules.answer(rules.sheet, c, ask.name, faces, enc, random.Random(e.seed), log)
    return enc.replace_combatant(after), f"{c.name}: {ask.name} {', '.join(map(str, faces))}"


def _new_round(rules: Rules, enc: Encounter, rng: random.Random, log: Log) -> Encounter:
    enc = replace(enc, round=enc.round + 1)
    log.step(f"Round {enc.round} begins")
    out = []
    for c in enc.combatants:
        kept = []
        for cond in c.conditions:
            if cond.rounds is None:
                kept.append(cond)
            elif cond.rounds <= 1:
                log.step(f"{c.name}: {_cond_text(cond)} ends")
            else:
                kept.append(replace(cond, rounds=cond.rounds - 1))
                log.step(f"{c.name}: {_cond_text(cond)}, {cond.rounds - 1} round(s) left")
        out.append(replace(c, conditions=tuple(kept)))
    enc = replace(enc, combatants=tuple(out))
    if rules.reroll_each_round:
        log.step(rules.sheet.initiative)
        scores = rules.initiative(enc.combatants, rng, frozenset(), log, frozenset())
        enc = replace(enc, combatants=tuple(replace(c, initiative=scores[c.id])
                                            for c in enc.combatants))
        enc = order.sort(rules, enc, keep_current=False)
        log.step("Turn order: " + order.order_text(enc))
    return enc


def _set_condition(rules: Rules, enc: Encounter, c: Combatant, name: str, rounds: int | None,
                   level: str, log: Log, default: bool = False) -> Combatant:
    d = rules.sheet.condition(name)
    if default:
        rounds = d.rounds
    if rounds is not None and not 1 <= rounds <= 100:
        raise RulesError("a duration is 1 to 100 rounds (or none: until cleared)")
    if d.levels and level not in d.levels:
        if level or default:
            level = level if level in d.levels else d.levels[0]
            log.note(f"{d.name}: level set to {level}")
        else:
            raise RulesError(f"{d.name} needs a level: {', '.join(d.levels)}")
    if not d.levels and level:
        raise RulesError(f"{d.name} has no levels")
    log.step(f"{d.name}: {d.effect} ({d.source})")
    cur = enc.current
    cond = Condition(d.name, rounds, level, enc.round, cur is not None and cur.id == c.id)
    return replace(c, conditions=(*(x for x in c.conditions if x.name != d.name), cond))


def _cond_text(cond: Condition) -> str:
    return f"{cond.name} ({cond.level})" if cond.level else cond.name


def _diff(rules: Rules, before: Combatant, after: Combatant) -> str:
    parts = [f"{rules.sheet.stat(k).label} {v} → {after.value(k)}"
             for k, v in before.values if after.value(k) != v]
    parts += [f"now {_cond_text(c)}" for c in after.conditions if c not in before.conditions]
    parts += [f"{i}" for i in after.injuries[len(before.injuries):]]
    return "; ".join(parts) or "no change"
