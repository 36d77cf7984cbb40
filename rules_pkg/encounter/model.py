"""The nouns of an encounter: sheets (what a combatant carries), combatants, the state.

A game declares its sheet once: its numbers with their ranges and the source section
they come from, and its conditions. Everything in a fight is one of these frozen values.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from itertools import chain
from typing import Any, TypeVar, overload

from ..errors import RulesError
from .limits import MAX_COMBATANTS as MAX_COMBATANTS  # the limits live in limits.py
from .limits import MAX_NAME as MAX_NAME

MAX_VALUE = 9999  # a ceiling for "no upper bound in the source" values (wounds taken …)

N = TypeVar("N")
_FIELDS: dict[type, frozenset[str]] = {}


def replace(noun: N, /, **changes: Any) -> N:
    """dataclasses.replace for the frozen nouns of a fight, without its per-field work (a
    fold makes ~10 of these an event: issue 24's replay). The same value: every field
    copied, the changed ones set, an unknown field a TypeError. For dataclasses whose
    fields are all set by __init__ and that check nothing in __post_init__ (these)."""
    cls = type(noun)
    names = _FIELDS.get(cls)
    if names is None:
        if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") or not all(
                f.init for f in fields(cls)):  # type: ignore[arg-type]
            raise TypeError(f"{cls.__name__} is not a plain frozen dataclass")
        names = _FIELDS[cls] = frozenset(f.name for f in fields(cls))  # type: ignore[arg-type]
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - names)[0]!r}")
    new = object.__new__(cls)
    kept = new.__dict__  # frozen: set past __setattr__, as __init__ does
    kept.update(noun.__dict__)
    kept.update(changes)  # (not update(..., **changes): a copy of `changes` more)
    return new


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
        for k, v in self.counters:
            if k == key:
                return v
        return 0

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


class History(Sequence[Entry]):
    """A fight's history, oldest first, read as a tuple of entries. A fold adds one entry
    an event: `plus` copies at most a chunk of CHUNK entries and the tuple of full chunks,
    not every entry before (a tuple copied every event made a 5,000-event replay
    quadratic, issue 24); no chain of histories either (Pyodide's stack is too small to
    free one 5,000 links long)."""

    CHUNK = 64
    __slots__ = ("_flat", "_full", "_len", "_tail")

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        flat = tuple(entries)
        cut = len(flat) - len(flat) % self.CHUNK
        self._full = tuple(flat[i:i + self.CHUNK] for i in range(0, cut, self.CHUNK))
        self._tail = flat[cut:]
        self._len = len(flat)
        self._flat: tuple[Entry, ...] | None = flat

    def plus(self, entry: Entry) -> History:
        new = History.__new__(History)
        tail = (*self._tail, entry)
        if len(tail) == self.CHUNK:
            new._full, new._tail = (*self._full, tail), ()
        else:
            new._full, new._tail = self._full, tail
        new._len, new._flat = self._len + 1, None
        return new

    @property
    def entries(self) -> tuple[Entry, ...]:
        if self._flat is None:  # made once, when first read
            self._flat = (*chain.from_iterable(self._full), *self._tail)
        return self._flat

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Entry, ...]: ...
    def __getitem__(self, i: int | slice) -> Entry | tuple[Entry, ...]:
        return self.entries[i]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._len == other._len and self.entries == other.entries
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.entries)

    def __repr__(self) -> str:
        return f"History({self.entries!r})"


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
    history: History = field(default=History())
    asks: tuple[Ask, ...] = ()  # rolls waiting for a player's dice
    pass_no: int = 1  # the round's pass (Rules.passes: the mecha game's second, third action)

    def combatant(self, cid: str) -> Combatant:
        kept = self.__dict__.get("_places")  # places(), without a call: the hottest lookup
        at = (kept[1] if kept is not None and kept[0] is self.combatants
              else self.places()).get(cid)
        if at is None:
            raise RulesError(f"no combatant {cid!r} in this encounter")
        return self.combatants[at]

    def places(self) -> dict[str, int]:
        """Each combatant's place in `combatants`, by id (the first, should two share one).
        A fold looks combatants up by id several times a turn (issue 24's replay): worked
        out once, and kept with the very tuple it indexes, so a copy with other combatants
        (model.replace copies it along) works out its own; the dict is never changed."""
        kept: tuple[tuple[Combatant, ...], dict[str, int]] | None = self.__dict__.get("_places")
        if kept is None or kept[0] is not self.combatants:
            places: dict[str, int] = {}
            for i, c in enumerate(self.combatants):
                places.setdefault(c.id, i)
            kept = (self.combatants, places)
            object.__setattr__(self, "_places", kept)  # frozen: a cache, not a field
        return kept[1]

    @property
    def current(self) -> Combatant | None:
        if self.round == 0 or not self.order:
            return None
        return self.combatant(self.order[self.turn])

    def replace_combatant(self, c: Combatant) -> Encounter:
        places = self.places()
        at = places.get(c.id)
        if at is None or len(places) != len(self.combatants):  # none, or an id twice
            return replace(self, combatants=tuple(c if x.id == c.id else x
                                                  for x in self.combatants))
        combatants = (*self.combatants[:at], c, *self.combatants[at + 1:])
        new = replace(self, combatants=combatants)
        object.__setattr__(new, "_places", (combatants, places))  # the same ids, places
        return new
