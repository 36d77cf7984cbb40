"""Exact odds at the table (issue #28): before the roll, the chance an attack hits this
target, what the target loses after its own armour, and the chance to take it out of the
fight by the 1st, 2nd … Nth attack of the attacker's turn. Game-free: each game's
`rules_pkg/<game>/takeout.py` says what one attack does (its blows, from the game's own
calculators and outcome functions) and how a blow lands on the target (its own armour,
through the encounter's own hit rule); this module walks the attacks as a chain over the
target's states, exactly, with Fractions.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from .dice import Distribution
from .errors import RulesError
from .registry import Input
from .shapes import FracDict

MAX_ATTACKS = 10  # the most attacks a turn is worked out over
# The most (state, blow) steps the exact chain may take; past it the answer is simulated
# and says so (a phone answers within its 200 ms under this budget).
MAX_STEPS = 60_000
SIMULATED_TURNS = 2_000


@dataclass(frozen=True)
class Blow:
    """One attack that hits: the damage before the target's armour and how it lands (the
    fields of the encounter's Hit event)."""

    damage: int
    critical: bool = False
    location: str = ""
    melee: bool = False
    bypass: bool = False


Attack = Distribution[Any]  # one attack: a Blow on a hit, None on a miss


@dataclass(frozen=True)
class Plan:
    """What a game works out for one attacker, attack and target.

    `turns`: the attack's blows, by what the attacker rolls once for the whole turn
    (Horizon's combat test: its AP score), with that roll's chance; most games roll each
    attack alone: one entry of weight 1. `land(state, blow)`: the target's states after one
    blow (its own armour; a roll of the armour makes it several). `out(state)`: taken out by
    the game's rule. `lost(before, after)`: what the target lost (HP, Wounds …)."""

    turns: tuple[tuple[Fraction, Attack], ...]
    land: Callable[[Any, Blow], Distribution[Any]]
    out: Callable[[Any], bool]
    lost: Callable[[Any, Any], int]
    wear: Callable[[Any], tuple[tuple[str, int], ...]]  # the armour values the hit can lower
    out_rule: str  # the game's own rule for out of the fight, with its source
    loss: str  # what an attack does to the target, in its sheet's words: "HP lost" …
    notes: tuple[str, ...] = ()
    p_hit: Fraction | None = None  # the calculator's own, where a hit can do no harm


@dataclass(frozen=True)
class Takeout:
    """The answer for one target: exact unless `exact` is False (then `method` says how)."""

    target: str
    name: str
    attacks: int
    p_hit: Fraction
    damage: tuple[tuple[int, Fraction], ...]  # lost to the 1st attack (0: a miss or no harm)
    mean_damage: Fraction  # of the 1st attack
    mean_total: Fraction  # over all the attacks of the turn
    out_by: tuple[Fraction, ...]  # P(out by the 1st, 2nd … attack)
    wear: tuple[tuple[str, int, tuple[tuple[int, Fraction], ...]], ...]  # armour after the 1st
    out_rule: str
    loss: str
    already_out: bool
    exact: bool = True
    method: str = "exact"
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target, "name": self.name, "attacks": self.attacks,
            "p_hit": frac(self.p_hit),
            "damage": [[d, frac(p)] for d, p in self.damage],
            "mean_damage": frac(self.mean_damage), "mean_total": frac(self.mean_total),
            "out_by": [frac(p) for p in self.out_by],
            "wear": [{"what": w, "before": b, "after": [[v, frac(p)] for v, p in after]}
                     for w, b, after in self.wear],
            "out_rule": self.out_rule, "loss": self.loss,
            "already_out": self.already_out, "exact": self.exact, "method": self.method,
            "notes": list(self.notes),
        }


def frac(f: Fraction) -> FracDict:
    return {"text": f"{f.numerator}/{f.denominator}", "value": float(f)}


def _add(acc: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    acc[key] = acc.get(key, Fraction(0)) + p


def _pmf(d: Distribution[Any]) -> list[tuple[Any, Fraction]]:
    total = d.total
    return [(o, Fraction(c, total)) for o, c in d.items]


class _Budget(Exception):
    pass


Worked = tuple[list[Fraction], dict[int, Fraction], Fraction, dict[int, dict[int, Fraction]]]


Moved = tuple[int, list[tuple[Any, int]]]  # (a denominator, each state with its ways)


def _move(plan: Plan, attack: Attack, s: Any, steps: list[int]) -> Moved:
    """Where one attack takes state s, in whole counts over one denominator (the attack's
    ways times the armour rolls' sizes): no Fraction is made."""
    by_size: dict[int, dict[Any, int]] = {}
    landed: tuple[tuple[Any, int], ...]
    for blow, cb in attack:
        if blow is None:
            size, landed = 1, ((s, 1),)
        else:
            steps[0] += 1
            if steps[0] > MAX_STEPS:
                raise _Budget
            d = plan.land(s, blow)
            size, landed = d.total, d.items
        acc = by_size.setdefault(size, {})
        for s2, c2 in landed:
            acc[s2] = acc.get(s2, 0) + cb * c2
    common = lcm(*by_size)
    out: dict[Any, int] = {}
    for size, acc in by_size.items():
        for s2, c in acc.items():
            out[s2] = out.get(s2, 0) + c * (common // size)
    return common * attack.total, list(out.items())


def _exact(plan: Plan, start: Any, attacks: int) -> Worked:
    """P(out by the k-th attack), the 1st attack's loss, the mean total loss, and the armour
    after the 1st attack: the chain over the target's states, attack by attack, in whole
    counts over one denominator per attack (Fractions only for the answers: summing them
    state by state made a Cyberpunk RED answer take 35 ms)."""
    steps = [0]
    out_by = [Fraction(0)] * attacks
    first: dict[int, Fraction] = {}
    wear: dict[int, dict[int, Fraction]] = {}
    mean_total = Fraction(0)
    for weight, attack in plan.turns:
        moves: dict[Any, Moved] = {}  # of the states still in the fight
        states: dict[Any, int] = {start: 1}  # ways, over `ways`; times `weight`
        ways = 1
        for k in range(attacks):
            going = [s for s in states if not plan.out(s)]  # out stays out
            for s in going:
                if s not in moves:
                    moves[s] = _move(plan, attack, s, steps)
            scale = lcm(1, *(moves[s][0] for s in going))
            nxt: dict[Any, int] = {}
            for s, n in states.items():
                if s not in moves:  # out
                    nxt[s] = nxt.get(s, 0) + n * scale
                    continue
                size, to = moves[s]
                f = n * (scale // size)
                for s2, c in to:
                    nxt[s2] = nxt.get(s2, 0) + f * c
            ways *= scale
            g = gcd(ways, *nxt.values())  # kept small: big counts cost more than Fractions
            states, ways = {s: n // g for s, n in nxt.items()}, ways // g
            out_by[k] += weight * Fraction(sum(n for s, n in states.items() if plan.out(s)),
                                           ways)
            if k == 0:
                for s, n in states.items():
                    p = weight * Fraction(n, ways)
                    _add(first, plan.lost(start, s), p)
                    for i, (_, v) in enumerate(plan.wear(s)):
                        _add(wear.setdefault(i, {}), v, p)
        mean_total += weight * Fraction(sum(n * plan.lost(start, s) for s, n in states.items()),
                                        ways)
    return out_by, first, mean_total, wear


def _draw(pmf: list[tuple[Any, Fraction]], rng: random.Random) -> Any:
    u = Fraction(rng.random())
    for o, p in pmf:
        if u < p:
            return o
        u -= p
    return pmf[-1][0]


def _simulated(plan: Plan, start: Any, attacks: int, seed: int) -> Worked:
    """The same chain run SIMULATED_TURNS times on seeded dice: an estimate, said to be one."""
    rng = random.Random(seed)
    n = SIMULATED_TURNS
    out_count = [0] * attacks
    first: dict[int, Fraction] = {}
    wear: dict[int, dict[int, Fraction]] = {}
    total = Fraction(0)
    turns = [(w, _pmf(a)) for w, a in plan.turns]
    pick = [(i, w) for i, (w, _) in enumerate(turns)]
    for _ in range(n):
        blows = turns[_draw(pick, rng)][1]
        s = start
        for k in range(attacks):
            if not plan.out(s):
                blow = _draw(blows, rng)
                if blow is not None:
                    s = _draw(_pmf(plan.land(s, blow)), rng)
            if k == 0:
                _add(first, plan.lost(start, s), Fraction(1, n))
                for i, (_, v) in enumerate(plan.wear(s)):
                    _add(wear.setdefault(i, {}), v, Fraction(1, n))
            if plan.out(s):
                out_count[k] += 1
        total += Fraction(plan.lost(start, s), n)
    return [Fraction(c, n) for c in out_count], first, total, wear


def work_out(plan: Plan, start: Any, attacks: int, target: str = "", name: str = "",
             seed: int = 1) -> Takeout:
    """The answer for one target (its state `start`) over `attacks` attacks."""
    if not isinstance(attacks, int) or isinstance(attacks, bool) or not 1 <= attacks <= MAX_ATTACKS:
        raise RulesError(f"attacks this turn: 1 to {MAX_ATTACKS}")
    p_hit = plan.p_hit if plan.p_hit is not None else sum(
        (w * a.p(lambda b: b is not None) for w, a in plan.turns), Fraction(0))
    exact, method = True, "exact"
    try:
        out_by, first, mean_total, wear = _exact(plan, start, attacks)
    except _Budget:
        exact = False
        method = (f"approximate: {SIMULATED_TURNS:,} simulated turns on seeded dice (seed "
                  f"{seed}); the exact answer needs more than {MAX_STEPS:,} steps")
        out_by, first, mean_total, wear = _simulated(plan, start, attacks, seed)
    before = plan.wear(start)
    return Takeout(
        target, name, attacks, p_hit,
        tuple(sorted(first.items())),
        sum((d * p for d, p in first.items()), Fraction(0)), mean_total,
        tuple(out_by),
        tuple((w, b, tuple(sorted(wear.get(i, {}).items()))) for i, (w, b) in enumerate(before)),
        plan.out_rule, plan.loss, plan.out(start), exact, method, plan.notes)


# -- the games' attacks --------------------------------------------------------------------------
PlanFn = Callable[[Mapping[str, Any], Any, Any], Plan]


@dataclass(frozen=True)
class Way:
    """One attack the odds know: its plan from the calculator's inputs (and `extra` inputs the
    calculator has not, e.g. d100's damage dice), and how many a turn usually has."""

    plan: PlanFn
    extra: tuple[Input, ...] = ()
    attacks: int = 1
    sheet_fills: tuple[str, ...] = ()  # inputs the target's sheet gives (not asked)


def attacks_of(game: str) -> Mapping[str, Way]:
    """A game's attacks for the odds (calculator id -> its plan), from its own
    `rules_pkg/<game>/takeout.py` (found, not listed)."""
    from .registry import game_modules

    if game not in game_modules():
        raise RulesError(f"no game {game[:40]!r}")
    try:
        module = importlib.import_module(f"rules_pkg.{game}.takeout")
    except ModuleNotFoundError:
        raise RulesError(f"no odds for {game!r} yet") from None
    found: Mapping[str, Way] = module.ATTACKS
    return found


def plan_for(game: str, calc: str, inputs: Mapping[str, Any], attacker: Any, target: Any) -> Plan:
    attacks = attacks_of(game)
    if calc not in attacks:
        raise RulesError(f"no odds for {calc[:60]!r}: choose one of {', '.join(attacks)}")
    return attacks[calc].plan(inputs, attacker, target)


def int_odds(rows: Sequence[tuple[str, Fraction]]) -> Distribution[int]:
    """A calculator's odds table of whole-number outcomes (labels `str(n)` or "n AP"), as
    counts."""
    scale = 1
    for _, p in rows:
        scale = scale * p.denominator // _gcd(scale, p.denominator)
    return Distribution.from_counts({int(label.split()[0]): int(p * scale) for label, p in rows})


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# -- what every game's plan reads -----------------------------------------------------------------
def validated(calc: str, inputs: Mapping[str, Any], extra: Sequence[Input] = (),
              ) -> dict[str, Any]:
    """The calculator's own inputs, checked as its form checks them (defaults filled in),
    and the `extra` inputs the odds add, checked by their own limits."""
    from . import registry

    names = {i.name for i in extra}
    values = registry.get(calc).validate({k: v for k, v in inputs.items()
                                          if k not in names and k not in ("seed", "roll")})
    return values | extras(inputs, extra)


def extras(inputs: Mapping[str, Any], extra: Sequence[Input]) -> dict[str, Any]:
    """The odds' own inputs, checked by their limits (their defaults where not given)."""
    return {i.name: i.coerce(inputs[i.name]) if i.name in inputs else i.default for i in extra}


def calc_run(calc: str, values: Mapping[str, Any]) -> Any:
    """The calculator's own exact answer (a Result) for these inputs."""
    from . import registry

    return registry.get(calc).run(**values)


def odds_table(result: Any, title: str) -> Distribution[int]:
    """One of a Result's odds tables of whole numbers, by its title."""
    for o in result.odds:
        if o.title == title:
            return int_odds([(r.outcome, r.exactly) for r in o.rows])
    raise RulesError(f"the calculator gave no odds called {title!r}")


def value_of(result: Any, name: str) -> Any:
    for v in result.values:
        if v[0] == name:
            return v[1]
    raise RulesError(f"the calculator gave no value called {name!r}")


# A blow landed on a state, kept between requests: the hit rule is a pure function of the
# target's state and the blow (no dice), and a chain lands the same blows on the same states
# often, within one answer and in the next (the same target after a hit, another attack).
_LANDED: dict[tuple[str, Any, Blow], Any] = {}
LANDED_KEPT = 50_000


def tracker_hit(game: str) -> Callable[[Any, Blow], Any]:
    """A blow landed by the encounter tracker's own hit rule (the target's armour, Defense,
    ablation …): the rule Apply uses, so the odds and the tracked fight agree. For a rule
    that rolls no dice; a game whose armour is rolled rolls it exactly in its plan."""
    from .encounter.common import Log
    from .encounter.events import Hit
    from .encounter.fold import rules_for

    rules = rules_for(game)
    rng = random.Random(0)  # the rules landed here roll nothing (a rolled armour is the plan's)

    def land(c: Any, blow: Blow) -> Any:
        key = (game, c, blow)
        after = _LANDED.get(key)
        if after is None:
            after = rules.hit(
                rules.sheet, c, Hit(c.id, blow.damage, location=blow.location, melee=blow.melee,
                                    critical=blow.critical, bypass=blow.bypass),
                rng, Log())
            if len(_LANDED) >= LANDED_KEPT:
                _LANDED.clear()
            _LANDED[key] = after
        return after

    return land


# -- the printed cheat sheet: typical targets, worked out at build time ----------------------------
@dataclass(frozen=True)
class Typical:
    """A typical attack on a typical target, for the cheat sheet's table (each game's
    takeout.py lists its own in TYPICAL): the attack's inputs and the target's sheet values
    (the rest are the sheet's defaults)."""

    attack: str  # the attacker and attack, in words
    calc: str
    inputs: tuple[tuple[str, Any], ...]
    target: str  # the target, in words
    values: tuple[tuple[str, int], ...]
    attacks: int = 3
    kind: str = "character"


def typical(game: str) -> list[tuple[Typical, Takeout]]:
    """Each of the game's typical attacks worked out, exactly, against its target."""
    from .encounter import AddCombatant, fold

    module = importlib.import_module(f"rules_pkg.{game}.takeout")
    out = []
    for t in module.TYPICAL:
        enc = fold(game, [AddCombatant("a", "Attacker"),
                          AddCombatant("t", t.target, t.kind, t.values)])
        target = enc.combatant("t")
        plan = plan_for(game, t.calc, dict(t.inputs), enc.combatant("a"), target)
        out.append((t, work_out(plan, target, t.attacks, "t", t.target)))
    return out
