"""The encounter fold, game by game, with known answers from the sources' own text."""

from __future__ import annotations

import random

import pytest

import rules_pkg
from rules_pkg import RulesError
from rules_pkg.encounter import (
    AddCombatant,
    Adjust,
    Apply,
    ClearCondition,
    Hit,
    Injury,
    NextRound,
    NextTurn,
    Note,
    RemoveCombatant,
    RollInitiative,
    SetCondition,
    SetInitiative,
    SetValue,
    fold,
    undo,
)
from rules_pkg.encounter.view import state_dict

GAMES = ("horizon", "forbidden_lands", "cyberpunk_red", "mecha", "d100")


def three(game: str, **values: int) -> list:
    v = tuple(values.items())
    return [AddCombatant("a", "Ada", values=v), AddCombatant("b", "Bo", values=v),
            AddCombatant("c", "Cy", values=v)]


def last(enc):
    return enc.history[-1]


# --- shared behaviour -------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_turns_and_rounds_walk_the_order(game: str) -> None:
    log = [*three(game), RollInitiative(seed=11)]
    enc = fold(game, log)
    assert enc.round == 1 and enc.turn == 0 and sorted(enc.order) == ["a", "b", "c"]
    seen = [enc.current.id]
    for i in range(2):
        log.append(NextTurn(seed=i))
        enc = fold(game, log)
        seen.append(enc.current.id)
    if game != "mecha":  # the mecha game re-rolls the order every round
        assert seen == list(enc.order)
    log.append(NextTurn(seed=5))
    enc = fold(game, log)
    assert enc.round == 2 and enc.turn == 0
    log.append(NextRound(seed=6))
    assert fold(game, log).round == 3


@pytest.mark.parametrize("game", GAMES)
def test_condition_with_duration_ends_after_its_bearers_turns(game: str) -> None:
    """#25 item 5: a duration counts the affected combatant's own turns (it was counted in
    round starts: a condition set on your own turn ended before your next turn)."""
    name = {"horizon": "Shatter Arm", "forbidden_lands": "Grappled",
            "cyberpunk_red": "Grappled", "mecha": "Aiming", "d100": "Blind"}[game]
    log = [*three(game), RollInitiative(seed=1), SetCondition("b", name, 2)]
    enc = fold(game, log)
    set_on_own_turn = enc.current.id == "b"
    assert enc.combatant("b").has(name).rounds == 2
    ended = []  # the rounds left after each of Bo's turns ends
    for i in range(12):
        was = fold(game, log).current.id
        log.append(NextTurn(seed=i))
        enc = fold(game, log)
        if was == "b":
            cond = enc.combatant("b").has(name)
            ended.append(cond.rounds if cond else 0)
        if not enc.combatant("b").has(name):
            break
    # set on Bo's own turn: that turn does not count ("until the end of its next turn")
    assert ended == ([2, 1, 0] if set_on_own_turn else [1, 0])
    assert any(f"Bo: {name} ends" in s for s in last(enc).steps)


@pytest.mark.parametrize("game", GAMES)
def test_values_outside_their_range_are_clamped_with_a_note(game: str) -> None:
    sheet = rules_pkg.encounter.rules_for(game).sheet
    stat = next(s for s in sheet.stats if s.tracked)
    enc = fold(game, [*three(game), SetValue("a", stat.key, -5)])
    assert enc.combatant("a").value(stat.key) == stat.lo
    assert any("outside" in n and f"kept at {stat.lo}" in n for n in last(enc).notes)


@pytest.mark.parametrize("game", GAMES)
def test_undo_gives_the_state_before(game: str) -> None:
    log = [*three(game), RollInitiative(seed=3), Hit("a", 9, seed=4)]
    before = fold(game, log[:-1])
    rest, dropped = undo(log)
    assert fold(game, rest) == before and dropped == log[-1]
    with pytest.raises(RulesError, match="nothing to undo"):
        undo([])


@pytest.mark.parametrize("game", GAMES)
def test_bad_events_name_what_is_wrong(game: str) -> None:
    with pytest.raises(RulesError, match=r"event 2 \(hit\): no combatant 'zz'"):
        fold(game, [AddCombatant("a", "Ada"), Hit("zz", 3)])
    with pytest.raises(RulesError, match="roll initiative first"):
        fold(game, [AddCombatant("a", "Ada"), NextTurn()])
    with pytest.raises(RulesError, match="already used"):
        fold(game, [AddCombatant("a", "Ada"), AddCombatant("a", "Ada 2")])
    with pytest.raises(RulesError, match="no value called 'nope'"):
        fold(game, [AddCombatant("a", "Ada", values=(("nope", 1),))])
    with pytest.raises(RulesError, match="no condition called"):
        fold(game, [AddCombatant("a", "Ada"), SetCondition("a", "Sparkly")])
    with pytest.raises(RulesError, match="is not"):
        fold(game, [AddCombatant("a", "Ada"), ClearCondition("a", rules_pkg.encounter
                                                             .rules_for(game).sheet
                                                             .conditions[0].name)])
    with pytest.raises(RulesError, match="add combatants"):
        fold(game, [RollInitiative(seed=1)])


def test_joining_leaving_and_setting_initiative() -> None:
    log = [*three("cyberpunk_red"), SetInitiative("a", 5), SetInitiative("b", 20),
           SetInitiative("c", 12)]
    enc = fold("cyberpunk_red", log)
    assert enc.order == ("b", "c", "a") and enc.current.id == "b"
    log += [NextTurn(), RemoveCombatant("b"), AddCombatant("d", "Dee"), Note("ambush")]
    enc = fold("cyberpunk_red", log)
    assert enc.current.id == "c" and enc.order == ("c", "a", "d")
    assert last(enc).summary == "ambush"
    log += [SetInitiative("d", 30)]
    enc = fold("cyberpunk_red", log)
    assert enc.order == ("d", "c", "a") and enc.current.id == "c"  # the turn stays with c


# --- Cyberpunk RED ---------------------------------------------------------------------
def cpr(*events) -> rules_pkg.encounter.Encounter:
    return fold("cyberpunk_red", [*three("cyberpunk_red", hp_max=40), *events])


def test_cpr_hit_subtracts_sp_and_ablates() -> None:
    # § Taking damage: 14 against SP 11 → 3 through; SP ablated to 10
    enc = cpr(Hit("b", 14))
    b = enc.combatant("b")
    assert (b.value("hp"), b.value("sp_body")) == (37, 10)
    enc = cpr(Hit("b", 11))  # nothing through: no ablation
    assert (enc.combatant("b").value("hp"), enc.combatant("b").value("sp_body")) == (40, 11)


def test_cpr_melee_head_and_critical_injury() -> None:
    # § Melee: "ignore half of the defender's Armor. rounded up", read literally: the
    # ignored half of SP 11 is 6, so 5 is left; § Aimed Shots: head doubled; § Critical: +5
    enc = cpr(Hit("b", 16, location="head", melee=True, critical=True))
    b = enc.combatant("b")
    assert b.value("hp") == 40 - (16 - 5) * 2 - 5 and b.value("sp_head") == 10
    assert b.injuries == ("Critical Injury",)
    enc = cpr(Injury("c", "Broken Arm"))
    assert enc.combatant("c").value("hp") == 35 and enc.combatant("c").injuries == ("Broken Arm",)


@pytest.mark.parametrize("loc", ["body", "head"])
@pytest.mark.parametrize("melee", [False, True])
def test_cpr_hit_agrees_with_the_damage_calculator(loc: str, melee: bool) -> None:
    calc = rules_pkg.get("cyberpunk_red.damage")
    for sp in (0, 4, 7, 11, 15):
        for rolled in range(3, 19):
            sixes = rolled >= 17  # 17 or 18 on 3d6 shows two 6s: a Critical Injury
            r = calc.run(dice=3, rolled=rolled, sp=sp, location=loc, melee=melee, sixes=sixes)
            enc = fold("cyberpunk_red", [
                AddCombatant("a", "Ada", values=(("hp_max", 100), ("sp_head", sp),
                                                 ("sp_body", sp))),
                Hit("a", rolled, location=loc, melee=melee, critical=sixes)])
            a = enc.combatant("a")
            assert 100 - a.value("hp") == r.value("HP lost"), (sp, rolled)
            assert a.value(f"sp_{loc}") == r.value("SP after")


def test_cpr_on_fire_burns_at_the_end_of_the_turn() -> None:
    # § Being On Fire: Strong (Gasoline) = 4 direct to HP at the end of your Turn
    log = [*three("cyberpunk_red"), SetInitiative("a", 30), SetInitiative("b", 20),
           SetInitiative("c", 10), SetCondition("a", "On Fire", None, "Strong")]
    enc = fold("cyberpunk_red", log)
    assert enc.combatant("a").value("hp") == 40
    enc = fold("cyberpunk_red", [*log, NextTurn()])
    assert enc.combatant("a").value("hp") == 36 and enc.combatant("a").value("sp_body") == 11
    enc = fold("cyberpunk_red", [*log, NextRound(), NextTurn()])
    assert enc.combatant("a").value("hp") == 32


def test_cpr_drowning_death_save_and_wound_states() -> None:
    st = rules_pkg.encounter.rules_for("cyberpunk_red").status
    enc = cpr(SetValue("a", "hp", 19))
    assert st(enc.combatant("a")) == ("Seriously Wounded",)
    assert st(cpr(SetValue("a", "hp", 20)).combatant("a")) == ()
    # § Drowning: BODY to HP at the beginning of the Turn; § Death Save: roll under BODY
    log = [*three("cyberpunk_red", body=0), SetInitiative("a", 3), SetInitiative("b", 2),
           SetCondition("b", "Drowning"), SetValue("b", "hp", 5)]
    enc = fold("cyberpunk_red", [*log, NextTurn(seed=1)])
    assert enc.combatant("b").value("hp") == 5  # BODY 0
    log[-1] = SetValue("b", "hp", 0)
    enc = fold("cyberpunk_red", [*log, NextTurn(seed=1)])
    b = enc.combatant("b")
    # nothing is under BODY 0; the heading says Dead, not Mortally Wounded (#25 item 3)
    assert st(b) == ("Dead",) and b.has("Dead")
    assert b.counter("death_save_penalty") == 1


# --- Forbidden Lands ------------------------------------------------------------------
def test_fl_initiative_cards_are_distinct_lowest_first_and_kept() -> None:
    log = [*three("forbidden_lands"), RollInitiative(seed=5, surprise=("c",))]
    enc = fold("forbidden_lands", log)
    cards = [enc.combatant(i).initiative for i in enc.order]
    assert cards == sorted(cards) and len(set(cards)) == 3
    assert all(1 <= c <= 10 for c in cards)
    drew = next(s for s in enc.history[-1].steps if s.startswith("Cy draws"))
    a, b = (int(x) for x in drew.split("draws ")[1].split(" (")[0].split(" and "))
    assert enc.combatant("c").initiative == min(a, b)
    later = fold("forbidden_lands", [*log, NextRound(), NextRound()])
    assert later.order == enc.order  # "Keep the same cards for the entire combat"
    many = [AddCombatant(str(i), f"N{i}") for i in range(11)]
    with pytest.raises(RulesError, match="10 initiative cards"):
        fold("forbidden_lands", [*many, RollInitiative(seed=1)])


def test_fl_damage_breaks_an_attribute() -> None:
    enc = fold("forbidden_lands", [*three("forbidden_lands", strength_max=4),
                                   Hit("a", 3), Hit("a", 2, location="agility")])
    a = enc.combatant("a")
    assert (a.value("strength"), a.value("agility")) == (1, 1)
    enc = fold("forbidden_lands", [*three("forbidden_lands", strength_max=4), Hit("a", 4)])
    assert rules_pkg.encounter.rules_for("forbidden_lands").status(enc.combatant("a")) == (
        "Broken (Strength)",)
    assert any("Broken, knocked prone" in s for s in last(enc).steps)


def test_fl_armour_save_is_the_armour_calculators() -> None:
    for seed in range(20):
        enc = fold("forbidden_lands", [
            AddCombatant("a", "Ada", values=(("strength_max", 6), ("armour", 3),
                                             ("helmet", 1))),
            Hit("a", 4, seed=seed)])
        save = rules_pkg.get("forbidden_lands.armour").run(
            damage=4, armour=3, helmet=1, roll=True,
            seed=random.Random(seed).randrange(2**32))
        a = enc.combatant("a")
        assert a.value("strength") == 6 - save.value("Damage through")
        lost = save.value("Armour rating lost")
        from_armour = min(lost, 3)
        assert (a.value("armour"), a.value("helmet")) == (3 - from_armour, 1 - (lost - from_armour))


# --- Horizon ----------------------------------------------------------------------------
def test_horizon_defense_negates_until_the_next_turn() -> None:
    log = [*three("horizon"), SetInitiative("a", 9), SetInitiative("b", 5),
           Apply("b", "Defense action", (("defense", 15),)), Hit("b", 20)]
    enc = fold("horizon", log)
    b = enc.combatant("b")
    assert (b.value("defense"), b.value("damage")) == (0, 5)  # § Defense: 15 negated
    enc = fold("horizon", [*log[:-1], Hit("b", 20, bypass=True)])
    assert enc.combatant("b").value("defense") == 15 and enc.combatant("b").value("damage") == 20
    enc = fold("horizon", [*log[:-1], NextTurn()])  # b's turn starts: Defense lapses
    assert enc.current.id == "b" and enc.combatant("b").value("defense") == 0


def test_horizon_turn_order_without_awareness_is_the_acu_rank() -> None:
    # § Starting Combat: "if don't have the Awareness Skill and your ACU is 3, then your
    # score for the test is also 3"
    enc = fold("horizon", [*three("horizon", awareness=0, acuity=3), RollInitiative(seed=2)])
    assert {c.initiative for c in enc.combatants} == {3}


def test_horizon_stagger_costs_an_action_and_down_the_whole_turn() -> None:
    # horizon:1768-1769 Stagger "Target must spend 1 Action to recover", Down "2 Actions";
    # horizon:1602 "Characters normally make 2 actions per turn": Down costs the turn
    log = [*three("horizon"), SetInitiative("a", 9), SetInitiative("b", 5),
           SetInitiative("c", 1), SetCondition("b", "Stagger"), SetCondition("c", "Down")]
    costs = {x["name"]: x["costs"] for c in state_dict(fold("horizon", log))["combatants"]
             for x in c["conditions"]}
    assert costs == {"Stagger": "\N{MINUS SIGN}1 action", "Down": "loses its turn"}
    enc = fold("horizon", [*log, NextTurn()])  # Bo's turn: it recovers with 1 of its 2
    assert enc.current.id == "b" and enc.combatant("b").has("Stagger")
    assert "Bo spends 1 Action of its 2 this turn to recover from Stagger" in last(enc).steps[0]
    enc = fold("horizon", [*log, NextTurn(), NextTurn()])  # Cy is Down: its turn is lost
    assert enc.combatant("b").has("Stagger") is None and enc.combatant("c").has("Down") is None
    assert enc.current.id == "a" and enc.round == 2
    assert any("Cy is Down" in s and "this turn is lost" in s for s in last(enc).steps)


def test_horizon_wounding_hit_sets_its_condition() -> None:
    enc = fold("horizon", [*three("horizon"), Hit("a", 8, condition="Down")])
    assert enc.combatant("a").has("Down") and enc.combatant("a").value("damage") == 8


# --- Mecha ------------------------------------------------------------------------------
def test_mecha_initiative_is_rolled_again_every_round() -> None:
    log = [*three("mecha", reflex=4), RollInitiative(seed=1)]
    seen = set()
    for i in range(8):
        enc = fold("mecha", log)
        seen.add(tuple(c.initiative for c in enc.combatants))
        assert all(5 <= c.initiative <= 14 for c in enc.combatants)  # 1 die (d10) + 4
        log.append(NextRound(seed=i))
    assert len(seen) > 1


def test_mecha_armour_roll_and_vitality() -> None:
    enc = fold("mecha", [*three("mecha", vitality_max=12), Hit("a", 9)])
    assert enc.combatant("a").value("vitality") == 3
    enc = fold("mecha", [*three("mecha", vitality_max=12, armour_dice=2), Hit("a", 9, seed=4)])
    rolled = random.Random(4)
    armour = rolled.randint(1, 10) + rolled.randint(1, 10)
    assert enc.combatant("a").value("vitality") == 12 - max(0, 9 - armour)
    assert any("Not in the source: the size of the vitality" in n
               for n in rules_pkg.encounter.rules_for("mecha").sheet.notes)


# --- d100 -------------------------------------------------------------------------------
def test_d100_hit_soaks_ap_and_tb_and_hordes_lose_magnitude() -> None:
    enc = fold("d100", [AddCombatant("a", "Ada", values=(("ap", 4), ("tb", 3))),
                        AddCombatant("h", "Mob", "horde", (("magnitude_max", 30),)),
                        Hit("a", 10), Hit("h", 10), Hit("a", 5, bypass=True)])
    assert enc.combatant("a").value("wounds") == 12 - 3 - 5
    assert enc.combatant("h").value("magnitude") == 30 - 7


def test_d100_burning_grows_by_one_per_round() -> None:
    log = [AddCombatant("a", "Ada", values=(("tb", 0), ("wounds_max", 100))),
           RollInitiative(seed=1), SetCondition("a", "Burning")]
    enc = fold("d100", [*log, NextTurn(seed=9)])  # round 1 ends: +0
    d = random.Random(9).randint(1, 10)
    assert enc.combatant("a").value("wounds") == 100 - d
    enc = fold("d100", [*log, NextRound(seed=1), NextTurn(seed=9)])
    assert enc.combatant("a").value("wounds") == 100 - random.Random(1).randint(1, 10) - d - 1
    assert any("+1 for the rounds passed" in s for s in last(enc).steps)


def test_d100_blood_loss_decays_toughness_to_death() -> None:
    log = [AddCombatant("a", "Ada", values=(("toughness", 0),)), RollInitiative(seed=1),
           SetCondition("a", "Blood Loss")]
    enc = fold("d100", [*log, NextTurn(seed=3)])
    assert rules_pkg.encounter.rules_for("d100").status(enc.combatant("a"))[0] == \
        "Dead (Blood Loss)"
    log[0] = AddCombatant("a", "Ada", values=(("toughness", 30),))
    for seed in range(30):
        enc = fold("d100", [*log, NextTurn(seed=seed)])
        t = enc.combatant("a").value("toughness")
        assert 25 <= t <= 30
        failed = "failed" in " ".join(last(enc).steps)
        assert (t < 30) == failed


def test_d100_pinned_recovers_on_a_willpower_test() -> None:
    log = [AddCombatant("a", "Ada", values=(("willpower", 100),)), RollInitiative(seed=1),
           SetCondition("a", "Pinned"), NextTurn(seed=2)]
    assert fold("d100", log).combatant("a").has("Pinned") is None
    log[0] = AddCombatant("a", "Ada", values=(("willpower", 0),))
    assert fold("d100", log).combatant("a").has("Pinned") is not None


def test_adjust_and_apply_change_values() -> None:
    enc = fold("cyberpunk_red", [*three("cyberpunk_red"), Adjust("a", "bullets", -10, "autofire"),
                                 Apply("b", "test", (("hp", -3),), (("sp_head", 7),),
                                       ("Prone",))])
    assert enc.combatant("a").value("bullets") == 20
    b = enc.combatant("b")
    assert (b.value("hp"), b.value("sp_head")) == (37, 7) and b.has("Prone")
