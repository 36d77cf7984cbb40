"""'Apply to …' from Cyberpunk RED's and d100's rolled results: the event each proposes
and what it does to a tracked combatant, with known answers from the sources' text."""

from __future__ import annotations

import rules_pkg
from rules_pkg.encounter import AddCombatant, SetCondition, fold
from rules_pkg.encounter import events as ev
from rules_pkg.encounter.apply import proposals, with_target

CPR = "cyberpunk_red"


def offered(calc: str, **inputs: object) -> list:
    result = rules_pkg.get(calc).run(**inputs).to_dict()
    form = {k: v for k, v in inputs.items() if k not in ("roll", "seed")}
    return proposals(calc, form, result)


def applied(game: str, props: list, *setup: ev.Event, who: str = "t"):
    log = [AddCombatant("s", "Shooter"), AddCombatant("t", "Target"), *setup]
    log += [with_target(p.event, "s" if p.role == "actor" else who) for p in props]
    return fold(game, log)


def test_autofire_damage_is_2d6_times_the_margin_up_to_the_smg_cap() -> None:
    # § Auto fire mode: "roll 2d6 ... multiply it by the amount you beat the DV ... up to
    # ... 3 for SMGS"; "it costs an Action and 10 bullets". Seed 5 rolls 10 to hit
    # (6 + 4 + 10 = 20 vs DV 15: beaten by 5, capped at 3) and 3 + 6 on the damage dice.
    hit, ammo = offered("cyberpunk_red.autofire", roll=True, seed=5)
    assert hit.role == "target" and ammo.role == "actor"
    assert hit.event == ev.Hit("", 27, location="body", source=hit.event.source)
    assert ammo.event.changes == (("bullets", -10),)
    enc = applied(CPR, [hit, ammo])
    # § Taking damage: 27 - SP 11 = 16 through, SP ablated by 1
    t, s = enc.combatant("t"), enc.combatant("s")
    assert (t.value("hp"), t.value("sp_body")) == (40 - 16, 10)
    assert s.value("bullets") == 30 - 10 and s.value("hp") == 40


def test_assault_rifle_cap_and_a_miss_spends_bullets_only() -> None:
    (hit, _) = offered("cyberpunk_red.autofire", roll=True, seed=5, weapon="assault_rifle")
    assert hit.event.damage == 9 * 4  # "4 for Assault Rifles"
    (ammo,) = offered("cyberpunk_red.autofire", roll=True, seed=1)  # Miss (13 vs 15)
    assert ammo.role == "actor" and ammo.event.changes == (("bullets", -10),)
    assert offered("cyberpunk_red.autofire") == []  # odds, not a shot fired


def test_autofire_against_a_dodge_uses_the_dodge_roll() -> None:
    result = rules_pkg.get("cyberpunk_red.autofire").run(
        roll=True, seed=5, defence="dodge", def_ref=8, def_dex=4, def_evasion=2).to_dict()
    dodge = next(d["value"] for d in result["dice"] if d["kind"] == "defence")
    props = proposals("cyberpunk_red.autofire", {"defence": "dodge", "def_ref": 8,
                                                  "def_dex": 4, "def_evasion": 2}, result)
    beat = 6 + 4 + 10 - (4 + 2 + dodge)
    if beat > 0:
        rolled = sum(d["value"] for d in result["dice"] if d["kind"] == "damage")
        assert props[0].event.damage == rolled * min(beat, 3)
    else:
        assert [p.role for p in props] == ["actor"]


def test_shotgun_shell_3d6_to_the_target_one_shell_spent() -> None:
    # § Shotgun Shells: "every target ... takes 3d6". Seed 5: 3 + 6 + 3 = 12.
    hit, shell = offered("cyberpunk_red.shotgun_shell", roll=True, seed=5)
    assert hit.event.damage == 12 and not hit.event.critical
    assert shell.role == "actor" and shell.event.changes == (("bullets", -1),)
    t = applied(CPR, [hit]).combatant("t")
    assert (t.value("hp"), t.value("sp_body")) == (39, 10)
    (miss,) = offered("cyberpunk_red.shotgun_shell", roll=True, seed=1)
    assert miss.role == "actor"


def test_explosive_one_roll_cover_and_dodge() -> None:
    # Seed 0: blast 4+1+3+5+4+4 = 21 -> 21 - SP 11 = 10 HP.
    (hit,) = offered("cyberpunk_red.explosive", roll=True, seed=0)
    assert hit.event.damage == 21
    assert applied(CPR, [hit]).combatant("t").value("hp") == 30
    # § Explosives: "will not damage a target behind cover that its damage would be
    # insufficient to destroy": 21 against 25 HP cover.
    assert offered("cyberpunk_red.explosive", roll=True, seed=0, cover_hp=25) == []
    # "... sufficient to destroy the cover ... they take full damage": 30 against 25 HP;
    # four 6s: a Critical Injury, 5 Bonus Damage (§ Critical Injuries).
    (hit,) = offered("cyberpunk_red.explosive", roll=True, seed=5, cover_hp=25)
    assert hit.event.damage == 30 and hit.event.critical
    t = applied(CPR, [hit]).combatant("t")
    assert t.value("hp") == 40 - (30 - 11) - 5 and t.injuries == ("Critical Injury",)
    # "dodge the blast by rolling higher than your original Check": 18 > 13
    assert offered("cyberpunk_red.explosive", roll=True, seed=1, dodge=True, def_ref=8) == []


def test_electrocution_first_shock_then_the_condition() -> None:
    # § Electrocution: "immediately take 6d6 damage ... soaked by armor as normal".
    (p,) = offered("cyberpunk_red.electrocution", roll=True, seed=3)
    assert p.event.damage == 2 + 5 + 5 + 2 + 3 + 5 and p.event.condition == "Electrocuted"
    t = applied(CPR, [p]).combatant("t")
    assert t.value("hp") == 40 - (22 - 11) and t.has("Electrocuted")


def test_falling_poison_exposure_brawling_drowning() -> None:
    # § Falling: 2d6 per 10 m, soaked; DV15 Athletics (6 + 4 + 3 = 13) failed: Broken Leg.
    fall, leg = offered("cyberpunk_red.falling", roll=True, seed=2)
    assert fall.event.damage == 6 and leg.event == ev.Injury("", "Broken Leg")
    t = applied(CPR, [fall, leg]).combatant("t")
    assert t.value("hp") == 40 - 5 and t.injuries == ("Broken Leg",)  # 5 Bonus Damage
    # § Poisons and Drugs: Mild, DV 11, failed (10): 1d6 direct to HP, armour not ablated
    (p,) = offered("cyberpunk_red.poison", roll=True, seed=1)
    assert p.event.bypass and p.event.damage == 5
    t = applied(CPR, [p]).combatant("t")
    assert (t.value("hp"), t.value("sp_body")) == (35, 11)
    (p,) = offered("cyberpunk_red.exposure", roll=True, seed=1, days=2)
    assert p.event.bypass
    (p,) = offered("cyberpunk_red.brawling", roll=True, seed=1, sp=0)
    assert p.event.damage == 7 and not p.event.melee  # bare fists: SP in full
    (p,) = offered("cyberpunk_red.drowning", space=True)
    assert p.event == ev.SetCondition("", "Asphyxiating in space")


def test_d100_crippled_failed_test_damage_then_blood_loss() -> None:
    # § Crippled: "1d10 damage that ignores AP and TB ... if it reduces you to 0 wounds,
    # you lose the Crippled status and gain the Blood Loss status". Seed 3: 31 > 30, 10.
    (p,) = offered("d100.crippled", roll=True, seed=3)
    assert p.event.damage == 10 and p.event.location == "crippled"
    enc = applied("d100", [p], SetCondition("t", "Crippled"), ev.SetValue("t", "ap", 5))
    t = enc.combatant("t")
    assert t.value("wounds") == 2 and t.has("Crippled")  # 12 - 10, AP and TB ignored
    enc = applied("d100", [p], SetCondition("t", "Crippled"), ev.SetValue("t", "wounds", 10))
    t = enc.combatant("t")
    assert t.value("wounds") == 0 and not t.has("Crippled") and t.has("Blood Loss")
    assert offered("d100.crippled", roll=True, seed=1) == []  # passed
    (p,) = offered("d100.crippled", horde=True)  # "Hordes instead instantly gain ..."
    assert p.event == ev.SetCondition("", "Blood Loss")


def test_grab_and_hallucinating() -> None:
    # § Brawling/Grappling: both roll DEX + Brawling + 1d10; the Attacker wins by rolling
    # higher. Breaking out: a successful Grab against the Attacker ends the Grapple.
    for seed in range(20):
        result = rules_pkg.get("cyberpunk_red.grab").run(roll=True, seed=seed).to_dict()
        a, d = (next(x["value"] for x in result["dice"] if x["kind"] == k)
                for k in ("attacker", "defender"))
        props = proposals("cyberpunk_red.grab", {}, result)
        assert props == ([] if a <= d else [
            type(props[0])("Grappled", ev.SetCondition("", "Grappled"))])
        broke = proposals("cyberpunk_red.grab", {"breaking": True}, result)
        assert [p.role for p in broke] == ([] if a <= d else ["actor"])
    # § Hallucinating: "for 1d10 rounds. Hordes are instead Stunned for 1d10 rounds."
    (p,) = offered("d100.hallucinating", roll=True, seed=1)
    assert p.event == ev.SetCondition("", "Hallucinating", 3)
    (p,) = offered("d100.hallucinating", roll=True, seed=1, horde=True)
    assert p.event == ev.SetCondition("", "Stunned", 3)
    assert offered("d100.hallucinating") == []


def test_mecha_entangle_and_break_away() -> None:
    # § Entangling & Disarming: the winner of the strength feat contest entangles;
    # § Breaking Away: 6-10 on one die breaks away from one opponent.
    for seed in range(12):
        result = rules_pkg.get("mecha.entangle").run(roll=True, seed=seed).to_dict()
        a, b = (d["value"] for d in result["dice"])
        props = proposals("mecha.entangle", {}, result)
        lost = (a + 6 - (b + 5)) // 5  # "1 action for every 5 points", line 160
        assert [p.event for p in props] == ([ev.Apply(
            "", result["summary"], (("actions_lost", lost),) if lost else (),
            conditions=("Entangled",))] if a + 6 > b + 5 else [])
        assert proposals("mecha.entangle", {"choice": "disarm"}, rules_pkg.get(
            "mecha.entangle").run(roll=True, seed=seed, choice="disarm").to_dict()) == []
        result = rules_pkg.get("mecha.break_away").run(roll=True, seed=seed).to_dict()
        face = result["dice"][0]["value"]
        props = proposals("mecha.break_away", {}, result)
        assert [(p.event, p.role) for p in props] == (
            [(ev.ClearCondition("", "Entangled"), "actor")] if face >= 6 else [])


def test_human_shield_is_shot_normally() -> None:
    (p,) = offered("cyberpunk_red.shield", shield="human", damage=15, human_sp=7)
    t = applied(CPR, [p]).combatant("t")  # 15 - the shield's own SP 11 = 4, ablated
    assert (t.value("hp"), t.value("sp_body")) == (36, 10)
    assert offered("cyberpunk_red.shield", shield="bulletproof") == []
