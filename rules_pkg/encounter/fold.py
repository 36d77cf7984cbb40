"""The encounter as a pure fold of its event log (a reducer: state, event -> state).

The stored log (log.py: event ids, undo as an event) is first made effective; this
folds what is left. `undo` here is the plain log without its last event.
Every step of the fold adds one history entry that explains what happened, so the
history is the fight in the game's own words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import EventError, RulesError
from ..untrusted import clean_name
from . import events as ev
from . import order, turns
from .common import Log, Rules, change, cond_text, set_value
from .limits import MAX_EVENTS as MAX_EVENTS  # the limits live in limits.py
from .model import (
    MAX_COMBATANTS,
    MAX_NAME,
    Combatant,
    Condition,
    ConditionDef,
    Encounter,
    Entry,
    replace,
)
from .seeded import Seeded

MAX_DAMAGE = 999


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
    log = Log(asking=bool(getattr(event, "ask", False)), round=enc.round)
    try:
        enc, summary = _apply(rules, enc, event, log)
    except RulesError as e:
        raise EventError(index, event.KIND, str(e)) from None
    # as Entry(...) makes it, without the frozen __init__'s object.__setattr__ per field
    # (one entry an event: issue 24's replay)
    entry = object.__new__(Entry)
    entry.__dict__.update(event=index, round=enc.round, summary=summary,
                          steps=tuple(log.steps), notes=tuple(log.notes))
    return replace(enc, history=enc.history.plus(entry),
                   asks=(*enc.asks, *log.asks) if log.asks else enc.asks)


def _apply(rules: Rules, enc: Encounter, e: ev.Event,
           log: Log) -> tuple[Encounter, str]:
    sheet = rules.sheet
    # the event's own class compared (events are never subclassed): not a call per kind
    # tried, as isinstance was, ~10 an event; the commonest first, a turn passing and a
    # hit (issue 24's replay)
    if type(e) is ev.NextTurn:
        turns.waiting(enc)
        return turns.next_turn(rules, enc, Seeded(e.seed), log, e.half_action)
    if type(e) is ev.Hit:
        c = enc.combatant(e.target)
        if e.damage < 0:
            raise RulesError("damage cannot be negative")
        log.step(f"{e.damage} damage to {c.name}" + (f" ({e.source})" if e.source else ""))
        if e.damage > MAX_DAMAGE:
            raise RulesError(f"at most {MAX_DAMAGE} damage in one hit")
        after = rules.hit(sheet, c, e, Seeded(e.seed), log)
        if e.condition:
            after = _set_condition(rules, enc, after, e.condition, None, "", log, default=True)
        return enc.replace_combatant(after), f"{c.name} is hit: {_diff(rules, c, after)}"
    if type(e) is ev.AddCombatant:
        return _add(rules, enc, e, log)
    if type(e) is ev.RemoveCombatant:
        c = enc.combatant(e.id)
        kept = tuple(x for x in enc.order if x != e.id)
        turn = enc.turn
        if e.id in enc.order and enc.order.index(e.id) < turn:
            turn -= 1
        turn = min(turn, max(0, len(kept) - 1))
        enc = replace(enc, combatants=tuple(x for x in enc.combatants if x.id != e.id),
                      order=kept, turn=turn)
        return enc, f"{c.name} leaves the fight"
    if type(e) is ev.RollInitiative:
        return order.roll(rules, enc, e, log)
    if type(e) is ev.SetInitiative:
        return order.set_initiative(rules, enc, e, log)
    if type(e) is ev.SwapInitiative:
        return order.swap(rules, enc, e, log)
    if type(e) is ev.Move:
        return order.move(rules, enc, e, log)
    if type(e) is ev.NextRound:
        turns.started(enc)
        turns.waiting(enc)
        rng = Seeded(e.seed)
        start = enc.round
        summary = ""
        while enc.round == start:
            enc, summary = turns.next_turn(rules, enc, rng, log)
            if log.asks:  # a player rolls first; the round goes on after
                break
        return enc, summary
    if type(e) is ev.PreviousTurn:
        turns.started(enc)
        enc = turns.back(rules, enc)
        back = enc.current
        assert back is not None
        log.step("nothing is undone: Undo takes back what a turn did")
        return enc, f"Round {enc.round}: back to {back.name}'s turn"
    if type(e) is ev.Answer:
        return turns.answer(rules, enc, e, log)
    if type(e) is ev.OutOfFight:
        c = enc.combatant(e.target)
        if e.out:
            return enc.replace_combatant(c.with_counter(turns.OUT, 1)), \
                f"{c.name} is out of the fight (the GM's call)"
        after = rules.bring_back(sheet, c.with_counter(turns.OUT, 0), log)
        after = replace(after, counters=tuple(x for x in after.counters if x[0] != turns.OUT))
        return enc.replace_combatant(after), f"{c.name} is back in the fight"
    if type(e) is ev.Apply:
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
    if type(e) is ev.Adjust:
        c = enc.combatant(e.target)
        after = change(sheet, c, e.key, e.delta, log)
        if e.reason:
            log.step(e.reason)
        return enc.replace_combatant(after), f"{c.name}: {_diff(rules, c, after)}"
    if type(e) is ev.SetValue:
        c = enc.combatant(e.target)
        after = set_value(sheet, c, e.key, e.value, log)
        return enc.replace_combatant(after), f"{c.name}: {_diff(rules, c, after)}"
    if type(e) is ev.SetCondition:
        c = enc.combatant(e.target)
        d = sheet.custom(e.name) if e.custom else sheet.condition(e.name)
        after = _set_condition(rules, enc, c, e.name, e.rounds, e.level, log, d=d)
        cond = after.has(d.name)
        assert cond is not None
        how = "until cleared" if cond.rounds is None else (
            f"for {cond.rounds} of {c.name}'s turns" if cond.rounds != 1
            else f"until the end of {c.name}'s next turn" if not cond.own_turn
            else f"until the end of {c.name}'s next turn (not this one)")
        return enc.replace_combatant(after), f"{c.name} is {cond_text(cond)} {how}"
    if type(e) is ev.ClearCondition:
        c = enc.combatant(e.target)
        # the sheet's name for it, or the table's own as it was set
        name = e.name if c.has(e.name) else sheet.condition(e.name).name
        if not c.has(name):
            raise RulesError(f"{c.name} is not {name}")
        after = replace(c, conditions=tuple(x for x in c.conditions if x.name != name))
        after = rules.cleared(sheet, after, name, log)
        return enc.replace_combatant(after), f"{c.name} is no longer {name}"
    if type(e) is ev.Injury:
        c = enc.combatant(e.target)
        if not e.name.strip():
            raise RulesError("an injury needs a name")
        after = rules.injury(sheet, c, e.name.strip(), log)
        return enc.replace_combatant(after), f"{c.name}: {e.name.strip()}"
    if type(e) is ev.Note:
        return enc, e.text
    if type(e) is ev.Undo:
        raise RulesError("an undo is resolved in the stored log, not folded (log.effective)")
    raise RulesError(f"unknown event {type(e).__name__}")


def _add(rules: Rules, enc: Encounter, e: ev.AddCombatant, log: Log) -> tuple[Encounter, str]:
    sheet = rules.sheet
    if len(enc.combatants) >= MAX_COMBATANTS:
        raise RulesError(f"at most {MAX_COMBATANTS} combatants in one encounter")
    if not e.id or any(c.id == e.id for c in enc.combatants):
        raise RulesError(f"the combatant id {e.id[:20]!r} is empty or already used")
    name = clean_name(e.name)  # no bidi overrides, zero-width or control characters
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
        c = set_value(sheet, c, key, given[key], log, carry=False)
    # a value left at its default starts full when its maximum was given (HP = max HP)
    for s in sheet.stats:
        if isinstance(s.hi, str) and s.key not in given and s.hi in given:
            c = c.with_value(s.key, c.value(s.hi))
        elif isinstance(s.hi, str) and c.value(s.key) > c.value(s.hi):
            c = set_value(sheet, c, s.key, c.value(s.key), log)  # given above its maximum
    enc = replace(enc, combatants=(*enc.combatants, c))
    if enc.round:
        enc = replace(enc, order=(*enc.order, c.id))
        log.step(f"{name} joins after the current turn order; set or roll their initiative")
    return enc, f"{name} joins the fight"


def _set_condition(rules: Rules, enc: Encounter, c: Combatant, name: str, rounds: int | None,
                   level: str, log: Log, default: bool = False,
                   d: ConditionDef | None = None) -> Combatant:
    d = d or rules.sheet.condition(name)
    if default or rounds is None:  # none given: the rule's own duration, if it has one
        rounds = d.rounds
    if rounds is not None and not 1 <= rounds <= 100:
        raise RulesError("a duration is 1 to 100 of its bearer's turns (or none: until "
                         "cleared)")
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
    c = replace(c, conditions=(*(x for x in c.conditions if x.name != d.name), cond))
    return rules.gained(rules.sheet, c, d.name, log)


def _diff(rules: Rules, before: Combatant, after: Combatant) -> str:
    now = dict(after.values[::-1])  # after.value(k) for every k (the first pair of a key
    # wins, as there), read in one pass and not one scan a value: hits change one or two
    parts = [f"{rules.sheet.stat(k).label} {v} → {after.value(k)}"
             for k, v in before.values if (now[k] if k in now else after.value(k)) != v]
    parts += [f"now {cond_text(c)}" for c in after.conditions if c not in before.conditions]
    parts += [f"{i}" for i in after.injuries[len(before.injuries):]]
    return "; ".join(parts) or "no change"
