"""The data the build extracts from sources/, as shipped inside the package.

`rules_pkg/data/<game>.json` is written by `make data` (scripts/extract) and
committed as the reviewed golden output; rules read tables from it, never
re-typed. Loaded lazily so `import rules_pkg` stays fast.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
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


# -- prose: the text of a section, and numbers the rules read from it -----------------------------
def _texts(blocks: Iterable[dict[str, Any]]) -> Iterable[str]:
    for b in blocks:
        if b["type"] == "paragraph":
            yield b["text"]
        elif b["type"] == "list":
            stack = list(b["items"])
            while stack:
                it = stack.pop(0)
                yield it["text"]
                stack[:0] = it.get("children", [])
        elif b["type"] == "table":
            for r in b["rows"]:
                yield " ".join(r["cells"])


def _sections(ss: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for s in ss:
        yield s
        yield from _sections(s.get("sections", []))


@cache
def section_text(game: str, section_id: str) -> str:
    """All text of a section and its subsections, whitespace normalised."""
    for s in _sections(document(game)["sections"]):
        if s["id"] == section_id:
            parts = list(_texts(s.get("blocks", [])))
            parts += [t for sub in _sections(s.get("sections", []))
                      for t in _texts(sub.get("blocks", []))]
            return re.sub(r"\s+", " ", " ".join(parts).replace("\u00a0", " "))
    raise RulesError(f"{game} data: no section {section_id!r}")


def prose_number(game: str, section_id: str, pattern: str, group: int = 1) -> int:
    """A number the source writes in prose, found by a regex in its section: a changed
    source fails here, loudly, naming the section and the words it looked for."""
    m = re.search(pattern, section_text(game, section_id), re.IGNORECASE)
    if not m:
        raise RulesError(f"{game} data: {pattern!r} not found in § {section_id}")
    return int(m.group(group))


# -- declared reads: a number the rules take from the source's prose -------------------------
@dataclass(frozen=True)
class Prose:
    """A number the source writes in prose, declared once where the rule uses it: the
    section and the words around it (a regex whose groups are the number, or N and sides
    of NdS dice). Every declaration is listed in SPECS, so one test reads them all against
    the data (tests/rules/test_specs.py) and a changed source fails there, by name."""

    game: str
    section: str
    pattern: str
    group: int = 1

    def read(self) -> int:
        return prose_number(self.game, self.section, self.pattern, self.group)

    def read_dice(self) -> tuple[int, int]:
        """(N, sides) of the NdS the pattern's two groups find."""
        return (prose_number(self.game, self.section, self.pattern, 1),
                prose_number(self.game, self.section, self.pattern, 2))


SPECS: list[Prose] = []  # every Prose declared (games are imported by registry.calculators)


def prose(game: str, section: str, pattern: str, group: int = 1) -> Prose:
    """Declare a number read from the source's prose (see Prose); listed in SPECS."""
    spec = Prose(game, section, pattern, group)
    SPECS.append(spec)
    return spec
