"""The d100 game in an encounter: wounds, armour and Toughness Bonus, statuses with
durations, hordes with their magnitude; Burning, Blood Loss and Crippled each turn."""

from __future__ import annotations

import random

from ..encounter.common import HALF_ACTION, Log, Rules, ask_or_roll, d10_plus, lose, set_value
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
from ..errors import RulesError
from .degrees import degrees
from .encounter_apply import ACTOR, APPLY, TARGET

DOC = "d100-combat-circumstances-and-status-effects.txt"
ST = f"{DOC} § Status Effects"
# who can take no more than a Half Action (Dazed, Pinned) or none (Stunned, Helpless)
HALF_ONLY = ("Dazed", "Pinned", "Stunned", "Helpless")
# the rolls a player makes (asked at the moment they happen, #25 item 2)
BLOOD_LOSS_TEST, BLOOD_LOSS_DECAY = "Blood Loss test", "Blood Loss decay"
CRIPPLED_TEST, CRIPPLED_DAMAGE = "Crippled test", "Crippled damage"
PINNED_TEST = "Pinned test"
BURNING_DAMAGE = "Burning damage"
BURNING_SINCE = "burning_rounds"  # counter: the rounds passed when the burn was asked


def _c(name: str, effect: str, rounds: int | None = None,
       loses_turn: bool = False) -> ConditionDef:
    return ConditionDef(name, effect, ST, rounds, loses_turn=loses_turn)


SHEET = Sheet(
    game="d100", title="d100 combat",
    kinds=("character", "horde"),
    stats=(
        Stat("wounds_max", "Wounds (full)", 12, 0, 200, ST, tracked=False, kinds=("character",)),
        Stat("wounds", "Wounds", 12, 0, "wounds_max", ST, kinds=("character",)),
        Stat("magnitude_max", "Magnitude (full)", 0, 0, 500, f"{DOC} § Combat Circumstances",
             tracked=False, kinds=("horde",)),
        Stat("magnitude", "Magnitude", 0, 0, "magnitude_max", f"{DOC} § Combat Circumstances",
             kinds=("horde",)),
        Stat("ap", "Armour (AP)", 0, 0, 30, ST),
        Stat("tb", "Toughness Bonus", 3, 0, 20, ST, tracked=False),
        Stat("toughness", "Toughness", 35, 0, 100, ST),
        Stat("willpower", "Willpower", 35, 0, 100, f"{DOC} § Pinning", tracked=False),
        Stat("agility_bonus", "Agility Bonus", 3, 0, 20, "not in the source (initiative)",
             tracked=False),
        Stat("fatigue", "Fatigue", 0, 0, 20, ST),
    ),
    conditions=(
        _c("Blood Loss", "test Toughness every round; on a failure 1d5 Toughness decay; "
           "0 Toughness: dead (hordes lose 1d5 magnitude)"),
        _c("Blind", "auto-fail BS tests; -30 to WS and Agility tests"),
        _c("Burning", "1d10 energy damage ignoring AP, +1 for every round that passes; test "
           "Willpower to act (hordes lose 1d10 magnitude at the end of each turn)"),
        _c("Crippled", "more than a Half Action: test Toughness or 1d10 damage ignoring AP "
           "and TB"),
        _c("Dazed", "half actions only; enemies +10 to hit"),
        _c("Deaf", "auto-fail tests that rely on hearing"),
        _c("Frenzy", "+10 WS and WP; cannot parry or dodge; attack the nearest foe"),
        _c("Hallucinating", "the Hallucinogenic table for 1d10 rounds"),
        _c("Helpless", "cannot act; WS attacks auto-hit, BS +30, damage dice twice",
           loses_turn=True),
        _c("Immobilised", "no Movement actions; -20 to parries; dodges fail"),
        _c("Prone", "enemies +10 WS, -10 BS (not point blank); -10 WS and -20 Agility"),
        _c("Stunned", "cannot act; enemies +20 to hit", loses_turn=True),
        ConditionDef("Pinned", "a single Half Action; -20 BS; Willpower test at the end of "
                     "the turn to recover", f"{DOC} § Pinning"),
    ),
    initiative=("Initiative (not in the source, which gives none): 1d10 + Agility Bonus, "
                "highest first"),
    hit=(f"Damage minus AP and Toughness Bonus (Burning ignores AP; Crippled's damage ignores "
         f"AP and TB) comes off Wounds; a horde loses magnitude instead ({ST})"),
    notes=("Not in the source: an initiative rule; here 1d10 + Agility Bonus, as in the "
           "d100 games this sheet belongs to.",
           "Not in the source: how much magnitude a hit takes from a horde; here the damage "
           "that gets through.",
           "Not in the source: whether Burning damage is reduced by Toughness Bonus; the "
           "text says it ignores AP only, so TB is subtracted."),
)


initiative = d10_plus("agility_bonus", "1d10 ({d}) + Agility Bonus {v}",
                      "The source has no Surprise rule for initiative: ignored.")


def _pool(c: Combatant) -> str:
    return "magnitude" if c.kind == "horde" else "wounds"


def _lose(sheet: Sheet, c: Combatant, n: int, log: Log) -> Combatant:
    return lose(sheet, c, _pool(c), n, log)


def hit(sheet: Sheet, c: Combatant, e: Hit, rng: random.Random, log: Log) -> Combatant:
    """`location` "crippled": Crippled's own damage (§ Crippled: it ignores AP and TB,
    and if it reduces you to 0 wounds you lose Crippled and gain Blood Loss)."""
    if e.location not in ("", "crippled"):
        raise RulesError(f"a d100 hit has no location {e.location[:20]!r}")
    if e.bypass or e.location == "crippled":
        through = e.damage
        log.step("ignores AP and TB")
    else:
        soak = c.value("ap") + c.value("tb")
        through = max(0, e.damage - soak)
        log.step(f"{e.damage} - AP {c.value('ap')} - TB {c.value('tb')} = {through}")
    c = _lose(sheet, c, through, log)
    if e.location == "crippled" and c.kind == "character" and c.value("wounds") == 0 \
            and c.has("Crippled"):
        log.step(f"Crippled's damage reduced {c.name} to 0 wounds: Crippled is lost, "
                 f"Blood Loss gained ({ST})")
        kept = tuple(x for x in c.conditions if x.name not in ("Crippled", "Blood Loss"))
        c = replace(c, conditions=(*kept, Condition("Blood Loss", None, "", 0)))
    return c


def _crippled(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
              log: Log) -> Combatant:
    """§ Crippled: more than a Half Action on your turn: test Toughness; a failure deals
    1d10 ignoring AP and TB. Hordes instead instantly gain Blood Loss (at the end of
    the turn here: the moment the tracker sees it)."""
    if c.kind == "horde":
        return gained(sheet, c, "Crippled", log)
    held = next((x for x in HALF_ONLY if c.has(x)), "")
    if held or c.counter(HALF_ACTION):
        why = (f"{held}: at most a Half Action" if held else "took at most a Half Action")
        log.step(f"{c.name}, Crippled: {why}, no Toughness test")
        return c
    return ask_or_roll(log, rng, Ask(c.id, CRIPPLED_TEST, 100, f"{c.name}, Crippled, more "
                                     f"than a Half Action: Toughness test, d100 against "
                                     f"{c.value('toughness')} ({ST})"), c,
                       lambda d: _crippled_test(sheet, c, d[0], rng, log))


def _crippled_test(sheet: Sheet, c: Combatant, rolled: int, rng: random.Random,
                   log: Log) -> Combatant:
    t = c.value("toughness")
    ok = _passes(rolled, t)
    log.step(f"{c.name}, Crippled, more than a Half Action: Toughness test {rolled} against "
             f"{t}: " + ("passed" if ok else "failed"))
    log.note("Crippled tests only a turn of more than a Half Action: if this one was less, "
             "Undo, tick 'Only a Half Action this turn' and press Next turn again.")
    if ok:
        return c
    return ask_or_roll(log, rng, Ask(c.id, CRIPPLED_DAMAGE, 10, f"{c.name} failed: 1d10 "
                                     f"damage, ignoring AP and TB ({ST})"), c,
                       lambda d: _crippled_damage(sheet, c, d[0], log))


def _crippled_damage(sheet: Sheet, c: Combatant, d: int, log: Log) -> Combatant:
    log.step(f"1d10 ({d}) damage, ignoring AP and TB")
    return hit(sheet, c, Hit(c.id, d, location="crippled"), random.Random(0), log)


def _passes(rolled: int, target: int) -> bool:
    """A test passed: the d100.degrees calculator's own rule (its "Success" is degrees > 0),
    without the calculator's exact odds of every roll, which a fold never shows (a fifth
    of a 5,000-event d100 replay, issue 24)."""
    return degrees(target, rolled) > 0


def end_turn(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
             log: Log) -> Combatant:
    burning = c.has("Burning")
    if burning:
        # the rounds passed are kept with the combatant: its answer may come a round later
        extra = enc.round - burning.since
        burnt = c.with_counter(BURNING_SINCE, extra) if log.asking else c
        what = ("a horde loses 1d10 magnitude" if c.kind == "horde" else
                f"1d10 energy damage +{extra} for the rounds passed, ignoring AP")
        c = ask_or_roll(log, rng, Ask(c.id, BURNING_DAMAGE, 10, f"{c.name} burns: {what} "
                                      f"(line 48, {ST})"), burnt,
                        lambda d: _burn(sheet, c, d[0], extra, log))
    b = c
    if b.has("Blood Loss"):
        c = ask_or_roll(log, rng, Ask(b.id, BLOOD_LOSS_TEST, 100, f"{b.name}, Blood Loss: "
                                      f"Toughness test, d100 against {b.value('toughness')} "
                                      f"({ST})"), b,
                        lambda d: _blood_loss(sheet, b, d[0], rng, log))
    if c.has("Crippled"):
        c = _crippled(sheet, c, enc, rng, log)
    p = c
    if p.has("Pinned"):
        c = ask_or_roll(log, rng, Ask(p.id, PINNED_TEST, 100, f"{p.name}, Pinned: Willpower "
                                      f"test, d100 against {p.value('willpower')} to recover "
                                      f"({DOC} § Pinning)"), p,
                        lambda d: _pinned(p, d[0], log))
    return c


def _burn(sheet: Sheet, c: Combatant, d: int, extra: int, log: Log) -> Combatant:
    """§ Burning (line 48): 1d10 energy damage ignoring AP, +1 for every round that passes;
    a horde loses 1d10 magnitude."""
    c = replace(c, counters=tuple(x for x in c.counters if x[0] != BURNING_SINCE))
    if c.kind == "horde":
        log.step(f"{c.name} burns: a horde loses 1d10 ({d}) magnitude")
        return _lose(sheet, c, d, log)
    n = max(0, d + extra - c.value("tb"))
    log.step(f"{c.name} burns: 1d10 ({d}) +{extra} for the rounds passed, ignoring AP, "
             f"- TB {c.value('tb')} = {n}")
    return _lose(sheet, c, n, log)


def _blood_loss(sheet: Sheet, c: Combatant, rolled: int, rng: random.Random,
                log: Log) -> Combatant:
    t = c.value("toughness")
    ok = _passes(rolled, t)
    log.step(f"{c.name}, Blood Loss: Toughness test {rolled} against {t}: "
             + ("passed" if ok else "failed"))
    if ok:
        return c
    what = "magnitude" if c.kind == "horde" else "Toughness decay"
    return ask_or_roll(log, rng, Ask(c.id, BLOOD_LOSS_DECAY, 5, f"{c.name} failed: 1d5 "
                                     f"{what} ({ST})"), c,
                       lambda d: _decay(sheet, c, d[0], log))


def _decay(sheet: Sheet, c: Combatant, d: int, log: Log) -> Combatant:
    if c.kind == "horde":
        log.step(f"a horde loses 1d5 ({d}) magnitude")
        return _lose(sheet, c, d, log)
    t = c.value("toughness")
    c = set_value(sheet, c, "toughness", t - d, log)
    log.step(f"1d5 ({d}) Toughness decay: {t} → {c.value('toughness')}"
             + (": 0 Toughness, dead" if c.value("toughness") == 0 else ""))
    return c


def _pinned(c: Combatant, rolled: int, log: Log) -> Combatant:
    w = c.value("willpower")
    ok = _passes(rolled, w)
    log.step(f"{c.name}, Pinned: Willpower test {rolled} against {w}: "
             + ("recovers" if ok else "still Pinned"))
    log.note("Pinning: the +30 for not being shot at or being in cover is not applied "
             "here; clear Pinned by hand if it applies.")
    if ok:
        c = replace(c, conditions=tuple(x for x in c.conditions if x.name != "Pinned"))
    return c


def answer(sheet: Sheet, c: Combatant, name: str, faces: tuple[int, ...], enc: Encounter,
           rng: random.Random, log: Log) -> Combatant:
    (d,) = faces
    if name == BLOOD_LOSS_TEST:
        return _blood_loss(sheet, c, d, rng, log)
    if name == BLOOD_LOSS_DECAY:
        return _decay(sheet, c, d, log)
    if name == CRIPPLED_TEST:
        return _crippled_test(sheet, c, d, rng, log)
    if name == CRIPPLED_DAMAGE:
        return _crippled_damage(sheet, c, d, log)
    if name == PINNED_TEST:
        return _pinned(c, d, log)
    if name == BURNING_DAMAGE:
        return _burn(sheet, c, d, c.counter(BURNING_SINCE), log)
    raise RulesError(f"the d100 game asks for no roll called {name[:40]!r}")


def gained(sheet: Sheet, c: Combatant, name: str, log: Log) -> Combatant:
    """§ Crippled (line 49): "Hordes instead instantly gain the Blood Loss status"."""
    if name == "Crippled" and c.kind == "horde" and not c.has("Blood Loss"):
        log.step(f"{c.name} is a Crippled horde: it gains Blood Loss at once ({ST})")
        c = replace(c, conditions=(*c.conditions, Condition("Blood Loss", None, "", log.round)))
    return c


def out(c: Combatant) -> str:
    if c.value("toughness") == 0 and c.has("Blood Loss"):
        return "Dead"
    if c.kind == "horde" and c.value("magnitude") == 0:
        return "Broken up"
    return ""


def bring_back(sheet: Sheet, c: Combatant, log: Log) -> Combatant:
    for key in ("toughness", "magnitude"):
        if c.value(key) == 0 and out(c):
            c = set_value(sheet, c, key, 1, log)
            log.step(f"the GM's call: {sheet.stat(key).label} 0 → 1")
    return c


def status(c: Combatant) -> tuple[str, ...]:
    out = []
    if c.value("toughness") == 0 and c.has("Blood Loss"):
        out.append("Dead (Blood Loss)")
    if c.kind == "horde" and c.value("magnitude") == 0:
        out.append("Broken up (magnitude 0)")
    if c.kind == "character" and c.value("wounds") == 0:
        out.append("No Wounds left")
    return tuple(out)


RULES = Rules(SHEET, initiative, hit, status, end_turn=end_turn, answer=answer, out=out,
              bring_back=bring_back, gained=gained, apply=APPLY, actor=ACTOR, target=TARGET)
