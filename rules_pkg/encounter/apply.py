"""'Apply to …': the event a calculator's result proposes for a combatant.

A proposal is an event without its target (the page adds the combatant chosen). Each game
says what its calculators' results propose (its `Rules.apply`, in its own package); this
is the game-free part: the form's text typed by the calculator's own inputs, then the
game's handler.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from .. import registry
from ..errors import RulesError
from . import events as ev
from .games import RULES
from .proposal import Handler, Proposal, Values


def handler(calc_id: str) -> Handler | None:
    rules = RULES.get(calc_id.split(".", 1)[0])
    return rules.apply.get(calc_id) if rules else None


def proposals(calc_id: str, inputs: Values, result: Values) -> list[Proposal]:
    """What a calculator's result can do to a combatant (empty: nothing to apply)."""
    fn = handler(calc_id)
    if fn is None or not isinstance(inputs, dict) or not isinstance(result, dict):
        return []
    try:  # the form's text, typed by the calculator's own inputs
        typed = registry.get(calc_id).validate(
            {k: v for k, v in inputs.items() if k not in ("seed", "roll")})
    except RulesError:
        return []
    return fn(calc_id, typed, result)


def with_target(event: ev.Event, target: str) -> ev.Event:
    return cast(ev.Event, replace(cast(Any, event), target=target))
