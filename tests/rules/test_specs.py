"""What the rules read from the sources (issue #10 item 2, one source layer): every number
from prose (data.Prose), the words a rule stands on (data.Words), every number from a named
row's text (data.Entry), every table with its shape (data.Table) and every kind of record
with its fields (data.Records) is declared once where its rule uses it, all listed in
data.SPECS, all read here against the extracted data, so a changed source fails in this one
test, by name. data.prose_number, data.number_after and the extracted tables have no other
reader in the rules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import rules_pkg
from rules_pkg import data

rules_pkg.calculators()  # imports every game: their declarations land in SPECS
SPECS = list(data.SPECS)
PROSE = [s for s in SPECS if isinstance(s, data.Prose)]
ENTRIES = [s for s in SPECS if isinstance(s, data.Entry)]
TABLES = [s for s in SPECS if isinstance(s, data.Table)]
WORDS = [s for s in SPECS if isinstance(s, data.Words)]
RECORDS = [s for s in SPECS if isinstance(s, data.Records)]
GAMES = ("cyberpunk_red", "d100", "forbidden_lands", "horizon", "mecha")
PACKAGE = Path(rules_pkg.__file__).parent


def _name(s: data.Prose | data.Words | data.Entry | data.Table | data.Records) -> str:
    if isinstance(s, data.Prose):
        return f"{s.game}:{s.section}:{s.pattern}:{s.group}"
    if isinstance(s, data.Words):
        return f"{s.game}:{s.section}:{s.words}"
    if isinstance(s, data.Entry):
        return f"{s.game}:{s.row}:{s.anchor or s.pattern}:{s.nth or s.group}"
    if isinstance(s, data.Records):
        return f"{s.game}:records:{s.kind}"
    return f"{s.game}:table:{s.key}"


def test_the_reads_are_declared() -> None:
    assert {"cyberpunk_red", "horizon"} <= {s.game for s in PROSE}
    assert len(PROSE) >= 30
    assert {s.game for s in ENTRIES} == {"cyberpunk_red", "d100", "forbidden_lands"}
    assert len(ENTRIES) >= 60
    assert {s.game for s in TABLES} == set(GAMES) == set(rules_pkg.registry.game_modules())
    assert {s.game for s in WORDS} == {"cyberpunk_red", "horizon"}
    assert [(s.game, s.kind) for s in RECORDS] == [("horizon", "weapon_profiles")]
    # every Horizon weapon's profile table is declared, with its layout's shape
    weapons = RECORDS[0].all()
    assert {str(r["table"]) for r in weapons} <= {s.key for s in TABLES if s.game == "horizon"}
    assert len(SPECS) == len(set(SPECS)), "a number or table is declared twice"


@pytest.mark.parametrize("spec", PROSE, ids=[_name(s) for s in PROSE])
def test_every_declared_number_is_in_the_source(spec: data.Prose) -> None:
    value = spec.read()
    assert isinstance(value, int)
    if re.compile(spec.pattern).groups >= 2 and spec.group == 1:
        n, sides = spec.read_dice()
        assert n >= 1 and sides >= 1


@pytest.mark.parametrize("spec", ENTRIES, ids=[_name(s) for s in ENTRIES])
def test_every_declared_entry_is_in_its_row(spec: data.Entry) -> None:
    value = spec.maybe()  # None only for a pattern that found the sheet's "n/a"
    assert isinstance(value, int) or "n/a" in spec.pattern


@pytest.mark.parametrize("spec", TABLES, ids=[_name(s) for s in TABLES])
def test_every_declared_table_has_its_shape(spec: data.Table) -> None:
    rows = spec.rows()  # raises, naming the table, when the shape changed
    assert len(rows) >= spec.min_rows
    assert all(len(r) == len(spec.columns) or (spec.more and len(r) > len(spec.columns))
               for r in rows)
    spec.check()  # every cell reads as its column's kind


@pytest.mark.parametrize("spec", WORDS, ids=[_name(s) for s in WORDS])
def test_every_declared_phrase_is_in_its_section(spec: data.Words) -> None:
    spec.check()
    with pytest.raises(rules_pkg.RulesError, match=re.escape(f"§ {spec.section} no longer")):
        data.Words(spec.game, spec.section, spec.words + " and words it does not say").check()


@pytest.mark.parametrize("spec", RECORDS, ids=[_name(s) for s in RECORDS])
def test_every_declared_record_kind_has_its_fields(spec: data.Records) -> None:
    recs = spec.all()
    assert len(recs) >= spec.min_count and all(f in r for r in recs for f in spec.fields)
    with pytest.raises(rules_pkg.RulesError, match=f"the {spec.kind} records"):
        data.Records(spec.game, spec.kind, (*spec.fields, "no such field")).all()


def test_a_changed_shape_fails_by_name() -> None:
    spec = next(s for s in TABLES)
    wrong = data.Table(spec.game, spec.key, (*spec.columns, "text"), spec.min_rows)
    with pytest.raises(rules_pkg.RulesError, match=re.escape(repr(spec.id))):
        wrong.rows()
    numbers = data.Table(spec.game, spec.key, ("number",) * len(spec.columns))
    with pytest.raises(rules_pkg.RulesError, match=f"table {re.escape(repr(spec.id))} row 0"):
        numbers.check()
    with pytest.raises(rules_pkg.RulesError, match="no row 'Nowhere'"):
        data.Entry("d100", "Nowhere", "take a").read()
    with pytest.raises(rules_pkg.RulesError, match="row 'Darkness'"):
        data.Entry("d100", "Darkness", "words the sheet does not say").read()
    with pytest.raises(rules_pkg.RulesError, match="'gear' is not a number"):
        data.Entry("forbidden_lands", "Heavy", pattern=r"two (\w+) rows").read()


def test_known_values_read_from_the_sheet() -> None:
    from rules_pkg import cyberpunk_red as c
    from rules_pkg.d100 import sheet as d100_sheet
    from rules_pkg.horizon import disengaged
    # cyberpunk-red-combat-cheat-sheet.txt: "costs an Action and 10 bullets", "immediately
    # take 6d6 damage", "unless they then succeed a DV15 Athletics Check"
    assert (c.AUTOFIRE_BULLETS, c.dice_of(c.ELECTROCUTION_DICE)) == (10, c.Dice(6, 6))
    assert c.FALLING_DV.read() == 15
    # horizon: "fail to locate you for 3 consecutive rounds"
    assert disengaged.ESCAPE_ROUNDS.read() == 3
    # d100 § Weapon Jams: "the weapon jams if the attacker rolls a 96 or higher"
    assert d100_sheet.JAM_AT.read() == 96
    # forbidden lands § Weapon Features: Heavy "Takes up two gear rows"
    from rules_pkg.forbidden_lands import gear
    assert gear.rows_per_heavy() == 2


def _callers(attrs: set[str], under: str = "") -> list[str]:
    """Every `data.<attr>` (rules_pkg.data's readers, as the rules import it) under `under`."""
    found = []
    for path in (PACKAGE / under).rglob("*.py"):
        if path.name == "data.py" and path.parent == PACKAGE:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        found += [f"{path.relative_to(PACKAGE)}:{n.lineno}" for n in ast.walk(tree)
                  if isinstance(n, ast.Attribute) and n.attr in attrs
                  and isinstance(n.value, ast.Name) and n.value.id == "data"]
    return found


def test_prose_is_read_only_through_declarations() -> None:
    """data.prose_number is the one reader of prose; the rules call it only through Prose."""
    assert _callers({"prose_number", "number_after", "signed_numbers"}) == []


# the games whose every read goes through a declared spec: all five
DECLARED_ONLY = GAMES


def test_every_game_is_read_only_through_declarations() -> None:
    assert set(DECLARED_ONLY) == set(rules_pkg.registry.game_modules())


@pytest.mark.parametrize("game", DECLARED_ONLY)
def test_the_source_is_read_only_through_declarations(game: str) -> None:
    """The readers in data.py have no caller in these games but the specs' constructors."""
    assert _callers({"section_text", "table", "tables", "document", "records",
                     "named_rows"}, game) == []
