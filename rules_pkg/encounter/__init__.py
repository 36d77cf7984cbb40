"""The encounter tracker's rules: a fight as a pure fold of its event log.

    from rules_pkg.encounter import fold, AddCombatant, RollInitiative, Hit, NextTurn
    enc = fold("cyberpunk_red", [AddCombatant("a", "Ada"), RollInitiative(seed=1), ...])

Undo drops the last event (`undo`); replaying the same log always gives the same state
(events that roll carry their seed). `codec` reads and writes the log as a file with a
schema version; `api.handle_json` is the page's one entry point.
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
)
from .fold import fold, rules_for, undo
from .model import Combatant, Condition, Encounter, Entry, Sheet, Stat

__all__ = [
    "SCHEMA", "AddCombatant", "Adjust", "Apply", "ClearCondition", "Combatant", "Condition",
    "Encounter", "Entry", "Event", "Hit", "Injury", "NextRound", "NextTurn", "Note",
    "RemoveCombatant", "RollInitiative", "SetCondition", "SetInitiative", "SetValue", "Sheet",
    "Stat", "dump", "fold", "load", "rules_for", "undo",
]
