"""Forbidden Lands (Year Zero Engine): combat from the Combat Quick Reference.

Source: sources/forbidden-lands-combat-quick-reference.md. Every table value is
read from the extracted data (rules_pkg/data/forbidden_lands.json), never re-typed.

Dice: base dice (attribute), skill dice (skill) and gear dice (weapon, armour,
other gear) are d6. A 6 is a success (✘) on any die; a 1 is a bane (☠) on base
and gear dice only. Where the sheet only refers to a rule of the game (pushing,
modifications, negative dice) the standard Forbidden Lands rule is used and cited
as such in the calculator's `source`.
"""

from __future__ import annotations

from ..registry import exports

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "dice", "check", "attack", "other_rolls", "actions", "conditions",
           "gear")

# The package's names are its modules' own (registry.exports): none is listed again here.
globals().update(exports(__name__, MODULES))
