"""An encounter as a file: the event log with a format name and a schema version.

An older schema is migrated step by step (MIGRATIONS[n] turns version n into n + 1), so
an encounter kept on a phone survives a new build. A foreign, newer or corrupted file
raises a RulesError that says what is wrong; nothing is half-read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import RulesError
from ..untrusted import clean_name, json_depth
from . import log as stored
from .fold import fold, rules_for
from .limits import LIMITS, MAX_EVENTS, MAX_FILE

FORMAT = "tableside-encounter"
SCHEMA = 2
Doc = dict[str, Any]


def _fnv(text: str) -> int:
    """FNV-1a, 32 bits: a short, stable digest (hashlib is not in the trimmed runtime)."""
    h = 0x811C9DC5
    for b in text.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def _ids_for_schema_1(doc: Doc) -> Doc:
    """Schema 2 gives every event an id (log.py). A schema-1 event gets one from its place
    and its content, so the same old file always migrates to the same ids."""
    events = doc.get("events")
    if isinstance(events, list):
        doc["events"] = [
            {**e, "eid": f"m{i + 1}-{_fnv(json.dumps(e, sort_keys=True)):08x}"}
            if isinstance(e, dict) and "eid" not in e else e for i, e in enumerate(events)]
    return doc


MIGRATIONS: dict[int, Callable[[Doc], Doc]] = {1: _ids_for_schema_1}


def dump(game: str, log: Sequence[stored.Logged], name: str = "") -> str:
    rules_for(game)
    return json.dumps({"format": FORMAT, "schema": SCHEMA, "game": game, "name": name,
                       "events": stored.to_dicts(log)}, ensure_ascii=False)


def migrate(doc: Doc) -> Doc:
    version = doc.get("schema")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise RulesError("the file has no valid schema version")
    if version > SCHEMA:
        raise RulesError(f"the file was made by a newer Tableside (schema {version}; this "
                         f"one reads up to {SCHEMA}): reload the site to update it")
    while version < SCHEMA:
        if version not in MIGRATIONS:
            raise RulesError(f"no migration from schema {version}")
        doc = MIGRATIONS[version](dict(doc))
        version += 1
        doc["schema"] = version
    return doc


def load(text: str, replay: bool = True) -> tuple[str, str, list[stored.Logged]]:
    """(game, name, stored log) from a file's text; the log is also folded, to check it
    (`replay=False`: the caller folds it, as the page does in slices: api.py)."""
    game, name, _, log = read(text)
    if replay:  # a log that cannot be replayed is rejected here, not on the page
        fold(game, [x.event for x in stored.effective(log)])
    return game, name, log


def read(text: str) -> tuple[str, str, Any, list[stored.Logged]]:
    """(game, name, the events as the file has them (before any migration), stored log)
    from a file's text, every event checked, nothing folded."""
    if not isinstance(text, str):
        raise RulesError("an encounter file is text")
    if len(text) > MAX_FILE:
        raise RulesError(f"the file is too large: {len(text):,} characters, where an encounter "
                         f"file is at most {MAX_FILE:,} (the limit of a fight's file)")
    if json_depth(text) > LIMITS.depth:
        raise RulesError(f"the file is nested too deeply (more than {LIMITS.depth} levels of "
                         "[ and {): it is not an encounter file")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise RulesError(f"the file is not valid JSON ({str(e)[:80]})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RulesError("this is not a Tableside encounter file (no \"format\": "
                         f"\"{FORMAT}\")")
    as_written = doc.get("events")
    doc = migrate(doc)
    game = doc.get("game")
    if not isinstance(game, str):
        raise RulesError("the file does not say which game it is for")
    rules_for(game)
    name = doc.get("name", "")
    if not isinstance(name, str) or len(name) > LIMITS.encounter_name:
        raise RulesError("the encounter's name must be text of at most "
                         f"{LIMITS.encounter_name} characters")
    name = clean_name(name)
    raw = doc.get("events")
    if not isinstance(raw, list):
        raise RulesError("the file has no list of events")
    log = stored.parse(raw, MAX_EVENTS)
    stored.check_undo(log)
    return game, name, as_written, log
