"""The players' view of each game (issue 27): a read-only page that draws a fight from its
link's `#view=` fragment (calculators/share/player-view.js), with no calculator on it, so the
rules engine never starts there and the page is drawn at once, online or offline.

pages.py calls `add(site, game_id, slug, title, origin)` beside the Encounter page's.
"""

from __future__ import annotations

import html
from typing import Any

from scripts.site import render

NAV_TITLE = "Player view"


def page_markdown(game: str, title: str) -> str:
    from rules_pkg.encounter import games

    if game not in games.RULES:  # no tracker for this game: nothing to show
        return ""
    front = render.front_matter({"title": render.nav_title(f"{NAV_TITLE}: {title}"),
                                 "search": {"exclude": True}})
    return front + f"""# The fight, as the players see it {{#players}}

<div class="ts-player-view" data-game="{html.escape(game)}">
<p class="ts-pv-wait" role="status">Open the link, or scan the code, that your game master
shows on the Encounter page ("Show the players").</p>
</div>
"""


def add(site: Any, game: str, slug: str, title: str, origin: str) -> list[Any]:
    """Add `<slug>/players.md` through pages.py's `_Site`; the nav entries to add."""
    text = page_markdown(game, title)
    if not text:
        return []
    site.add(f"{slug}/players.md", text, origin)
    return [{NAV_TITLE: f"{slug}/players.md"}]
