"""The encounter tracker's rules: a fight as a pure fold of its event log.

    from rules_pkg.encounter import fold, AddCombatant, RollInitiative, Hit, NextTurn
    enc = fold("cyberpunk_red", [AddCombatant("a", "Ada"), RollInitiative(seed=1), ...])

A stored log (`log.py`) gives every event a unique id and is only appended to: undo is an
event that cancels another, so two copies of a log merge as a union. Replaying the same
log always gives the same state (events that roll carry their seed). `codec` reads and
writes the log as a file with a schema version; `api.handle_json` is the page's one entry point.
"""

from .codec import SCHEMA, dump, load
from .events import (
    AddCombatant,
    Adjust,
    Apply,
    ClearCondition,
    Event,
    Hit,
    Injury,
    NextRound,
    NextTurn,
    Note,
    RemoveCombatant,
    RollInitiative,
    SetCondition,
    SetInitiative,
    SetValue,
    Undo,
)
from .fold import fold, rules_for, undo
from .model import Combatant, Condition, Encounter, Entry, Sheet, Stat

__all__ = [
    "SCHEMA", "AddCombatant", "Adjust", "Apply", "ClearCondition", "Combatant", "Condition",
    "Encounter", "Entry", "Event", "Hit", "Injury", "NextRound", "NextTurn", "Note",
    "RemoveCombatant", "RollInitiative", "SetCondition", "SetInitiative", "SetValue", "Sheet",
    "Stat", "Undo", "dump", "fold", "load", "rules_for", "undo",
]
