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


class UniqueIds:
    """Hands out slugs that are unique within one document ('x', 'x-2', 'x-3' …)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def __call__(self, text: str, fallback: str = "section") -> str:
        base = slugify(text, fallback)
        n = self._seen.get(base, 0) + 1
        self._seen[base] = n
        return base if n == 1 else f"{base}-{n}"
