"""The folded state as JSON for the page: everything it shows, nothing it must compute."""

from __future__ import annotations

from typing import Any

from .common import bounds
from .fold import rules_for
from .model import Combatant, Encounter


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
        "counters": [list(x) for x in c.counters],
    }


def state_dict(enc: Encounter, last: int | None = None) -> dict[str, Any]:
    """The state; `last`: only that many of the newest history entries (`history_total`
    says how many there are), so a long fight's reply stays small."""
    cur = enc.current
    shown = enc.history if last is None else enc.history[-last:] if last else ()
    return {
        "game": enc.game, "round": enc.round, "turn": enc.turn,
        "current": cur.id if cur else None,
        "order": list(enc.order),
        "combatants": [combatant_dict(enc.game, c) for c in enc.combatants],
        "history": [{"event": h.event, "round": h.round, "summary": h.summary,
                     "steps": list(h.steps), "notes": list(h.notes)} for h in shown],
        "history_total": len(enc.history),
    }
