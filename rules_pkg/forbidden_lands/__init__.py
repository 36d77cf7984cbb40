"""Forbidden Lands (Year Zero Engine): combat from the Combat Quick Reference.

Source: sources/forbidden-lands-combat-quick-reference.md. Every table value is
read from the extracted data (rules_pkg/data/forbidden_lands.json), never re-typed.

Dice: base dice (attribute), skill dice (skill) and gear dice (weapon, armour,
other gear) are d6. A 6 is a success (✘) on any die; a 1 is a bane (☠) on base
and gear dice only. Where the sheet only refers to a rule of the game (pushing,
modifications, negative dice) the standard Forbidden Lands rule is used and cited
as such in the calculator's `source`.
"""

# ruff: noqa: I001  (the submodules as MODULES lists them; only MODULES orders the calculators)
from __future__ import annotations

from .sheet import (  # noqa: F401
    BANE,
    DOC,
    GAME,
    MAX_ARMOUR,
    MAX_POOL,
    STANDARD_MODS,
    STANDARD_PUSH,
    SUCCESS,
    T_ATTACKS,
    T_BROKEN,
    T_FEATURES,
    T_FLEE,
    T_NON_ATTACK,
    T_RANGE,
    T_SOCIAL_ACTIONS,
    T_SOCIAL_MODS,
    T_ZERO,
    _clean,
    TABLES,
    _slug,
    modifier,
)
from .dice import (  # noqa: F401
    PUSH_CHOICES,
    ZERO,
    DicePool,
    DieKind,
    PushPolicy,
    RolledDie,
    Vec,
    Vec5,
    _die_first_and_pushed,
    _faces,
    _p,
    _policy,
    _succ_label,
    _v5add,
    _vadd,
    die_distribution,
    face_outcome,
    locked,
    make_pool,
    net_successes,
    pool_odds,
    pool_vectors,
    push_roll,
    roll_pool,
    should_push,
    show,
    successes,
    successes_and_banes,
    tally,
)
from .check import (  # noqa: F401
    check,
    roll_check,
)
from .attack import (  # noqa: F401
    _REACTION_COLUMN,
    REACTIONS,
    ArmourSave,
    AttackRow,
    _attack_choices,
    _range_choices,
    armour_result,
    armour_save,
    attack,
    attack_row,
    range_modifier,
)
from .other_rolls import (  # noqa: F401
    _flee_choices,
    _flee_parts,
    _social_action_choices,
    _social_mod_inputs,
    _social_mods,
    flee,
    social,
)
from .actions import (  # noqa: F401
    DECK,
    _action_choices,
    actions,
    card_distribution,
    initiative,
    initiative_swap,
    position_distribution,
)
from .conditions import (  # noqa: F401
    ATTRIBUTES,
    CONDITIONS,
    ConditionDay,
    broken,
    cold,
    condition_timeline,
    conditions,
)
from .gear import gear_rows  # noqa: F401

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "dice", "check", "attack", "other_rolls", "actions", "conditions",
           "gear")
