"""The stored log (rules_pkg/encounter/log.py): every event has an id, the log is only
appended to, undo and redo are events, a second copy of an event does nothing, and two
copies of a log merge as a union of their events."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_pkg import RulesError
from rules_pkg.encounter import AddCombatant, Adjust, Undo, fold
from rules_pkg.encounter import log as L
from rules_pkg.encounter.api import handle_json

ADD = [L.Logged("a", AddCombatant("a", "Ada")), L.Logged("b", AddCombatant("b", "Bo"))]


def hp_hit(eid: str, delta: int) -> L.Logged:
    return L.Logged(eid, Adjust("a", "wounds", delta))


def names(log: list[L.Logged]) -> list[str]:
    return [x.eid for x in L.effective(log)]


def test_undo_redo_chain() -> None:
    log = [*ADD, hp_hit("h1", -3), hp_hit("h2", -4)]
    assert L.undo_target(log) == "h2" and L.redo_target(log) is None
    log.append(L.Logged("u1", Undo("h2")))
    assert names(log) == ["a", "b", "h1"]
    assert L.undo_target(log) == "h1" and L.redo_target(log) == "u1"
    log.append(L.Logged("u2", Undo("h1")))
    assert names(log) == ["a", "b"] and L.redo_target(log) == "u2"
    log.append(L.Logged("r1", Undo("u2")))  # redo: h1 is back, the next redo is h2's undo
    assert names(log) == ["a", "b", "h1"] and L.redo_target(log) == "u1"
    log.append(L.Logged("r2", Undo("u1")))
    assert names(log) == ["a", "b", "h1", "h2"] and L.redo_target(log) is None
    log.append(L.Logged("u3", Undo("h2")))
    log.append(hp_hit("h3", -1))  # a new action ends the redo chain
    assert names(log) == ["a", "b", "h1", "h3"] and L.redo_target(log) is None


def test_a_second_copy_does_nothing() -> None:
    once = [*ADD, hp_hit("apply:r1:a", -5)]
    twice = [*once, hp_hit("apply:r1:a", -5)]
    assert fold("d100", [x.event for x in L.effective(twice)]) == \
        fold("d100", [x.event for x in L.effective(once)])


@pytest.mark.parametrize(("raw", "message"), [
    ([{"type": "add", "id": "a", "name": "Ada"}], "event 1 has no valid id"),
    ([{"eid": "<b>", "type": "add", "id": "a", "name": "Ada"}], "event 1 has no valid id"),
    ([{"eid": "x" * 65, "type": "add", "id": "a", "name": "Ada"}], "event 1 has no valid id"),
    ([{"eid": "u", "type": "undo", "of": "a"}], "names no earlier event"),
    ([{"eid": "u", "type": "undo", "of": "u"}], "names no earlier event"),
])
def test_bad_logs_say_what_is_wrong(raw: list, message: str) -> None:
    reply = json.loads(handle_json(json.dumps({"op": "fold", "game": "d100", "events": raw})))
    assert not reply["ok"] and message in reply["message"]
    with pytest.raises(RulesError, match=message):
        L.check_undo(L.parse(raw, 100))


def test_the_page_gets_the_ids_it_undoes() -> None:
    raw = L.to_dicts([*ADD, hp_hit("h1", -3), L.Logged("u1", Undo("h1"))])
    reply = json.loads(handle_json(json.dumps({"op": "fold", "game": "d100", "events": raw})))
    assert reply["undo"] == "b" and reply["redo"] == "u1"
    assert [h["eid"] for h in reply["state"]["history"]] == ["a", "b"]


# A random session of actions, undos and redos, as the page would make it.
steps = st.lists(st.sampled_from(["hit", "undo", "redo"]), max_size=25)


def session(moves: list[str], device: str = "") -> list[L.Logged]:
    log = list(ADD)
    for j, m in enumerate(moves):
        i = f"{device}{j}"
        target = L.undo_target(log) if m == "undo" else L.redo_target(log) if m == "redo" \
            else None
        if m == "hit":
            log.append(hp_hit(f"h{i}", -1))
        elif target and (m == "redo" or target not in {"a", "b"}):
            log.append(L.Logged(f"u{i}", Undo(target)))
    return log


@settings(max_examples=200, deadline=None)
@given(moves=steps)
def test_undo_and_redo_mirror_a_stack(moves: list[str]) -> None:
    """The effective log equals a plain stack model: undo pops onto a redo stack, redo
    pushes back, a new action clears the redo stack."""
    done: list[str] = ["a", "b"]
    redo: list[str] = []
    for i, m in enumerate(moves):
        if m == "hit":
            done.append(f"h{i}")
            redo.clear()
        elif m == "undo" and len(done) > 2:
            redo.append(done.pop())
        elif m == "redo" and redo:
            done.append(redo.pop())
    assert [x.eid for x in L.effective(session(moves))] == done


@settings(max_examples=100, deadline=None)
@given(a=steps, b=steps)
def test_union_merge_is_idempotent_and_loses_nothing(a: list[str], b: list[str]) -> None:
    mine, theirs = session(a), session(b, device="t")
    merged = L.effective([*mine, *theirs])
    again = L.effective([*mine, *theirs, *mine, *theirs])
    assert merged == again  # merging twice changes nothing
    ids = {x.eid for x in merged}
    assert {x.eid for x in L.effective(mine)} <= ids  # no event of either side is lost
    assert {x.eid for x in L.effective(theirs)} <= ids


def test_a_reused_id_never_borrows_another_logs_state() -> None:
    """A file from elsewhere may give its own events ids this device has used: the folds
    (replay.py keeps checkpoints, one every 64 events and one at each request's end) must
    follow each log's own events. Ada has Wounds 12 (d100 sheet): 12 - 1 = 11 here,
    12 - 5 = 7 in the other copy, whose ids are the same."""
    from rules_pkg.encounter import Note
    from rules_pkg.encounter.api import _fold
    notes = [L.Logged(f"n{i}", Note("round")) for i in range(70)]
    mine = [*ADD, hp_hit("h0", -1), *notes]
    theirs = [*ADD, hp_hit("h0", -5), *notes]
    assert [_fold("d100", log).combatant("a").value("wounds") for log in
            (mine, theirs, mine[:4], theirs[:4])] == [11, 7, 11, 7]


def test_a_refused_event_is_named_apart_from_its_reason() -> None:
    """FL:10 "draw one initiative card", the cards 1 to 10: a card 11 for Ada is refused.
    Before it, Cy was added and that undone: the card is the fifth stored event, the third
    of the log as folded. The reply names it as the fold counts (a file's reader), with its
    id and the bare reason apart: the Encounter page shows only the reason for a tap just
    made, which it knows by the id (no regular expression over the message, no count)."""
    raw = [{"eid": "a", "type": "add", "id": "a", "name": "Ada"},
           {"eid": "b", "type": "add", "id": "b", "name": "Bo"},
           {"eid": "x", "type": "add", "id": "x", "name": "Cy"},
           {"eid": "u", "type": "undo", "of": "x"},
           {"eid": "c", "type": "set_initiative", "id": "a", "value": 11}]
    reply = json.loads(handle_json(json.dumps({"op": "fold", "game": "forbidden_lands",
                                               "events": raw})))
    reason = "Ada's card: an initiative card is 1 to 10 (got 11)"
    assert reply == {"ok": False, "kind": "rules", "event": 2, "eid": "c", "reason": reason,
                     "message": f"event 3 (set_initiative): {reason}"}
