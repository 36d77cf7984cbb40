"""Dialect "cheatsheet-prose" (scripts/extract/cyberpunk.py) on its fixtures and the real sheet.

Known answers are read off sources/cyberpunk-red-combat-cheat-sheet.txt by eye
(`cat -A` shows the separators: " \\u00a0 " runs between the flattened pieces).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scripts.extract import cyberpunk
from scripts.extract.build import walk_tables
from scripts.extract.lines import SourceError
from scripts.extract.model import Document, ListBlock, Paragraph, Section, Table
from scripts.extract.pipeline import load_hints

from .dialect_helpers import check_fixture, source_doc, tables

ROOT = Path(__file__).resolve().parents[2]
STEM = "cyberpunk-red-combat-cheat-sheet"
SOURCE = ROOT / "sources" / f"{STEM}.txt"
LINES = SOURCE.read_text("utf-8").split("\n")
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "extract" / "cheatsheet-prose").glob("*.txt"))
NBSP = " \u00a0 "


@pytest.fixture(scope="module")
def doc() -> Document:
    return source_doc(SOURCE)


def cells(t: Table) -> list[tuple[str, ...]]:
    return [r.cells for r in t.rows]


def find(secs: tuple[Section, ...], title: str) -> Section:
    for s in secs:
        if s.title == title:
            return s
        try:
            return find(s.sections, title)
        except LookupError:
            continue
    raise LookupError(title)


# --- fixtures ----------------------------------------------------------------------


def test_there_are_fixtures() -> None:
    assert len(FIXTURES) >= 1


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture(path: Path) -> None:
    check_fixture(path, cyberpunk.extract)


# --- the real document ---------------------------------------------------------------


def test_section_tree(doc: Document) -> None:
    def tree(secs: tuple[Section, ...]) -> list[Any]:
        return [(s.level, s.title, s.lines[0], tree(s.sections)) for s in secs]

    assert doc.title == "Cyberpunk RED"
    assert doc.game == "cyberpunk_red"
    (top,) = doc.sections
    assert (top.level, top.title, top.lines) == (1, "Combat Cheat sheet", (1, 49))
    assert [(s.title, s.lines[0]) for s in top.sections] == [
        ("Movement", 3), ("Initiative", 7), ("Turn in combat", 11), ("Aimed Shots", 16),
        ("Resolving Ranged Combat", 20), ("Melee combat", 25), ("Other types of damage", 29),
        ("Cover", 33), ("Taking damage", 37), ("Critical Injuries", 42), ("Death Save", 47)]
    sub = {s.title: [c.title for c in s.sections] for s in top.sections}
    assert sub["Resolving Ranged Combat"] == [
        "Auto fire mode", "Suppressive Fire", "Shotgun Shells", "Explosives"]
    assert sub["Melee combat"] == ["Resolving Melee Combat", "Brawling/Grappling", "Choke", "Throw"]
    assert sub["Other types of damage"] == [
        "Being On Fire", "Drowning and Asphyxiation", "Electrocution", "Exposure", "Falling",
        "Poisons and Drugs", "Radiation"]
    assert sub["Cover"] == ["Using Shields", "Human Shields", "Armor"]


def test_page_chrome_after_comments_is_dropped(doc: Document) -> None:
    dumped = json.dumps([str(s) for s in doc.sections])
    assert "Comments" not in dumped and "Please Login" not in dumped


def test_table_ids_and_headers(doc: Document) -> None:
    got = tables(doc)
    assert {k: t.header for k, t in got.items()} == {
        "travel-speed": ("Pace", "MPH", "KPH"),
        "brawling-damage": ("BODY", "Damage"),
        "fire": ("Severity", "Fire", "Damage"),
        "poisons": ("Severity", "Poison", "DV", "On a fail"),
        "drugs": ("Severity", "Drug", "DV", "Effect if failed"),
        # the only header the source writes out, kept as written (stray ")" included)
        "cover-hp": ("Type", "X HP if thick cover", "X HP if thin cover)"),
        "shields": ("Shield", "HP"),
    }


def test_cover_hp(doc: Document) -> None:
    t = tables(doc)["cover-hp"]
    assert t.caption == "Type of Cover"
    assert cells(t) == [("Steel", "50 HP", "25 HP"), ("Stone", "40 HP", "20 HP"),
                        ("Bulletproof Glass", "30 HP", "15 HP"), ("Concrete", "25 HP", "10 HP"),
                        ("Wood", "20 HP", "5HP"), ("Plaster/Form/Plastic", "15 HP", "0 HP")]
    assert {r.line for r in t.rows} == {35}


def test_brawling_damage_exactly_as_the_source(doc: Document) -> None:
    t = tables(doc)["brawling-damage"]
    assert t.caption == "Damage from bare fist"
    assert cells(t) == [("BODY 4 or under", "1d6"), ("5 to 6 or 4 w/ Cyberarms", "2d6"),
                        ("7 to 10", "3d6"), ("11+", "4d6")]
    line = LINES[26]
    for raw in ("BODY 4 or under= 1d6", "5 to 6 or 4 w/ Cyberarms=2d6", "7 to 10= 3d6",
                "11+ =4d6"):
        assert f"{NBSP}{raw}{NBSP}" in line
    assert find(doc.sections, "Brawling/Grappling").blocks[1] is t


def test_fire_poisons_drugs(doc: Document) -> None:
    got = tables(doc)
    assert cells(got["fire"]) == [("Mild", "Wood Fire", "2 Damage direct to HP"),
                                  ("Strong", "Gasoline Fire", "4 Damage direct to HP"),
                                  ("Deadly", "Thermite", "6 Damage direct to HP")]
    assert cells(got["poisons"]) == [
        ("Mild", "Belladonna, Toxic Waste", "DV 11", "1d6 Damage direct to HP"),
        ("Strong", "Arsenic", "DV 13", "2d6 Damage direct to HP"),
        ("Deadly", "Biotoxin, Designer Poison, Stonefish Venom", "DV 15",
         "2d6 Damage direct to HP")]
    assert cells(got["drugs"]) == [("Mild", "Alcohol", "DV 11", "Inebriation"),
                                   ("Strong", "Sodium Pentothal", "DV 13", "Suggestibility"),
                                   ("Deadly", "Designer Drug", "DV 15", "Designer's Intention")]
    assert got["drugs"].caption == "Drugs"
    poisons = find(doc.sections, "Poisons and Drugs")
    assert [b.type for b in poisons.blocks] == ["paragraph", "table", "table"]


def test_travel_speed_and_shields(doc: Document) -> None:
    got = tables(doc)
    assert cells(got["travel-speed"]) == [("Walking", "2.5", "4"), ("Running", "5", "11")]
    assert cells(got["shields"]) == [("Bullet proof shields", "10"),
                                     ("Corpse", "the body stat of the corpse")]
    assert got["shields"].caption == "Type of shields"


def test_every_cell_is_on_its_source_line(doc: Document) -> None:
    for _, t in walk_tables(doc.sections):
        assert 1 <= t.lines[0] <= t.lines[1] <= len(LINES)
        for r in t.rows:
            assert r.lines == (r.line, r.line)
            for c in r.cells:
                assert c and c in LINES[r.line - 1], (t.id, c)
        for h in t.header:
            if t.id == "cover-hp":
                assert h in LINES[t.lines[0] - 1]


def test_lists(doc: Document) -> None:
    aimed = find(doc.sections, "Aimed Shots")
    lead, items = aimed.blocks
    assert isinstance(lead, Paragraph) and lead.text.endswith("aim at the following areas:")
    assert isinstance(items, ListBlock) and not items.ordered
    assert [i.text.split(":")[0] for i in items.items] == ["Head", "Held Item", "Leg"]
    ranged = find(doc.sections, "Resolving Ranged Combat")
    assert isinstance(ranged.blocks[1], ListBlock)
    assert [i.text[:20] for i in ranged.blocks[1].items] == [
        "Attacker's REF+Relev", "If you beat the DV (", "A Defender with a RE"]
    damage = find(doc.sections, "Taking damage")
    steps = damage.blocks[1]
    assert isinstance(steps, ListBlock) and steps.ordered and steps.start == 1
    assert [i.text[:22] for i in steps.items] == [
        "Your Attacker rolls th", "Subtract your armor's ", "If you ended up taking"]


def test_lint(doc: Document) -> None:
    found = {(x.line, x.table, x.row, x.column) for x in doc.lint}
    assert (13, "", -1, -1) in found  # "…any of the following actions:" and no list follows
    assert (31, "poisons", 2, 3) in found  # Deadly 2d6 = Strong 2d6 while DV rises
    assert (35, "cover-hp", -1, 2) in found  # "X HP if thin cover)": unbalanced bracket
    assert (35, "cover-hp", 4, 2) in found  # "5HP" among "N HP"
    assert all(1 <= x.line <= len(LINES) for x in doc.lint)


def test_segments() -> None:
    assert cyberpunk.segments(f"a b{NBSP}C d \u00a0\u00a0 E") == ["a b", "C d", "E"]
    # two spaces after a comma or before a small letter are a typo inside a sentence
    assert cyberpunk.segments("1 square,  not an individual") == ["1 square,  not an individual"]
    assert cyberpunk.segments("one  two   Three") == ["one  two", "Three"]


# --- robustness ----------------------------------------------------------------------

REAL_HINTS = load_hints(STEM)
ALPHABET = list("Ab1: =/()\u00a0 \n.MildStrong DV HP d6")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=400) | st.text(max_size=300))
def test_never_raises(text: str) -> None:
    for hints in ({}, REAL_HINTS):
        try:
            got = cyberpunk.extract(text, "sources/x.txt", hints)
        except SourceError:
            continue  # empty or garbled text: the pipeline's documented refusal
        lines = text.split("\n")
        for _, t in walk_tables(got.sections):
            for r in t.rows:
                assert all(c in lines[r.line - 1] for c in r.cells)


@pytest.mark.parametrize("body", [
    "Mild: " + "DV 1 " * 20_000,
    " " * 100_000 + "x",
    "\u00a0 " * 50_000,
    "Steel: 50 HP/" * 8000,
    "a=" * 50_000,
    "Head: " + "x " * 50_000,
    "Label:" + NBSP + "Mild: Wood= 2 Damage direct to HP " * 3000,
])
# A guard against a hang (runaway regex backtracking), not a speed test: speed is `make bench`'s.
@pytest.mark.timeout(60)
def test_long_lines_finish_quickly(body: str) -> None:
    text = f"Title\n\nHeading:\n\n{body}\n\n{body}\n"
    doc = cyberpunk.extract(text, "s.txt", REAL_HINTS)
    assert doc is not None


def test_a_broken_hint_pattern_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"tables\[0\]\.row "):
        cyberpunk.extract("T\n\nx\n", "s.txt", {"tables": [{"id": "t", "row": "(a"}]})


def test_a_new_sheet_needs_only_hints() -> None:
    """The same layout with other words: a table appears once the hints describe its rows."""
    text = f"Sheet\n\nGear:\n\nPrices go as follows:{NBSP}Knife: 20eb{NBSP}Rifle: 500eb{NBSP}\n"
    plain = cyberpunk.extract(text, "s.txt", {})
    assert tables(plain) == {}
    (gear,) = plain.sections[0].sections
    lead, items = gear.blocks
    assert isinstance(lead, Paragraph) and lead.text == "Prices go as follows:"
    assert isinstance(items, ListBlock)
    assert [i.text for i in items.items] == ["Knife: 20eb", "Rifle: 500eb"]
    hints = {"tables": [{"id": "prices", "header": ["Item", "Cost"],
                         "row": r"(?P<item>[A-Z]\w+): (?P<cost>\d+eb)"}]}
    (t,) = tables(cyberpunk.extract(text, "s.txt", hints)).values()
    assert (t.id, t.header, cells(t), t.lines) == (
        "prices", ("Item", "Cost"), [("Knife", "20eb"), ("Rifle", "500eb")], (5, 5))
