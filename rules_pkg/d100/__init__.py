"""d100 combat (a Dark Heresy 2e / Only War style homebrew): tests, degrees, jams, cover.

Source: sources/d100-combat-circumstances-and-status-effects.txt, its two tables
"Combat Circumstances" (Circumstance | Details | Horde Details, with the
"Ranged Attack Distance" and "Status Modifiers" rows) and "Status Effects"
(Status | Effect | Horde Effect | Duration).

Every modifier number is declared once as a `data.Entry` (its row and the words
before it) and read out of the table cell text through it (the text is the data;
the number is extracted from it, never re-typed; tests/rules/test_specs.py reads
them all). Degrees of success/failure follow the game's standard rule (DH2e):
1 + the difference of the tens digits of target and roll; the sheet only refers
to DoS. A roll succeeds when it is at most the target; a roll of 100 is "00".
"""

# ruff: noqa: I001  (the submodules as MODULES lists them; only MODULES orders the calculators)
from __future__ import annotations

from .sheet import (  # noqa: F401
    CIRC,
    DOS_RULE,
    GAME,
    Row,
    SOURCE,
    STATUS,
    TABLES_ALL,
    row,
)
from .modifiers import (  # noqa: F401
    ALL,
    KINDS,
    Modifier,
    RANGE_BANDS,
    SPECS,
    Scaled,
    Spec,
    _BAND_ANCHOR,
    _BAND_ROWS,
    _load,
    cross_check,
    ganging_up,
    hard_target,
    helpless_bs,
    modifiers,
    range_modifiers,
    scaled,
    weather_range,
)
from .degrees import (  # noqa: F401
    JAM,
    MAX_TARGET,
    MIN_TARGET,
    TestOutcome,
    _dlabel,
    _face,
    _tens,
    degree_odds,
    degrees,
    test_distribution,
)
from .characteristic_test import (  # noqa: F401
    Line,
    _HELPLESS_FROM,
    _order,
    _status_inputs,
    _unique,
    degrees_calc,
    stack,
    test,
)
from .jams import (  # noqa: F401
    jam_clear,
    missile_jam,
)
from .ranges import (  # noqa: F401
    WEAPON_CLASSES,
    class_range,
    point_blank,
    quick_reference,
    range_band,
    range_calc,
)
from .cover import (  # noqa: F401
    CoverHit,
    cover,
    deplete_cover,
    melee_depletion,
    ranged_depletion,
)
from .status import (  # noqa: F401
    Collapse,
    MAX_HELPLESS_DICE,
    MAX_ROUNDS,
    blood_loss,
    blood_loss_chain,
    burning,
    crippled,
    fatigue,
    fatigue_collapse,
    helpless_damage,
)
from .effects import decay, hallucinating, scatter  # noqa: F401

# Its modules in the order of the source's own sections: the order of its calculators in
# the registry and on the pages (registry.calculators; within a module, by definition
# line), whatever order they are imported in.
MODULES = ("sheet", "modifiers", "degrees", "characteristic_test", "jams", "ranges",
           "cover", "status", "effects")
