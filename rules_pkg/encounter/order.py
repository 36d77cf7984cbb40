"""The turn order under the table's control: initiative rolled (for all, or for those
without one), typed, exchanged; a combatant moved, or holding its turn.

Pure functions of (rules, state, event, log) -> (state, summary), called by fold.py.
"""

from __future__ import annotations

from operator import attrgetter

from ..errors import RulesError
from . import events as ev
from .common import Log, Rules
from .model import Combatant, Encounter, replace
from .seeded import Seeded


def roll(rules: Rules, enc: Encounter, e: ev.RollInitiative, log: Log) -> tuple[Encounter, str]:
    if not enc.combatants:
        raise RulesError("add combatants before rolling initiative")
    ids = {c.id for c in enc.combatants}
    unknown = [s for s in e.surprise if s not in ids]
    if unknown:
        raise RulesError(f"no combatant {unknown[0]!r} to give Surprise")
    who = tuple(c for c in enc.combatants if not e.only_missing or c.initiative is None)
    if not who:
        raise RulesError("everyone has an initiative already")
    taken = frozenset(c.initiative for c in enc.combatants
                      if c not in who and c.initiative is not None)
    log.step(rules.sheet.initiative)
    scores = rules.initiative(who, Seeded(e.seed), frozenset(e.surprise), log, taken)
    # a player asked to roll (Log.ask) has none until the answer (`answered`), and is marked:
    # a full roll's answers place them in an order that starts from the top
    asked = {a.id for a in log.asks}
    mark = LATE if e.only_missing and enc.round else FROM_TOP
    combatants = tuple(replace(c, initiative=scores[c.id]) if c.id in scores
                       else c if c.id not in asked
                       else replace(c, initiative=None).with_counter(ASKED, mark)
                       for c in enc.combatants)
    if e.only_missing and enc.round:  # a late joiner: the others and the turn stay
        enc = sort(rules, replace(enc, combatants=combatants), keep_current=True)
        names = ", ".join(f"{c.name} ({scores.get(c.id, 'rolls at the table')})" for c in who)
        return enc, f"Initiative for {names}; the turn stays"
    enc = replace(enc, combatants=combatants, round=max(enc.round, 1), turn=0)
    enc = sort(rules, enc, keep_current=False)
    log.step("Turn order: " + order_text(enc))
    if asked:
        return enc, f"Initiative: {len(asked)} to roll at the table"
    return enc, f"Initiative rolled: {enc.combatant(enc.order[0]).name} acts first"


ASKED = "initiative_asked"  # counter: its initiative roll is asked (see `answered`) ...
LATE, FROM_TOP = 1, 2  # ... as a late joiner's (the turn stays), or in a full roll


def _unmarked(c: Combatant) -> Combatant:
    return replace(c, counters=tuple(x for x in c.counters if x[0] != ASKED))


def answered(rules: Rules, enc: Encounter, c: Combatant) -> Encounter:
    """A player's own initiative roll is in (Horizon's Awareness test): placed like a typed
    one. After a full roll the order starts from the top once the last one is in; a late
    joiner's leaves the turn where it is."""
    fresh = c.counter(ASKED) == FROM_TOP
    enc = enc.replace_combatant(_unmarked(c))
    fresh = fresh or any(x.counter(ASKED) == FROM_TOP for x in enc.combatants)
    return sort(rules, enc, keep_current=not fresh)


def set_initiative(rules: Rules, enc: Encounter, e: ev.SetInitiative,
                   log: Log) -> tuple[Encounter, str]:
    c = enc.combatant(e.id)
    cards = rules.sheet.cards
    if cards:  # Forbidden Lands: one card each, from the deck of `cards`
        if not 1 <= e.value <= cards:
            raise RulesError(f"{c.name}'s card: an initiative card is 1 to {cards} "
                             f"(got {e.value})")
        holder = next((x for x in enc.combatants
                       if x.id != c.id and x.initiative == e.value), None)
        if holder is not None:
            raise RulesError(f"{c.name} cannot take card {e.value}: it is {holder.name}'s "
                             "(exchange cards instead)")
    elif not -99 <= e.value <= 999:
        raise RulesError(f"{c.name}'s initiative: an initiative is -99 to 999 (got {e.value})")
    # while the order is still being set up (someone has none, or a full roll's players are
    # still rolling), the top acts first
    setting_up = enc.round == 0 or any(
        x.initiative is None or x.counter(ASKED) == FROM_TOP
        for x in enc.combatants if x.id != e.id)
    if c.counter(ASKED):  # its roll was asked: typed instead (horizon:1795 "tell the Director")
        log.step(f"{c.name}'s initiative typed: its roll is no longer asked")
        enc = replace(enc, asks=tuple(a for a in enc.asks if a.id != c.id))
        setting_up = setting_up or c.counter(ASKED) == FROM_TOP
        c = _unmarked(c)
    enc = enc.replace_combatant(replace(c, initiative=e.value))
    enc = sort(rules, replace(enc, round=max(enc.round, 1)), keep_current=not setting_up)
    return enc, f"{c.name}'s initiative set to {e.value}"


def swap(rules: Rules, enc: Encounter, e: ev.SwapInitiative, log: Log) -> tuple[Encounter, str]:
    a, b = enc.combatant(e.id), enc.combatant(e.other)
    if a.id == b.id:
        raise RulesError("choose two combatants to exchange initiatives")
    if a.initiative is None or b.initiative is None:
        raise RulesError(f"{(a if a.initiative is None else b).name} has no initiative yet")
    enc = enc.replace_combatant(replace(a, initiative=b.initiative))
    enc = enc.replace_combatant(replace(b, initiative=a.initiative))
    enc = sort(rules, enc, keep_current=True)
    log.step("Turn order: " + order_text(enc))
    return enc, f"{a.name} and {b.name} exchange initiatives: {a.name} {b.initiative}, " \
                f"{b.name} {a.initiative}"


def move(rules: Rules, enc: Encounter, e: ev.Move, log: Log) -> tuple[Encounter, str]:
    """One place later or earlier. The current combatant moved later holds its turn (the
    next one's turn starts, with its start-of-turn rules); no one crosses the current
    turn otherwise (that would skip a turn, or give a second one)."""
    if e.by not in (-1, 1):
        raise RulesError("a combatant moves one place at a time (by 1 or -1)")
    c = enc.combatant(e.id)
    if c.id not in enc.order:
        raise RulesError(f"{c.name} is not in the turn order yet")
    order = list(enc.order)
    i, j = order.index(c.id), order.index(c.id) + e.by
    if not 0 <= j < len(order):
        raise RulesError(f"{c.name} is already {'first' if e.by < 0 else 'last'}")
    other = enc.combatant(order[j])
    started = enc.round > 0
    holds = started and i == enc.turn and e.by == 1
    if started and not holds and enc.turn in (i, j):
        raise RulesError(f"{enc.combatant(order[enc.turn]).name}'s turn has begun: only they "
                         "can hold it (move them later)")
    order[i], order[j] = order[j], order[i]
    enc = replace(enc, order=tuple(order))
    log.step("Turn order: " + order_text(enc))
    if holds:
        nxt = enc.current
        assert nxt is not None
        enc = enc.replace_combatant(rules.start_turn(rules.sheet, nxt, enc,
                                                     Seeded(e.seed), log))
        return enc, f"{c.name} holds their turn: {nxt.name} acts now"
    return enc, f"{c.name} moves {'before' if e.by < 0 else 'after'} {other.name}"


def sort(rules: Rules, enc: Encounter, keep_current: bool) -> Encounter:
    """Order by initiative (ties keep the order combatants joined in: sources are silent)."""
    current = enc.order[enc.turn] if keep_current and enc.order else None
    ranked = [c for c in enc.combatants if c.initiative is not None]
    unranked = [c.id for c in enc.combatants if c.initiative is None]
    # highest first (Forbidden Lands: lowest); a stable sort either way, keyed without a
    # call of ours per combatant (a mecha round sorts again: issue 24's replay)
    ranked.sort(key=attrgetter("initiative"), reverse=not rules.lowest_first)
    order = tuple([c.id for c in ranked] + unranked)
    turn = order.index(current) if current in order else 0
    return replace(enc, order=order, turn=turn)


def order_text(enc: Encounter) -> str:
    cs, places = enc.combatants, enc.places()
    return ", ".join([f"{c.name} ({c.initiative})" for c in (cs[places[i]] for i in enc.order)])
