"""The d100 game in an encounter: wounds, armour and Toughness Bonus, statuses with
durations, hordes with their magnitude; Burning, Blood Loss and Crippled each turn."""

from __future__ import annotations

import random
from functools import lru_cache

from .. import dice, registry
from ..encounter.common import HALF_ACTION, Log, Rules, d10_plus, lose, set_value
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
from .encounter_apply import ACTOR, APPLY, TARGET

DOC = "d100-combat-circumstances-and-status-effects.txt"
ST = f"{DOC} § Status Effects"
# who can take no more than a Half Action (Dazed, Pinned) or none (Stunned, Helpless)
HALF_ONLY = ("Dazed", "Pinned", "Stunned", "Helpless")
# the rolls a player makes (asked at the moment they happen, #25 item 2)
BLOOD_LOSS_TEST, BLOOD_LOSS_DECAY = "Blood Loss test", "Blood Loss decay"
CRIPPLED_TEST, CRIPPLED_DAMAGE = "Crippled test", "Crippled damage"
PINNED_TEST = "Pinned test"


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
    if log.asking:
        log.ask(Ask(c.id, CRIPPLED_TEST, 100, f"{c.name}, Crippled, more than a Half Action: "
                    f"Toughness test, d100 against {c.value('toughness')} ({ST})"))
        return c
    (rolled,) = dice.roll(rng, 100)
    return _crippled_test(sheet, c, rolled, rng, log)


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
    if log.asking:
        log.ask(Ask(c.id, CRIPPLED_DAMAGE, 10, f"{c.name} failed: 1d10 damage, ignoring AP "
                    f"and TB ({ST})"))
        return c
    (d,) = dice.roll(rng, 10)
    return _crippled_damage(sheet, c, d, log)


def _crippled_damage(sheet: Sheet, c: Combatant, d: int, log: Log) -> Combatant:
    log.step(f"1d10 ({d}) damage, ignoring AP and TB")
    return hit(sheet, c, Hit(c.id, d, location="crippled"), random.Random(0), log)


@lru_cache(maxsize=4096)  # a pure function of its two numbers (the calculator's exact odds
def _passes(rolled: int, target: int) -> bool:  # were worked out again every test: issue 24)
    return bool(registry.get("d100.degrees").run(target=target, rolled=rolled).value("Success"))


def _test(rng: random.Random, target: int) -> tuple[int, bool]:
    (rolled,) = dice.roll(rng, 100)
    return rolled, _passes(rolled, target)


def end_turn(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
             log: Log) -> Combatant:
    horde = c.kind == "horde"
    burning = c.has("Burning")
    if burning:
        (d,) = dice.roll(rng, 10)
        if horde:
            log.step(f"{c.name} burns: a horde loses 1d10 ({d}) magnitude")
            c = _lose(sheet, c, d, log)
        else:
            extra = enc.round - burning.since
            n = max(0, d + extra - c.value("tb"))
            log.step(f"{c.name} burns: 1d10 ({d}) +{extra} for the rounds passed, ignoring AP, "
                     f"- TB {c.value('tb')} = {n}")
            c = _lose(sheet, c, n, log)
    if c.has("Blood Loss"):
        if log.asking:
            log.ask(Ask(c.id, BLOOD_LOSS_TEST, 100, f"{c.name}, Blood Loss: Toughness test, "
                        f"d100 against {c.value('toughness')} ({ST})"))
        else:
            (rolled,) = dice.roll(rng, 100)
            c = _blood_loss(sheet, c, rolled, rng, log)
    if c.has("Crippled"):
        c = _crippled(sheet, c, enc, rng, log)
    if c.has("Pinned"):
        if log.asking:
            log.ask(Ask(c.id, PINNED_TEST, 100, f"{c.name}, Pinned: Willpower test, d100 "
                        f"against {c.value('willpower')} to recover ({DOC} § Pinning)"))
        else:
            (rolled,) = dice.roll(rng, 100)
            c = _pinned(c, rolled, log)
    return c


def _blood_loss(sheet: Sheet, c: Combatant, rolled: int, rng: random.Random,
                log: Log) -> Combatant:
    t = c.value("toughness")
    ok = _passes(rolled, t)
    log.step(f"{c.name}, Blood Loss: Toughness test {rolled} against {t}: "
             + ("passed" if ok else "failed"))
    if ok:
        return c
    if log.asking:
        what = "magnitude" if c.kind == "horde" else "Toughness decay"
        log.ask(Ask(c.id, BLOOD_LOSS_DECAY, 5, f"{c.name} failed: 1d5 {what} ({ST})"))
        return c
    (d,) = dice.roll(rng, 5)
    return _decay(sheet, c, d, log)


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
