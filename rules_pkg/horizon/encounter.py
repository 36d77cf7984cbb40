"""Horizon: Out of the Ashes in an encounter: AP, a Defense pool that lasts until your
next turn, damage taken, and the Wounding Attack conditions."""

from __future__ import annotations

import random

from ..encounter import events as ev
from ..encounter.common import Log, Rules, by_calculator, set_value
from ..encounter.events import Hit
from ..encounter.model import (
    MAX_VALUE,
    Ask,
    Combatant,
    ConditionDef,
    Encounter,
    Sheet,
    Stat,
    replace,
)
from ..encounter.proposal import (
    Handler,
    Inputs,
    Proposal,
    Values,
    as_int,
    plural,
    read,
    values_of,
)
from ..errors import RulesError
from .movement import awareness
from .skills import SkillTest, face_ap, face_label

DOC = "horizon-out-of-the-ashes-combat.txt"
DEFENSE = f"{DOC} § Defense Actions"
WOUNDING = f"{DOC} § Wounding Attacks"
STAGGER, DOWN = f"{DOC}:1768, 1602", f"{DOC}:1769, 1602"  # the table's row; 2 Actions a turn
AWARENESS = "Awareness test"  # the players' own turn-order roll (#25 item 2)
AWARENESS_SURPRISE = "Awareness test with Surprise"
SHEET = Sheet(
    game="horizon", title="Horizon: Out of the Ashes",
    stats=(
        Stat("ap", "AP score", 0, 0, 99, f"{DOC} § Weapon Profiles (this round's combat test)"),
        Stat("defense", "Defense left", 0, 0, 999, DEFENSE),
        Stat("damage", "Damage taken", 0, 0, MAX_VALUE, f"{DOC} § Attack Actions"),
        Stat("magazine", "Attacks in the Magazine", 0, 0, 99, f"{DOC} § Reload"),
        Stat("awareness", "Awareness Skill rank", 2, 0, 10, f"{DOC} § Starting Combat",
             tracked=False),
        Stat("acuity", "Acuity (ACU)", 2, 0, 10, f"{DOC} § Starting Combat", tracked=False),
    ),
    conditions=(
        # lines 1768-1769 with line 1602, "Characters normally make 2 actions per turn":
        # Stagger costs 1 of its bearer's next turn, Down the whole turn; recovered, it ends
        ConditionDef("Stagger", "must spend 1 Action to recover", STAGGER, rounds=1,
                     actions=1),
        ConditionDef("Down", "must spend 2 Actions to recover: its whole turn", DOWN,
                     rounds=1, actions=2, loses_turn=True),
        ConditionDef("Shatter Arm", "half AP per Shattered arm used (until healed)", WOUNDING),
        ConditionDef("Shatter Leg", "half Move per Shattered Leg (until healed)", WOUNDING),
        ConditionDef("Shatter Body", "half AP to all tests (until healed)", WOUNDING),
        ConditionDef("Shatter Head", "double damage from the attack", WOUNDING),
    ),
    initiative=(f"Turn order: an Awareness test each, highest score first; no Awareness Skill: "
                f"the ACU rank is the score; Surprise adds ACU ({DOC} § Starting Combat)"),
    hit=(f"Defense negates incoming damage until it is used up or until your next turn; "
         f"Point Blank, Melee, Unarmed and Grenade attacks ignore it ({DEFENSE})"),
    notes=("Not in the source: a health track. The combat chapter gives none, so the damage "
           "a combatant takes is tallied for the Director.",
           "Not in the source: how equal Awareness scores are ordered; here the combatant "
           "added first acts first."),
    main=("damage",),
    surprise=(f"Surprise: the team that strikes first adds its ACU rank to its Awareness "
              f"result ({DOC} § Surprise!, lines 1807-1811)"),
)


rolled_here = by_calculator(
    "horizon.turn_order", "Your Awareness",
    lambda c, surprise: {"my_dice": c.value("awareness"), "my_acu": c.value("acuity"),
                         "my_surprise": c.id in surprise, "their_dice": 0, "their_acu": 0},
    lambda c, r, n: r.steps[-2].removeprefix("you: "))


def _test(c: Combatant, surprise: bool) -> SkillTest:
    return awareness(c.value("awareness"), c.value("acuity"), surprise)


def initiative(cs: tuple[Combatant, ...], rng: random.Random, surprise: frozenset[str],
               log: Log, taken: frozenset[int]) -> dict[str, int]:
    """§ Starting Combat (lines 1791-1795): each participant's Awareness test, rolled by its
    player (asked) when the event asks; without the Skill, the ACU rank is the score, no
    dice. § Surprise! (line 1810): the surprising side adds its ACU rank."""
    if not log.asking:
        return rolled_here(cs, rng, surprise, log, taken)
    out = {}
    for c in cs:
        t = _test(c, c.id in surprise)
        if not t.dice:
            out[c.id] = t.score(())
            log.step(f"{c.name}: no Awareness Skill, no dice: ACU {c.value('acuity')}"
                     + (f" + Surprise {t.extra}" if t.extra else "") + f" → {out[c.id]}")
            continue
        log.ask(Ask(c.id, AWARENESS_SURPRISE if t.extra else AWARENESS, 6,
                    f"{c.name}: Awareness test for turn order, {t.explain()}; a die scores "
                    f"{_faces()} ({DOC}:1793" + (", Surprise!: 1810)" if t.extra else ")"),
                    t.dice))
    return out


def _faces() -> str:
    """The source's die table as a player reads it: "1-3: 0, 4-5: +1 AP, 6: +2 AP"."""
    by: dict[int, list[int]] = {}
    for f in range(1, 7):
        by.setdefault(face_ap()[f - 1], []).append(f)
    return ", ".join((f"{fs[0]}-{fs[-1]}" if len(fs) > 1 else f"{fs[0]}")
                     + f": {face_label(fs[0])}" for fs in by.values())


def answer(sheet: Sheet, c: Combatant, name: str, faces: tuple[int, ...], enc: Encounter,
           rng: random.Random, log: Log) -> Combatant:
    if name not in (AWARENESS, AWARENESS_SURPRISE):
        raise RulesError(f"Horizon asks for no roll called {name[:40]!r}")
    t = _test(c, name == AWARENESS_SURPRISE)
    n = t.score(faces)
    log.step(f"{c.name}: Awareness {t.explain(faces)}; the highest score goes first "
             f"({DOC}:1792)")
    return replace(c, initiative=n)


def hit(sheet: Sheet, c: Combatant, e: Hit, rng: random.Random, log: Log) -> Combatant:
    damage = e.damage
    pool = c.value("defense")
    if e.bypass:
        log.step("this attack ignores Defense (Point Blank, Melee, Unarmed or Grenade)")
    elif pool:
        negated = min(pool, damage)
        damage -= negated
        c = set_value(sheet, c, "defense", pool - negated, log)
        log.step(f"Defense {pool} negates {negated}: {damage} taken, {pool - negated} "
                 "Defense left")
    c = set_value(sheet, c, "damage", c.value("damage") + damage, log)
    log.step(f"damage taken {c.value('damage') - damage} + {damage} = {c.value('damage')}")
    return c


def start_turn(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
               log: Log) -> Combatant:
    if c.value("defense"):
        log.step(f"{c.name}'s turn: Defense {c.value('defense')} lapses (Defense lasts "
                 f"until your next turn, {DEFENSE})")
        c = c.with_value("defense", 0)
    for name, actions in (("Stagger", 1), ("Down", 2)):
        if c.has(name):  # recovering is what those Actions buy: it ends with this turn
            log.step(f"{c.name} spends {plural(actions, 'Action')} of its 2 this turn to "
                     f"recover from {name} ({sheet.condition(name).source})")
    return c


def status(c: Combatant) -> tuple[str, ...]:
    return ()


# --- "Apply to …" -------------------------------------------------------------------
def _proposals(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = values_of(result)
    summary = str(result.get("summary", ""))[:150]
    if calc == "horizon.attack":
        dmg = as_int(vals.get("Target 1"))
        if dmg is None:
            return []
        bypass = bool(vals.get("Ignores Defense"))
        # § The Magazine (line 1687): each Attack made uses one up (split among targets)
        n = int(inputs.get("attacks", 1))
        return [Proposal(f"{dmg} damage" + (" (ignores Defense)" if bypass else ""),
                         ev.Hit("", dmg, bypass=bypass, source=summary)),
                Proposal(f"{plural(n, 'Attack')} from the Magazine", ev.Apply(
                    "", summary, (("magazine", -n),)), "actor")]
    if calc == "horizon.wounding":
        dmg = as_int(vals.get("Damage"))
        if dmg is None or "Outcome" not in vals:
            return []
        cond = str(inputs.get("condition", "")) if vals["Outcome"] == "applied" else ""
        if cond == "Shatter Head":  # "double damage from the attack": the doubled damage,
            return [Proposal(f"{dmg} damage (Shatter Head: doubled)",  # nothing lasting
                             ev.Hit("", dmg, source=summary))]
        return [Proposal(f"{dmg} damage" + (f", {cond}" if cond else ""),
                         ev.Hit("", dmg, source=summary, condition=cond))]
    if calc == "horizon.defense":
        pool = as_int(vals.get("Negates up to"))
        return [] if pool is None else [Proposal(f"Defense +{pool}", ev.Apply(
            "", summary, (("defense", pool),)))]
    if calc == "horizon.reload":
        # § Reload (lines 1689-1691): Reload x actions added, "completely filled but no
        # more": an amount up to the Magazine, whatever the form said was left in it
        mag, per = as_int(vals.get("Magazine")), as_int(vals.get("Reload"))
        if mag is None or per is None:
            return []
        n = per * int(inputs.get("actions", 1))
        return [Proposal(f"Reload: up to {plural(n, 'Attack')} (Magazine {mag})", ev.Apply(
            "", summary, (("magazine", n),), upto=(("magazine", mag),)), "actor")]
    if calc in ("horizon.combat_test", "horizon.skill_test"):
        ap = as_int(vals.get("AP score"))
        return [] if ap is None else [Proposal(f"AP {ap}", ev.Apply(
            "", summary, sets=(("ap", ap),)))]
    return []


APPLY: dict[str, Handler] = {c: _proposals for c in (
    "horizon.attack", "horizon.wounding", "horizon.defense", "horizon.reload",
    "horizon.combat_test", "horizon.skill_test")}
ACTOR: dict[str, Inputs] = {
    "horizon.reload": read(loaded="magazine"),
    "horizon.attack": read("ap"),
    "horizon.wounding": read("ap"),
    "horizon.defense": read("ap"),
    "horizon.move": read("ap"),
}

RULES = Rules(SHEET, initiative, hit, status, start_turn=start_turn, answer=answer,
              apply=APPLY, actor=ACTOR)
