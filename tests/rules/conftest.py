"""Helpers for the rules tests: a chi-square goodness-of-fit check without scipy."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction

import pytest

ChiSquare = Callable[[Iterable[Hashable], dict[Hashable, Fraction]], tuple[float, int, float]]

Z_0001 = 3.090232  # the standard normal quantile for p = 0.001 (one-sided)


def chi_square_critical(df: int, z: float = Z_0001) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (accurate to ~1% for df >= 1)."""
    k = 2.0 / (9.0 * df)
    return df * (1.0 - k + z * math.sqrt(k)) ** 3


def chi_square(samples: Iterable[Hashable],
               pmf: dict[Hashable, Fraction]) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, critical value at p = 0.001).

    Outcomes expected fewer than 5 times are pooled into one bin, as usual; an observed
    outcome missing from the exact pmf fails the test outright.
    """
    seen = Counter(samples)
    n = sum(seen.values())
    unknown = set(seen) - set(pmf)
    assert not unknown, f"outcomes outside the exact distribution: {sorted(map(str, unknown))[:5]}"
    bins: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for outcome, p in pmf.items():
        expected = float(p) * n
        if expected < 5:
            pool_e += expected
            pool_o += seen.get(outcome, 0)
        else:
            bins.append((expected, seen.get(outcome, 0)))
    if pool_e > 0:
        bins.append((pool_e, pool_o))
    stat = sum((o - e) ** 2 / e for e, o in bins)
    df = max(1, len(bins) - 1)
    return stat, df, chi_square_critical(df)


@pytest.fixture
def chi2() -> ChiSquare:
    return chi_square
