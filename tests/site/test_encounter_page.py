"""The Encounter page of each game (issue 12), in the built site: the tracker's mount point
carries the game's sheet, the game's calculators stand beside it, every page of the game
links to it, and its scripts are shipped (and precached by the service worker)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

import rules_pkg
from rules_pkg.encounter import rules_for

GAMES = {"horizon": "horizon", "forbidden_lands": "forbidden-lands",
         "cyberpunk_red": "cyberpunk-red", "mecha": "mecha", "d100": "d100"}


@pytest.mark.parametrize("game", GAMES)
def test_encounter_page(site_dir: Path, game: str) -> None:
    slug = GAMES[game]
    text = (site_dir / slug / "encounter" / "index.html").read_text("utf-8")
    m = re.search(r'<div class="ts-encounter" data-game="([^"]+)" data-sheet="([^"]+)"', text)
    assert m and m.group(1) == game
    assert json.loads(html.unescape(m.group(2))) == rules_for(game).sheet_dict()
    calcs = re.findall(r'data-calc="([^"]+)"', text)
    assert sorted(calcs) == sorted(c.id for c in rules_pkg.calculators() if c.game == game)
    for page in (site_dir / slug).rglob("index.html"):
        assert re.search(rf'href="[./]*(?:{slug}/)?encounter/"', page.read_text("utf-8")) \
            or page.parent.name == "encounter", page


def test_tracker_scripts_are_shipped_and_precached(site_dir: Path) -> None:
    sw = (site_dir / "sw.js").read_text("utf-8")
    for name in ("encounter/page.js", "encounter/apply.js", "encounter/engine.js",
                 "encounter/panels.js", "encounter/store.js", "encounter/view.js",
                 "encounter/encounter.css"):
        assert (site_dir / "assets" / "calculators" / name).is_file()
        assert f"assets/calculators/{name}" in sw
