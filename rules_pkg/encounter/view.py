"""The folded state as JSON for the page: everything it shows, nothing it must compute."""

from __future__ import annotations

from typing import Any

from .common import bounds
from .fold import rules_for
from .model import Combatant, Encounter, Sheet
from .turns import out_reason


def main_value(sheet: Sheet, c: Combatant) -> str:
    """The number that matters at a glance: the sheet's choice, else the first tracked
    value with a real maximum (HP of HP (full)), else the first tracked one."""
    mine = [s for s in sheet.stats if s.tracked and (not s.kinds or c.kind in s.kinds)]
    for s in mine:
        if s.key in sheet.main:
            return s.key
    return next((s.key for s in mine if isinstance(s.hi, str)), mine[0].key if mine else "")


def costs(sheet: Sheet, name: str) -> str:
    """What a condition costs its bearer's turn, as the turn order shows it."""
    d = sheet.find(name)  # None: the table's own condition
    if d is None:
        return ""
    if d.loses_turn:
        return "loses its turn"
    return f"\N{MINUS SIGN}{d.actions} action{'s' if d.actions != 1 else ''}" if d.actions else ""


def combatant_dict(game: str, c: Combatant) -> dict[str, Any]:
    rules = rules_for(game)
    sheet = rules.sheet
    main = main_value(sheet, c)
    out = out_reason(rules, c)
    status = rules.status(c)
    floor = main and c.value(main) <= sheet.stat(main).lo and isinstance(sheet.stat(main).hi, str)
    return {
        "id": c.id, "name": c.name, "kind": c.kind, "initiative": c.initiative,
        "values": [{"key": k, "label": sheet.stat(k).label, "value": v,
                    "lo": bounds(sheet, c, sheet.stat(k))[0],
                    "hi": bounds(sheet, c, sheet.stat(k))[1],
                    # hi is a real maximum (HP of HP (full)), not an input's limit
                    "full": isinstance(sheet.stat(k).hi, str),
                    "tracked": sheet.stat(k).tracked} for k, v in c.values
                   if not sheet.stat(k).kinds or c.kind in sheet.stat(k).kinds],
        "main": main,
        # how it stands, for colour: out of the fight, at the floor, hurt (a status), fine
        "wound": "out" if out else "bad" if floor else "hurt" if status else "ok",
        "conditions": [{"name": x.name, "rounds": x.rounds, "level": x.level,
                        "costs": costs(sheet, x.name)}
                       for x in c.conditions],
        "injuries": list(c.injuries),
        "status": list(status),
        "out": out,
        "counters": [list(x) for x in c.counters],
        "actions": rules.passes(c) if rules.passes else None,  # one per pass of the round
    }


def passes(enc: Encounter) -> int:
    """How many passes this round has (the most actions anyone in the order takes)."""
    rules = rules_for(enc.game)
    if rules.passes is None:
        return 1
    return max((rules.passes(c) for c in enc.combatants if c.id in enc.order), default=1)


def state_dict(enc: Encounter, last: int | None = None) -> dict[str, Any]:
    """The state; `last`: only that many of the newest history entries (`history_total`
    says how many there are), so a long fight's reply stays small."""
    cur = enc.current
    shown = enc.history if last is None else enc.history[-last:] if last else ()
    return {
        "game": enc.game, "round": enc.round, "turn": enc.turn, "pass": enc.pass_no,
        "passes": passes(enc),
        "current": cur.id if cur else None,
        "order": list(enc.order),
        "combatants": [combatant_dict(enc.game, c) for c in enc.combatants],
        "asks": [{"id": a.id, "name": a.name, "sides": a.sides, "count": a.count,
                  "says": a.says} for a in enc.asks],
        "history": [{"event": h.event, "round": h.round, "summary": h.summary,
                     "steps": list(h.steps), "notes": list(h.notes)} for h in shown],
        "history_total": len(enc.history),
    }
