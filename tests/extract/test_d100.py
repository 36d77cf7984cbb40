"""Dialect "space-table" (scripts/extract/d100.py) on its fixtures and on the real d100 source.

Known answers are read off sources/d100-combat-circumstances-and-status-effects.txt by eye.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scripts.extract import d100
from scripts.extract.build import walk_tables
from scripts.extract.lines import SourceError
from scripts.extract.model import Document, Section, Table
from scripts.extract.pipeline import load_hints

from .dialect_helpers import check_fixture, source_doc, tables

ROOT = Path(__file__).resolve().parents[2]
STEM = "d100-combat-circumstances-and-status-effects"
SOURCE = ROOT / "sources" / f"{STEM}.txt"
LINES = SOURCE.read_text("utf-8").split("\n")
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "extract" / "space-table").glob("*.txt"))


@pytest.fixture(scope="module")
def doc() -> Document:
    return source_doc(SOURCE)


def row(t: Table, name: str) -> tuple[str, ...]:
    return next(r.cells for r in t.rows if r.cells[0] == name)


# --- fixtures ----------------------------------------------------------------------


def test_there_are_fixtures() -> None:
    assert len(FIXTURES) >= 1


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture(path: Path) -> None:
    check_fixture(path, d100.extract)


# --- the real document ---------------------------------------------------------------


def test_section_tree(doc: Document) -> None:
    def tree(secs: tuple[Section, ...]) -> list[Any]:
        return [(s.level, s.title, s.lines[0], tree(s.sections)) for s in secs]

    assert doc.title == "d100 Combat Circumstances and Status Effects"
    assert doc.game == "d100"
    assert tree(doc.sections) == [(1, "Combat Circumstances And Status Effects", 1, [
        (2, "Combat Circumstances", 3, [(3, "Ranged Attack Distance", 25, []),
                                        (3, "Status Modifiers", 32, [])]),
        (2, "Status Effects", 43, []),
    ])]


def test_tables_headers_and_row_counts(doc: Document) -> None:
    circ = ("Circumstance", "Details", "Horde Details")
    expected = {
        "combat-circumstances": (circ, 19, 6, 24),
        "ranged-attack-distance": (circ, 6, 26, 31),
        "status-modifiers": (circ, 7, 33, 39),
        "status-effects": (("Status Name", "Independent Character and Specialist Effects",
                            "Horde Effect", "Duration"), 14, 46, 59),
    }
    got = tables(doc)
    assert list(got) == list(expected)
    for tid, (header, n, first, last) in expected.items():
        t = got[tid]
        assert t.header == header
        assert len(t.rows) == n
        assert (t.rows[0].line, t.rows[-1].line) == (first, last)


def test_header_words_are_the_source_header_lines(doc: Document) -> None:
    got = tables(doc)
    assert " ".join(got["combat-circumstances"].header) == LINES[4]
    assert " ".join(got["status-effects"].header) == LINES[44]


def test_every_row_is_its_source_line_cut_into_cells(doc: Document) -> None:
    for _, t in walk_tables(doc.sections):
        for r in t.rows:
            assert 1 <= r.line <= len(LINES)
            assert r.lines == (r.line, r.line)
            line = LINES[r.line - 1].strip()
            assert " ".join(c for c in r.cells if c) == line, (t.id, r.line)
            assert all(c == c.strip() and c for c in r.cells), (t.id, r.line)


def test_flying(doc: Document) -> None:
    _name, details, horde = row(tables(doc)["combat-circumstances"], "Flying")
    assert "-30 penalty" in details
    assert details.startswith("Whenever a character uses the Flying action, ntil")  # typo kept
    assert horde == "As normal."


def test_depleting_cover_and_cover(doc: Document) -> None:
    t = tables(doc)["combat-circumstances"]
    _, details, horde = row(t, "Depleting Cover (Ranged)")
    assert details.endswith("So a weapon with Pen 3, Acid 2 and Blast 1 will deplete Cover by 6.")
    assert horde == "As normal."
    assert row(t, "Depleting Cover (Melee)")[1].endswith("will deplete Cover by 8.")
    _, details, horde = row(t, "Cover")
    assert details.startswith("Cover offers characters protection in battle.")
    assert details.endswith("the Cover's AP value is depleted.")
    assert horde.startswith("Hordes in Cover benefit from Cover")
    assert horde.endswith("if the result is a hit to the head or arms.")


def test_horde_cells_that_are_not_as_normal(doc: Document) -> None:
    t = tables(doc)
    assert row(t["combat-circumstances"], "Higher Ground")[2] == "Hordes gain +1 Dos instead."
    assert row(t["combat-circumstances"], "Running")[2] == (
        "As normal, but Hordes only trigger the Running modifier in certain circumstances.")
    assert row(t["combat-circumstances"], "Weapon Jams")[2] == (
        "Hordes do not jam; they just miss. Weapon Specialists do jam.")
    assert row(t["ranged-attack-distance"], "Point Blank")[1:] == (
        "Ranged attacks at a distance of 1km take a bonus +30 bonus to hit.",
        "Hordes gain +3 DoS instead.")
    assert row(t["ranged-attack-distance"], "Short Distance")[2] == "Hordes gain +1 Dos instead."
    assert row(t["ranged-attack-distance"], "Maximum Distance")[2] == "As normal."
    assert row(t["status-modifiers"], "Size")[2] == (
        "As normal. Note for Hordes, this is relevant to the 'size' trait, not the "
        "'small/large' etc horde trait.")


def test_status_effects_durations(doc: Document) -> None:
    t = tables(doc)["status-effects"]
    assert [r.cells[0] for r in t.rows] == [
        "Blood Loss", "Blind", "Burning", "Crippled", "Dazed", "Deaf", "Decay", "Fatigue",
        "Frenzy", "Hallucinating", "Helpless", "Immobilised", "Prone", "Stunned"]
    assert row(t, "Blood Loss")[2:] == (
        "Hordes make the test, but if they fail, instead lose 1d5 magnitude at the end of each "
        "turn.", "Until the blood loss is staunched (Medicae)")
    assert row(t, "Blind")[2:] == ("As normal.", "Varies.")
    assert row(t, "Burning")[2:] == (
        "Hordes instead automatically lose 1d10 magnitude at the end of each turn. They also "
        "suffer a -20 penalty to Willpower tests for as long as they burn.",
        "Until the fire is put out with agility test. Allies may assist.")
    assert row(t, "Decay")[3] == "Remove 5 Decay per 1 hour of rest."
    assert row(t, "Fatigue")[3] == "1 Hour of rest removes 1 rank, 6 hours removes all of it."
    assert row(t, "Frenzy")[3] == "Free WP Test per turn, or all enemies dead."
    assert row(t, "Helpless")[1].endswith("as normal and add the results together.")
    assert row(t, "Helpless")[2:] == ("As normal.", "Until the Helpless trigger ends (eg. Sleep)")


def test_lint(doc: Document) -> None:
    found = [(x.line, x.table, x.row, x.column) for x in doc.lint]
    # the two horde cells that follow a "(Quick Reference: …)" aside with no full stop
    assert found == [(27, "ranged-attack-distance", 1, 2), (30, "ranged-attack-distance", 4, 2)]
    assert all("check the split" in x.message for x in doc.lint)


def test_back_to_top_is_dropped(doc: Document) -> None:
    text = json.dumps([s.title for s in doc.sections])
    assert "Back to Top" not in text
    assert not [b for s in doc.sections for b in s.blocks if b.type == "paragraph"]


def test_names_are_found_without_the_hinted_list() -> None:
    """The shape rule alone (plus the document's starter words) finds all 46 names."""
    hints = load_hints(STEM)
    text = SOURCE.read_text("utf-8")
    base = tables(d100.extract(text, "sources/x.txt", hints))
    bare = copy.deepcopy(dict(hints))
    for t in bare["tables"]:
        t["names"] = []
    guessed = d100.extract(text, "sources/x.txt", bare)
    assert {k: [r.cells for r in t.rows] for k, t in tables(guessed).items()} == {
        k: [r.cells for r in t.rows] for k, t in base.items()}
    assert sum("guessed" in x.message for x in guessed.lint) == 46


@pytest.mark.parametrize(("text", "name"), [
    ("Higher Ground Weapon Skill and Ballistic Skill tests", "Higher Ground"),
    ("Cover Cover offers characters protection.", "Cover"),
    ("Difficult Terrain Terrain with a value", "Difficult Terrain"),
    ("Depleting Cover (Ranged) Whenever a ranged attack", "Depleting Cover (Ranged)"),
    ("Engaged in Melee A character who", "Engaged in Melee"),
    ("Missile and Grenade Jams In the case", "Missile and Grenade Jams"),
    ("Blood Loss Test Toughness every round.", "Blood Loss"),
    ("Weather WS and BS tests", "Weather"),
])
def test_guess_name(text: str, name: str) -> None:
    hinted = frozenset({"Weapon", "Cover", "Terrain"})
    assert text[:d100.guess_name(text, d100.STARTERS, hinted)] == name


def test_uncertain_splits_are_reported_and_the_row_kept() -> None:
    hints = {"tables": [{"id": "t", "columns": [
        {"title": "A"}, {"title": "B"}, {"title": "C", "starts": ["As normal"]}]}]}
    got = d100.extract("Title\n\nA B C\nGizmo Thing It works well.\n", "s.txt", hints)
    (t,) = tables(got).values()
    assert t.rows[0].cells == ("Gizmo Thing", "It works well.", "")
    assert {x.column for x in got.lint} == {0, 2}
    assert all(x.line == 4 and x.table == "t" for x in got.lint)


# --- robustness ----------------------------------------------------------------------

REAL_HINTS = load_hints(STEM)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("Aa As normal.Hordes Until()\u00a0\n\t-:1")),
               max_size=400) | st.text(max_size=300))
def test_never_raises(text: str) -> None:
    for hints in ({}, REAL_HINTS):
        try:
            got = d100.extract(text, "sources/x.txt", hints)
        except SourceError:
            continue  # empty or garbled text: the pipeline's documented refusal
        for _, t in walk_tables(got.sections):
            assert all(len(r.cells) == len(t.header) for r in t.rows)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["Flying", "Cover", "Whenever", "As normal.", "Hordes", "x.",
                                 "Until", "(a)", "Weapon", "Skill"]), max_size=60))
def test_table_rows_of_words_split_into_exact_cells(words: list[str]) -> None:
    line = " ".join(["Flying", *words])
    text = f"T\n\nCircumstance Details Horde Details\n{line}\n"
    got = d100.extract(text, "s.txt", REAL_HINTS)
    for _, t in walk_tables(got.sections):
        for r in t.rows:
            assert " ".join(c for c in r.cells if c) == line.strip()


@pytest.mark.parametrize("body", [
    "Flying " + "Whenever a character flies. " * 4000 + "As normal.",
    "A" * 100_000,
    "Word " * 20_000,
    ". " * 50_000,
    ") A" * 33_000,
])
# A guard against a hang (runaway regex backtracking), not a speed test: speed is `make bench`'s.
@pytest.mark.timeout(60)
def test_long_lines_finish_quickly(body: str) -> None:
    text = f"Title\n\nCircumstance Details Horde Details\n{body}\n\n{body}\n"
    doc = d100.extract(text, "s.txt", REAL_HINTS)
    assert doc is not None


def test_a_cut_inside_brackets_is_reported() -> None:
    hints = {"tables": [{"id": "t", "names": ["Gizmo"], "columns": [
        {"title": "A"}, {"title": "B"}, {"title": "C", "starts": ["Hordes"]}]}]}
    text = "Title\n\nA B C\nGizmo Works (mostly. Hordes too) and more.\n"
    got = d100.extract(text, "s.txt", hints)
    (t,) = tables(got).values()
    assert t.rows[0].cells == ("Gizmo", "Works (mostly.", "Hordes too) and more.")
    assert sorted(x.column for x in got.lint) == [1, 2]


def test_a_broken_hint_pattern_is_a_clear_error() -> None:
    hints = {"tables": [{"id": "t", "columns": [
        {"title": "A"}, {"title": "B"}, {"title": "C", "starts": ["As (normal"]}]}]}
    with pytest.raises(ValueError, match=r"tables\[0\]\.columns"):
        d100.extract("A B C\nX y. As normal.\n", "s.txt", hints)
