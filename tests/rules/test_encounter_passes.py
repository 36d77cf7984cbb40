"""The mecha game's passes (mecha:81-86, § 6 Additional Actions): "Complete this process for
all characters in descending order of initiative. Repeat each stage for all characters
taking a second action. Repeat each stage for all characters taking a third action. Once
all actions are complete, end the round. Begin new round at stage one - determine
initiative." Next turn moves pass by pass; the turn order shows each one's actions."""

from __future__ import annotations

from rules_pkg.encounter import AddCombatant, NextTurn, SetCondition, SetInitiative, SetValue, fold
from rules_pkg.encounter.events import PreviousTurn
from rules_pkg.encounter.view import state_dict


def crew() -> list:
    """Reflex 30 / 15 / 0 keep the order Ada, Bo, Cy every round (1 die + Reflex);
    Ada takes 3 actions, Bo 2, Cy 1."""
    return [AddCombatant("a", "Ada", values=(("reflex", 30), ("actions", 3))),
            AddCombatant("b", "Bo", values=(("reflex", 15), ("actions", 2))),
            AddCombatant("c", "Cy", values=(("reflex", 0),)),
            SetInitiative("a", 31), SetInitiative("b", 16), SetInitiative("c", 1)]


def walk(n: int) -> list[tuple[int, int, str]]:
    """(round, pass, whose turn) after each of n Next turns."""
    log, seen = crew(), []
    for i in range(n):
        log.append(NextTurn(seed=i))
        enc = fold("mecha", log)
        seen.append((enc.round, enc.pass_no, enc.current.id))
    return seen


def test_passes_follow_the_order_for_second_and_third_actions() -> None:
    assert walk(7) == [
        (1, 1, "b"), (1, 1, "c"),  # pass 1: everyone, by initiative
        (1, 2, "a"), (1, 2, "b"),  # pass 2: those taking a second action
        (1, 3, "a"),  # pass 3: a third action
        (2, 1, "a"), (2, 1, "b"),  # all actions complete: a new round, initiative again
    ]


def test_the_state_says_the_pass_and_each_ones_actions() -> None:
    enc = fold("mecha", [*crew(), *[NextTurn(seed=i) for i in range(3)]])  # pass 2: Ada
    s = state_dict(enc)
    assert (s["round"], s["pass"], s["passes"]) == (1, 2, 3)
    assert [c["actions"] for c in s["combatants"]] == [3, 2, 1]
    assert "Round 1, pass 2: those taking action 2 act" in enc.history[-1].steps[-1]
    assert state_dict(fold("horizon", [AddCombatant("a", "Ada")]))["passes"] == 1


def test_one_action_each_is_one_turn_a_round() -> None:
    log = [*crew(), SetValue("a", "actions", 1), SetValue("b", "actions", 1)]
    enc = fold("mecha", [*log, NextTurn(seed=1), NextTurn(seed=2), NextTurn(seed=3)])
    assert enc.round == 2 and enc.pass_no == 1


def test_out_of_the_fight_takes_no_pass() -> None:
    # Ada at 0 vitality: no second or third pass is held for her
    log = [*crew(), SetValue("a", "vitality", 0), SetValue("b", "actions", 1)]
    enc = fold("mecha", [*log, *[NextTurn(seed=i) for i in range(3)]])  # Bo, Cy, then
    assert (enc.round, enc.pass_no, enc.current.id) == (2, 1, "b")  # round 2: Ada out


def test_critical_failure_costs_a_full_turn_of_three_actions() -> None:
    # mecha:153 "Lose the next two actions or one full turn, whichever is greater": Ada,
    # with 3 actions, loses her next 3 (passes 2 and 3 of round 1, pass 1 of round 2)
    log = [*crew(), SetCondition("a", "Critical failure")]
    assert fold("mecha", log).combatant("a").has("Critical failure").rounds == 3
    seen = []
    for i in range(8):
        log.append(NextTurn(seed=i))
        enc = fold("mecha", log)
        seen.append((enc.round, enc.pass_no, enc.current.id))
    assert seen == [(1, 1, "b"), (1, 1, "c"), (1, 2, "b"),  # pass 2: Ada's action lost
                    (2, 1, "b"),  # pass 3 is hers alone, lost; round 2's first lost too
                    (2, 1, "c"), (2, 2, "a"), (2, 2, "b"), (2, 3, "a")]
    assert not enc.combatant("a").has("Critical failure")


def test_previous_turn_goes_back_across_a_pass() -> None:
    # round 1, pass 2: Ada (action 2), Bo (action 2); back from Ada is Cy in pass 1
    log = [*crew(), *[NextTurn(seed=i) for i in range(3)]]
    enc = fold("mecha", [*log, PreviousTurn()])
    assert (enc.pass_no, enc.current.id) == (1, "c")
    enc = fold("mecha", [*log, NextTurn(seed=9), NextTurn(seed=8), PreviousTurn()])
    assert (enc.pass_no, enc.current.id) == (2, "b")  # pass 3 back to pass 2: Cy skipped


def test_entangled_actions_lost_are_taken_one_action_at_a_time_across_turns() -> None:
    # mecha:160 "Target is robbed of 1 action for every 5 points attacker beat strength test
    # by. Loss of actions is cumulative over turns": Bo (2 actions a round) robbed of 3 loses
    # both of round 1 and the first of round 2, then acts in round 2's second pass
    log = [*crew(), SetValue("b", "actions_lost", 3)]
    seen = []
    for i in range(7):
        log.append(NextTurn(seed=i))
        enc = fold("mecha", log)
        seen.append((enc.round, enc.pass_no, enc.current.id))
    assert seen == [(1, 1, "c"),  # Bo's first action passes
                    (1, 2, "a"), (1, 3, "a"),  # his second too: pass 3 is Ada's
                    (2, 1, "a"), (2, 1, "c"),  # the third he owed: round 2's first
                    (2, 2, "a"), (2, 2, "b")]  # owed none: he acts
    bo = enc.combatant("b")
    assert bo.value("actions_lost") == 0 and not bo.has("Robbed of an action")
    steps = [s for entry in enc.history for s in entry.steps]
    assert "Bo is robbed of this action (entangled, mecha-d10-non-mecha-combat.md:160): " \
           "Actions lost 3 \N{MINUS SIGN} 1 \N{RIGHTWARDS ARROW} 2" in steps
