"""What every game's encounter rules share: the explanation log, ranges, the rules record."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import dice, registry
from ..result import Result
from .events import Hit
from .model import Ask, Combatant, Condition, Encounter, Sheet, Stat
from .proposal import Handlers, Inputs


@dataclass
class Log:
    """Steps and notes an event produces (local to one fold step: the fold stays pure)."""

    steps: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # players roll their own dice: a rule that has a player roll asks (NextTurn(ask=True));
    # an older log's events roll from their seed, as they always did
    asking: bool = False
    asks: list[Ask] = field(default_factory=list)
    round: int = 0  # the round the event happens in (Cyberpunk RED counts successive Chokes)
    # step(text): a step added; its list's own append, not a method around it (~6 steps an
    # event: a frame each in a long replay, issue 24)
    step: Callable[[str], None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.step = self.steps.append

    def ask(self, a: Ask) -> None:
        self.asks.append(a)
        self.step(f"{a.says}: the player rolls")

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def ask_or_roll(log: Log, rng: random.Random, a: Ask, c: Combatant,
                then: Callable[[tuple[int, ...]], Combatant]) -> Combatant:
    """A player's roll (#25 item 2): asked at the table when the event asks (its answer
    comes back through Rules.answer), else rolled from the event's seed, as an older log's
    events always were; `then` is the rule applied to the dice."""
    if log.asking:
        log.ask(a)
        return c
    return then(dice.roll(rng, a.sides, a.count))


def cond_text(cond: Condition) -> str:
    return f"{cond.name} ({cond.level})" if cond.level else cond.name


def bounds(sheet: Sheet, c: Combatant, stat: Stat) -> tuple[int, int]:
    hi = stat.hi if isinstance(stat.hi, int) else c.value(stat.hi)
    return stat.lo, max(stat.lo, hi)


def set_value(sheet: Sheet, c: Combatant, key: str, value: int, log: Log,
              carry: bool = True) -> Combatant:
    """Set a value, clamped to its declared range; a clamp is always said in a note.
    `carry`: a maximum lowered takes the values it bounds with it, saying so (not while a
    combatant is being added: those start full)."""
    stat = sheet.stat(key)
    lo, hi = bounds(sheet, c, stat)
    if value < lo or value > hi:
        kept = min(max(value, lo), hi)
        log.note(f"{c.name}: {stat.label} {value} is outside {lo}-{hi}: kept at {kept}")
        value = kept
    c = c.with_value(key, value)
    # a maximum that went down takes the values it bounds with it (e.g. HP ≤ max HP)
    for other in sheet.stats:
        if carry and other.hi == key and c.value(other.key) > value:
            log.note(f"{c.name}: {other.label} {c.value(other.key)} is above the new "
                     f"{stat.label} {value}: kept at {value}")
            c = c.with_value(other.key, value)
    return c


MINUS = "\N{MINUS SIGN}"


def lose(sheet: Sheet, c: Combatant, key: str, n: int, log: Log) -> Combatant:
    """Damage off a pool (HP, Wounds, an attribute), stopping at its floor: the history
    reads as it happened ("HP 40 - 60 → 0", with a minus sign), with no clamp note."""
    stat = sheet.stat(key)
    before = c.value(key)
    lo, hi = bounds(sheet, c, stat)
    c = c.with_value(key, min(hi, max(lo, before - n)))
    log.step(f"{stat.label} {before} {MINUS} {n} → {c.value(key)}")
    return c


def change(sheet: Sheet, c: Combatant, key: str, delta: int, log: Log) -> Combatant:
    return set_value(sheet, c, key, c.value(key) + delta, log)


HALF_ACTION = "half_action"  # counter set only while a turn ends (see fold._next_turn)

Initiative = Callable[[tuple[Combatant, ...], random.Random, frozenset[str], Log, frozenset[int]],
                      dict[str, int]]
"""The initiative of each of these combatants (those with Surprise; the initiatives others
already hold, which a deck of cards no longer has)."""


Score = Callable[[Combatant, random.Random, frozenset[str]], tuple[int, str]]


def in_turn(score: Score, no_surprise: str = "") -> Initiative:
    """Initiative scored for each combatant in turn (`score`: the number and how it came,
    a step each); `no_surprise`: the note when someone has Surprise and the game has no
    rule for it."""

    def initiative(cs: tuple[Combatant, ...], rng: random.Random, surprise: frozenset[str],
                   log: Log, taken: frozenset[int]) -> dict[str, int]:
        out = {}
        for c in cs:
            out[c.id], says = score(c, rng, surprise)
            log.step(f"{c.name}: {says}")
        if surprise and no_surprise:
            log.note(no_surprise)
        return out

    return initiative


def d10_plus(key: str, says: str, no_surprise: str) -> Initiative:
    """Initiative as 1d10 plus a value of the sheet (`key`); `says` how a step writes the
    sum ({v} the value, {d} the die)."""

    def score(c: Combatant, rng: random.Random, surprise: frozenset[str]) -> tuple[int, str]:
        (d,) = dice.roll(rng, 10)
        v = c.value(key)
        return v + d, f"{says.format(v=v, d=d)} = {v + d}"

    return in_turn(score, no_surprise)


def by_calculator(calc_id: str, value: str,
                  inputs: Callable[[Combatant, frozenset[str]], dict[str, Any]],
                  says: Callable[[Combatant, Result, int], str],
                  no_surprise: str = "") -> Initiative:
    """Initiative as the game's own calculator rolls it (`value`: the one it gives),
    seeded from the fight's dice, with the combatant's `inputs`."""

    def score(c: Combatant, rng: random.Random, surprise: frozenset[str]) -> tuple[int, str]:
        r = registry.get(calc_id).run(**inputs(c, surprise), roll=True,
                                      seed=rng.randrange(2**32))
        n = int(r.value(value))
        return n, says(c, r, n)

    return in_turn(score, no_surprise)
TurnHook = Callable[[Sheet, Combatant, Encounter, random.Random, Log], Combatant]


def no_turn_effect(sheet: Sheet, c: Combatant, enc: Encounter, rng: random.Random,
                   log: Log) -> Combatant:
    return c


def nothing_on_clear(sheet: Sheet, c: Combatant, name: str, log: Log) -> Combatant:
    return c


def no_answer(sheet: Sheet, c: Combatant, name: str, faces: tuple[int, ...], enc: Encounter,
              rng: random.Random, log: Log) -> Combatant:
    from ..errors import RulesError

    raise RulesError(f"{sheet.title} asks for no roll called {name[:40]!r}")


def in_the_fight(c: Combatant) -> str:
    return ""


def nothing_to_bring_back(sheet: Sheet, c: Combatant, log: Log) -> Combatant:
    return c


def record_injury(sheet: Sheet, c: Combatant, name: str, log: Log) -> Combatant:
    from .model import replace

    log.step(f"{c.name} suffers {name}")
    return replace(c, injuries=(*c.injuries, name))


@dataclass(frozen=True)
class Rules:
    """A game's encounter rules: its sheet and what each kind of moment does."""

    sheet: Sheet
    initiative: Initiative
    hit: Callable[[Sheet, Combatant, Hit, random.Random, Log], Combatant]
    status: Callable[[Combatant], tuple[str, ...]]
    lowest_first: bool = False  # Forbidden Lands: the lowest card acts first
    reroll_each_round: bool = False  # the mecha game: "Begin new round at stage one"
    start_turn: TurnHook = no_turn_effect
    end_turn: TurnHook = no_turn_effect
    injury: Callable[[Sheet, Combatant, str, Log], Combatant] = record_injury
    # what clearing a condition undoes (Cyberpunk RED: a breath of air gives the STATs back)
    cleared: Callable[[Sheet, Combatant, str, Log], Combatant] = nothing_on_clear
    # what gaining a condition does at once (a d100 horde Crippled gains Blood Loss)
    gained: Callable[[Sheet, Combatant, str, Log], Combatant] = nothing_on_clear
    # a player's roll the rules asked for (Log.ask), answered with its dice
    answer: Callable[[Sheet, Combatant, str, tuple[int, ...], Encounter, random.Random, Log],
                     Combatant] = no_answer
    # why a combatant is out of the fight by the rules ("": it is in), and what brings it
    # back when the GM says so (the conditions or values that put it out)
    out: Callable[[Combatant], str] = in_the_fight
    bring_back: Callable[[Sheet, Combatant, Log], Combatant] = nothing_to_bring_back
    # a combatant's actions in a round, one per pass of the turn order (the mecha game's
    # § 6 Additional Actions); None: one turn each per round
    passes: Callable[[Combatant], int] | None = None
    # "Apply to …": what each calculator's result proposes (by calculator id)
    apply: Handlers = field(default_factory=dict)
    # a calculator run "as" a combatant / "against" one: the inputs its sheet decides
    actor: Mapping[str, Inputs] = field(default_factory=dict)
    target: Mapping[str, Inputs] = field(default_factory=dict)

    def sheet_dict(self) -> dict[str, object]:
        """The sheet as the Encounter page reads it, with the order's direction (the page
        sets several typed initiatives in turn order, panels.js)."""
        return {**self.sheet.to_dict(), "lowest_first": self.lowest_first}
