"""A bounded replay (issue 24 item 5): the same fight as a plain fold, from checkpoints,
in slices, with a small reply, the mecha initiative without its odds, and the limits of a
fight refused by name."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules_pkg import dice
from rules_pkg.encounter import api, codec, replay, view
from rules_pkg.encounter import log as stored
from rules_pkg.encounter.common import by_calculator
from rules_pkg.encounter.fold import MAX_EVENTS, fold
from rules_pkg.encounter.limits import LIMITS
from rules_pkg.encounter.model import Combatant
from rules_pkg.errors import RulesError
from rules_pkg.mecha.encounter import initiative
from scripts.bench.replay import fight, file_text

GAMES = ("mecha", "d100", "cyberpunk_red", "horizon", "forbidden_lands")


def live(events: list[dict[str, Any]]) -> list[stored.Logged]:
    return stored.effective(stored.parse(events, MAX_EVENTS))


def plain(game: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    return view.state_dict(fold(game, [x.event for x in live(events)]))


def request(**req: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle_json(json.dumps(req)))
    assert reply["ok"], reply
    return reply


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_from_checkpoints_is_the_plain_fold(game: str) -> None:
    replay.forget()
    events = fight(game, events=300, combatants=5, seed=7)
    for n in (10, 64, 65, 200, 300, 129):  # growing, then back (an undo's shorter log)
        got = view.state_dict(replay.replay(game, live(events[:n])).enc)
        assert got == plain(game, events[:n])


def test_one_new_event_is_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    replay.forget()
    events = fight("d100", events=500, seed=3)
    replay.replay("d100", live(events[:-1]))
    steps = []
    real = replay.step
    monkeypatch.setattr(replay, "step", lambda *a: steps.append(1) or real(*a))
    replay.replay("d100", live(events))
    assert len(steps) == 1


def test_an_undo_in_the_middle_refolds_from_the_checkpoint_before_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    replay.forget()
    events = fight("mecha", events=400, seed=4)
    replay.replay("mecha", live(events))
    undo = {"eid": "u1", "type": "undo", "of": events[300]["eid"]}
    steps = []
    real = replay.step
    monkeypatch.setattr(replay, "step", lambda *a: steps.append(1) or real(*a))
    got = replay.replay("mecha", live([*events, undo]))
    assert len(steps) <= replay.CHECKPOINT_EVERY + 100
    assert view.state_dict(got.enc) == plain("mecha", [*events, undo])


def test_slices_bring_the_fight_up_to_date() -> None:
    replay.forget()
    events = fight("mecha", events=600, combatants=12, seed=5)
    req = {"op": "fold", "game": "mecha", "events": events, "budget_ms": 1}
    replies = [request(**req)]
    while not replies[-1]["done"]:
        replies.append(request(**req))
    assert len(replies) > 1
    assert [r["folded"] for r in replies] == sorted(r["folded"] for r in replies)
    assert not replies[0]["done"] and replies[0]["folded"] < 600
    whole = plain("mecha", events)
    assert replies[-1]["state"]["combatants"] == whole["combatants"]
    assert replies[-1]["state"]["history_total"] == len(whole["history"])


@pytest.mark.parametrize("bad", [0, -1, True, "5", 10_001, 1.5])
def test_a_budget_is_a_whole_number_of_milliseconds(bad: Any) -> None:
    reply = json.loads(api.handle_json(json.dumps(
        {"op": "fold", "game": "d100", "events": [], "budget_ms": bad})))
    assert not reply["ok"] and "budget_ms" in reply["message"]


def test_the_state_reply_of_a_5000_event_fight_stays_small() -> None:
    replay.forget()
    events = fight("mecha", events=MAX_EVENTS, combatants=LIMITS.combatants, seed=6)
    reply = api.handle_json(json.dumps({"op": "fold", "game": "mecha", "events": events}))
    state = json.loads(reply)["state"]
    assert len(state["history"]) == api.HISTORY_SENT
    assert state["history_total"] == MAX_EVENTS
    assert len(reply.encode()) < 200_000  # was 12-56 MB (issue 24)


@pytest.mark.parametrize("reflex", [0, 5, 30])
def test_the_mecha_initiative_rolls_as_its_calculator_did(reflex: int) -> None:
    """The same numbers and words as the calculator run for each roll (by_calculator, the
    old way), without the calculator's odds: old logs replay to the same fight."""
    old = by_calculator(
        "mecha.initiative", "Your initiative",
        lambda c, surprise: {"reflex": c.value("reflex"), "other_reflex": 0},
        lambda c, r, n: f"1 die ({n - c.value('reflex')}) + Reflex {c.value('reflex')} = {n}",
        "The source has no Surprise rule: ignored.")
    cs = tuple(Combatant(f"c{i}", f"C{i}", "character", (("reflex", reflex),)) for i in range(6))
    for seed in range(40):
        a, b = replay_log(), replay_log()
        assert initiative(cs, random.Random(seed), frozenset(), a, frozenset()) == old(
            cs, random.Random(seed), frozenset(), b, frozenset())
        assert a.steps == b.steps


def replay_log() -> Any:
    from rules_pkg.encounter.common import Log

    return Log()


def test_expand_remembers_a_program_over_plain_values_only() -> None:
    def program(n: int) -> Any:
        return lambda draw: draw(6) + n

    assert dice.expand(program(2)) is dice.expand(program(2))
    assert dice.expand(program(2)) != dice.expand(program(3))
    box = [1]  # a program over a list: expanded every time (the list may change)
    p = lambda draw: draw(4) + box[0]  # noqa: E731
    first = dice.expand(p)
    box[0] = 10
    assert dice.expand(p) != first


# -- the limits of a fight, refused by name ----------------------------------------------
def test_a_5000_event_file_is_accepted_and_replays() -> None:
    events = fight("d100", events=MAX_EVENTS, seed=8)
    game, _, log = codec.load(file_text("d100", events))
    assert game == "d100" and len(log) == MAX_EVENTS


def test_a_5001_event_file_is_refused_naming_the_limit() -> None:
    events = fight("d100", events=MAX_EVENTS + 1, seed=8)
    with pytest.raises(RulesError, match=f"at most {MAX_EVENTS} events"):
        codec.load(file_text("d100", events))
    reply = json.loads(api.handle_json(json.dumps({"op": "import",
                                                   "text": file_text("d100", events)})))
    assert f"at most {MAX_EVENTS} events" in reply["message"]


def test_an_oversized_file_is_refused_naming_the_limit() -> None:
    text = file_text("d100", []).replace('"name": "Bench"',
                                         '"name": "' + "x" * LIMITS.file_chars + '"')
    with pytest.raises(RulesError, match=f"at most {LIMITS.file_chars:,}"):
        codec.load(text)


def test_a_41st_combatant_is_refused_naming_the_limit() -> None:
    events = fight("mecha", events=41, combatants=41)
    with pytest.raises(RulesError, match=f"at most {LIMITS.combatants} combatants"):
        codec.load(file_text("mecha", events))


def test_the_limits_are_said_once_for_the_page() -> None:
    limits = request(op="limits")["limits"]
    assert limits["events"] == MAX_EVENTS and limits["combatants"] == LIMITS.combatants
    assert f"{MAX_EVENTS:,} events" in limits["text"]


def test_an_imported_log_is_not_read_again_by_its_first_fold(
        monkeypatch: pytest.MonkeyPatch) -> None:
    replay.forget()
    events = fight("d100", events=300, seed=11)
    reply = request(op="import", text=file_text("d100", events))
    read = []
    real = stored.parse_one
    monkeypatch.setattr(stored, "parse_one", lambda *a: read.append(1) or real(*a))
    request(op="fold", game="d100", events=reply["events"])
    assert read == []
