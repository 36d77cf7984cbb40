"""The logs the page leaves with Python (rules_pkg/encounter/held.py, issue 24): a request
that builds on a held log gives exactly the reply of the whole log sent again; a held log
that is not the one the page means is never used (the reply asks for the whole log)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_pkg.encounter import api, held, replay
from rules_pkg.encounter.limits import LIMITS
from scripts.bench.replay import fight, file_text


@pytest.fixture(autouse=True)
def fresh() -> None:
    held.forget()
    replay.forget()


def ask(**req: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle_json(json.dumps(req)))
    return reply


def fold_held(events: list[dict[str, Any]], keep: int, game: str = "d100") -> dict[str, Any]:
    return ask(op="fold", game=game, hold=game, keep=keep, last=events[keep - 1]["eid"],
               events=events[keep:])


@pytest.mark.parametrize("game", ["d100", "mecha", "cyberpunk_red"])
def test_a_held_log_and_what_is_new_fold_as_the_whole_log(game: str) -> None:
    events = fight(game, events=300, combatants=4, seed=11)
    ask(op="fold", game=game, hold=game, events=events[:200])
    for n in (201, 250, 300):  # taps, then a run of them
        got = fold_held(events[:n], n - 1 if n == 201 else 201 if n == 250 else 250, game)
        want = ask(op="fold", game=game, events=events[:n])
        assert got == want and got["ok"] and got["done"]
    undo = {"eid": "u1", "type": "undo", "of": events[-1]["eid"]}
    got = fold_held([*events, undo], 300, game)  # an undo is an event like any other
    assert got == ask(op="fold", game=game, events=[*events, undo])
    assert got["redo"] == "u1" and got["undo"] == events[-2]["eid"]


def test_a_held_log_that_is_not_the_page_s_is_never_used() -> None:
    events = fight("d100", events=50, seed=2)
    assert ask(op="fold", game="d100", hold="d100", keep=10, last=events[9]["eid"],
               events=[]) == {"ok": True, "resend": True}  # nothing held yet (a new worker)
    ask(op="fold", game="d100", hold="d100", events=events[:30])
    for keep, last in ((31, events[30]["eid"]), (20, events[20]["eid"]), (20, None)):
        assert ask(op="fold", game="d100", hold="d100", keep=keep, last=last,
                   events=events[keep:]) == {"ok": True, "resend": True}
    assert fold_held(events, 30)["total"] == 50  # the page's own copy: used


def test_the_next_slice_sends_nothing_and_a_shorter_look_keeps_the_held_log() -> None:
    events = fight("mecha", events=400, seed=4)
    first = ask(op="fold", game="mecha", hold="mecha", events=events, budget_ms=1,
                partial_state=False)
    assert first["ok"] and not first["done"] and "state" not in first  # progress only
    r = first
    while not r["done"]:
        r = fold_held(events, 400, "mecha")
    assert r["state"] == ask(op="fold", game="mecha", events=events)["state"]
    shorter = fold_held(events[:100], 100, "mecha")  # a look at the first 100 events
    assert shorter["total"] == 100
    assert fold_held(events, 400, "mecha")["total"] == 400  # still held whole


def test_an_import_held_is_folded_without_sending_its_events_again() -> None:
    events = fight("d100", events=80, seed=6)
    text = file_text("d100", events)
    first = ask(op="import", text=text, hold="d100", known=True)
    # as read, the events are the file's in their own form: returned, they are known then
    again = ask(op="import", text=file_text("d100", first["events"]), hold="d100", known=True)
    assert again["same"] is True and again["events"] is None
    assert ask(op="import", text=text)["events"] == first["events"]  # without "known": sent
    assert fold_held(first["events"], 80)["state"] == ask(
        op="fold", game="d100", events=first["events"])["state"]


def test_a_held_log_stays_within_the_limits_and_every_new_event_is_checked() -> None:
    events = fight("d100", events=LIMITS.events, seed=8)
    ask(op="fold", game="d100", hold="d100", events=events, budget_ms=1)
    more = {"eid": "x1", "type": "next_turn", "seed": 1}
    r = ask(op="fold", game="d100", hold="d100", keep=LIMITS.events,
            last=events[-1]["eid"], events=[more])
    assert r["ok"] is False and f"at most {LIMITS.events} events" in r["message"]
    bad = ask(op="fold", game="d100", hold="d100", keep=100, last=events[99]["eid"],
              events=[{"eid": "x2", "type": "teleport"}])
    assert bad["ok"] is False and bad["kind"] == "rules"
    for name in ("", "x" * 41, 7):
        r = ask(op="fold", game="d100", hold=name, events=[])
        assert r["ok"] is False and "hold is a name" in r["message"]


def test_the_calculators_inputs_are_asked_of_the_held_log_too() -> None:
    events = fight("cyberpunk_red", events=120, combatants=3, seed=12)
    ask(op="fold", game="cyberpunk_red", hold="cyberpunk_red", events=events[:100])
    req = {"op": "inputs", "game": "cyberpunk_red", "actor": "c0", "target": "c1",
           "calcs": ["cyberpunk_red.ranged"]}
    got = ask(**req, hold="cyberpunk_red", keep=100, last=events[99]["eid"], events=events[100:])
    assert got == ask(**req, events=events) and got["inputs"]["cyberpunk_red.ranged"]
    assert ask(**req, hold="cyberpunk_red", keep=121, last="x", events=[]) == {
        "ok": True, "resend": True}
