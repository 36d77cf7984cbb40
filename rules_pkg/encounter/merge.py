"""Two copies of one fight merged: the union of their events, never a replacement.

Each copy's own order is kept (an undo stays after what it cancels); where the copies went
their own ways, events are interleaved by the time in their ids, then by id, so both
devices get the same log whichever way the merge runs, and merging twice changes nothing.
When both devices acted at the same point of the fight (the same round and turn), that is
a clash: the merge says so, and the table chooses what stays. Choosing appends undo
events, so even that keeps the log append-only and mergeable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import events as ev
from .fold import fold
from .log import Logged, effective, undone

KEEP = ("both", "ours", "theirs")


def _stamp(eid: str) -> tuple[int, str]:
    """The page's ids start with the time they were made in base 36 (encounter/store.js
    newEid: `e<ms>.<random>`); other ids (migrated, written by hand) sort first."""
    head = eid[1:].split(".", 1)[0] if eid[:1] == "e" else ""
    try:
        return (int(head, 36) if head else 0, eid)
    except ValueError:
        return (0, eid)


def union(ours: Sequence[Logged], theirs: Sequence[Logged]) -> list[Logged]:
    """Both logs' events once each, each log's order kept (a two-way merge of sequences)."""
    mine = {x.eid for x in ours}
    other = {x.eid for x in theirs}
    out: list[Logged] = []
    done: set[str] = set()
    i = j = 0
    while i < len(ours) or j < len(theirs):
        while i < len(ours) and ours[i].eid in done:
            i += 1
        while j < len(theirs) and theirs[j].eid in done:
            j += 1
        a = ours[i] if i < len(ours) else None
        b = theirs[j] if j < len(theirs) else None
        if a is None and b is None:
            break
        if a is None or b is None:
            pick = a or b
        elif a.eid == b.eid:
            pick = a
        elif a.eid in other and b.eid not in mine:
            pick = b  # a shared event waits until the other copy reaches it
        elif b.eid in mine and a.eid not in other:
            pick = a
        else:
            pick = min(a, b, key=lambda x: _stamp(x.eid))
        assert pick is not None
        out.append(pick)
        done.add(pick.eid)
    return out


@dataclass(frozen=True)
class Merged:
    log: tuple[Logged, ...]
    ours: tuple[str, ...]  # eids only this copy had
    theirs: tuple[str, ...]  # eids only the other copy had
    clash: bool  # both copies acted at the same round and turn


def _when(game: str, log: Sequence[Logged], eid: str) -> tuple[int, str | None]:
    """The round and whose turn it was when the event `eid` was logged in this copy."""
    before = list(log[:[x.eid for x in log].index(eid)])
    enc = fold(game, [x.event for x in effective(before)])
    cur = enc.current
    return enc.round, cur.id if cur else None


def merge(game: str, ours: Sequence[Logged], theirs: Sequence[Logged]) -> Merged:
    mine = {x.eid for x in ours}
    other = {x.eid for x in theirs}
    only_ours = tuple(x.eid for x in ours if x.eid not in other)
    only_theirs = tuple(x.eid for x in theirs if x.eid not in mine)
    clash = bool(only_ours and only_theirs) and \
        _when(game, ours, only_ours[0]) == _when(game, theirs, only_theirs[0])
    return Merged(tuple(union(ours, theirs)), only_ours, only_theirs, clash)


def keep(merged: Merged, which: str, new_eid: str) -> list[Logged]:
    """The merged log with one side's own events undone (`which`: both, ours, theirs).

    The undos are appended newest first, with ids `<new_eid>.<n>`."""
    if which not in KEEP:
        raise ValueError(which)
    log = list(merged.log)
    drop = {"both": (), "ours": merged.theirs, "theirs": merged.ours}[which]
    cancelled = undone(log)  # (an undo of theirs, dropped, brings back what it undid)
    for n, eid in enumerate(x for x in reversed(drop) if x not in cancelled):
        log.append(Logged(f"{new_eid}.{n + 1}", ev.Undo(eid)))
    return log
