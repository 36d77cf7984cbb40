"""What an 'Apply to …' proposal is, and how a calculator's result is read for one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from . import events as ev
from .model import Combatant

Values = dict[str, Any]


class Proposal(NamedTuple):
    """An event without its target: the page adds the combatant chosen.

    `role`: whom it is for by default: "target" (the one hit) or "actor" (the one who
    acted: bullets spent come off the shooter, not the target).
    """

    label: str
    event: ev.Event
    role: str = "target"


Handler = Callable[[str, Values, Values], "list[Proposal]"]
"""What one calculator's result proposes: (calculator id, typed inputs, result JSON)."""
Handlers = Mapping[str, Handler]
Inputs = Callable[[Combatant], Values]
"""A calculator's inputs read off a combatant's sheet (as whom it is run, or against whom)."""


def read(*keys: str, **renamed: str) -> Inputs:
    """Inputs read straight off a combatant's values: each key as the input of that name,
    or `input="value key"` where the names differ."""
    pairs = [(k, k) for k in keys] + list(renamed.items())
    return lambda c: {name: c.value(key) for name, key in pairs}


def values_of(result: Values) -> Values:
    return {str(v[0]): v[1] for v in result.get("values", []) if isinstance(v, list) and v}


def dice_of(result: Values, kind: str) -> list[int]:
    return [int(d["value"]) for d in result.get("dice", [])
            if isinstance(d, dict) and d.get("kind") == kind]


def as_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def summary_of(result: Values) -> str:
    return str(result.get("summary", ""))[:150]


def plural(n: int, word: str) -> str:
    """"1 action", "2 actions" (item 8: plurals written properly)."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def sixes(rolled: list[int]) -> bool:
    """§ Critical Injuries: two or more 6s on the damage dice."""
    return sum(1 for d in rolled if d == 6) >= 2
