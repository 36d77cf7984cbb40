"""The data the build extracts from sources/, as shipped inside the package.

`rules_pkg/data/<game>.json` is written by `make data` (scripts/extract) and
committed as the reviewed golden output; rules read tables from it, never
re-typed. Loaded lazily so `import rules_pkg` stays fast.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from .errors import RulesError


@cache
def document(game: str) -> dict[str, Any]:
    try:
        text = resources.files("rules_pkg").joinpath("data", f"{game}.json").read_text("utf-8")
    except FileNotFoundError:
        raise RulesError(f"no extracted data for {game!r}: run `make data`") from None
    doc: dict[str, Any] = json.loads(text)
    return doc


def _walk_tables(sections: list[dict[str, Any]]) -> Any:
    for s in sections:
        for b in s.get("blocks", ()):
            if b.get("type") == "table":
                yield b
        yield from _walk_tables(s.get("sections", []))


@cache
def tables(game: str) -> dict[str, dict[str, Any]]:
    """Every table of a game's document, by table id."""
    return {t["id"]: t for t in _walk_tables(document(game)["sections"])}


def table(game: str, table_id: str) -> dict[str, Any]:
    try:
        return tables(game)[table_id]
    except KeyError:
        raise RulesError(f"no table {table_id!r} in the {game} data") from None


def records(game: str, kind: str) -> list[Any]:
    recs: list[Any] = document(game).get("records", {}).get(kind, [])
    return recs
