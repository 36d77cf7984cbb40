"""The d10 mecha game: personal-scale (non-mecha) combat.

Source: sources/mecha-d10-non-mecha-combat.md. Table values are read from the
extracted data (rules_pkg/data/mecha.json); the few numbers the source gives in
its lists (aim +4/+6, cover, blindfighting, auto fire -2, entangled -4, break
away on 6-10) are named constants below, each checked against the source text
by the tests.

The game's die is a d10 ("1 die + Reflex"; "Roll one die: 6-10 = break away").
A skill test is one die plus the character's score for that skill; the source
does not spell the test out, so the score is an explicit input.
"""

# ruff: noqa: I001  (the submodules as MODULES lists them; only MODULES orders the calculators)
from __future__ import annotations

from .sheet import (  # noqa: F401
    ACTIONS_PER_LOST,
    AIM_BONUS,
    AUTO_FIRE_DEFENCE,
    BREAK_AWAY_FROM,
    COVER,
    DOC,
    ENTANGLED,
    GAME,
    MAX_ARMOUR_DICE,
    MAX_DAMAGE_DICE,
    MAX_SCORE,
    SIDES,
    SIGHT,
    _choices,
    TABLES,
    action_penalty,
    banded,
    max_success_dice,
    max_success_margin,
    number,
    span,
    strength_dice,
    success_dice,
    table_ids,
)
from .contest import (  # noqa: F401
    Contest,
    DamageSpec,
    FIRE_MODES,
    FUMBLE,
    HIT,
    MISS,
    Modifier,
    _action_choices,
    _called_choices,
    _combat_type_choices,
    _lookup_row,
    _p,
    _range_choices,
    after_armour,
    d10_sum,
    damage_dice_distribution,
    mixture,
    rounds_distribution,
)
from .attack import (  # noqa: F401
    ARMOUR_DICE_DEFAULT,
    ArmourDiceIn,
    WEAPON_DICE_DEFAULT,
    WeaponDiceIn,
    attack,
)
from .damage import (  # noqa: F401
    damage,
)
from .initiative import (  # noqa: F401
    initiative,
)
from .close_combat import (  # noqa: F401
    break_away,
    break_away_target,
    entangle,
)
from .skills import skills  # noqa: F401

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "contest", "attack", "damage", "initiative", "close_combat", "skills")
