"""Skill tests (dice and Trait bonus) and the combat test of a weapon profile."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .. import data
from ..dice import Distribution, Draw, check_count, check_dice
from ..errors import RulesError
from ..result import Die, Odds
from .sheet import GAME, MAX_RANK

# --- skill tests --------------------------------------------------------------------------

# § Forgotten how to use Skills?: "Die result | 1 … 6" over "Score | 0 … +2AP"
DIE_RESULT = data.table_spec(GAME, "Die result", ("text", *("modifier",) * 6), 1, by_title=True)


@cache
def face_ap() -> tuple[int, ...]:
    """§ Forgotten how to use Skills?, the source's own table: "Die result: 1 2 3 4 5 6 /
    Score: 0 0 0 +1AP +1AP +2AP" (read from the extracted data, not re-typed)."""
    faces = [c.strip() for c in DIE_RESULT.header()[1:]]
    scores = list(DIE_RESULT.rows()[0][1:])
    if faces != [str(f) for f in range(1, 7)] or len(scores) != 6:
        raise RulesError("the source's die-result table is not the six faces of a d6")
    out = []
    for cell in scores:
        m = re.match(r"^\s*\+?(\d+)\s*(?:AP)?\s*$", cell)
        if not m:
            raise RulesError(f"unreadable die score {cell!r} in the source's die-result table")
        out.append(int(m.group(1)))
    return tuple(out)


def face_label(face: int) -> str:
    ap = face_ap()[face - 1]
    return f"+{ap} AP" if ap else "0"


@cache
def _dice_distribution(dice: int) -> Distribution[int]:
    # one die: counts 0:3, 1:2, 2:1; Distribution.repeat doubles, so 100 dice stay fast
    return Distribution.die(face_ap()).repeat(dice)


def _check_rank(value: int, what: str) -> None:
    check_count(value, what, MAX_RANK,
                lambda v: RulesError(f"{what} is at most {MAX_RANK} here (got {v})"))


@dataclass(frozen=True)
class SkillTest:
    """A Skill test (§ Forgotten how to use Skills?).

    Roll as many dice as the Skill rank; each 1-3 scores 0, 4-5 +1 AP, 6 +2 AP;
    add the Trait bonus (the highest rank among the Skill's linked Traits).
    Without the Skill no dice are rolled: the Trait rank alone is the score
    (§ Starting Combat, THE AWARENESS TEST). `extra` is any further bonus
    (Surprise, § Surprise!) and is added like the Trait bonus.
    """

    dice: int
    trait_bonus: int
    extra: int = 0
    extra_label: str = "bonus"  # what `extra` is, for the explanation ("Surprise")

    def __post_init__(self) -> None:
        check_dice(self.dice, "dice (Skill rank)")
        _check_rank(self.trait_bonus, "The Trait bonus")
        _check_rank(self.extra, "The extra bonus")

    @property
    def bonus(self) -> int:
        return self.trait_bonus + self.extra

    def distribution(self) -> Distribution[int]:
        """The exact distribution of the AP score."""
        return _dice_distribution(self.dice) + self.bonus

    def score(self, faces: Sequence[int]) -> int:
        """The AP score of rolled faces: dice results plus the bonus."""
        if len(faces) != self.dice or any(f not in range(1, 7) for f in faces):
            raise RulesError(f"a {self.dice}-dice test needs {self.dice} faces from 1 to 6")
        return sum(face_ap()[f - 1] for f in faces) + self.bonus

    def ap(self, draw: Draw) -> int:
        """The AP score as a function of the dice: one pool (exact by distribution())."""
        return draw.pool(self.distribution(),
                         lambda d: self.score([d(6) for _ in range(self.dice)]))

    def explain(self, faces: Sequence[int] | None = None) -> str:
        """e.g. "(4+5) = 9 AP": dice results plus Trait bonus, as the source writes it."""
        parts = [f"Trait bonus +{self.trait_bonus}"]
        if self.extra:
            parts.append(f"{self.extra_label} +{self.extra}")
        if faces is None:
            return f"{self.dice} dice + " + " + ".join(parts)
        dice_ap = sum(face_ap()[f - 1] for f in faces)
        return f"dice +{dice_ap} AP, " + ", ".join(parts) + f": ({dice_ap}+{self.bonus}) = " \
            f"{dice_ap + self.bonus} AP"


# § Weapon Profiles: "You will make a combat test using this profile every round": a Skill
# test on the weapon's Combat Skill (§ Weapons and Combat Skills).
CombatTest = SkillTest


def _dice(faces: Sequence[int], kind: str) -> tuple[Die, ...]:
    return tuple(Die(6, f, face_label(f), kind) for f in faces)


def _ap_odds(dist: Distribution[int], title: str) -> Odds:
    return Odds.of(dist, title, lambda s: f"{s} AP")
