"""A calculator run "as" a combatant: its inputs taken from the combatant's sheet.

`inputs_for(calc, actor, target)` gives the inputs the actor's and the target's numbers
and statuses decide (a Blind d100 character's test already carries Blind); the rest of
the form keeps what the player typed. Each game says which (its `Rules.actor` and
`Rules.target`, in its own package).
"""

from __future__ import annotations

from typing import Any

from .games import RULES
from .model import Combatant

Inputs = dict[str, Any]


def inputs_for(calc: str, actor: Combatant | None, target: Combatant | None) -> Inputs:
    rules = RULES.get(calc.split(".", 1)[0])
    out: Inputs = {}
    if rules is None:
        return out
    if actor is not None and calc in rules.actor:
        out.update(rules.actor[calc](actor))
    if target is not None and calc in rules.target:
        out.update(rules.target[calc](target))
    return out
