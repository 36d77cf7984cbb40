"""Cyberpunk RED combat, as the homebrew cheat sheet writes it.

Source: sources/cyberpunk-red-combat-cheat-sheet.txt. Checks are STAT + Skill + 1d10
against a DV or an opposed roll, and the attacker must *beat* it: "If you beat the DV
(defender wins in a tie)". The sheet does not mention RED's critical 10/1 on the d10,
so it is not applied. Numbers are read from the extracted data: table cells for the
tables, and the sheet's own sentences (`rule`) for numbers written in prose.
"""

from __future__ import annotations

from ..registry import exports

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "core", "checks", "ranged", "cover", "damage", "melee", "death_save",
           "environment", "turn", "thrown", "body")

# The package's names are its modules' own (registry.exports): none is listed again here.
globals().update(exports(__name__, MODULES))
