"""The two Markdown sources, checked against facts read off the files by eye."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.extract.build import walk_tables
from scripts.extract.model import Document, Table
from scripts.extract.pipeline import load_hints, run_one

ROOT = Path(__file__).resolve().parents[2]


def doc(name: str) -> Document:
    res = run_one(ROOT / "sources" / name)
    assert not res.failed and res.doc is not None, res.messages
    return res.doc


@pytest.fixture(scope="module")
def fl() -> dict[str, Table]:
    d = doc("forbidden-lands-combat-quick-reference.md")
    return {t.id: t for _, t in walk_tables(d.sections)}


@pytest.fixture(scope="module")
def mecha() -> dict[str, Table]:
    return {t.id: t for _, t in walk_tables(doc("mecha-d10-non-mecha-combat.md").sections)}


def test_forbidden_lands_tables(fl: dict[str, Table]) -> None:
    shapes = {tid: (len(t.rows), len(t.header)) for tid, t in fl.items()}
    assert shapes == {
        "apply-damage": (4, 3), "attacks": (9, 9), "non-attack": (14, 5),
        "range-modifiers": (5, 2), "fleeing-modifiers": (5, 2), "social-actions": (3, 3),
        "social-modifiers": (11, 2), "weapon-features": (7, 3), "broken-effects": (4, 4),
    }


def test_forbidden_lands_cells_as_written(fl: dict[str, Table]) -> None:
    # "Near\t-" (line 106): the dash stays a dash
    assert fl["range-modifiers"].rows[1].cells == ("Near", "-")
    assert fl["range-modifiers"].rows[1].line == 106
    assert fl["range-modifiers"].rows[4].cells == ("Distant", "-3 (requires Aim)")
    # "Hook\tShove\t" (line 148): a trailing empty cell is kept
    assert fl["weapon-features"].rows[3].cells == ("Hook", "Shove", "")
    assert fl["weapon-features"].rows[4].cells[:2] == ("Light", "")
    # inline Markdown stays as source text: "*OR*" in the Empathy row (line 59)
    assert "*OR*" in fl["apply-damage"].rows[3].cells[1]
    assert fl["apply-damage"].inline == "markdown"
    assert fl["attacks"].header[5] == "Parrying Wpn"
    assert fl["attacks"].rows[4].cells[0] == "Grapple Attack**"


def test_forbidden_lands_footnotes(fl: dict[str, Table]) -> None:
    assert fl["attacks"].notes == (
        "\\*Fall prone after dodge. -2 to remain standing. \\*\\*Only actions allowed during "
        "grapple.",)
    assert fl["broken-effects"].notes == ("\\*No critical if self inflicted with a pushed roll",)
    assert fl["range-modifiers"].notes == ()


def test_forbidden_lands_lint() -> None:
    found = {(x.line, x.table, x.row, x.column) for x in doc(
        "forbidden-lands-combat-quick-reference.md").lint}
    # the three blank cells of the file, nothing else (OK/X columns are not "numeric")
    assert found == {(148, "weapon-features", 3, 2), (149, "weapon-features", 4, 1),
                     (159, "broken-effects", 3, 3)}


def test_mecha_tables(mecha: dict[str, Table]) -> None:
    shapes = {tid: (len(t.rows), len(t.header)) for tid, t in mecha.items()}
    assert shapes == {
        "combat-types": (3, 3), "multiple-action-penalty": (4, 2), "range-modifiers": (4, 2),
        "success-based-damage": (5, 2), "strength-based-damage": (7, 2), "called-shots": (3, 3),
    }
    # "| Multiple Action Penalty | |": the empty header cell stays ""
    assert mecha["multiple-action-penalty"].header == ("Multiple Action Penalty", "")
    assert mecha["multiple-action-penalty"].rows[0].cells == ("#Actions", "Penalty to each action")
    assert mecha["success-based-damage"].rows[-1].cells == ("16-20", "4")
    assert mecha["strength-based-damage"].rows[1].cells == ("1-3", "-1 Die")
    assert mecha["strength-based-damage"].rows[1].line == 74
    assert mecha["called-shots"].rows[2].cells == ("Tiny (Eye, Finger, Camera)", "-8", "+3")
    assert mecha["combat-types"].notes == (
        "*fighting may be used to defend against armed fighting if defender has natural weapons.",)


def test_mecha_headings_from_hints() -> None:
    d = doc("mecha-d10-non-mecha-combat.md")
    assert [s.title for s in d.sections] == ["COMBAT (Non-Mecha)", "Combat Actions"]
    steps = [s.title for s in d.sections[0].sections]
    assert steps == [k for k, v in load_hints("mecha-d10-non-mecha-combat")["headings"].items()
                     if v == 2 and k[0].isdigit()]
    assert d.lint == ()  # sub-header rows ("#Actions") are not flagged as non-numeric


def test_mecha_lazy_nested_list() -> None:
    # " - Degree of success…" is written one space deeper under "Damage depends on three factors"
    d = doc("mecha-d10-non-mecha-combat.md")
    roll = next(s for s in d.sections[0].sections if s.title == "4. Roll Damage")
    items = roll.blocks[0].items  # type: ignore[union-attr]
    assert items[0].text == "Damage depends on three factors"
    assert [c.text for c in items[0].children] == [
        "Degree of success achieved in combat contest", "Type of weapon used",
        "Strength (if using a hand weapon, bare hands or natural weapons)"]
