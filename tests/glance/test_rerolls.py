"""Reroll after the fact where the game has it (issue #11): which sources let a player
reroll after seeing the dice, read from the sources themselves.

Every line of every source with a word for rerolling is either a reroll the site offers
after a rolled result (Forbidden Lands' push: its rolling calculators take a "push"
choice, test_push.py drives the button) or one read and judged not to be a reroll a
player chooses after seeing dice, with the reason. A new or changed source line fails
here until someone decides which it is."""

from __future__ import annotations

import re
from pathlib import Path

import rules_pkg

ROOT = Path(rules_pkg.__file__).parent.parent
REROLL = re.compile(r"re-?roll|roll(ed)? again|\bfate\b|fortune|\bluck\b|\bpush(ed|ing)?\b"
                    r"|second chance|rolls? twice|until you get|once per turn", re.I)
# (source file, line): why it is not a reroll after seeing the dice
NOT_A_REROLL = {
    ("cyberpunk-red-combat-cheat-sheet.txt", 44):
        "Critical Injury: roll 2d6 on the table again until the target is not already "
        "suffering the injury: a rule of the table, not the player's choice, and the "
        "tables are not in the sheet, so the site never rolls on them",
    ("d100-combat-circumstances-and-status-effects.txt", 56):
        "Helpless: twice the damage dice, rolled once and added",
    ("horizon-out-of-the-ashes-combat.txt", 18): "flavour text ('Bad Luck')",
    ("horizon-out-of-the-ashes-combat.txt", 1624):
        "combat tests are rolled once per turn: the opposite of a reroll",
    ("horizon-out-of-the-ashes-combat.txt", 1673):
        "Move pushed with Endurance: a second, different test added to Move "
        "(horizon.move's 'Push with Endurance'), the first roll stands",
}
REROLLS = {  # (source file, line) -> the game whose rolled results offer the reroll
    ("forbidden-lands-combat-quick-reference.md", 58): "forbidden_lands",
    ("forbidden-lands-combat-quick-reference.md", 161): "forbidden_lands",
}


def test_every_reroll_word_in_the_sources_is_judged() -> None:
    found = {(p.name, n) for p in sorted((ROOT / "sources").iterdir()) if p.is_file()
             for n, line in enumerate(p.read_text("utf-8", errors="replace").splitlines(), 1)
             if REROLL.search(line)}
    assert found == set(NOT_A_REROLL) | set(REROLLS)


def test_games_with_a_reroll_offer_it_after_the_roll() -> None:
    pushing = {c.game for c in rules_pkg.calculators() if c.rolls and any(
        i.name == "push" and "always" in dict(i.choices) for i in c.inputs)}
    assert pushing == set(REROLLS.values())
