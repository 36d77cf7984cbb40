"""Horizon: Out of the Ashes: the combat rules, with exact odds.

Source: sources/horizon-out-of-the-ashes-combat.txt ("Combat Quick Reference"),
cited below as "§ <section>". Weapon profiles and the other tables are read
from the extracted data (rules_pkg/data/horizon.json), never re-typed here.
Where the source leaves a number out, results say so in their notes.
"""

from __future__ import annotations

from ..registry import exports

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "skills", "profiles", "combat_test", "attacks", "defense", "movement",
           "objects", "disengaged", "banded", "initiative")

# The package's names are its modules' own (registry.exports): none is listed again here.
globals().update(exports(__name__, MODULES))
