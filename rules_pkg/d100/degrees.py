"""Degrees of success and failure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate

from ..dice import Distribution, Draw, expand
from ..errors import RulesError
from ..result import Odds, OddsRow

# -- degrees of success -----------------------------------------------------------------

MAX_TARGET = 200  # targets above this are not a d100 test any more
MIN_TARGET = -200


TENS_CLAMP = "a target below 0 counts as 0, and one above 100 as 100, for its tens digit"


def _tens(n: int) -> int:
    """The tens digit as the d100 shows it: 0 to 10 ("00" is 100), a target clamped to the
    die's own 0-100 the same way both sides (issue #29: 200 gave 21 DoS, -200 only 11 DoF)."""
    return min(max(n, 0), 100) // 10


def degrees(target: int, rolled: int) -> int:
    """+DoS for a success (roll <= target), -DoF for a failure.

    Standard rule (DH2e): 1 + the difference of the tens digits; 100 ("00") has tens 10.
    Not in the source: TENS_CLAMP (at most 11 degrees either way).
    """
    if not 1 <= rolled <= 100:
        raise RulesError(f"a d100 roll is 1 to 100 (got {rolled})")
    if rolled <= target:
        return 1 + _tens(target) - _tens(rolled)
    return -(1 + _tens(rolled) - _tens(target))


def clamp_note(target: int) -> tuple[str, ...]:
    """Said when a target outside the die's 0-100 is clamped for its tens digit."""
    if 0 <= target <= 100:
        return ()
    return (f"Target {target}: {TENS_CLAMP}, the same both ways (not in the source).",)


JAM = 0  # the outcome of a roll that jams (or, for a Horde, misses on 96+)


def _dlabel(d: int, zero: str = "jam (automatic miss)") -> str:
    if d == JAM:
        return zero
    return f"{d} DoS" if d > 0 else f"{-d} DoF"


@dataclass(frozen=True)
class TestOutcome:
    """The outcome of one roll: degrees (+DoS / -DoF) and whether the weapon jammed."""

    degrees: int
    jammed: bool = False


def test_distribution(
    target: int, jam_at: int | None = None, bonus_dos: int = 0, auto: str = ""
) -> Distribution[int]:
    """Degrees over the 100 faces. `jam_at`: rolls at or above it miss (a jam);
    `auto`: "fail" or a forced DoS ("dos:N") for the sheet's automatic results."""
    return expand(d100_test(target, jam_at, bonus_dos, auto))


def d100_test(target: int, jam_at: int | None = None, bonus_dos: int = 0, auto: str = "",
              ) -> Callable[[Draw], int]:
    """A test as a function of the d100: its degrees (see test_distribution)."""
    return lambda draw: _face(target, draw(100), jam_at, bonus_dos, auto)


def _face(target: int, r: int, jam_at: int | None, bonus_dos: int, auto: str) -> int:
    if auto == "fail":
        return JAM  # an automatic failure: the sheet gives it no degrees
    if auto.startswith("dos:"):
        return int(auto[4:])
    if jam_at is not None and r >= jam_at:
        return JAM  # an automatic miss; the sheet gives it no degrees
    d = degrees(target, r)
    return d + bonus_dos if d > 0 else d


def degree_odds(dist: Distribution[int], zero: str = "jam (automatic miss)") -> tuple[Odds]:
    """One table, best first: each DoS with P(at least that many DoS), then each DoF with
    P(at least that many DoF), then automatic results (jams, auto-fails)."""
    counts, total = dist.counts(), dist.total
    succ = sorted((d for d in counts if d > 0), reverse=True)
    fail = sorted(d for d in counts if d < 0)  # the most DoF first, to count from there
    # P(at least this many): running counts in whole ways (one Fraction a row, not a sum)
    rows = [*zip(succ, accumulate(counts[d] for d in succ), strict=True),
            *reversed([*zip(fail, accumulate(counts[d] for d in fail), strict=True)])]
    rows_ = [OddsRow(_dlabel(d), Fraction(counts[d], total), Fraction(n, total)) for d, n in rows]
    if JAM in counts:
        rows_.append(OddsRow(zero, Fraction(counts[JAM], total)))
    return (Odds("Degrees of success and failure", tuple(rows_)),)
