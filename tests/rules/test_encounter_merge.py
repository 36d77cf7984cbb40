"""Two copies of one fight merged (rules_pkg/encounter/merge.py, issue 27): the union of
their events by id in one order whichever way it runs, nothing lost, merging twice
changes nothing; both copies acting at the same turn is a clash the table resolves."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_pkg.encounter import (
    AddCombatant,
    Adjust,
    NextTurn,
    RemoveCombatant,
    RollInitiative,
    Undo,
)
from rules_pkg.encounter import log as L
from rules_pkg.encounter.api import handle_json
from rules_pkg.encounter.merge import keep, merge

GAME = "cyberpunk_red"
BASE = [L.Logged("e1.s", AddCombatant("a", "Ada")), L.Logged("e2.s", AddCombatant("b", "Bo")),
        L.Logged("e3.s", RollInitiative(seed=1))]


def device(name: str, moves: list[tuple[int, str]]) -> list[L.Logged]:
    """A copy that went on from BASE: (time, move) with moves hit-a, hit-b, next, undo."""
    log = list(BASE)
    for t, m in moves:
        eid = f"e{t:x}.{name}{len(log)}"
        if m == "undo":
            target = L.undo_target(log)
            if target and target not in {x.eid for x in BASE}:
                log.append(L.Logged(eid, Undo(target)))
        elif m == "next":
            log.append(L.Logged(eid, NextTurn()))
        else:
            log.append(L.Logged(eid, Adjust(m[-1], "hp", -1)))
    return log


moves = st.lists(st.tuples(st.integers(10, 99), st.sampled_from(["hit-a", "hit-b", "next",
                                                                 "undo"])), max_size=8)


def order_kept(merged: list[L.Logged], side: list[L.Logged]) -> bool:
    pos = {x.eid: i for i, x in enumerate(merged)}
    return [pos[x.eid] for x in side] == sorted(pos[x.eid] for x in side)


@settings(max_examples=150, deadline=None)
@given(a=moves, b=moves)
def test_the_same_union_either_way_and_twice_changes_nothing(a: list, b: list) -> None:
    ours, theirs = device("o", a), device("t", b)
    one, other = merge(GAME, ours, theirs), merge(GAME, theirs, ours)
    assert one.log == other.log  # the same union whichever device merges
    assert {x.eid for x in one.log} == {x.eid for x in ours} | {x.eid for x in theirs}
    assert len(one.log) == len({x.eid for x in one.log})  # each event once
    assert order_kept(list(one.log), ours) and order_kept(list(one.log), theirs)
    again = merge(GAME, list(one.log), theirs)
    assert again.log == one.log and not again.theirs  # merging twice changes nothing
    assert merge(GAME, list(one.log), list(other.log)).log == one.log


def test_both_acted_on_the_same_turn_is_a_clash_and_the_table_chooses() -> None:
    """Ada's turn (seed 1). This phone takes 3 HP off Ada; the other takes 2 off Bo and
    ends the turn. Both acted in round 1 on the same turn: a clash. Keeping ours undoes
    theirs (Bo back to 40, still Ada's turn); keeping both applies all three."""
    ours = [*BASE, L.Logged("e5.o", Adjust("a", "hp", -3))]
    theirs = [*BASE, L.Logged("e4.t", Adjust("b", "hp", -2)), L.Logged("e6.t", NextTurn())]
    m = merge(GAME, ours, theirs)
    assert m.clash and m.ours == ("e5.o",) and m.theirs == ("e4.t", "e6.t")
    assert [x.eid for x in m.log] == ["e1.s", "e2.s", "e3.s", "e4.t", "e5.o", "e6.t"]
    kept = keep(m, "ours", "ek")
    assert [x.eid for x in kept[-2:]] == ["ek.1", "ek.2"]
    assert [x.eid for x in L.effective(kept)] == ["e1.s", "e2.s", "e3.s", "e5.o"]
    reply = json.loads(handle_json(json.dumps({
        "op": "merge", "game": GAME, "events": L.to_dicts(ours), "other": L.to_dicts(theirs),
        "keep": "theirs", "eid": "ek"})))
    hp = {c["name"]: c["values"][1]["value"] for c in reply["state"]["combatants"]}
    assert reply["ok"] and reply["clash"] and hp == {"Ada": 40, "Bo": 38}
    assert reply["theirs"][0]["summary"] == "Bo: HP 40 → 38"


def test_one_side_behind_is_no_clash() -> None:
    ahead = [*BASE, L.Logged("e5.o", Adjust("a", "hp", -3))]
    m = merge(GAME, BASE, ahead)
    assert not m.clash and m.theirs == ("e5.o",) and list(m.log) == ahead


def test_copies_that_do_not_fit_together_say_why() -> None:
    """This phone removed Bo; the other hit Bo: both cannot stand, the reply says so."""
    ours = [*BASE, L.Logged("e5.o", RemoveCombatant("b"))]
    theirs = [*BASE, L.Logged("e6.t", Adjust("b", "hp", -2))]
    reply = json.loads(handle_json(json.dumps({
        "op": "merge", "game": GAME, "events": L.to_dicts(ours), "other": L.to_dicts(theirs)})))
    assert reply["ok"] and reply["clash"] and "no combatant 'b'" in reply["problem"]
    assert "state" not in reply
