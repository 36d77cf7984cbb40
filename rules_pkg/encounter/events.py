"""The events of a fight, and their JSON form.

The encounter's state is a fold of these (see fold.py): the page stores only the list.
An event carries everything it needs to be replayed exactly, dice included: an event
that rolls carries its seed, so the same log always gives the same fight.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import RulesError

MAX_TEXT = 200
MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class AddCombatant:
    KIND: ClassVar[str] = "add"
    id: str
    name: str
    kind: str = "character"
    values: tuple[tuple[str, int], ...] = ()  # the sheet's defaults fill the rest


@dataclass(frozen=True)
class RemoveCombatant:
    KIND: ClassVar[str] = "remove"
    id: str


@dataclass(frozen=True)
class RollInitiative:
    """Roll everyone's initiative by the game's rule; starts round 1 if not started."""

    KIND: ClassVar[str] = "initiative"
    seed: int
    surprise: tuple[str, ...] = ()  # ids of combatants with the Surprise bonus / extra card
    # only those without an initiative (a late joiner): the others and the turn stay
    only_missing: bool = False
    ask: bool = False  # players roll their own initiative where the game has them roll it


@dataclass(frozen=True)
class SwapInitiative:
    """Two combatants exchange their initiatives (FL:10 "Players may exchange initiative
    cards"); the turn stays with whoever has it."""

    KIND: ClassVar[str] = "swap_initiative"
    id: str
    other: str


@dataclass(frozen=True)
class Move:
    """A combatant moved one place later (`by` 1) or earlier (-1) in the turn order. The
    current combatant moved later holds its turn: the next one acts now."""

    KIND: ClassVar[str] = "move"
    id: str
    by: int
    seed: int = 0  # the dice of the turn that starts when the current one holds


@dataclass(frozen=True)
class SetInitiative:
    KIND: ClassVar[str] = "set_initiative"
    id: str
    value: int


@dataclass(frozen=True)
class NextTurn:
    """End the current combatant's turn (its end-of-turn effects) and start the next one."""

    KIND: ClassVar[str] = "next_turn"
    seed: int = 0
    half_action: bool = False  # the turn that ends took at most a Half Action (d100 Crippled)
    ask: bool = False  # the players roll their own dice (Answer); older logs: from the seed


@dataclass(frozen=True)
class PreviousTurn:
    """Back to the previous combatant's turn in this round, nothing undone (Undo takes
    back what a turn did)."""

    KIND: ClassVar[str] = "previous_turn"


@dataclass(frozen=True)
class NextRound:
    """End every remaining turn of this round, then start the next round."""

    KIND: ClassVar[str] = "next_round"
    seed: int = 0
    ask: bool = False


@dataclass(frozen=True)
class _OnCombatant:
    """An event on one combatant: `target` is its id (the first field of every such event)."""

    target: str


@dataclass(frozen=True)
class Hit(_OnCombatant):
    """Damage to a combatant, through its armour or Defense by the game's own rule.

    `location`: Cyberpunk RED "body"/"head"; Forbidden Lands the attribute hit.
    `bypass`: the damage ignores armour (fire, poison) or, in Horizon, Defense.
    """

    KIND: ClassVar[str] = "hit"
    damage: int
    seed: int = 0
    location: str = ""
    melee: bool = False
    critical: bool = False
    bypass: bool = False
    source: str = ""  # what dealt it: a calculator's summary, a weapon …
    condition: str = ""  # a condition the hit also sets (a Wounding Attack's)
    # the armour dice as rolled at the table or by a calculator (Forbidden Lands gear dice,
    # the mecha game's d10s): used when the target's own armour has that many dice, else
    # the target's armour is rolled
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Apply(_OnCombatant):
    """A calculator's result applied as it stands: changes, new values and conditions."""

    KIND: ClassVar[str] = "apply"
    source: str
    changes: tuple[tuple[str, int], ...] = ()  # (value, delta)
    sets: tuple[tuple[str, int], ...] = ()  # (value, new value)
    conditions: tuple[str, ...] = ()  # condition names to set (their default duration)
    upto: tuple[tuple[str, int], ...] = ()  # (value, ceiling): a change fills up to it


@dataclass(frozen=True)
class Adjust(_OnCombatant):
    """One of the combatant's values (`key`, of its game's sheet) changed by `delta`."""

    KIND: ClassVar[str] = "adjust"
    key: str
    delta: int
    reason: str = ""


@dataclass(frozen=True)
class SetValue(_OnCombatant):
    """One of the combatant's values (`key`) set to `value`."""

    KIND: ClassVar[str] = "set"
    key: str
    value: int


@dataclass(frozen=True)
class _Named(_OnCombatant):
    """An event on one of the combatant's conditions or injuries, by name."""

    name: str


@dataclass(frozen=True)
class SetCondition(_Named):
    """A condition set for `rounds` (None: until cleared), at a `level`."""

    KIND: ClassVar[str] = "condition"
    rounds: int | None = None
    level: str = ""
    custom: bool = False  # the table's own condition, not one of the sheet's (a free name)


@dataclass(frozen=True)
class ClearCondition(_Named):
    """A condition cleared."""

    KIND: ClassVar[str] = "clear"


@dataclass(frozen=True)
class Injury(_Named):
    """A Critical Injury (or the game's like) suffered."""

    KIND: ClassVar[str] = "injury"


@dataclass(frozen=True)
class Answer(_Named):
    """A player's roll the rules asked for (`name`, e.g. Death Save): the dice as rolled at
    the table (`faces`), or none: rolled here from `seed`, in sight."""

    KIND: ClassVar[str] = "answer"
    faces: tuple[int, ...] = ()
    seed: int = 0


@dataclass(frozen=True)
class OutOfFight(_OnCombatant):
    """The GM takes a combatant out of the fight (`out`), or brings one back."""

    KIND: ClassVar[str] = "out"
    out: bool = True


@dataclass(frozen=True)
class Note:
    KIND: ClassVar[str] = "note"
    text: str


@dataclass(frozen=True)
class Undo:
    """Cancels the event whose eid is `of` (log.py); an undo of an undo is a redo.

    Only the stored log holds these: the fold replays the log they leave (log.effective)."""

    KIND: ClassVar[str] = "undo"
    of: str


Event = (AddCombatant | RemoveCombatant | RollInitiative | SetInitiative | NextTurn
         | NextRound | Hit | Apply | Adjust | SetValue | SetCondition | ClearCondition
         | Injury | Note | SwapInitiative | Move | Answer | OutOfFight | PreviousTurn | Undo)
EVENT_TYPES: dict[str, type[Any]] = {t.KIND: t for t in typing.get_args(Event)}


# --- JSON ------------------------------------------------------------------------------
def to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.KIND}
    fields = event.__dict__  # a plain frozen dataclass's (see _spec)
    for name, listed in (_SPECS.get(type(event)) or _spec(type(event)))[4]:
        v = fields[name]
        # only a tuple field is looked into (every event's export and import, issue 24)
        out[name] = [list(x) if isinstance(x, tuple) else x for x in v] \
            if listed and isinstance(v, tuple) else v
    return out


def field_names(event: Event) -> tuple[str, ...]:
    """The event's fields, in order (its JSON form has these, its type and its eid)."""
    return (_SPECS.get(type(event)) or _spec(type(event)))[2]


def _int(v: Any, what: str, lo: int = -10**9, hi: int = 10**9) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RulesError(f"{what} must be a whole number (got {str(v)[:30]!r})")
    if not lo <= v <= hi:
        raise RulesError(f"{what} must be between {lo} and {hi} (got {v})")
    return v


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise RulesError(f"{what} must be text (got {type(v).__name__})")
    if len(v) > MAX_TEXT:
        raise RulesError(f"{what} is too long (at most {MAX_TEXT} characters)")
    return v


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise RulesError(f"{what} must be true or false")
    return v


def _pairs(v: Any, what: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(v, list | tuple) or len(v) > 50:
        raise RulesError(f"{what} must be a list of [name, number] pairs")
    out = []
    for p in v:
        if not isinstance(p, list | tuple) or len(p) != 2:
            raise RulesError(f"{what} must be a list of [name, number] pairs")
        out.append((_str(p[0], what), _int(p[1], f"{what} {str(p[0])[:20]}")))
    return tuple(out)


def _ints(v: Any, what: str) -> tuple[int, ...]:
    if not isinstance(v, list | tuple) or len(v) > 50:
        raise RulesError(f"{what} must be a list of dice (at most 50)")
    return tuple(_int(x, what, 1, 100) for x in v)


def _strs(v: Any, what: str) -> tuple[str, ...]:
    if not isinstance(v, list | tuple) or len(v) > 50:
        raise RulesError(f"{what} must be a list of names")
    return tuple(_str(x, what) for x in v)


_FIELD = {
    "str": _str,
    "int": lambda v, w: _int(v, w),
    "bool": lambda v, w: _bool(v, w),
    "int | None": lambda v, w: None if v is None else _int(v, w, 0, 10**6),
    "tuple[tuple[str, int], ...]": _pairs,
    "tuple[str, ...]": _strs,
    "tuple[int, ...]": _ints,
}


# The usual case of a field type, checked inline without building its message (a
# 5,000-event file is read on every import and reload, issue 24: not a function called
# for every field of every event): its Python type, the bounds of its value (of its
# length, for text), and whether None is one too; anything else goes to _FIELD, which
# says what is wrong.
Plain = tuple[type | None, int, int, bool]
_PLAIN: dict[str, Plain] = {
    "str": (str, 0, MAX_TEXT, False),
    "int": (int, -10**9, 10**9, False),
    "bool": (bool, 0, 1, False),
    "int | None": (int, 0, 10**6, True),
}
_SEED: Plain = (int, 0, MAX_SEED, False)
_LISTED: Plain = (None, 0, 0, False)  # lists: the full check builds the tuple


# per event type (worked out once): its field names, and "type"; per field (name,
# required, plain check, type); the field names in order; the defaults; per field in
# order (name, whether it is a tuple: to_dict lists it)
_Spec = tuple[frozenset[str], tuple[tuple[str, bool, Plain, str], ...],
              tuple[str, ...], dict[str, Any], tuple[tuple[str, bool], ...]]
_SPECS: dict[type[Any], _Spec] = {}


def _spec(cls: type[Any]) -> _Spec:
    spec = _SPECS.get(cls)
    if spec is None:
        fs = dataclasses.fields(cls)
        spec = _SPECS[cls] = (
            frozenset(f.name for f in fs) | {"type"},
            tuple((f.name, f.default is dataclasses.MISSING,
                   _SEED if f.name == "seed" else _PLAIN.get(str(f.type), _LISTED),
                   str(f.type)) for f in fs),
            tuple(f.name for f in fs),
            {f.name: f.default for f in fs if f.default is not dataclasses.MISSING},
            tuple((f.name, str(f.type).startswith("tuple[")) for f in fs))
        if hasattr(cls, "__post_init__") or any(f.default_factory is not dataclasses.MISSING
                                                or not f.init for f in fs):
            raise TypeError(f"{cls.__name__}: from_dict builds plain frozen dataclasses")
    return spec


def from_dict(raw: Any, where: str = "event") -> Event:
    """An event from its JSON form, every field checked; RulesError names what is wrong."""
    if not isinstance(raw, dict):
        raise RulesError(f"{where} is not an object")
    kind = raw.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RulesError(f"{where} has an unknown type {str(kind)[:30]!r}")
    names, fields, _, defaults, _ = _spec(cls)
    if not names.issuperset(raw):
        extra = sorted(set(raw) - names)
        raise RulesError(f"{where} ({kind}) has unknown field(s): {', '.join(extra)[:80]}")
    args: dict[str, Any] = {}
    for name, required, plain, typ in fields:
        if name not in raw:
            if required:
                raise RulesError(f"{where} ({kind}) lacks its field {name!r}")
            continue
        v = raw[name]
        t, lo, hi, none = plain
        x: Any = v  # compared as its type says (not narrowed by the `is` test)
        if (type(v) is t and lo <= (len(x) if t is str else x) <= hi) or (v is None and none):
            args[name] = v
        elif name == "seed":
            args[name] = _int(v, f"{where} seed", 0, MAX_SEED)
        else:
            args[name] = _FIELD[typ](v, f"{where} ({kind}) {name}")
    # as cls(**args) makes it (every field from args or its default, nothing to check
    # after), without the frozen __init__'s one object.__setattr__ per field
    event: Event = object.__new__(cls)
    event.__dict__.update(defaults, **args)
    return event
