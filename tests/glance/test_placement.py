"""Every registered calculator stands on at least one page, next to its rule (issue #11).

Checked on the built site: each calculator of rules_pkg's registry has a slot on some
page, and one of its slots follows a table it claims or sits in a section it implements
(the nearest heading before it is that section's, or a subsection of it)."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import Path

import rules_pkg
from scripts.site.placement import cited_section, section_patterns

SLOT = re.compile(r'<h[1-6][^>]*\bid="([^"]+)"|<table[^>]*data-table="([^"]+)"'
                  r'|<div class="ts-calc" data-calc="([^"]+)"')


def slots(site_dir: Path) -> dict[str, list[tuple[str, list[str], str | None]]]:
    """calculator id -> [(page, headings before it (outermost first), table before it)]."""
    found: dict[str, list[tuple[str, list[str], str | None]]] = {}
    for html in sorted(site_dir.rglob("index.html")):
        text = html.read_text("utf-8")
        if "<article" not in text:
            continue
        article = text.split("<article", 1)[1].split("</article>", 1)[0]
        headings: list[str] = []
        table: str | None = None
        for m in SLOT.finditer(article):
            heading, tid, calc = m.groups()
            if heading:
                headings.append(heading)
                table = None
            elif tid:
                table = tid
            elif calc:
                page = html.relative_to(site_dir).as_posix()
                found.setdefault(calc, []).append((page, list(headings), table))
    return found


def test_every_calculator_is_placed_next_to_its_rule(site_dir: Path) -> None:
    placed = slots(site_dir)
    calcs = rules_pkg.calculators()
    assert len(calcs) >= 50
    missing = [c.id for c in calcs if c.id not in placed]
    assert not missing, f"on no page: {missing}"
    astray = []
    for c in calcs:
        sections = section_patterns(c)
        if not sections and not c.tables:
            continue  # nothing says where its rule is (none today: see the next test)
        ok = any(
            (table and any(fnmatchcase(table, p) for p in c.tables))
            or any(fnmatchcase(h.removeprefix("table-"), p) for h in heads[-2:] for p in sections)
            for _, heads, table in placed[c.id])
        if not ok:
            astray.append(f"{c.id}: {placed[c.id][:2]}")
    assert not astray, "not next to their rule:\n" + "\n".join(astray)


def test_every_calculator_says_where_its_rule_is() -> None:
    """Tables, sections, or a `§ Section` in its source: the placement needs one."""
    vague = [c.id for c in rules_pkg.calculators() if not section_patterns(c) and not c.tables]
    assert not vague


def test_cited_sections_are_slugged_as_headings() -> None:
    assert cited_section("Forbidden Lands Combat Quick Reference § Armor Save") == "armor-save"
    assert cited_section("Mecha d10 § Entangling & Disarming") == "entangling-disarming"
    assert cited_section("Mecha d10 Non-Mecha Combat § 1 Determine initiative, § 2") == \
        "1-determine-initiative"
    assert cited_section("no section here") is None


def test_the_d100_test_comes_first_by_the_combat_circumstances() -> None:
    """The d100 test is the first calculator by its Combat Circumstances table (what
    tests/glance/test_results.py::test_d100_form_on_a_phone opens), then the degrees."""
    from scripts.site.placement import calculators_for_table
    placed = [calc for calc, _ in calculators_for_table("d100", "combat-circumstances")]
    assert placed[:2] == ["d100.test", "d100.degrees"]
