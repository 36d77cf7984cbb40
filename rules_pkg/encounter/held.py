"""The logs the page leaves with Python (issue 24: a bounded replay, the page's side).

The page's Python lives as long as the page (a worker: calculators/python/worker.mjs), so
the page need not send its whole log (up to 5,000 events, ~600 kB of JSON, read again
each time) with every request. A request that names a `hold` (the page's name for a log:
its game) is kept here once read; a later one that names it sends `keep` (how many events
of the held log come first), `last` (the id of the last of those) and only the events
after them. A held log that is missing (a new worker), shorter, or ends elsewhere is not
used: the reply asks for the whole log again (`Resend`). Every event is checked as in any
request (replay.parse, log.check_undo); what is held is only ever what the page sent.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from . import log as stored
from . import replay
from .limits import MAX_EVENTS

KEPT = 4  # logs held at once (one per game the page shows): the oldest used goes first
MAX_NAME = 40


class Resend(Exception):
    """The held log is not the one the request builds on: the page sends it whole."""


@dataclass(frozen=True)
class Held:
    """A log as read, with what every fold of it needs (worked out once per log)."""

    log: tuple[stored.Logged, ...]
    live: tuple[stored.Logged, ...]  # the effective log (log.effective)
    undo: str | None
    redo: str | None

    @classmethod
    def of(cls, log: tuple[stored.Logged, ...]) -> Held:
        stored.check_undo(log)
        live = tuple(stored.effective(log))
        return cls(log, live, stored.newest(live), stored.redo_target(log))


_held: OrderedDict[str, Held] = OrderedDict()


def name_of(req: dict[str, Any]) -> str | None:
    name = req.get("hold")
    if name is None:
        return None
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise RulesError(f"hold is a name of 1 to {MAX_NAME} characters")
    return name


def read(req: dict[str, Any]) -> Held:
    """The log a request means: its `events`, after the first `keep` of the log held under
    its `hold` name when it names one (which then holds the result). Raises Resend."""
    name = name_of(req)
    keep = req.get("keep", 0)
    if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep <= MAX_EVENTS:
        raise RulesError(f"keep is a whole number of 0 to {MAX_EVENTS}")
    base: tuple[stored.Logged, ...] = ()
    if keep:
        had = _held.get(name) if name is not None else None
        if had is None or len(had.log) < keep or had.log[keep - 1].eid != req.get("last"):
            raise Resend
        _held.move_to_end(str(name))
        if keep == len(had.log) and req.get("events") == []:
            return had  # nothing new (the next slice of a fold, a second look)
        base = had.log[:keep]
        more = req.get("events")
        if isinstance(more, list) and keep + len(more) > MAX_EVENTS:
            raise RulesError(f"an encounter keeps at most {MAX_EVENTS} events (this one has "
                             f"{keep + len(more)})")
    raw = req.get("events")
    held = Held.of(base + tuple(replay.parse(raw)))
    if name is not None and (not keep or raw):  # a shorter look at the held log keeps it
        hold(name, held)
    return held


def hold(name: str, held: Held) -> None:
    replay.newest(_held, name, held, KEPT)


def forget() -> None:
    """Drop every held log (tests, benches)."""
    _held.clear()
