"""The source's numbers and the engine's limits, named once."""

from __future__ import annotations

from ..dice import MAX_DICE
from ..kernel import In, Part

GAME = "horizon"
SOURCE = "Horizon: Out of the Ashes combat reference § "
# the weapon profiles many rules read: a rule of theirs says only where it stands (kernel.Part)
PROFILES = Part(SOURCE, ("profile-*",))
NOT_IN_SOURCE = "not in the source: "
X = "\u00d7"  # the multiplication sign, as the source writes "(10\u00d72) = 20"

MAX_RANK = 100  # engine limit on a Trait rank (the source sets no maximum)
MAX_AP = 1000  # engine limit on an AP score typed in
MAX_ACTIONS = 20  # engine limit on actions/attacks per turn (Augs can add Attacks)
POINT_BLANK_AP = 5  # § Point Blank Range: "+5AP"
HELPER_AP = 5  # § Pick Up / Carry / Drop / Throw: "Each helper reduces the difficulty by -5AP"
TRAITS = ("ACU", "AGI", "STR")


# The inputs many rules share, each limit declared once.
def rank_in(label: str, help: str = "") -> In:
    """A Trait's rank (or a Trait bonus): 0 to MAX_RANK."""
    return In(label, 0, MAX_RANK, help=help)


def dice_in(label: str, help: str = "") -> In:
    """A Skill's rank, the dice it rolls: 0 to MAX_DICE."""
    return In(label, 0, MAX_DICE, help=help)
