"""Cyberpunk RED combat, as the homebrew cheat sheet writes it.

Source: sources/cyberpunk-red-combat-cheat-sheet.txt. Checks are STAT + Skill + 1d10
against a DV or an opposed roll, and the attacker must *beat* it: "If you beat the DV
(defender wins in a tie)". The sheet does not mention RED's critical 10/1 on the d10,
so it is not applied. Numbers are read from the extracted data: table cells for the
tables, and the sheet's own sentences (`rule`) for numbers written in prose.
"""

# ruff: noqa: I001  (the submodules as MODULES lists them; only MODULES orders the calculators)
from __future__ import annotations

from .sheet import (  # noqa: F401
    Dice,
    GAME,
    NO_CRIT_10,
    SRC,
    parse_dice,
    dice_of,
    number,
    table,
    words,
)
from .core import (  # noqa: F401
    D10,
    Defence,
    Defender,
    Hit,
    MAX_DAYS,
    MAX_DV,
    MAX_FALL,
    MAX_STAT,
    _defence,
    _hp_odds,
    _odds_check,
    ablation,
    check,
    crit_bonus,
    crit_face,
    damage_pool,
    dice_with_crit,
    dodge_ref,
    head_multiplier,
    margin_opposed,
    margin_vs_dv,
    melee_sp,
    p_beat,
    take_damage,
)
from .checks import (  # noqa: F401
    _opposed_result,
    check_dv,
    opposed,
)
from .ranged import (  # noqa: F401
    AIM_CHOICES,
    _attack_damage,
    AUTOFIRE_BULLETS,
    SHOTGUN_DICE,
    SHOTGUN_DV,
    SUPPRESSIVE_BULLETS,
    aim_penalty,
    autofire,
    autofire_caps,
    ranged,
    shotgun_shell,
    suppressive,
)
from .cover import (  # noqa: F401
    CoverHit,
    _cover_choices,
    cover,
    cover_table,
    explosive,
    hit_cover,
    shield,
)
from .damage import (  # noqa: F401
    brawling_dice,
    brawling_table,
    damage,
)
from .melee import (  # noqa: F401
    GrappleDamage,
    brawling,
    choke,
    grab,
    grapple_action,
    grapple_penalty,
    melee,
    throw_max,
)
from .death_save import (  # noqa: F401
    death_save,
    death_save_faces,
    death_save_pass,
    death_saves,
)
from .environment import (  # noqa: F401
    ELECTROCUTION_DICE,
    FALLING_DV,
    VACUUM_DICE,
    _fire_index,
    _poison_choices,
    _severity_choices,
    drowning,
    electrocution,
    exposure,
    falling,
    fire,
    fire_table,
    poison,
    poison_table,
)
from .turn import (  # noqa: F401
    armor,
    initiative,
    move,
)
from .thrown import OBJECTS, THROW_MAX, throw_object  # noqa: F401
from .body import FEATS, body_feats, one_hand_body, thick_cover_body  # noqa: F401

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "core", "checks", "ranged", "cover", "damage", "melee", "death_save",
           "environment", "turn", "thrown", "body")
