"""One JSON entry point for the page (calculators/python/bridge.py hands it to JavaScript).

A request is {"op": ..., ...}; the reply is {"ok": true, ...} or {"ok": false, "kind":
"rules", "message": ...} for anything the player can fix (never a traceback); when an event
of the log was refused, also "event" (its index in the log as folded, from 0), "eid" (its
id) and "reason" (the message without "event N (kind): ").
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import EventError, RulesError
from ..untrusted import clean_name, json_depth
from . import apply, codec, held, merge, odds, replay, view
from . import events as ev
from . import log as stored
from .fold import rules_for
from .limits import LIMITS, MAX_FILE
from .model import Encounter
from .presets import inputs_for

MAX_REQUEST = MAX_FILE + 10_000
HISTORY_SENT = 60  # the newest history entries a reply carries (the state stays small)
MAX_BUDGET_MS = 10_000


def _stored(raw: Any) -> list[stored.Logged]:
    log = replay.parse(raw)
    stored.check_undo(log)
    return log


def _fold(game: str, log: list[stored.Logged]) -> Encounter:
    return replay.replay(game, stored.effective(log)).enc


def _budget(req: dict[str, Any]) -> float | None:
    ms = req.get("budget_ms")
    if ms is None:
        return None
    if isinstance(ms, bool) or not isinstance(ms, int) or not 1 <= ms <= MAX_BUDGET_MS:
        raise RulesError(f"budget_ms is a whole number of 1 to {MAX_BUDGET_MS}")
    return ms / 1000


def _game(req: dict[str, Any]) -> str:
    game = req.get("game")
    if not isinstance(game, str):
        raise RulesError("which game?")
    rules_for(game)
    return game


def handle(req: dict[str, Any]) -> dict[str, Any]:
    try:
        return _handle(req)
    except held.Resend:  # the held log is not the page's (held.py): it sends it whole
        return {"resend": True}


def _handle(req: dict[str, Any]) -> dict[str, Any]:
    op = req.get("op")
    if op == "sheet":
        return {"sheet": rules_for(_game(req)).sheet_dict()}
    if op == "limits":
        return {"limits": LIMITS.to_dict()}
    if op == "fold":
        # with budget_ms, the fold stops when it is spent: "done" false, the state so far
        # ("folded" of "total" events); the page asks again to bring it up to date. With
        # "hold", the log is the one held (held.py): only what is new is sent
        game = _game(req)
        h = held.read(req)
        r = replay.replay(game, h.live, _budget(req))
        reply: dict[str, Any] = {"undo": h.undo, "redo": h.redo, "done": r.done,
                                 "folded": r.folded, "total": r.total}
        if r.done or req.get("partial_state", True) is not False:  # else progress only
            reply["state"] = state = view.state_dict(r.enc, HISTORY_SENT)
            for entry in state["history"]:  # which stored event each line tells of
                entry["eid"] = h.live[entry["event"]].eid
        return reply
    if op == "propose":
        game = _game(req)
        calc = str(req.get("calc", ""))
        if calc.split(".", 1)[0] != game:
            return {"proposals": []}
        props = apply.proposals(calc, req.get("inputs") or {}, req.get("result") or {})
        return {"proposals": [{"label": p.label, "event": ev.to_dict(p.event), "role": p.role}
                              for p in props]}
    if op == "inputs":
        game = _game(req)
        enc = replay.replay(game, held.read(req).live).enc
        actor, target = req.get("actor"), req.get("target")
        a = enc.combatant(actor) if isinstance(actor, str) and actor else None
        t = enc.combatant(target) if isinstance(target, str) and target else None
        calcs = req.get("calcs")
        if isinstance(calcs, list):  # several calculators, one fold
            return {"inputs": {str(c): inputs_for(str(c), a, t) for c in calcs[:100]}}
        return {"inputs": inputs_for(str(req.get("calc", "")), a, t)}
    if op == "merge":
        return _merge(_game(req), req)
    if op in ("odds", "odds_form"):  # the odds panel (#28): before the roll, per target
        game = _game(req)
        enc = replay.replay(game, held.read(req).live).enc
        return odds.handle(op, game, enc, req)
    if op == "export":
        game = _game(req)
        name = req.get("name", "")
        if not isinstance(name, str):
            raise RulesError("the encounter's name must be text")
        return {"text": codec.dump(game, _stored(req.get("events")),
                                   clean_name(name)[:LIMITS.encounter_name])}
    if op == "name":  # a name typed for an encounter, as it is kept
        text = req.get("text", "")
        return {"name": clean_name(text)[:LIMITS.encounter_name] if isinstance(text, str)
                else ""}
    if op == "import":
        text = req.get("text")
        # checked event by event here; folded by the page in slices (op fold, budget_ms)
        game, name, raw, log = codec.read(text if isinstance(text, str) else "")
        # "known": the page has these events (its stored copy): unchanged (as they are
        # written out: log.written_as), not written out nor sent back
        same = req.get("known") is True and stored.written_as(raw, log)
        events = raw if same else stored.to_dicts(log)
        reply = {"game": game, "name": name, "schema": codec.SCHEMA, "events": events}
        name_held = held.name_of(req)
        if name_held is not None:  # held for the folds that follow (held.py), which
            held.hold(name_held, held.Held.of(tuple(log)))  # send only what is new
        else:  # the page will send these events back whole: read once
            replay.remember(events, log)
        if same:
            reply.update(events=None, same=True)
        return reply
    raise RulesError(f"unknown request {str(op)[:20]!r}")


def _merge(game: str, req: dict[str, Any]) -> dict[str, Any]:
    """Another copy of this fight merged in: the union, or one side's events undone."""
    which = req.get("keep", "both")
    if which not in merge.KEEP:
        raise RulesError(f"keep must be one of {', '.join(merge.KEEP)}")
    new_eid = req.get("eid", "")
    if which != "both" and not (isinstance(new_eid, str) and stored.EID.fullmatch(new_eid)
                                and len(new_eid) <= 40):
        raise RulesError("choosing a side needs a new event id (eid)")
    ours, theirs = _stored(req.get("events")), _stored(req.get("other"))
    merged = merge.merge(game, ours, theirs)
    log = merge.keep(merged, which, new_eid) if which != "both" else list(merged.log)
    if len(log) > LIMITS.events:
        raise RulesError(f"together the two copies have more than {LIMITS.events:,} events "
                         "(the limit of one fight)")
    said: dict[str, str] = {}
    for side in (ours, theirs):  # what each event did, in the copy that made it
        live = stored.effective(side)
        for h in replay.replay(game, live).enc.history:
            said[live[h.event].eid] = h.summary
    reply: dict[str, Any] = {
        "events": stored.to_dicts(log), "clash": merged.clash,
        "ours": [{"eid": e, "summary": said.get(e, "(undone)")} for e in merged.ours],
        "theirs": [{"eid": e, "summary": said.get(e, "(undone)")} for e in merged.theirs]}
    try:
        reply["state"] = view.state_dict(_fold(game, log))
    except RulesError as e:  # both sides' events do not fit together: the table chooses
        reply["clash"] = True
        reply["problem"] = str(e)
    return reply


def handle_json(request: str) -> str:
    """handle() over JSON text; always returns JSON, never raises."""
    try:
        if len(request) > MAX_REQUEST:
            raise RulesError("the request is too large")
        if json_depth(request) > LIMITS.depth:
            raise RulesError(f"the request is nested too deeply (more than {LIMITS.depth} "
                             "levels of [ and {)")
        req = json.loads(request)
        if not isinstance(req, dict):
            raise RulesError("a request is a JSON object")
        reply: dict[str, Any] = {"ok": True, **handle(req)}
    except EventError as e:  # which event, and why: the page says only why of a tap's
        reply = {"ok": False, "kind": "rules", "message": str(e), "event": e.index,
                 "eid": e.eid, "reason": e.reason}
    except RulesError as e:
        reply = {"ok": False, "kind": "rules", "message": str(e)}
    except ValueError as e:
        reply = {"ok": False, "kind": "rules", "message": f"not valid JSON ({str(e)[:60]})"}
    except Exception as e:  # a bug: keep the page usable, say so briefly
        reply = {"ok": False, "kind": "error", "message": "encounter error",
                 "detail": f"{type(e).__name__}: {str(e)[:200]}"}
    return json.dumps(reply, ensure_ascii=False)
