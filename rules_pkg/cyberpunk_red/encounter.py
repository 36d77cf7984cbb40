"""Cyberpunk RED in an encounter: HP, head and body SP that ablate, wound states,
Critical Injuries; On Fire, Electrocution and a vacuum's STAT damage at the end of the
turn; Drowning (and Asphyxiation) and Death Saves at its start."""

from __future__ import annotations

import random

from ..encounter.common import MINUS, Log, Rules, ask_or_roll, d10_plus, lose, set_value
from ..encounter.events import Hit
from ..encounter.model import (
    Ask,
    Combatant,
    Condition,
    ConditionDef,
    Encounter,
    Sheet,
    Stat,
    replace,
)
from ..encounter.proposal import Inputs, read
from ..errors import RulesError
from .core import MELEE_HALF_DEFAULT, melee_note, melee_sp
from .encounter_apply import HANDLERS
from .environment import ELECTROCUTION_DICE, VACUUM_DICE
from .melee import choke
from .sheet import dice_of

DOC = "cyberpunk-red-combat-cheat-sheet.txt"
FIRE = {"Mild": 2, "Strong": 4, "Deadly": 6}  # § Other types of damage, Being On Fire
VACUUM = "Asphyxiating in space"
VACUUM_STATS = ("int", "ref", "dex")  # "to your INT, REF, and DEX"
DEATH_SAVE = "Death Save"
SHOCK = "Electrocution damage"  # the rolls a player makes (asked, #25 item 2)
VACUUM_ROLL = "Vacuum damage"
SHEET = Sheet(
    game="cyberpunk_red", title="Cyberpunk RED",
    stats=(
        Stat("hp_max", "HP (full)", 40, 1, 200, f"{DOC} § Taking damage", tracked=False),
        Stat("hp", "HP", 40, 0, "hp_max", f"{DOC} § Taking damage"),
        Stat("sp_head", "Head SP", 11, 0, 30, f"{DOC} § Armor"),
        Stat("sp_body", "Body SP", 11, 0, 30, f"{DOC} § Armor"),
        Stat("ref", "REF", 6, 0, 15, f"{DOC} § Initiative", tracked=False),
        Stat("body", "BODY", 6, 0, 15, f"{DOC} § Death Save", tracked=False),
        Stat("int", "INT", 6, 0, 15, f"{DOC} § Drowning and Asphyxiation", tracked=False),
        Stat("dex", "DEX", 6, 0, 15, f"{DOC} § Drowning and Asphyxiation", tracked=False),
        Stat("bullets", "Bullets", 30, 0, 999, f"{DOC} § Auto fire mode"),
    ),
    conditions=(
        ConditionDef("On Fire", "damage direct to HP at the end of your Turn (Mild 2, "
                     "Strong 4, Deadly 6), armour not ablated, until an Action puts it out",
                     f"{DOC} § Being On Fire", levels=tuple(FIRE)),
        ConditionDef("Drowning", "BODY direct to HP at the beginning of each Turn, ignoring "
                     "armour", f"{DOC} § Drowning and Asphyxiation"),
        ConditionDef(VACUUM, "as Drowning (BODY direct to HP at the beginning of each Turn); "
                     "1d6 damage to INT, REF and DEX at the end of each Turn; INT 0: dead; "
                     "the STATs come back with a breath of air (clear it)",
                     f"{DOC} § Drowning and Asphyxiation"),
        ConditionDef("Electrocuted", "6d6 damage soaked by armour at the end of each of your "
                     "Turns, starting with your next Turn, until you move away from the source",
                     f"{DOC} § Electrocution"),
        ConditionDef("Grappled", "-2 to all actions; the Defender cannot use their Move "
                     "Action", f"{DOC} § Brawling/Grappling"),
        ConditionDef("Prone", "cannot use the Move Action until the Get Up Action",
                     f"{DOC} § Throw"),
        ConditionDef("Unconscious", "out of the fight", f"{DOC} § Choke"),
        ConditionDef("Dead", "failed a Death Save, or INT 0 in a vacuum",
                     f"{DOC} § Death Save, § Drowning and Asphyxiation"),
    ),
    initiative=f"Initiative: REF + 1d10, highest first ({DOC} § Initiative)",
    hit=(f"Damage minus the location's SP (melee: half the SP ignored, rounded up; head: through "
         f"damage doubled); any damage through ablates that SP by 1; a Critical Injury adds 5 "
         f"direct ({DOC} § Taking damage, § Melee combat, § Aimed Shots, § Critical Injuries)"),
    notes=("Not in the sheet: the Wound State thresholds. Here the RED rulebook's: Seriously "
           "Wounded below half HP (rounded up), Mortally Wounded below 1 HP.",
           "Not in the sheet: a floor for HP; here HP stops at 0.",
           "Not in the sheet: how equal initiatives are ordered; here the combatant added "
           "first acts first."),
)


initiative = d10_plus("ref", "REF {v} + 1d10 ({d})",
                      "The sheet has no Surprise rule for initiative: ignored.")


def hit(sheet: Sheet, c: Combatant, e: Hit, rng: random.Random, log: Log) -> Combatant:
    loc = e.location or "body"
    if loc in ("choke", "throw"):
        return _grapple(sheet, c, e, log)
    if loc not in ("body", "head"):
        raise RulesError(f"the location is body or head, not {loc[:20]!r}")
    key = f"sp_{loc}"
    if e.bypass:
        through = e.damage
        log.step(f"{e.damage} direct to HP: armour not ablated")
    else:
        sp = c.value(key)
        # The engine's one reading of "ignore half of the Armor. rounded up" (the default,
        # literal one), so a tracked hit and the damage calculator always agree.
        used = melee_sp(sp) if e.melee else sp
        if e.melee:
            log.step(f"{loc.title()} SP {sp}: a melee weapon ignores half, rounded up → {used}")
            log.note(melee_note(MELEE_HALF_DEFAULT))
        else:
            log.step(f"{loc.title()} SP {sp}")
        through = max(0, e.damage - used)
        if loc == "head":
            log.step(f"{e.damage} {MINUS} {used} → {through} through, doubled for the head")
            through *= 2
        else:
            log.step(f"{e.damage} {MINUS} {used} → {through} through")
        if through:
            c = set_value(sheet, c, key, sp - 1, log)
            log.step(f"damage got through: {loc} SP {sp} → {c.value(key)}")
    c = _lose_hp(sheet, c, through, log)
    if e.critical:
        c = injury(sheet, c, "Critical Injury", log)
    return c


def _grapple(sheet: Sheet, c: Combatant, e: Hit, log: Log) -> Combatant:
    """§ Choke and § Throw (line 27): the attacker's BODY direct to HP, armour not ablated.
    A Choke leaves a target with more than 1 HP at 1 HP and Unconscious rather than below
    0, and 3 successive Rounds of Choke make it Unconscious; a Throw leaves it Prone and
    ends the Grapple."""
    if e.location == "throw":
        c = _lose_hp(sheet, c, e.damage, log)
        log.step(f"{c.name} is thrown: Prone, the Grapple ends ({DOC}:27)")
        kept = tuple(x for x in c.conditions if x.name not in ("Grappled", "Prone"))
        return replace(c, conditions=(*kept, Condition("Prone", None, "", log.round)))
    last, count = c.counter("choke_round"), c.counter("chokes")
    count = count if last == log.round else count + 1 if last and last == log.round - 1 else 1
    g = choke(e.damage, c.value("hp"), count)
    log.step(f"Choke, round {count} in a row: BODY {e.damage} direct to HP: "
             f"HP {c.value('hp')} → {max(0, g.hp_after)}" + (f" ({g.note})" if g.note else ""))
    c = set_value(sheet, c, "hp", max(0, g.hp_after), log)
    c = c.with_counter("choke_round", log.round).with_counter("chokes", count)
    if g.unconscious and not c.has("Unconscious"):
        c = replace(c, conditions=(*c.conditions, Condition("Unconscious", None, "", log.round)))
    return c


def _lose_hp(sheet: Sheet, c: Combatant, n: int, log: Log) -> Combatant:
    return lose(sheet, c, "hp", n, log)


def injury(sheet: Sheet, c: Combatant, name: str, log: Log) -> Combatant:
    log.step(f"{name}: 5 Bonus Damage directly to HP, no ablation ({DOC} § Critical Injuries)")
    log.note("The Critical Injury tables are not in the sheet: it is kept as \"Critical "
             "Injury\"; write which one in a note (the combatant's Note field).")
    c = replace(c, injuries=(*c.injuries, name))
    return _lose_hp(sheet, c, 5, log)


def end_turn(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
             log: Log) -> Combatant:
    fire = c.has("On Fire")
    if fire:
        n = FIRE[fire.level]
        log.step(f"end of {c.name}'s Turn, On Fire ({fire.level}): {n} damage direct to HP, "
                 "armour not ablated")
        c = _lose_hp(sheet, c, n, log)
    shock = c.has("Electrocuted")
    if shock and shock.own_turn and shock.since == enc.round:
        log.step(f"end of {c.name}'s Turn, Electrocuted this Turn: the damage repeats "
                 "from the next Turn")
    elif shock:
        d = dice_of(ELECTROCUTION_DICE)
        s = c
        c = ask_or_roll(log, rng, Ask(c.id, SHOCK, d.sides, f"{c.name}, still Electrocuted at "
                                      f"the end of the Turn: {d} damage, soaked by armour "
                                      f"({DOC}:31 § Electrocution)", d.n), c,
                        lambda rolled: _shock(sheet, s, rolled, log))
    if c.has(VACUUM) and not c.has("Dead"):
        d = dice_of(VACUUM_DICE)
        v = c
        c = ask_or_roll(log, rng, Ask(c.id, VACUUM_ROLL, d.sides, f"{c.name}, in a vacuum at "
                                      f"the end of the Turn: {d} each to INT, REF and DEX, "
                                      f"in that order ({DOC}:31 § Drowning and Asphyxiation)",
                                      d.n * len(VACUUM_STATS)), c,
                        lambda rolled: _vacuum(sheet, v, rolled, log))
    return c


def _shock(sheet: Sheet, c: Combatant, rolled: tuple[int, ...], log: Log) -> Combatant:
    """§ Electrocution (line 31): the 6d6 repeats at the end of each of your Turns, soaked
    by armour as normal."""
    log.step(f"end of {c.name}'s Turn, still Electrocuted: {dice_of(ELECTROCUTION_DICE)} "
             f"({' + '.join(map(str, rolled))} = {sum(rolled)}), soaked by armour")
    return hit(sheet, c, Hit(c.id, sum(rolled), location="body"), random.Random(0), log)


def _vacuum(sheet: Sheet, c: Combatant, faces: tuple[int, ...], log: Log) -> Combatant:
    """§ Drowning and Asphyxiation (line 31): in space, 1d6 to INT, REF and DEX at the end
    of the Turn; INT 0 is death. The loss is kept, so a breath of air can give it back."""
    d = dice_of(VACUUM_DICE)
    for i, key in enumerate(VACUUM_STATS):
        rolled = sum(faces[i * d.n:(i + 1) * d.n])
        before = c.value(key)
        c = set_value(sheet, c, key, before - rolled, log)
        lost = before - c.value(key)
        c = c.with_counter(f"vacuum_{key}", c.counter(f"vacuum_{key}") + lost)
        log.step(f"end of {c.name}'s Turn in a vacuum: {d} ({rolled}) to "
                 f"{sheet.stat(key).label}: {before} → {c.value(key)}")
    if c.value("int") == 0:
        log.step(f"{c.name}'s INT reaches 0: dead")
        c = replace(c, conditions=(*c.conditions, Condition("Dead", None, "", log.round)))
    return c


def cleared(sheet: Sheet, c: Combatant, name: str, log: Log) -> Combatant:
    """A breath of air reverses the vacuum's damage to the STATs."""
    if name != VACUUM:
        return c
    for key in VACUUM_STATS:
        lost = c.counter(f"vacuum_{key}")
        if lost:
            before = c.value(key)
            c = set_value(sheet, c, key, before + lost, log)
            log.step(f"a breath of air: {sheet.stat(key).label} {before} → {c.value(key)}")
    return replace(c, counters=tuple(x for x in c.counters if not x[0].startswith("vacuum_")))


def start_turn(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
               log: Log) -> Combatant:
    if c.has("Dead"):
        return c
    drowning = c.has("Drowning") or c.has(VACUUM)
    if drowning:
        log.step(f"start of {c.name}'s Turn, {drowning.name}: BODY {c.value('body')} "
                 "direct to HP, armour not ablated")
        c = _lose_hp(sheet, c, c.value("body"), log)
    if c.value("hp") < 1:  # the player's own d10 (cyberpunk:49)
        m = c
        c = ask_or_roll(log, rng, Ask(c.id, DEATH_SAVE, 10, f"{c.name}: Death Save, d10 + "
                                      f"penalty {c.counter('death_save_penalty')}, under BODY "
                                      f"{c.value('body')} to live; a 10 always fails "
                                      f"({DOC}:49)"), c,
                        lambda d: _death_save(m, d[0], enc, log))
    return c


def _death_save(c: Combatant, d: int, enc: Encounter, log: Log) -> Combatant:
    """§ Death Save (line 49): "If you roll under your BODY, you live ... If you roll a 10,
    you automatically fail"; each one adds +1 to the next."""
    penalty = c.counter("death_save_penalty")
    alive = d != 10 and d + penalty < c.value("body")
    log.step(f"{c.name} is Mortally Wounded: Death Save, d10 {d} + penalty {penalty} = "
             f"{d + penalty} against BODY {c.value('body')}: "
             + ("under BODY, lives" if alive else
                "a 10 always fails: dies" if d == 10 else "not under BODY: dies"))
    c = c.with_counter("death_save_penalty", penalty + 1)
    if not alive:
        c = replace(c, conditions=(*c.conditions, Condition("Dead", None, "", enc.round)))
    return c


def answer(sheet: Sheet, c: Combatant, name: str, faces: tuple[int, ...], enc: Encounter,
           rng: random.Random, log: Log) -> Combatant:
    if name == DEATH_SAVE:
        return _death_save(c, faces[0], enc, log)
    if name == SHOCK:
        return _shock(sheet, c, faces, log)
    if name == VACUUM_ROLL:
        return _vacuum(sheet, c, faces, log) if not c.has("Dead") else c
    raise RulesError(f"Cyberpunk RED asks for no roll called {name[:40]!r}")


def out(c: Combatant) -> str:
    return "Dead" if c.has("Dead") else "Unconscious" if c.has("Unconscious") else ""


def bring_back(sheet: Sheet, c: Combatant, log: Log) -> Combatant:
    gone = [x.name for x in c.conditions if x.name in ("Dead", "Unconscious")]
    if gone:
        log.step(f"the GM's call: no longer {' or '.join(gone)}")
    return replace(c, conditions=tuple(x for x in c.conditions if x.name not in gone))


def status(c: Combatant) -> tuple[str, ...]:
    hp, full = c.value("hp"), c.value("hp_max")
    if c.has("Dead"):
        return ("Dead",)
    if hp < 1:
        return ("Mortally Wounded",)
    if hp < (full + 1) // 2:
        return ("Seriously Wounded",)
    return ()


def _target_sp(c: Combatant) -> dict[str, int]:
    return {"sp": c.value("sp_body"), "sp_body": c.value("sp_body"),
            "sp_head": c.value("sp_head")}


# A calculator run "as" a combatant, "against" another: the inputs their sheets decide.
ACTOR: dict[str, Inputs] = {
    "cyberpunk_red.ranged": read("ref"),
    "cyberpunk_red.autofire": read("ref", "bullets"),
    "cyberpunk_red.suppressive": read("ref", "bullets"),
    "cyberpunk_red.death_save": lambda c: {"body": c.value("body"),
                                           "penalty": c.counter("death_save_penalty")},
    "cyberpunk_red.brawling": read("body"),
    "cyberpunk_red.grapple_action": read("body"),
}
TARGET: dict[str, Inputs] = {
    "cyberpunk_red.damage": read(sp="sp_body"),
    "cyberpunk_red.ranged": _target_sp,
    "cyberpunk_red.melee": _target_sp,
    "cyberpunk_red.autofire": _target_sp,
    "cyberpunk_red.shotgun_shell": _target_sp,
    "cyberpunk_red.explosive": _target_sp,
    "cyberpunk_red.grapple_action": read("hp"),
}

RULES = Rules(SHEET, initiative, hit, status, start_turn=start_turn, end_turn=end_turn,
              injury=injury, cleared=cleared, answer=answer, out=out, bring_back=bring_back,
              apply=HANDLERS, actor=ACTOR, target=TARGET)
