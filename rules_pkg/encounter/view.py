"""The folded state as JSON for the page: everything it shows, nothing it must compute."""

from __future__ import annotations

from typing import Any

from .common import bounds
from .fold import rules_for
from .model import Combatant, Encounter
from .turns import out_reason


def combatant_dict(game: str, c: Combatant) -> dict[str, Any]:
    rules = rules_for(game)
    sheet = rules.sheet
    return {
        "id": c.id, "name": c.name, "kind": c.kind, "initiative": c.initiative,
        "values": [{"key": k, "label": sheet.stat(k).label, "value": v,
                    "lo": bounds(sheet, c, sheet.stat(k))[0],
                    "hi": bounds(sheet, c, sheet.stat(k))[1],
                    "tracked": sheet.stat(k).tracked} for k, v in c.values
                   if not sheet.stat(k).kinds or c.kind in sheet.stat(k).kinds],
        "conditions": [{"name": x.name, "rounds": x.rounds, "level": x.level}
                       for x in c.conditions],
        "injuries": list(c.injuries),
        "status": list(rules.status(c)),
        "out": out_reason(rules, c),
        "counters": [list(x) for x in c.counters],
    }


def state_dict(enc: Encounter) -> dict[str, Any]:
    cur = enc.current
    return {
        "game": enc.game, "round": enc.round, "turn": enc.turn,
        "current": cur.id if cur else None,
        "order": list(enc.order),
        "combatants": [combatant_dict(enc.game, c) for c in enc.combatants],
        "asks": [{"id": a.id, "name": a.name, "sides": a.sides, "count": a.count,
                  "says": a.says} for a in enc.asks],
        "history": [{"event": h.event, "round": h.round, "summary": h.summary,
                     "steps": list(h.steps), "notes": list(h.notes)} for h in enc.history],
    }
