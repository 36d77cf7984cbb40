"""Generic table lint: planted anomalies are found at the right cell; normal variation is not."""

from __future__ import annotations

from scripts.extract.lint import kind, lint_document, lint_table
from scripts.extract.model import Document, Lint, Row, Section, Table

SRC = "sources/x.md"


def table(header: tuple[str, ...], *rows: tuple[str, ...], tid: str = "t", line: int = 10) -> Table:
    return Table(tid, header, tuple(Row(r, line + 1 + k, (line + 1 + k, line + 1 + k))
                                    for k, r in enumerate(rows)), (line, line + len(rows)))


def where(found: list[Lint]) -> list[tuple[int, int, int]]:
    return [(x.line, x.row, x.column) for x in found]


def test_kinds() -> None:
    assert [kind(c) for c in ("3", "-2", "+1", "1-5", "6 - 10", "7 to 10", "-3/+3", "11+", "50%")] \
        == ["number"] * 9
    assert [kind(c) for c in ("2O", "OK", "BODY 4 or under", "")] == ["text", "text", "text",
                                                                       "blank"]
    assert [kind(c) for c in ("-", "X", "N/A", "2d6", "-1 Die", "-3 (requires Aim)")] == [
        "none", "none", "none", "dice", "number-words", "number-words"]


def test_text_in_a_numeric_column() -> None:
    t = table(("AP", "Damage"), ("1", "1"), ("2", "2"), ("3", "2O"), ("4", "3"))
    found = lint_table(SRC, t)
    assert [str(x) for x in found] == [
        'sources/x.md:13: column "Damage" is "2O" where the column is numeric']
    assert where(found) == [(13, 2, 1)] and found[0].table == "t"


def test_step_backwards_in_an_ordered_table() -> None:
    t = table(("AP", "Damage"), ("0", "2"), ("1", "4"), ("2", "6"), ("3", "5"), ("4", "8"))
    found = lint_table(SRC, t)
    assert [x.message for x in found] == [
        'column "Damage" goes from "6" to "5" where it otherwise rises']
    assert where(found) == [(14, 3, 1)]


def test_normal_variation_is_not_flagged() -> None:
    # unordered first column: damage may go up and down from weapon to weapon
    weapons = table(("Weapon", "Damage"), ("Knife", "1"), ("Axe", "3"), ("Club", "2"),
                    ("Sword", "4"), ("Spear", "5"))
    # categorical columns mixing OK / X / +2 (Forbidden Lands' Attacks) and fillers
    attacks = table(("Action", "Dodge", "Shield"), ("Slash", "+2", "OK"), ("Stab", "OK", "+2"),
                    ("Punch", "OK", "+2"), ("Grapple", "X", "X"), ("Shove", "OK", "OK"))
    # "-" for none and "-3 (requires Aim)" in a modifier column; plateaus of +1 then -1
    ranges = table(("Range", "Mod"), ("Arm's Length", "-3/+3"), ("Near", "-"), ("Short", "-1"),
                   ("Long", "-2"), ("Distant", "-3 (requires Aim)"))
    social = table(("Mod", "Why"), *[("+1", f"reason {k}") for k in range(6)],
                   *[("-1", f"cost {k}") for k in range(5)])
    # mecha: a title-only header and a second header row
    penalty = table(("Multiple Action Penalty", ""), ("#Actions", "Penalty to each action"),
                    ("1", "0"), ("2", "-2"), ("3", "-4"))
    for t in (weapons, attacks, ranges, social, penalty):
        assert lint_table(SRC, t) == [], t.header


def test_blank_cells_and_widths() -> None:
    t = table(("Feature", "Action", "Special"), ("Blunt", "Slash", "roll"), ("Hook", "Shove", ""),
              ("Light", "", "two per row"), ("Heavy", "Swing", "x", "extra"), ("Edged", "Slash"))
    msgs = [(x.line, x.message) for x in lint_table(SRC, t)]
    assert msgs == [
        (12, 'column "Special" is blank in row "Hook" of table "t"'),
        (13, 'column "Action" is blank in row "Light" of table "t"'),
        (14, 'row "Heavy" of table "t" has 4 cells where the header has 3'),
        (15, 'row "Edged" of table "t" has 2 cells where the header has 3'),
    ]


def test_sparse_column_is_layout_not_gaps() -> None:
    t = table(("AP", "Damage", "Special"), ("1", "2", ""), ("2", "3", ""), ("3", "4", ""),
              ("4", "5", "Knockdown"))
    assert lint_table(SRC, t) == []


def _doc(*sections: Section) -> Document:
    return Document(SRC, "x", "X", sections)


def test_identical_tables_in_one_section() -> None:
    a = table(("Range", "Mod"), ("Near", "0"), ("Far", "-2"), tid="a", line=5)
    b = table(("Range", "Mod"), ("Near", "0"), ("Far", "-2"), tid="b", line=20)
    found = lint_document(_doc(Section("s", "S", 1, (1, 30), (a, b))))
    assert [str(x) for x in found] == [
        'sources/x.md:20: table "b" is identical to table "a" (line 5)']
    # the same two tables in different sections are not a finding
    assert lint_document(_doc(Section("s", "S", 1, (1, 9), (a,)),
                              Section("u", "U", 1, (10, 30), (b,)))) == []


def test_siblings_with_a_different_row_count() -> None:
    def rows(w: int, n: int) -> list[tuple[str, str]]:
        return [(str(k), str(k * w)) for k in range(1, n + 1)]

    sibs = [table(("AP", "Damage"), *rows(w, 5), tid=f"p{w}", line=10 * w) for w in range(1, 4)]
    odd = table(("AP", "Damage"), *rows(4, 4), tid="p4", line=40)
    found = lint_document(_doc(Section("s", "S", 1, (1, 60), (*sibs, odd))))
    assert [str(x) for x in found] == [
        'sources/x.md:40: table "p4" has 4 rows where 3 of its 3 siblings with the same header '
        "have 5"]
    assert found[0].table == "p4"
