"""A Cyberpunk RED fight for the sharing tests (issue 27), written as the page stores it:
`n` combatants, initiative, then `rounds` rounds in which each combatant hits the next
one and every third sets a condition. Every event has a page-style id (`e<ms in base
36>.<random>`, calculators/encounter/store.js newEid), so merges order them by time."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from rules_pkg.encounter import events as ev
from rules_pkg.encounter.api import handle

GAME = "cyberpunk_red"
T0 = 1_800_000_000_000  # ms


def b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out or "0"


def eid(t: int, tag: str) -> str:
    return f"e{b36(T0 + t * 1000)}.{tag}"


def fight(n: int = 10, rounds: int = 5) -> list[dict[str, Any]]:
    log: list[ev.Event] = [ev.AddCombatant(f"c{i}", f"Fighter {i + 1}",
                                           values=(("hp", 40), ("hp_max", 40)))
                           for i in range(n)]
    log.append(ev.RollInitiative(seed=7))
    for r in range(rounds):
        for i in range(n):
            log.append(ev.Hit(f"c{(i + 1) % n}", damage=13, seed=r * n + i))
            if (r * n + i) % 3 == 0:
                log.append(ev.SetCondition(f"c{(i + 2) % n}", "Grappled", rounds=2))
            log.append(ev.NextTurn(seed=r * n + i))
    out = [{"eid": eid(k, f"s{k}"), **ev.to_dict(e)} for k, e in enumerate(log)]
    assert handle({"op": "fold", "game": GAME, "events": out})["state"]["round"] == rounds + 1
    return out


def doc(events: list[dict[str, Any]], name: str = "Bridge fight",
        doc_id: str = "eshare1") -> dict[str, Any]:
    return {"format": "tableside-encounter", "schema": 2, "game": GAME, "name": name,
            "events": events, "id": doc_id, "updated": 1}


def seed_storage(d: dict[str, Any]) -> str:
    """An init script that puts `d` into a fresh context's storage once (the page's keys)."""
    docs = json.dumps({d["id"]: d})
    active = json.dumps({GAME: d["id"]})
    return f"""if (!localStorage.getItem('tableside:encounters')) {{
      localStorage.setItem('tableside:encounters', JSON.stringify({docs}));
      localStorage.setItem('tableside:encounter-active', JSON.stringify({active}));
    }}"""


def code(value: Any) -> str:
    """A fragment's code as share/link.mjs writes it: JSON, raw deflate, base64url."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = c.compress(json.dumps(value).encode()) + c.flush()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")
