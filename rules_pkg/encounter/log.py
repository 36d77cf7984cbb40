"""The stored log: events with unique ids, append-only, undo as an event of its own.

Every stored event carries an `eid`, unique in its log. A log is only ever appended to:
undo appends `{"type": "undo", "of": <eid>}`, redo is the undo of that undo. So two
copies of a log merge as a set union of their events (a second copy of an event, same
eid, does nothing), and an Apply whose eid comes from its result is applied once however
often it is tapped. What the fold sees is the effective log: first copies only, undone
events and the undo events themselves left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from . import events as ev

MAX_EID = 64
EID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


@dataclass(frozen=True)
class Logged:
    """One stored event and its id."""

    eid: str
    event: ev.Event

    def __hash__(self) -> int:
        # worked out once: replay.py hashes every event of the log on every request (its
        # checkpoints' keys), and replay.parse hands back the same Logged each time
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.eid, self.event))
            object.__setattr__(self, "_hash", h)
        return h


def eid_of(raw: dict[str, Any], where: str) -> str:
    eid = raw.get("eid")
    if not isinstance(eid, str) or not EID.fullmatch(eid):
        raise RulesError(f"{where} has no valid id (\"eid\": 1 to {MAX_EID} letters, digits "
                         "or _.:-)")
    return eid


def parse(raw: Any, limit: int) -> list[Logged]:
    """The stored log from its JSON form, every event checked; RulesError says what is wrong."""
    if not isinstance(raw, list):
        raise RulesError("events must be a list")
    if len(raw) > limit:
        raise RulesError(f"an encounter keeps at most {limit} events (this one has {len(raw)})")
    return [parse_one(r, f"event {i + 1}") for i, r in enumerate(raw)]


def parse_one(r: Any, where: str) -> Logged:
    """One stored event from its JSON form (`where`: how a message names it)."""
    if not isinstance(r, dict):
        raise RulesError(f"{where} is not an object")
    eid = eid_of(r, where)
    body = r.copy()  # a copy in one call, not a comprehension (5,000 a file read, issue 24)
    del body["eid"]
    return Logged(eid, ev.from_dict(body, where))


def numbered(events: Iterable[ev.Event], prefix: str = "n") -> list[Logged]:
    """Plain events as a stored log, ids by position (a test's or a script's log)."""
    return [Logged(f"{prefix}{i + 1}", e) for i, e in enumerate(events)]


def to_dicts(log: Iterable[Logged]) -> list[dict[str, Any]]:
    return [{"eid": x.eid, **ev.to_dict(x.event)} for x in log]


def written_as(raw: Any, log: Sequence[Logged]) -> bool:
    """to_dicts(log) == raw, for a log parsed from `raw` (or from its migration), without
    writing the log out (a reload reads its 5,000 events back, issue 24): an event is
    written out with its id, its type and every field, and parsing keeps every value as
    it is or as a tuple of what the list held, so the two differ exactly where an event
    of `raw` leaves a field out (its default), or has another id or type (a migration)."""
    if not isinstance(raw, list) or len(raw) != len(log):
        return False
    for r, x in zip(raw, log, strict=True):
        if not (type(r) is dict and len(r) == len(ev.field_names(x.event)) + 2
                and r.get("eid") == x.eid and r.get("type") == x.event.KIND):
            return False
    return True


def _first_copies(log: Iterable[Logged]) -> list[Logged]:
    seen: set[str] = set()
    out = []
    for x in log:
        if x.eid not in seen:
            seen.add(x.eid)
            out.append(x)
    return out


def undone(log: Sequence[Logged]) -> set[str]:
    """The eids cancelled by an active undo. An undo only names an earlier event, so
    walking newest first settles each undo before the event it names. (Here and below an
    event's class is compared, `type(e) is`, not a call of isinstance for each of the
    5,000 events of a long log, read on every import and reload: issue 24. Events are
    never subclassed.)"""
    out: set[str] = set()
    for x in reversed(log):
        if type(x.event) is ev.Undo and x.eid not in out:
            out.add(x.event.of)
    return out


def effective(log: Iterable[Logged]) -> list[Logged]:
    """What the fold replays: first copies, neither undone nor undo events."""
    first = _first_copies(log)
    cancelled = undone(first)
    return [x for x in first if x.eid not in cancelled and type(x.event) is not ev.Undo]


def undo_target(log: Iterable[Logged]) -> str | None:
    """The eid Undo cancels next: the newest event still in effect."""
    return newest(effective(log))


def newest(live: Sequence[Logged]) -> str | None:
    """The eid Undo cancels next, from the effective log: its newest event."""
    return live[-1].eid if live else None


def redo_target(log: Iterable[Logged]) -> str | None:
    """The eid of the undo that Redo cancels: the newest active undo of an action, when
    no action has been done since (a new action ends the redo chain, as in any editor)."""
    first = _first_copies(log)
    cancelled = undone(first)
    kinds = {x.eid: x.event for x in first}
    for x in reversed(first):
        if x.eid in cancelled:
            continue  # an undone action, or an undo already redone: look further back
        if type(x.event) is ev.Undo:
            if type(kinds.get(x.event.of)) is ev.Undo:
                continue  # a redo: the undo before it may be redone next
            return x.eid
        return None
    return None


def check_undo(log: Sequence[Logged]) -> None:
    """Every undo names an earlier event of the log (never itself or a later one)."""
    seen: set[str] = set()
    for x in log:
        if type(x.event) is ev.Undo and x.event.of not in seen:
            raise RulesError(f"undo {x.eid!r} names no earlier event ({x.event.of[:40]!r})")
        seen.add(x.eid)
