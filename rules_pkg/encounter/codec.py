"""An encounter as a file: the event log with a format name and a schema version.

An older schema is migrated step by step (MIGRATIONS[n] turns version n into n + 1), so
an encounter kept on a phone survives a new build. A foreign, newer or corrupted file
raises a RulesError that says what is wrong; nothing is half-read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..errors import RulesError
from . import events as ev
from .fold import MAX_EVENTS, fold, rules_for

FORMAT = "tableside-encounter"
SCHEMA = 1
MAX_FILE = 2_000_000  # characters
Doc = dict[str, Any]
MIGRATIONS: dict[int, Callable[[Doc], Doc]] = {}  # none yet: schema 1 is the first


def dump(game: str, log: list[ev.Event], name: str = "") -> str:
    rules_for(game)
    return json.dumps({"format": FORMAT, "schema": SCHEMA, "game": game, "name": name,
                       "events": [ev.to_dict(e) for e in log]}, ensure_ascii=False)


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


def load(text: str) -> tuple[str, str, list[ev.Event]]:
    """(game, name, events) from a file's text; the log is also folded, to check it."""
    if not isinstance(text, str):
        raise RulesError("an encounter file is text")
    if len(text) > MAX_FILE:
        raise RulesError(f"the file is too large (at most {MAX_FILE // 1000} kB)")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise RulesError(f"the file is not valid JSON ({str(e)[:80]})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RulesError("this is not a Tableside encounter file (no \"format\": "
                         f"\"{FORMAT}\")")
    doc = migrate(doc)
    game = doc.get("game")
    if not isinstance(game, str):
        raise RulesError("the file does not say which game it is for")
    rules_for(game)
    name = doc.get("name", "")
    if not isinstance(name, str) or len(name) > 80:
        raise RulesError("the encounter's name must be text of at most 80 characters")
    raw = doc.get("events")
    if not isinstance(raw, list):
        raise RulesError("the file has no list of events")
    if len(raw) > MAX_EVENTS:
        raise RulesError(f"the file has more than {MAX_EVENTS} events")
    log = [ev.from_dict(r, f"event {i + 1}") for i, r in enumerate(raw)]
    fold(game, log)  # a log that cannot be replayed is rejected here, not on the page
    return game, name, log
