"""The d10 mecha game: personal-scale (non-mecha) combat.

Source: sources/mecha-d10-non-mecha-combat.md. Table values are read from the
extracted data (rules_pkg/data/mecha.json); the few numbers the source gives in
its lists (aim +4/+6, cover, blindfighting, auto fire -2, entangled -4, break
away on 6-10) are named constants below, each checked against the source text
by the tests.

The game's die is a d10 ("1 die + Reflex"; "Roll one die: 6-10 = break away").
A skill test is one die plus the character's score for that skill; the source
does not spell the test out, so the score is an explicit input.
"""

from __future__ import annotations

from ..registry import exports

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "contest", "attack", "damage", "initiative", "close_combat", "skills")

# The package's names are its modules' own (registry.exports): none is listed again here.
globals().update(exports(__name__, MODULES))
