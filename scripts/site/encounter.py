"""The Encounter page of each game (issue 12): generated beside the game's other pages.

pages.py calls `add(site, game_id, slug, title, origin)` for each game; it adds
`<slug>/encounter.md` (the tracker's mount point, then the game's calculators, which the
page opens beside the tracker) and the tracker's JavaScript modules, and returns the nav
entry. The tracker itself is calculators/encounter*.js over rules_pkg.encounter.
"""

from __future__ import annotations

import html
import json
from typing import Any

from scripts.site import render
from scripts.site.page_registry import with_registry

NAV_TITLE = "Encounter"


def calculators_for(game: str) -> list[str]:
    """The game's calculators that can change a combatant first, then the others."""
    import rules_pkg
    from rules_pkg.encounter import games

    ids = [c.id for c in rules_pkg.calculators() if c.game == game]
    return sorted(ids, key=lambda i: (i not in games.RULES[game].apply, ids.index(i)))


def page_markdown(game: str, title: str) -> str:
    """The page: the tracker's box carries, as served, the line encounter/page.js draws
    first in an empty fight, in its place and style. It is the largest text of the first
    screen: served, the largest paint (LCP) comes with the HTML; drawn only by the tracker,
    it came after the modules (issue 26's Lighthouse). The tracker's own line, the same
    size, is no larger paint."""
    from rules_pkg.encounter import games

    rules = games.RULES.get(game)
    if rules is None:  # a document with no rules in rules_pkg (a new source): no tracker
        return ""
    sheet = rules.sheet
    calcs = "\n".join(
        f'<div class="ts-calc" data-calc="{html.escape(c)}" data-preset=\'{{}}\'></div>'
        for c in calculators_for(game))
    notes = "\n".join(f"<li>{html.escape(n)}</li>" for n in sheet.notes)
    sheet_json = html.escape(json.dumps(rules.sheet_dict(), ensure_ascii=False))
    front = render.front_matter({"title": render.nav_title(f"{NAV_TITLE}: {title}")})
    return front + f"""# Encounter {{#encounter}}

<div class="ts-encounter" data-game="{html.escape(game)}" data-sheet="{sheet_json}">
<p class="ts-enc-round" role="status">Loading the rules engine…</p>
</div>

<section class="ts-enc-calcs" aria-labelledby="enc-calculators">
<h2 id="enc-calculators">Calculators</h2>
{calcs}
</section>

<details class="ts-enc-about">
<summary>How this tracker follows {html.escape(title)}</summary>
<p>{html.escape(sheet.initiative)}.</p>
<p>{html.escape(sheet.hit)}.</p>
<ul>
{notes}
</ul>
</details>
"""


def add(site: Any, game: str, slug: str, title: str, origin: str) -> list[Any]:
    """Add the game's Encounter page through pages.py's `_Site` (which refuses a second file
    for the same path); the nav entries to add. Its scripts ship with the runtime
    (scripts/site/runtime.py), checked like every calculator file."""
    text = with_registry(page_markdown(game, title))
    if not text:
        return []
    site.add(f"{slug}/encounter.md", text, origin)
    return [{NAV_TITLE: f"{slug}/encounter.md"}]
