"""Each game's printed cheat sheet carries the chance to take out a typical target per
attack (issue #28), worked out at build time by the same rules_pkg.takeout as the
Encounter page's odds: the built page's cells are the engine's exact answers, rounded."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rules_pkg import takeout
from scripts.site.cheatsheet_takeout import _pct

SLUGS = {"cyberpunk_red": "cyberpunk-red", "forbidden_lands": "forbidden-lands",
         "d100": "d100", "horizon": "horizon", "mecha": "mecha"}


@pytest.mark.parametrize("game", SLUGS)
def test_the_cheat_sheet_has_the_takeout_table(site_dir: Path, game: str) -> None:
    text = (site_dir / SLUGS[game] / "cheat-sheet" / "index.html").read_text("utf-8")
    assert "Chance to take out a typical target" in text
    table = text[text.index("Chance to take out a typical target"):]
    table = table[table.index("<tbody>"):table.index("</table>")]
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table, re.S)]
    want: list[str] = []
    for t, r in takeout.typical(game):
        want += [t.attack, t.target, _pct(r.p_hit), *(_pct(p) for p in r.out_by)]
    assert cells == want
    assert any(c.endswith("%") and c not in ("0 %", "100 %") for c in cells)  # not all certain
