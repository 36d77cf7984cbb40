"""Apply once, and right (#25 item 4): a result applied works out against the target's
own sheet, and resources change by amounts. Known answers from the sources' lines."""

from __future__ import annotations

import random

import rules_pkg
from rules_pkg import dice
from rules_pkg.encounter import AddCombatant, fold
from rules_pkg.encounter import events as ev
from rules_pkg.encounter.apply import proposals, with_target


def offered(calc: str, **inputs: object) -> list:
    result = rules_pkg.get(calc).run(**inputs).to_dict()
    return proposals(calc, {k: v for k, v in inputs.items() if k not in ("roll", "seed")},
                     result)


def test_fl_attack_spills_the_lost_rating_over_to_the_helmet() -> None:
    # Seed 2: 2 ✘ left with weapon damage 2 → 3 damage (§ Roll Action: +1 per extra ✘);
    # armour 1 + helmet 1 (FL:41 "Combine armor & helmet rating") roll 3 and 3: no ✘, so all
    # 3 go through and the rating drops by 2 (FL:44): the armour's 1, then the helmet's.
    (p,) = offered("forbidden_lands.attack", roll=True, seed=2, weapon_damage=2, armour=1,
                   helmet=1)
    assert (p.event.damage, p.event.dice) == (3, (3, 3))
    orc = AddCombatant("o", "Orc", values=(("strength_max", 4), ("armour", 1), ("helmet", 1)))
    o = fold("forbidden_lands", [orc, with_target(p.event, "o")]).combatant("o")
    assert (o.value("strength"), o.value("armour"), o.value("helmet")) == (1, 0, 0)


def test_fl_the_targets_own_armour_is_rolled_when_the_form_had_another() -> None:
    # The form had no armour; the Orc has armour 1: its own gear die is rolled (FL:40-45).
    # The case: an Orc with armour 1 took all 5 damage and kept armour 1.
    (p,) = offered("forbidden_lands.armour", roll=True, seed=1, damage=5, armour=0)
    assert p.event.dice == ()
    orc = AddCombatant("o", "Orc", values=(("strength_max", 6), ("armour", 1)))
    for seed in range(20):
        hit = with_target(p.event, "o")
        enc = fold("forbidden_lands", [orc, ev.Hit(**{**vars(hit), "seed": seed})])
        o = enc.combatant("o")
        face = next(int(s.split("Rolled ")[1][0]) for s in enc.history[-1].steps
                    if "Rolled" in s)
        through = 5 - (face == 6)
        assert o.value("strength") == 6 - through
        assert o.value("armour") == 0  # 4 or 5 went through: the rating drops (FL:44)


def test_mecha_damage_meets_the_targets_own_armour_dice() -> None:
    # mecha:68 "Armour roll: roll the armour dice and subtract their total": the issue's
    # Pilot with no armour dice took "16 damage (armour rolled)" with no armour rolled.
    (p,) = offered("mecha.damage", roll=True, seed=2, armour_dice=1)
    rolled = rules_pkg.get("mecha.damage").run(roll=True, seed=2, armour_dice=1).to_dict()
    before = sum(d["value"] for d in rolled["dice"] if d["kind"] == "damage")
    (armour,) = [d["value"] for d in rolled["dice"] if d["kind"] == "armour"]
    assert (p.event.damage, p.event.dice, p.event.bypass) == (before, (armour,), False)
    pilot = AddCombatant("p", "Pilot", values=(("vitality_max", 40),))
    tank = AddCombatant("t", "Tank", values=(("vitality_max", 40), ("armour_dice", 1)))
    enc = fold("mecha", [pilot, tank, with_target(p.event, "p"), with_target(p.event, "t")])
    assert enc.combatant("p").value("vitality") == 40 - before  # no armour: all of it
    # the calculator's own armour die, as the Tank has one: the headline's number
    assert enc.combatant("t").value("vitality") == 40 - max(0, before - armour)
    brute = AddCombatant("b", "Brute", values=(("vitality_max", 40), ("armour_dice", 2)))
    hit = ev.Hit(**{**vars(with_target(p.event, "b")), "seed": 9})
    b = fold("mecha", [brute, hit]).combatant("b")
    own = dice.roll(random.Random(9), 10, 2)  # two dice of its own, from the event's seed
    assert b.value("vitality") == 40 - max(0, before - sum(own))


def test_horizon_reload_adds_up_to_the_magazine_and_attacks_spend_it() -> None:
    # horizon:1689-1691: Reload adds its Attacks; "completely filled but no more". A full
    # 3-shot Light Combat Pistol stays at 3 whatever "Attacks left" the form says.
    (reload,) = offered("horizon.reload", weapon="light-combat-pistol", loaded=0)
    assert reload.role == "actor"
    full = AddCombatant("a", "Aloy", values=(("magazine", 3),))
    a = fold("horizon", [full, with_target(reload.event, "a")]).combatant("a")
    assert a.value("magazine") == 3
    one = AddCombatant("a", "Aloy", values=(("magazine", 1),))
    a = fold("horizon", [one, with_target(reload.event, "a")]).combatant("a")
    assert a.value("magazine") == 3  # 1 + Reload 2
    # line 1687: "Once it has made that many Attacks, it's out of ammunition": 2 Attacks
    _, spent = offered("horizon.attack", ap=10, attacks=2)
    a = fold("horizon", [full, with_target(spent.event, "a")]).combatant("a")
    assert spent.role == "actor" and a.value("magazine") == 1


def test_cyberpunk_single_shot_spends_a_bullet_hit_or_miss() -> None:
    for seed in range(6):
        props = offered("cyberpunk_red.ranged", roll=True, seed=seed)
        spent = props[-1]
        assert spent.role == "actor" and spent.event.changes == (("bullets", -1),)
        s = fold("cyberpunk_red", [AddCombatant("s", "V"), with_target(spent.event, "s")])
        assert s.combatant("s").value("bullets") == 29
    assert offered("cyberpunk_red.ranged") == []  # odds, not a shot


def test_mecha_entangle_actions_lost_add_up() -> None:
    # mecha:160 "robbed of 1 action for every 5 points ... Loss of actions is cumulative"
    won = next(r for s in range(50) if (r := rules_pkg.get("mecha.entangle").run(
        roll=True, seed=s, attacker_strength=12, target_strength=2).to_dict())["values"][0][1])
    (p,) = proposals("mecha.entangle", {}, won)
    lost = won["values"][0][1]
    t = fold("mecha", [AddCombatant("t", "Target"), with_target(p.event, "t"),
                       with_target(p.event, "t")]).combatant("t")
    assert t.value("actions_lost") == 2 * lost and t.has("Entangled")
