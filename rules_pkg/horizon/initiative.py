"""§ Running Combat, STEP 2 - INITIATIVE, read with a banded profile's Initiative modifier.

The source heads each round "STEP 1 - THE COMBAT TEST", "STEP 2 - INITIATIVE" with no text
under them; only the banded profiles (the Rusty Assault Rifle) print an "Initiative
modifier" column. It is read here as added to your turn-order score (§ Starting Combat's
Awareness score), the reading attacks.BANDED_READING names.
"""

from __future__ import annotations

from typing import Annotated, Any

from ..errors import RulesError
from ..kernel import In, calculator
from ..result import Highlight, Result
from .banded import BANDED_READING
from .combat_test import AP_SCORE_DEFAULT, ApScoreIn
from .profiles import PROFILE_TABLES, _records, lookup, parse_int, profile
from .sheet import MAX_AP, NOT_IN_SOURCE, SOURCE


def _with_initiative() -> tuple[tuple[str, str, str], ...]:
    """(id, name, table) of every profile whose table has an Initiative modifier column
    (only the headers are read: importing stays cheap)."""
    try:
        recs = _records()
    except RulesError:
        return ()
    return tuple((str(r["id"]), str(r.get("name") or r["id"]), str(r["table"])) for r in recs
                 if any("initiative" in str(h).lower()
                        for h in PROFILE_TABLES[str(r["table"])].header()))


_WITH = _with_initiative()


@calculator(
    title="Initiative modifier of a banded profile",
    source=SOURCE + "Running Combat (STEP 2 - INITIATIVE); Weapon Profiles; Starting Combat",
    tables=tuple(t for _, _, t in _WITH))
def initiative(
    *,
    weapon: Annotated[str, In("Weapon", choices=tuple((i, n) for i, n, _ in _WITH),
                              help="a profile with an Initiative modifier column",
                              from_table="profile-")] = _WITH[0][0] if _WITH else "",
    ap: ApScoreIn = AP_SCORE_DEFAULT,
    awareness: Annotated[int, In("Your Awareness score", 0, MAX_AP,
                                 help="your turn-order score (§ Starting Combat)")] = 5,
) -> Result:
    """The row of your combat test's AP gives the Initiative modifier; it is added to your
    turn-order score for the round (see the module's reading)."""
    w = profile(weapon)
    row, step = lookup(w, ap)
    if row is None:
        return Result(f"{ap} AP: no row in the {w.name} profile", (("AP score", ap),),
                      notes=(step,))
    cell = row.cell("initiative")
    mod = parse_int(cell or "")
    notes = [BANDED_READING]
    if mod is None:
        notes.append(f"{NOT_IN_SOURCE}the Initiative modifier of row {row.label} is "
                     f"{cell or 'blank'!r}: no modifier")
        mod = 0
    total = awareness + mod
    values: list[tuple[str, Any]] = [("Initiative modifier", mod), ("Turn-order score", total)]
    return Result(f"{w.name}, {ap} AP: Initiative modifier {mod:+d} → {total}", tuple(values),
                  (step, f"turn-order score: Awareness {awareness} {mod:+d} = {total}; the "
                         "highest score goes first (§ Starting Combat)"),
                  highlight=(Highlight(w.table, row.index),), notes=tuple(notes))
