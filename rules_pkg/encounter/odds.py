"""The Encounter page's odds panel (issue #28): which attacks a game's odds know, with the
inputs the panel asks for, and the answer per target against the fight as it stands.

The inputs a combatant's sheet gives (`presets.inputs_for`: the attacker's REF, the
target's SP …) are not asked: they come from the sheet, as "Apply" does.
"""

from __future__ import annotations

from typing import Any

from .. import registry, takeout
from ..errors import RulesError
from .model import Combatant, Encounter
from .presets import inputs_for

MAX_TARGETS = 8


def _pick(enc: Encounter, cid: Any) -> Combatant | None:
    return enc.combatant(cid) if isinstance(cid, str) and cid else None


def form(game: str, enc: Encounter, attacker: Any, target: Any) -> list[dict[str, Any]]:
    """Each attack the odds know: its calculator's id and title, how many attacks a turn
    usually has, and the inputs to ask (the sheet fills the rest)."""
    a, t = _pick(enc, attacker), _pick(enc, target)
    out = []
    for calc, way in takeout.attacks_of(game).items():
        c = registry.get(calc)
        filled = set(inputs_for(calc, a, t)) | set(way.sheet_fills)
        asked = [i.to_dict() for i in c.inputs if i.name not in filled]
        asked += [i.to_dict() for i in way.extra]
        out.append({"calc": calc, "title": c.title, "attacks": way.attacks, "inputs": asked,
                    "from_sheet": sorted(filled)})
    return out


def handle(op: str, game: str, enc: Encounter, req: dict[str, Any]) -> dict[str, Any]:
    """The two requests: "odds_form", and "odds" (with `"form": true` also the form, and
    with no attacker or targets chosen yet, the current combatant against the first other:
    the page's first answer needs one request, and no fold of its own before it)."""
    if op == "odds_form":
        return {"attacks": form(game, enc, req.get("attacker"), req.get("target"))}
    first = bool(req.get("form"))
    attacker, targets = req.get("attacker"), req.get("targets")
    if first and not attacker and enc.combatants:
        attacker = (enc.current or enc.combatants[0]).id
    if first and not targets:
        targets = [c.id for c in enc.combatants if c.id != attacker][:1]
    out: dict[str, Any] = {"attacker": attacker or "", "targets": targets or []}
    if first:
        out["attacks"] = form(game, enc, attacker, (targets or [""])[0])
        if not req.get("calc") and out["attacks"]:
            req = {**req, "calc": out["attacks"][0]["calc"], "inputs": {},
                   "attacks": out["attacks"][0]["attacks"]}
    if first and not targets:
        out["odds"] = []
        return out
    out["odds"] = answer(game, enc, {**req, "attacker": attacker, "targets": targets})
    return out


def answer(game: str, enc: Encounter, req: dict[str, Any]) -> list[dict[str, Any]]:
    """The answer for each chosen target (its current tracked state)."""
    calc = str(req.get("calc", ""))
    raw = req.get("inputs") or {}
    if not isinstance(raw, dict):
        raise RulesError("the odds' inputs are a JSON object")
    targets = req.get("targets")
    if not isinstance(targets, list) or not targets:
        raise RulesError("choose at least one target")
    if len(targets) > MAX_TARGETS:
        raise RulesError(f"at most {MAX_TARGETS} targets at once")
    attacks = req.get("attacks", 1)
    a = _pick(enc, req.get("attacker"))
    way = takeout.attacks_of(game).get(calc)
    known = {i.name for i in registry.get(calc).inputs} if way else set()
    out = []
    for tid in targets:
        t = _pick(enc, tid)
        if t is None:
            raise RulesError("a target is a combatant's id")
        sheet = {k: v for k, v in inputs_for(calc, a, t).items() if k in known}
        inputs = {**raw, **sheet}
        plan = takeout.plan_for(game, calc, inputs, a, t)
        out.append(takeout.work_out(plan, t, attacks if isinstance(attacks, int) else 0,
                                    t.id, t.name).to_dict())
    return out
