"""Horizon: Out of the Ashes: the combat rules, with exact odds.

Source: sources/horizon-out-of-the-ashes-combat.txt ("Combat Quick Reference"),
cited below as "§ <section>". Weapon profiles and the other tables are read
from the extracted data (rules_pkg/data/horizon.json), never re-typed here.
Where the source leaves a number out, results say so in their notes.
"""

# ruff: noqa: I001  (the submodules as MODULES lists them; only MODULES orders the calculators)
from __future__ import annotations

from .sheet import (  # noqa: F401
    GAME,
    HELPER_AP,
    MAX_ACTIONS,
    MAX_AP,
    MAX_RANK,
    NOT_IN_SOURCE,
    POINT_BLANK_AP,
    SOURCE,
    TRAITS,
    X,
)
from .skills import (  # noqa: F401
    CombatTest,
    SkillTest,
    _ap_odds,
    _check_rank,
    _dice,
    _dice_distribution,
    face_ap,
    face_label,
)
from .profiles import (  # noqa: F401
    ProfileRow,
    WeaponProfile,
    _INT,
    _default_weapon,
    _records,
    _rows,
    _weapon_choices,
    lookup,
    parse_damage,
    parse_int,
    parse_move,
    profile,
    profiles,
)
from .combat_test import (  # noqa: F401
    AP_SCORE_DEFAULT,
    ApScoreIn,
    WEAPON_DEFAULT,
    WeaponIn,
    combat_test,
    linked_traits,
    profile_row,
    row_odds,
    skill_test,
    trait_bonus,
)
from .attacks import (  # noqa: F401
    AttackResult,
    Condition,
    MODES,
    MODE_DEFAULT,
    ModeIn,
    _COND,
    MAGAZINE_BY_MODE,
    _magazine_note,
    _condition_choices,
    _half_up,
    _hl,
    attack,
    attack_calc,
    conditions,
    find_condition,
    opposed,
    split_attacks,
    wounding,
)
from .defense import (  # noqa: F401
    DefenseOutcome,
    Dive,
    IGNORED_BY,
    defend,
    defense,
    dive,
)
from .movement import (  # noqa: F401
    _other_reloads,
    awareness,
    base_move,
    move,
    move_modifier,
    pushed_move,
    reload,
    reload_magazine,
    turn_order,
)
from .objects import (  # noqa: F401
    HeavyObject,
    TASKS,
    _OBJ,
    _ap_or_none,
    _object_choices,
    heavy_object,
    heavy_objects,
    helped_difficulty,
)
from .disengaged import escape, extended_action, turn_actions  # noqa: F401
from .banded import BANDED_READING, aim_bonus  # noqa: F401
from .initiative import initiative  # noqa: F401

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "skills", "profiles", "combat_test", "attacks", "defense", "movement",
           "objects", "disengaged", "banded", "initiative")
