"""An event's dice: random.Random(seed), seeded at its first draw.

Every event that may roll carries a seed, and the fold made random.Random(seed) for each
one; seeding costs more than most events' whole rule (~9 µs in CPython, 14,700 times in a
5,000-event mecha replay, issue 24), and most such events roll nothing (a next turn with
no start-of-turn rule, a hit on a mecha combatant with no armour dice). The draws are the
very ones random.Random(seed) gives: the same seeding, the same stream, only later.
"""

from __future__ import annotations

import _random
import random
from typing import Any


class Seeded(random.Random):
    """random.Random(seed), seeded when first drawn from (or its state read)."""

    def __init__(self, seed: int) -> None:  # not random.Random.__init__: that seeds now
        self._seed = seed
        self._started = False
        self.gauss_next = None  # as random.Random.seed sets it

    def _start(self) -> None:
        self._started = True
        super().seed(self._seed)
        # seeded: every later draw goes straight to random.Random's own (no frame of ours)
        self.random = super().random  # type: ignore[method-assign]
        self.getrandbits = super().getrandbits  # type: ignore[method-assign]

    # random.Random draws everything through these two (randrange, choice, shuffle …
    # through getrandbits, as for random.Random itself: see its __init_subclass__)
    def random(self) -> float:
        if not self._started:
            self._start()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        if not self._started:
            self._start()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        if not self._started:
            self._start()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._started = True
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._started = True
        super().seed(a, version)


# random.Random's base, the generator itself (C): its seed() is what random.Random.seed
# calls for a whole number, after its checks of other kinds of seed
_SEED_GENERATOR = _random.Random.seed


def generator(seed: int) -> random.Random:
    """random.Random(seed), for a whole-number seed: the same state (getstate), seeded by
    the generator itself without random.Random.__init__ and .seed's frames and checks
    (the mecha game seeds one for every combatant every round: ~12,000 in a 5,000-event
    replay, issue 24)."""
    r = random.Random.__new__(random.Random)
    _SEED_GENERATOR(r, seed)
    r.gauss_next = None  # type: ignore[attr-defined]  # as random.Random.seed sets it
    return r
