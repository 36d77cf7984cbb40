"""The nouns of an encounter: sheets (what a combatant carries), combatants, the state.

A game declares its sheet once: its numbers with their ranges and the source section
they come from, and its conditions. Everything in a fight is one of these frozen values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import RulesError
from .limits import MAX_COMBATANTS as MAX_COMBATANTS  # the limits live in limits.py
from .limits import MAX_NAME as MAX_NAME

MAX_VALUE = 9999  # a ceiling for "no upper bound in the source" values (wounds taken …)


@dataclass(frozen=True)
class Stat:
    """One number a combatant carries, with its declared range.

    `hi` is a number, or the key of another stat of the same combatant (HP ≤ max HP).
    `tracked` numbers change in the fight and are shown large; the others are inputs.
    """

    key: str
    label: str
    default: int
    lo: int
    hi: int | str
    source: str
    tracked: bool = True
    kinds: tuple[str, ...] = ()  # the kinds of combatant that carry it (empty: all)


@dataclass(frozen=True)
class ConditionDef:
    """A condition the source names, with what it does and how long it lasts."""

    name: str
    effect: str
    source: str
    rounds: int | None = None  # a default duration, in its bearer's turns; None: until cleared
    levels: tuple[str, ...] = ()  # e.g. On Fire: Mild, Strong, Deadly
    loses_turn: bool = False  # its bearer cannot act: the turn passes (d100 Stunned)
    actions: int = 0  # the Actions of its bearer's turn it costs (Horizon Stagger: 1)


@dataclass(frozen=True)
class Sheet:
    game: str
    title: str
    stats: tuple[Stat, ...]
    conditions: tuple[ConditionDef, ...]
    initiative: str  # the rule, in the game's words, with its source
    hit: str  # what "apply a hit" does, with its source
    kinds: tuple[str, ...] = ("character",)
    notes: tuple[str, ...] = ()
    main: tuple[str, ...] = ()  # the number that matters at a glance (view.main_value)
    cards: int = 0  # initiative is one of this many cards, one each (0: a number)
    surprise: str = ""  # the game's Surprise rule for initiative ("": it has none)

    def stat(self, key: str) -> Stat:
        for s in self.stats:
            if s.key == key:
                return s
        raise RulesError(f"{self.title} combatants have no value called {key!r}")

    def custom(self, name: str) -> ConditionDef:
        """The table's own condition (#25 item 7): a free name, no rule of the sheet's."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= 40:
            raise RulesError("a condition of your own needs a name of 1 to 40 characters")
        return self.find(name) or ConditionDef(name, "the table's own condition", "custom")

    def find(self, name: str) -> ConditionDef | None:
        return next((c for c in self.conditions if c.name.lower() == name.lower()), None)

    def condition(self, name: str) -> ConditionDef:
        for c in self.conditions:
            if c.name.lower() == name.lower():
                return c
        known = ", ".join(c.name for c in self.conditions)
        raise RulesError(f"{self.title} has no condition called {name[:40]!r} (known: {known})")

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game, "title": self.title, "initiative": self.initiative,
            "hit": self.hit, "kinds": list(self.kinds), "notes": list(self.notes),
            "cards": self.cards, "surprise": self.surprise,
            "stats": [{"key": s.key, "label": s.label, "default": s.default, "lo": s.lo,
                       "hi": s.hi, "source": s.source, "tracked": s.tracked,
                       "kinds": list(s.kinds)}
                      for s in self.stats],
            "conditions": [{"name": c.name, "effect": c.effect, "source": c.source,
                            "rounds": c.rounds, "levels": list(c.levels),
                            "loses_turn": c.loses_turn, "actions": c.actions}
                           for c in self.conditions],
        }


@dataclass(frozen=True)
class Condition:
    name: str
    rounds: int | None  # its bearer's turns left; None: until cleared
    level: str = ""
    since: int = 0  # the round it was set in (Burning grows by +1 per round passed)
    own_turn: bool = False  # set during its bearer's own turn ("starting with your next Turn")


@dataclass(frozen=True)
class Combatant:
    id: str
    name: str
    kind: str
    values: tuple[tuple[str, int], ...]
    conditions: tuple[Condition, ...] = ()
    initiative: int | None = None
    injuries: tuple[str, ...] = ()  # Critical Injuries and the like, by name
    counters: tuple[tuple[str, int], ...] = ()  # rule bookkeeping (Death Save penalty …)

    def value(self, key: str) -> int:
        for k, v in self.values:
            if k == key:
                return v
        raise RulesError(f"{self.name} has no value called {key!r}")

    def has(self, name: str) -> Condition | None:
        for c in self.conditions:
            if c.name == name:
                return c
        return None

    def counter(self, key: str) -> int:
        return dict(self.counters).get(key, 0)

    def with_value(self, key: str, value: int) -> Combatant:
        return replace(self, values=tuple((k, value if k == key else v) for k, v in self.values))

    def with_counter(self, key: str, value: int) -> Combatant:
        rest = tuple((k, v) for k, v in self.counters if k != key)
        return replace(self, counters=tuple(sorted((*rest, (key, value)))))


@dataclass(frozen=True)
class Entry:
    """One line of the fight's history: what an event did, explained."""

    event: int  # index of the event in the log
    round: int
    summary: str
    steps: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ask:
    """A roll the rules leave to a player, asked at the moment it happens (#25 item 2):
    `name` is the roll's (Death Save), `sides` and `count` its dice, `says` the rule."""

    id: str  # whose roll
    name: str
    sides: int
    says: str
    count: int = 1


@dataclass(frozen=True)
class Encounter:
    game: str
    round: int = 0  # 0: initiative not rolled yet
    turn: int = 0  # index into `order`
    order: tuple[str, ...] = ()
    combatants: tuple[Combatant, ...] = ()
    history: tuple[Entry, ...] = field(default=())
    asks: tuple[Ask, ...] = ()  # rolls waiting for a player's dice
    pass_no: int = 1  # the round's pass (Rules.passes: the mecha game's second, third action)

    def combatant(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.id == cid:
                return c
        raise RulesError(f"no combatant {cid!r} in this encounter")

    @property
    def current(self) -> Combatant | None:
        if self.round == 0 or not self.order:
            return None
        return self.combatant(self.order[self.turn])

    def replace_combatant(self, c: Combatant) -> Encounter:
        return replace(self, combatants=tuple(c if x.id == c.id else x for x in self.combatants))
