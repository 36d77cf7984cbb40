"""The table of the 3 types of non-mecha combat: the attacking and the defending skills."""

from __future__ import annotations

from typing import Annotated

from ..errors import RulesError
from ..kernel import In, calculator
from ..result import Highlight, Result
from .contest import _combat_type_choices, _lookup_row
from .sheet import DOC, TABLES, table_ids


def _skills(cell: str) -> list[str]:
    return [s.strip().rstrip("*") for s in cell.split("/") if s.strip()]


@calculator(
    title="Which skills attack and defend",
    source=f"{DOC} § COMBAT (Non-Mecha): the types of combat table and its footnote",
    tables=(table_ids()["types"],),
)
def skills(
    *,
    combat: Annotated[str, In("Type of combat", choices=_combat_type_choices(),
                              )] = _combat_type_choices()[0][0],
    natural_weapons: Annotated[bool, In("The defender has natural weapons")] = False,
) -> Result:
    """The table's row: the attacking skill(s) and the defending skills it allows; the
    footnote adds Fighting against armed fighting for a defender with natural weapons."""
    i, row = _lookup_row("types", combat)
    tid = table_ids()["types"]
    attack, defend = _skills(row[1]), _skills(row[2])
    steps = [f"{row[0].strip('•- ').strip()}: attack with {' or '.join(attack)}",
             f"Defend with {' or '.join(defend)}"]
    notes: list[str] = []
    if row[2].rstrip().endswith("*"):
        footnote = next((n for n in TABLES["types"].raw().get("notes", ())
                         if n.startswith("*")), "")
        if "natural weapons" not in footnote:
            raise RulesError("mecha data: the types of combat table lost its footnote")
        notes.append(f"The table's footnote: {footnote.lstrip('*')}")
        if natural_weapons and "Fighting" not in defend:
            defend.insert(0, "Fighting")
            steps.append("Natural weapons: Fighting may defend against armed fighting too")
    return Result(f"Defend with {', '.join(defend)}",
                  (("Attacking skill", " or ".join(attack)),
                   ("Defending skills", ", ".join(defend))),
                  tuple(steps), highlight=(Highlight(tid, i),), notes=tuple(notes))
