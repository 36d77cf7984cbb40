"""d100 combat (a Dark Heresy 2e / Only War style homebrew): tests, degrees, jams, cover.

Source: sources/d100-combat-circumstances-and-status-effects.txt, its two tables
"Combat Circumstances" (Circumstance | Details | Horde Details, with the
"Ranged Attack Distance" and "Status Modifiers" rows) and "Status Effects"
(Status | Effect | Horde Effect | Duration).

Every modifier number is declared once as a `data.Entry` (its row and the words
before it) and read out of the table cell text through it (the text is the data;
the number is extracted from it, never re-typed; tests/rules/test_specs.py reads
them all). Degrees of success/failure follow the game's standard rule (DH2e):
1 + the difference of the tens digits of target and roll; the sheet only refers
to DoS. A roll succeeds when it is at most the target; a roll of 100 is "00".
"""

from __future__ import annotations

from ..registry import exports

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "modifiers", "degrees", "characteristic_test", "jams", "ranges",
           "cover", "status", "effects")

# The package's names are its modules' own (registry.exports): none is listed again here.
globals().update(exports(__name__, MODULES))
