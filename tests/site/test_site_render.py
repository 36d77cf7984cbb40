"""Rendering the model: escaping, abbreviations, page split, cheat-sheet choice, new sources."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from scripts.site import cheatsheet, pages, render

ROOT = Path(__file__).resolve().parents[2]
EVIL_MD = """# Evil <script>alert(1)</script> rules

Text <script>alert(1)</script> with <img src=x onerror=alert(2)> and [click](javascript:alert(3)).

- item <b onmouseover=alert(4)>bold</b>
- [link](javascript:alert(5)) and <a href="javascript:alert(9)">raw</a>

## Table <iframe src=javascript:alert(10)>

| Col <script>alert(6)</script> | B |
|---|---|
| <img src=x onerror=alert(7)> | [x](javascript:alert(8)) |
"""
EVIL_TXT = """Evil plain rules

Plain <script>alert(11)</script> text with <img src=x onerror=alert(12)> inside.

Name\tValue
<svg onload=alert(13)>\t[y](javascript:alert(14))
"""


def test_text_is_escaped_and_markdown_is_safe() -> None:
    assert render.inline_html("<b onclick=x>", "text") == "&lt;b onclick=x&gt;"
    md = render.inline_html("**a** <script>x</script> [l](javascript:alert(1)) [ok](https://e.org)",
                            "markdown")
    assert "<strong>a</strong>" in md and "&lt;script&gt;" in md
    assert "javascript:" not in md.split("[l]")[0] and 'href="javascript' not in md
    assert '<a href="https://e.org">ok</a>' in md


def test_abbreviations_whole_words_outside_tags() -> None:
    terms = {"AP": "Armour Points", "SB": "Strength Bonus"}
    out = render.add_abbr('AP 3, +2AP, APEX, SBX <a href="/AP">AP</a> &amp;AP <i title="AP">SB</i>',
                          terms)
    assert out.count('<abbr class="ts-abbr" title="Armour Points" tabindex="0">AP</abbr>') == 3
    assert "APEX" in out and "SBX" in out and '<a href="/AP">AP</a>' in out
    assert '<i title="AP"><abbr class="ts-abbr" title="Strength Bonus" tabindex="0">SB</abbr></i>' \
        in out
    assert render.add_abbr("&lt;AP&gt;", terms).startswith("&lt;<abbr")


def test_glossary_covers_the_issue_abbreviations() -> None:
    assert {"SP", "DV", "REF", "BODY"} <= set(render.glossary("cyberpunk_red"))
    assert {"AP", "WS", "BS", "DoS", "SB", "DTV", "Pen"} <= set(render.glossary("d100"))
    assert render.glossary("no-such-game") == {}


def test_heading_text_is_escaped_for_markdown() -> None:
    assert render.heading_text("A <b> # [x](y) {#z}") == \
        r"A &lt;b&gt; \# \[x\]\(y\) \{\#z\}"


def _doc(game: str) -> dict:  # type: ignore[type-arg]
    return json.loads((pages.data_dir() / f"{game}.json").read_text("utf-8"))


def test_horizon_weapon_profiles_split_by_category() -> None:
    game = pages.plan_game(_doc("horizon"))
    groups = {it.title: it for it in game.items if isinstance(it, pages.Group)}
    assert "Weapon Profiles" in groups
    paths = {p.path for p in pages.pages_of([groups["Weapon Profiles"]])}
    for cat in ("pistols", "shotguns", "sniper-rifles", "grenades", "melee", "unarmed"):
        assert f"horizon/{cat}.md" in paths
    assert "horizon/running-combat.md" in {p.path for p in pages.pages_of(game.items)}


def test_reference_tables_stay_one_page() -> None:
    # Eight tables, one per subsection: one page, not eight tiny ones.
    game = pages.plan_game(_doc("forbidden_lands"))
    assert [p.path for p in pages.pages_of(game.items)] == [
        "forbidden-lands/combat-order.md", "forbidden-lands/reference-tables.md"]


@pytest.mark.parametrize("game", ["horizon", "cyberpunk_red", "d100", "forbidden_lands", "mecha"])
def test_cheat_sheet_fits_the_budget(game: str) -> None:
    picks, recs = cheatsheet.choose(_doc(game))
    spent = sum(p.cost for p in picks) + sum(cheatsheet.block_cost(t) for t in recs)
    assert 0 < spent <= cheatsheet.BUDGET
    if game == "horizon":  # the profiles' fields, one row per weapon
        assert len(recs) == 1 and len(recs[0]["rows"]) == 36
        assert recs[0]["header"][0] == "Name"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.bad: list[str] = []
        self.inside = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.inside += 1
        if not self.inside:
            return
        if tag in {"script", "iframe", "img", "svg", "object", "embed"}:
            self.bad.append(f"<{tag}>")
        for k, v in attrs:
            if k.startswith("on") or (v or "").strip().lower().startswith("javascript:"):
                self.bad.append(f"<{tag} {k}={v}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.inside -= 1


@pytest.fixture(scope="module")
def evil_site(tmp_path_factory: pytest.TempPathFactory, build_site: Any) -> Path:
    """A new source dropped in: extracted and built with no code change."""
    tmp = tmp_path_factory.mktemp("evil")
    (tmp / "sources").mkdir()
    (tmp / "hints").mkdir()
    (tmp / "sources" / "evil-rules.md").write_text(EVIL_MD, "utf-8")
    (tmp / "sources" / "evil-plain.txt").write_text(EVIL_TXT, "utf-8")
    subprocess.run([sys.executable, "-m", "scripts.extract", "--sources", str(tmp / "sources"),
                    "--out", str(tmp / "data"), "--hints", str(tmp / "hints")],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return build_site(tmp / "site", env={"TABLESIDE_DATA_DIR": str(tmp / "data")})


@pytest.mark.build
@pytest.mark.parametrize("slug", ["evil-rules", "evil-plain"])
def test_injected_html_is_shown_as_text(evil_site: Path, slug: str) -> None:
    files = sorted((evil_site / slug).rglob("index.html"))
    assert files, f"the new source {slug} got no pages"
    seen = ""
    for f in files:
        text = f.read_text("utf-8")
        tags = _Tags()
        tags.feed(text)
        assert tags.bad == [], f"{f}: {tags.bad}"
        seen += text
    assert "&lt;script&gt;alert(" in seen
    assert "onerror=alert(" in seen  # as visible text, inside escaped markup
    assert not re.search(r"<a [^>]*href=\"javascript:", seen)


@pytest.mark.build
def test_new_source_is_on_the_home_page(evil_site: Path) -> None:
    home = (evil_site / "index.html").read_text("utf-8")
    assert 'href="evil-rules/"' in home and 'href="evil-plain/"' in home
    assert (evil_site / "data" / "evil-rules.json").is_file()


def test_env_points_the_hook_at_other_data(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESIDE_DATA_DIR", str(tmp_path))
    assert pages.data_dir() == tmp_path
    monkeypatch.delenv("TABLESIDE_DATA_DIR")
    assert pages.data_dir() == ROOT / "rules_pkg" / "data"
