"""Small text helpers shared by the extraction dialects."""

from __future__ import annotations

import re
import unicodedata


def slugify(text: str, fallback: str = "section") -> str:
    """A stable, ASCII, lower-case id.

    'Weapon Profile - Rusty Pistol (Tier 1)' -> 'weapon-profile-rusty-pistol-tier-1'
    """
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")
    return slug[:80].rstrip("-") or fallback


# Top-level folders and pages of the site itself (docs/, MkDocs, the runtime): no game takes one.
RESERVED_FOLDERS = frozenset({"assets", "data", "search", "index", "404", "sitemap", "sw"})


def game_slug(game: str) -> str:
    """The URL folder of a game's pages: 'cyberpunk_red' -> 'cyberpunk-red'; a reserved name
    ('data') gets a 'game-' prefix. Two games with one folder are refused (the pipeline)."""
    slug = slugify(game, "document")
    return f"game-{slug}" if slug in RESERVED_FOLDERS else slug


class UniqueIds:
    """Hands out slugs that are unique within one document ('x', 'x-2', 'x-3' …).

    Counts the ids already handed out, not the base names: "Attack", "Attack", "Attack 2"
    give attack, attack-2, attack-2-2.
    """

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}  # base slug -> last suffix tried
        self._given: set[str] = set()

    def __call__(self, text: str, fallback: str = "section") -> str:
        base = slugify(text, fallback)
        cand, n = base, self._seen.get(base, 1)
        while cand in self._given:
            n += 1
            cand = f"{base}-{n}"
        self._seen[base] = n
        self._given.add(cand)
        return cand
