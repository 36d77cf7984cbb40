"""Replaying a stored log without starting over (issue 24: a bounded replay).

The page folds its log again after every action, and Python lives on between requests, so
the states already folded are kept: a checkpoint every CHECKPOINT_EVERY events of an
effective log (log.py), keyed by the events before it (ids and contents). A new request folds only
from the newest checkpoint its own log starts with: one new event costs one step, an undo
refolds from the checkpoint before the event undone. `budget_s` bounds one request's work,
so the page can show a long fight at once and bring it up to date in slices (never one
long task). The fold itself is fold.step: this only decides where to start and stop.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import EventError, RulesError
from . import log as stored
from .fold import MAX_EVENTS, rules_for, step
from .model import Encounter

CHECKPOINT_EVERY = 64
K = TypeVar("K")
V = TypeVar("V")
KEEP = 160  # checkpoints kept in all (the oldest used goes first): ~20 fights' worth
# the budget's clock is read every this many events: a read costs ~6 µs in Pyodide, as much
# as a cheap event's whole rule (~30 ms of a 5,000-event replay, issue 24)
CLOCK_EVERY = 16


@dataclass(frozen=True)
class Replayed:
    """The state after the first `folded` of `total` effective events."""

    enc: Encounter
    folded: int
    total: int

    @property
    def done(self) -> bool:
        return self.folded == self.total


_checkpoints: OrderedDict[tuple[str, int, int], Encounter] = OrderedDict()


def _prefix_keys(game: str, live: Sequence[stored.Logged]) -> list[int]:
    """keys[i]: the checkpoint key of the first i events (their ids and contents, in
    order: a file from elsewhere may reuse an id for another event, and must not be given
    the state folded from this device's)."""
    keys = [hash((game,))]
    for x in live:
        keys.append(hash((keys[-1], x)))
    return keys


# The keys of the newest logs given as tuples (a held log's: held.py), kept with the very
# tuple (so its id is not another's): a fold in slices asks ~10 times about one log, and
# each time hashed its 5,000 events again (issue 24)
_recent_keys: list[tuple[tuple[stored.Logged, ...], str, list[int]]] = []
# how far each log was folded (by its game, length and whole key: the index of its newest
# checkpoint)
_reach: OrderedDict[tuple[str, int, int], int] = OrderedDict()


def _keys(game: str, live: Sequence[stored.Logged]) -> list[int]:
    if not isinstance(live, tuple):  # a list may change between calls: not kept
        return _prefix_keys(game, live)
    for seen, g, keys in _recent_keys:
        if seen is live and g == game:
            return keys
    keys = _prefix_keys(game, live)
    _recent_keys.insert(0, (live, game, keys))
    del _recent_keys[4:]
    return keys


def _start(game: str, live: Sequence[stored.Logged], keys: list[int]) -> tuple[int, Encounter]:
    """The newest checkpoint that fits `live`: where this log's last fold stopped, or the
    newest of its prefixes (a request's end is one too)."""
    reach = _reach.get((game, len(live), keys[-1]))
    if reach is not None and reach <= len(live) and (game, reach, keys[reach]) in _checkpoints:
        _checkpoints.move_to_end((game, reach, keys[reach]))
        return reach, _checkpoints[(game, reach, keys[reach])]
    for i in range(len(live), 0, -1):
        found = _checkpoints.get((game, i, keys[i]))
        if found is not None:
            _checkpoints.move_to_end((game, i, keys[i]))
            return i, found
    return 0, Encounter(game)


def replay(game: str, live: Sequence[stored.Logged], budget_s: float | None = None) -> Replayed:
    """The state of the effective log `live`, from the newest checkpoint that fits; with
    `budget_s`, it stops once that much time is spent (at least one event folded)."""
    rules = rules_for(game)
    if len(live) > MAX_EVENTS:
        raise RulesError(f"an encounter keeps at most {MAX_EVENTS} events")
    keys = _keys(game, live)
    start, enc = _start(game, live, keys)
    until = None if budget_s is None else time.perf_counter() + budget_s
    i = start
    while i < len(live):
        try:
            enc = step(rules, enc, live[i].event, i)
        except EventError as e:  # which stored event: the page tells a tap's from a file's
            e.eid = live[i].eid
            raise
        i += 1
        if i % CHECKPOINT_EVERY == 0:
            _keep((game, i, keys[i]), enc)
        if until is not None and i % CLOCK_EVERY == 0 and time.perf_counter() > until:
            break
    _keep((game, i, keys[i]), enc)
    newest(_reach, (game, len(live), keys[-1]), i, KEEP)
    return Replayed(enc, i, len(live))


_parsed: dict[str, tuple[str, stored.Logged]] = {}
PARSED_KEPT = 4 * MAX_EVENTS


def parse(raw: Any) -> list[stored.Logged]:
    """log.parse, each event read once: the page sends its whole log with every request,
    and an event already read (the same id and the very same fields: repr tells True from
    1 and 1.0, where == does not) is taken as read."""
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        return stored.parse(raw, MAX_EVENTS)  # which says what is wrong
    out = []
    fresh = []
    for i, r in enumerate(raw):
        eid = r.get("eid") if isinstance(r, dict) else None
        hit = _parsed.get(eid) if isinstance(eid, str) else None
        text = repr(r)
        if hit is not None and hit[0] == text:
            out.append(hit[1])
            continue
        x = stored.parse_one(r, f"event {i + 1}")
        fresh.append((text, x))
        out.append(x)
    if len(_parsed) + len(fresh) > PARSED_KEPT:
        _parsed.clear()
    for text, x in fresh:
        _parsed[x.eid] = (text, x)
    return out


def remember(raw: list[dict[str, Any]], log: Sequence[stored.Logged]) -> None:
    """Note events read elsewhere (an import) in their JSON form, as the page will send
    them back: its first fold does not read them again."""
    if len(_parsed) + len(log) > PARSED_KEPT:
        _parsed.clear()
    for r, x in zip(raw, log, strict=True):
        _parsed[x.eid] = (repr(r), x)


def _keep(key: tuple[str, int, int], enc: Encounter) -> None:
    newest(_checkpoints, key, enc, KEEP)


def newest(cache: OrderedDict[K, V], key: K, value: V, most: int) -> None:
    """`value` under `key`, as the newest of `cache`; the oldest go past `most` entries."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > most:
        cache.popitem(last=False)


def forget() -> None:
    """Drop every checkpoint and event read (tests, benches; a page never needs to)."""
    _checkpoints.clear()
    _parsed.clear()
    _recent_keys.clear()
    _reach.clear()
