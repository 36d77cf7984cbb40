"""The horizon-wiki dialect (scripts/extract/horizon/) on small fixtures and on the
real export, sources/horizon-out-of-the-ashes-combat.txt (known answers read off it)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scripts.extract.horizon import cells_of, extract, fits, read_hints, segment_header, shape
from scripts.extract.model import Document, Section, Table
from scripts.extract.serialize import to_json

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "sources/horizon-out-of-the-ashes-combat.txt"
FIXTURES = ROOT / "tests" / "fixtures" / "extract" / "horizon-wiki"
HINTS: dict[str, Any] = tomllib.loads(
    (ROOT / "scripts" / "hints" / "horizon-out-of-the-ashes-combat.toml").read_text("utf-8"))


@pytest.fixture(scope="module")
def doc() -> Document:
    return extract((ROOT / SOURCE).read_text("utf-8"), SOURCE, HINTS)


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return (ROOT / SOURCE).read_text("utf-8").split("\n")


def walk(sections: tuple[Section, ...]) -> list[Section]:
    out: list[Section] = []
    for s in sections:
        out.append(s)
        out.extend(walk(s.sections))
    return out


def tables(d: Document) -> dict[str, Table]:
    return {b.id: b for s in walk(d.sections) for b in s.blocks if isinstance(b, Table)}


def lint_at(d: Document, line: int) -> list[str]:
    return [x.message for x in d.lint if x.line == line]


# --- fixtures: each layout, small .txt -> reviewed .json ---------------------------------


@pytest.mark.parametrize("name", ["ap-profile", "banded-profile", "structure"])
def test_fixture_matches_reviewed_json(name: str) -> None:
    source = f"tests/fixtures/extract/horizon-wiki/{name}.txt"
    got = to_json(extract((ROOT / source).read_text("utf-8"), source, HINTS))
    assert got == (FIXTURES / f"{name}.json").read_text("utf-8")


def test_ap_fixture_places_a_short_row_by_column_pattern() -> None:
    source = "tests/fixtures/extract/horizon-wiki/ap-profile.txt"
    d = extract((ROOT / source).read_text("utf-8"), source, HINTS)
    t = tables(d)["profile-test-pistol"]
    assert t.header == ("AP", "Damage", "Defense", "Speed", "Range")  # the source's "Speed"
    assert t.rows[3].cells == ("4", "8", "9", "Base", "")  # "Base" fits Move, not Range
    rec = d.records["weapon_profiles"][0]
    assert rec["fields"]["Attacks"] == "3Shots" and rec["magazine"] == "3Shots"
    assert rec["magazine_count"] == 3 and rec["cost"] == "" and rec["cost_bars"] is None
    assert rec["skill"] == "High-Caliber Combat" and rec["category"] == "Pistols"
    assert "Test Pistol: Defense drops from 7 to 3 at AP 3" in lint_at(d, 38)
    assert "Test Pistol: blank field Cost" in lint_at(d, 34)


def test_banded_fixture_anchors_defense_and_reports_ambiguity() -> None:
    source = "tests/fixtures/extract/horizon-wiki/banded-profile.txt"
    d = extract((ROOT / source).read_text("utf-8"), source, HINTS)
    t = tables(d)["profile-test-revolver"]
    assert t.header == ("AP Score", "Lethal Attack", "Special Attack", "Aim Bonus", "Defense")
    assert [r.cells for r in t.rows] == [
        ("0 - 5", "2(3) x2", "5(6) x1", "+1", "10"),
        ("6 - 10", "8", "", "", "15"),
        ("11 - 15", "12", "", "", "20"),
        ("16 - 20", "", "", "", "25"),
        ("21 - 25", "9", "", "", "30"),
    ]
    rec = d.records["weapon_profiles"][0]
    assert rec["layout"] == "banded" and rec["move"] == "-5m" and rec["reload_count"] == 2
    amb = [m for m in lint_at(d, 33) if "could be 'Lethal Attack' or 'Special Attack'" in m]
    assert amb and "'9' (line 36)" in amb[0]
    assert any("drops from 12 to 9" in m for m in lint_at(d, 36))


# --- the real document ------------------------------------------------------------------

PROFILES = [  # (name, tier, category, layout) in document order, read off the source
    ("Rusty Pistol", 1, "Pistols", "banded"), ("Light Combat Pistol", 2, "Pistols", "ap"),
    ("Heavy Combat Pistol", 3, "Pistols", "ap"), ("Hand Cannon", 4, "Pistols", "ap"),
    ("Rusty Shotgun", 1, "Shotguns", "ap"), ("Light Combat Shotgun", 2, "Shotguns", "ap"),
    ("Heavy Combat Shotgun", 3, "Shotguns", "ap"), ("Tactical Flak Cannon", 4, "Shotguns", "ap"),
    ("Rusty Hunting Rifle", 1, "Sniper Rifles", "ap"),
    ("Light Precision Rifle", 2, "Sniper Rifles", "ap"),
    ("Heavy Precision Rifle", 3, "Sniper Rifles", "ap"),
    ("Precision Long-Cannon", 4, "Sniper Rifles", "ap"),
    ("Rusty Assault Rifle", 1, "Assault Rifles", "banded"),
    ("Light Assault Rifle", 2, "Assault Rifles", "ap"),
    ("Heavy Assault Rifle", 3, "Assault Rifles", "ap"),
    ("Tactical Auto-Cannon", 4, "Assault Rifles", "ap"),
    ("Rusty SAW (Squad Assault Weapon)", 1, "Machine Guns", "ap"),
    ("LMG (Light Machine Gun)", 2, "Machine Guns", "ap"),
    ("HMG (Heavy Machine Gun)", 3, "Machine Guns", "ap"),
    ("Tactical Vulcan", 4, "Machine Guns", "ap"),
    ("Rusty SMG", 1, "SMGs (Sub-Machine Guns)", "ap"),
    ("Light Combat SMG", 2, "SMGs (Sub-Machine Guns)", "ap"),
    ("Heavy Combat SMG", 3, "SMGs (Sub-Machine Guns)", "ap"),
    ("Micro Minigun", 4, "SMGs (Sub-Machine Guns)", "ap"),
    ("Scrap Grenade", 1, "Grenades", "ap"), ("Light Military Grenade", 2, "Grenades", "ap"),
    ("Heavy Military Grenade", 3, "Grenades", "ap"),
    ("H.O.L.Y. (High-explosive, Omni-directional, Lacerating Yield) Grenade", 4, "Grenades", "ap"),
    ("Rusty Weapon", 1, "Melee", "ap"), ("Simple Weapon", 2, "Melee", "ap"),
    ("Refined Weapon", 3, "Melee", "ap"), ("Advanced Weapon", 4, "Melee", "ap"),
    ("Kick-Boxing", 1, "Unarmed", "ap"), ("Silat", 2, "Unarmed", "ap"),
    ("LINE", 3, "Unarmed", "ap"), ("Krav Maga", 4, "Unarmed", "ap"),
]
SKILL = {"Pistols": "High-Caliber Combat", "Shotguns": "High-Caliber Combat",
         "Sniper Rifles": "High-Caliber Combat", "Assault Rifles": "Rapid-Fire Combat",
         "Machine Guns": "Rapid-Fire Combat", "SMGs (Sub-Machine Guns)": "Rapid-Fire Combat",
         "Grenades": "Special Combat", "Melee": "Special Combat", "Unarmed": "Special Combat"}
KEYS = {"id", "name", "tier", "group", "category", "skill", "layout", "table", "section", "lines",
        "fields", "magazine", "reload", "weight", "cost", "rarity", "move", "range",
        "magazine_count", "reload_count", "weight_value", "cost_bars"}


def test_36_profiles_with_tier_category_skill(doc: Document) -> None:
    recs = doc.records["weapon_profiles"]
    assert [(r["name"], r["tier"], r["category"], r["layout"]) for r in recs] == PROFILES
    for r in recs:
        assert set(r) == KEYS
        assert r["skill"] == SKILL[r["category"]]
        assert r["table"] == "profile-" + r["id"]
    ts = tables(doc)
    for r in recs:
        assert len(ts[r["table"]].rows) == (20 if r["layout"] == "banded" else 30)


def test_profile_records_normalise_but_keep_fields(doc: Document) -> None:
    recs = {r["id"]: r for r in doc.records["weapon_profiles"]}
    hcp = recs["heavy-combat-pistol"]
    assert (hcp["group"], hcp["magazine"], hcp["reload"], hcp["weight"], hcp["cost"],
            hcp["rarity"]) == ("High-Caliber Weapons", "3Shots", "+2Shots", "3", "18Bar",
                               "Uncommon")
    assert (hcp["magazine_count"], hcp["reload_count"], hcp["weight_value"],
            hcp["cost_bars"]) == (3, 2, 3, 18)
    assert hcp["section"] == "weapon-profile-heavy-combat-pistol-tier-3"
    assert hcp["lines"] == [205, 241]
    hpr = recs["heavy-precision-rifle"]  # "Attacks:" where the others say "Magazine:"
    assert hpr["fields"]["Attacks"] == "4Shots" and "Magazine" not in hpr["fields"]
    assert hpr["magazine"] == "4Shots" and hpr["magazine_count"] == 4
    rar = recs["rusty-assault-rifle"]
    assert rar["fields"]["Move / Stealth"] == "-8" and rar["move"] == "-8"
    assert rar["range"] == "60m" and rar["magazine_count"] == 4 and rar["reload"] == ""
    assert recs["light-military-grenade"]["weight_value"] == 0.5
    assert recs["scrap-grenade"]["cost_bars"] == 0.5
    assert recs["rusty-pistol"]["move"] == "-5m" and recs["rusty-pistol"]["range"] == "15m"
    assert recs["micro-minigun"]["magazine"] == "" and recs["micro-minigun"]["cost_bars"] is None


def test_known_rows(doc: Document) -> None:
    ts = tables(doc)
    hcp = ts["profile-heavy-combat-pistol"]
    assert hcp.header == ("AP", "Damage", "Defense", "Move", "Range")
    assert hcp.rows[16].cells == ("17", "22", "27", "Base", "20") and hcp.rows[16].line == 228
    assert ts["profile-light-combat-pistol"].rows[0].cells == ("1", "5", "6", "-5", "10")
    assert ts["profile-heavy-combat-shotgun"].header[3] == "Speed"
    assert ts["profile-scrap-grenade"].header[1] == "Damage per Target"
    assert ts["profile-scrap-grenade"].rows[0].cells[1] == "25/20/15/10/5"
    assert ts["profile-rusty-weapon"].rows[0].cells == ("1", "1", "1", "-10", "Melee / 3")
    assert ts["profile-micro-minigun"].rows[0].cells == ("1", "13", "11", "-20", "")
    rp = ts["profile-rusty-pistol"]
    assert rp.header == ("AP Score", "Lethal Attack", "Special Attack", "Aim Bonus", "Defense")
    assert rp.rows[0].cells == ("0 - 5", "2(3) x2", "5(6) x1", "+1", "10")
    assert rp.rows[0].line == 144
    assert rp.rows[7].cells == ("36 - 40", "", "", "", "45") and rp.rows[7].line == 151
    assert [r.cells[4] for r in rp.rows] == [str(10 + 5 * i) for i in range(20)]
    rar = ts["profile-rusty-assault-rifle"]
    assert rar.header[2] == "Lethal Attack Damage (Hits)" and rar.notes == ("Combat Test",)
    assert rar.rows[0].cells == ("0 - 5", "-3", "3 (x3)", "2 (x1)", "+1", "5")


def test_every_row_is_its_source_line(doc: Document, lines: list[str]) -> None:
    """Cells are the source's text: the non-blank cells, joined, give the row's line back
    (every table but the die-result one, whose row labels end in a colon in the source)."""
    n = 0
    for t in tables(doc).values():
        for row in t.rows if t.id != "die-result" else ():
            assert row.lines == (row.line, row.line)
            assert " ".join(c for c in row.cells if c) == lines[row.line - 1].strip()
            n += 1
    assert n > 36 * 20


def test_repeated_headings_appear_once(doc: Document, lines: list[str]) -> None:
    secs = walk(doc.sections)
    titles = [s.title for s in secs]
    assert len(titles) == len(set(titles))
    for s in secs:
        if lines.count(s.title) >= 2 and s.title.startswith("Weapon Profile"):
            assert lines[s.lines[0] + 1] == s.title  # the section spans both printings
    assert titles.count("Weapons and Combat Skills") == 1
    top = doc.sections[0]
    assert top.title == "Combat Quick Reference" and doc.title == "Horizon: Out of the Ashes"
    assert [s.title for s in top.sections] == [
        "Priorities… (Lore)", "Running Combat", "Weapon Profiles", "Combat Actions",
        "Special Attack Types", "General Combat Rules"]
    wp = top.sections[2]
    assert [g.title for g in wp.sections] == [
        "High-Caliber Weapons", "Rapid-Fire Weapons", "Special Weapons"]
    assert [c.title for c in wp.sections[2].sections] == ["Grenades", "Melee", "Unarmed"]


def test_rules_tables(doc: Document) -> None:
    ts = tables(doc)
    skills = ts["weapons-and-combat-skills"]
    assert skills.rows[7].cells == ("Melee weapons", "Special Combat", "AGI or STR rank")
    assert doc.records["combat_skills"][5]["category"] == "SMGs"
    die = ts["die-result"]
    assert die.header == ("Die result", "1", "2", "3", "4", "5", "6")
    assert die.rows[0].cells == ("Score", "0", "0", "0", "+1AP", "+1AP", "+2AP")
    end = ts["endurance-move-carry-throw"]
    assert end.rows[-1].cells == ("Bank Vault / Small Gunship", "100AP", "180AP", "300AP")
    wound = ts["wounding-attacks-conditions"]
    assert wound.rows[2].cells[0] == "Shatter Arm" and wound.rows[5].cells[2] == "-15AP"


@pytest.mark.parametrize(("line", "needle"), [
    (150, "Rusty Pistol: Lethal Attack drops from 24 to 16"),
    (145, "could be 'Lethal Attack' or 'Special Attack'"),
    (276, "Hand Cannon: Defense drops from 40 to 35"),
    (276, "Hand Cannon: Damage jumps from 32 to 35"),
    (473, "Rusty Hunting Rifle: Range changes from 200 to 300 at AP 22"),
    (774, "Tactical Auto-Cannon: Speed changes from -10 to -5 at AP 20"),
    (870, "HMG (Heavy Machine Gun): profile has no name line"),
    (906, "Tactical Vulcan (Tier 4) has exactly the same rows as LMG (Light Machine Gun)"),
    (973, "Rusty SMG: Defense drops from 12 to 3"),
    (1007, "Light Combat SMG: Defense drops from 12 to 3"),
    (1041, "Heavy Combat SMG: Defense drops from 12 to 3"),
    (1070, "Micro Minigun: blank fields Attacks, Reload, Weight, Cost, Rarity"),
    (1072, "Micro Minigun: Range is blank in 30 of 30 rows"),
    (1276, "'Rusty Shiv'"),
    (1277, "'Ubiqitous' looks like a misspelling of 'Ubiquitous'"),
    (1355, "Refined Weapon: blank fields"),
    (622, "Move / Stealth '-8' is not one of the moves"),
    (31, "'STEP 1 - THE COMBAT TEST' is empty"),
])
def test_lint_reports_anomalies(doc: Document, line: int, needle: str) -> None:
    assert any(needle in m for m in lint_at(doc, line)), lint_at(doc, line)
    assert all(x.file == SOURCE for x in doc.lint)


def test_lint_leaves_regular_profiles_alone(doc: Document) -> None:
    flagged = {x.table for x in doc.lint if x.table}
    for clean in ("profile-light-combat-pistol", "profile-heavy-combat-pistol",
                  "profile-rusty-shotgun", "profile-krav-maga", "profile-scrap-grenade"):
        assert clean not in flagged


def test_generality_without_hints(lines: list[str]) -> None:
    """No hints: no profiles are recognised, but the text still comes through as sections."""
    d = extract("\n".join(lines), SOURCE, {})
    assert d.records["weapon_profiles"] == []
    assert any(s.title == "Running Combat" for s in walk(d.sections))


# --- helpers -----------------------------------------------------------------------------

TOKEN = st.from_regex(r"[+-]?\d{1,3}(\(\d\))?|Base|Melee|\d+AP|x\d|\(x\d\)|/", fullmatch=True)


@given(st.lists(TOKEN, min_size=1, max_size=8))
def test_cells_round_trip(tokens: list[str]) -> None:
    assert " ".join(cells_of(" ".join(tokens))) == " ".join(tokens)


def test_shapes_and_header_words() -> None:
    assert shape("2(3) x2") == "9(9) x9" and shape("-15") == "-9"
    assert fits("8", {"9(9) x9"}) and not fits("+1", {"9(9) x9"}) and fits("Base", {"Base"})
    h = read_hints(HINTS)
    words = ["Combat", "Test", "AP", "Score", "Initiative", "modifier",
             "Lethal", "Attack", "Damage", "(Hits)"]
    assert segment_header(words, h) == (
        ("AP Score", "Initiative modifier", "Lethal Attack Damage (Hits)"), ("Combat Test",), [])


LINE = st.sampled_from([
    "", "", "Weapon Profile - X (Tier 1)", "Weapon Profile - X (Tier 2)", "X", "Pistols",
    "Magazine: 3Shots Reload: Weight: 3", "Move:", "-5m", "AP Damage Defense Move Range",
    "AP", "Score", "Defense", "1 5 6 -5 10", "2 6", "0 - 5 2(3) x2 5(6) x1 +1 10", "6 - 10 8 15",
    "36 - 40", "  • ITEM", "    • child", "Die result: 1 2", "Score: 0 +1AP",
    "Weapon Skill used Trait Bonus used", "Pistols High-Caliber Combat ACU or AGI rank",
    "RECAP", "Some prose.", "Table of Contents",
])


@given(st.lists(LINE, min_size=1, max_size=40))
def test_any_arrangement_of_export_lines_extracts(lines: list[str]) -> None:
    """Shuffled pieces of the export never crash the dialect, and every row keeps its line."""
    text = "\n".join(lines)
    if not text.strip():
        return
    d = extract(text, "sources/x.txt", HINTS)
    for t in tables(d).values():
        for row in t.rows:
            assert 1 <= row.line <= len(lines)
            assert len(row.cells) == len(t.header) or t.id == "die-result"


def test_lint_row_count_and_duplicate_names_on_an_edited_copy(lines: list[str]) -> None:
    """The export has neither; an edited copy (one row fewer, a name used twice) has both."""
    edited = list(lines)
    assert edited[201] == "30 28 35 Base 30"  # Light Combat Pistol, AP 30 (line 202)
    del edited[201]
    edited = [ln.replace("Silat", "Kick-Boxing") for ln in edited]
    d = extract("\n".join(edited), SOURCE, HINTS)
    assert any("Light Combat Pistol: 29 rows where 33 of the 34 ap profiles have 30" in m
               for m in lint_at(d, 172))
    assert any("weapon name 'Kick-Boxing' is used twice (also line 1430)" in m
               for m in lint_at(d, 1469))
