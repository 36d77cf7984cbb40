"""Test kinds and the circumstance and status modifiers that reach each of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from .. import data
from ..errors import RulesError
from .sheet import Row, entry, row

# -- test kinds and modifiers ----------------------------------------------------------------

KINDS: tuple[tuple[str, str], ...] = (
    ("ws", "Weapon Skill attack"),
    ("bs", "Ballistic Skill attack"),
    ("grapple", "Grapple (WS) test"),
    ("parry", "Parry (WS) test"),
    ("agility", "Agility test"),
    ("dodge", "Dodge (Agility) test"),
    ("charge_run", "Agility test to charge, run or boosted jump"),
    ("perception", "Perception test (sight)"),
    ("hearing", "Test relying on hearing and more"),
    ("hearing_alone", "Test relying on hearing alone"),
    ("concealment", "Concealment test"),
    ("stealth", "Stealth test"),
    ("willpower", "Willpower test"),
    ("toughness", "Toughness test"),
    ("other", "Other test"),
)
ALL = tuple(k for k, _ in KINDS)
# A Parry is a Weapon Skill test and a Grapple a WS test too; a Dodge is an Agility test.
# A modifier the sheet gives to "Weapon Skill tests" or "Agility tests" reaches all of them;
# one it gives to attacks against a target ("to hit a dazed target") reaches the attacks only.
WS_TESTS = ("ws", "parry", "grapple")
# A grapple is a WS test to hit: Prone gives grapple tests "a total of +20" (d100:36), a
# to-hit bonus, so every modifier to WS attacks "to hit" a target reaches it too (issue #29).
WS_TO_HIT = ("ws", "grapple")
TO_HIT = (*WS_TO_HIT, "bs")
GRAPPLE_TO_HIT = ("A grapple is a Weapon Skill test to hit: Prone gives grapple tests \u201ca "
                  "total of +20\u201d (Prone, Status Modifiers), so the sheet's other "
                  "modifiers to hit a target reach it too.")
AGILITY_TESTS = ("agility", "dodge")
# the sight-based tests Fog, Low Light and Darkness all name, in the same words
SIGHT = ((("perception",), "Perception tests using sight"), (("concealment",), "Concealment tests"))


@dataclass(frozen=True)
class Spec:
    """How to read one toggle's modifiers from a row: test kinds -> anchor phrase."""

    key: str
    label: str
    row: str
    anchors: tuple[tuple[tuple[str, ...], str], ...]  # ((kinds), anchor) pairs
    horde_dos: str = ""  # anchor of "Hordes gain +N DoS instead", if any
    help: str = ""


# Toggles, one per modifier-carrying row (the anchors are the sheet's own words).
SPECS: tuple[Spec, ...] = (
    Spec("flying", "Target used the Flying action", "Flying",
         ((("bs",), "BS attacks against the character take a"),)),
    Spec("running", "Target used the Running action", "Running",
         ((("bs",), "BS attacks against the character take a"), (WS_TO_HIT, "WS attacks take a"))),
    Spec("armour_penalty", "Wearing armour of AP 8+ on any location", "Armour Penalty",
         ((("stealth",), "incur a"),)),
    Spec("higher_ground", "On higher ground than the opponent", "Higher Ground",
         (((*WS_TESTS, "bs"), "take a"),), horde_dos="Hordes gain"),
    Spec(
        "fog",
        "Target in fog, smoke, mist or deep shadow",
        "Fog/Smoke/Mist",
        (
            (("bs",), "Ballistic skill tests against targets"),
            *SIGHT,
        ),
    ),
    Spec(
        "low_light",
        "Low Light",
        "Low Light",
        (
            ((*WS_TESTS, "bs"), "Weapon Skill and Ballistic Skill tests"),
            *SIGHT,
        ),
    ),
    Spec(
        "darkness",
        "Darkness",
        "Darkness",
        (
            (WS_TESTS, "Weapon Skill tests take a"),
            (("bs",), "Ballistic Skill tests take a"),
            *SIGHT,
        ),
    ),
    Spec("shooting_into_melee", "Shooting at a target in melee", "Shooting into Melee",
         ((("bs",), "take a"),),
         help="Ignored if the target or its only opponent is stunned, helpless or Unaware."),
    Spec("pinned", "You are Pinned", "Pinning", ((("bs",), "They suffer a"),)),
    Spec("pinning_recovery",
         "Recovering from Pinning, not shot at since your last turn or under cover", "Pinning",
         ((("willpower",), "then this becomes a Willpower"),)),
    Spec("dazed", "Target is Dazed", "Dazed", ((TO_HIT, "take a"),)),
    Spec("fatigue", "You have a level of Fatigue", "Fatigue", ((ALL, "take a"),)),
    Spec("stunned", "Target is Stunned", "Stunned", ((TO_HIT, "take a"),)),
    Spec("unaware", "Target is Unaware", "Unaware", ((TO_HIT, "take a"),)),
    Spec(
        "prone_target",
        "Target is Prone",
        "Prone",
        (
            (("ws",), "Weapon Skill tests to hit a prone target take a"),
            (("grapple",), "grapple tests gain a total of"),
            (("bs",), "Ballistic Skill tests instead take a"),
        ),
        help="The BS penalty does not apply at Point Blank range.",
    ),
    Spec(
        "prone_self",
        "You are Prone",
        "Prone",
        (
            (WS_TESTS, "prone characters take a"),
            (AGILITY_TESTS, "(including Parry) and a"),
        ),
    ),
    Spec("blind", "You are Blind", "Blind",
         (((*WS_TESTS, *AGILITY_TESTS), "You take"), (("charge_run",), "you must test Agility")),
         help="BS tests fail automatically."),
    Spec("deaf", "You are Deaf", "Deaf", ((("hearing",), "it takes a"),),
         help="Tests relying on hearing alone fail automatically."),
    Spec("frenzy", "You are Frenzied", "Frenzy", ((("ws", "grapple", "willpower"), "You gain a"),),
         help="Frenzied characters cannot parry or dodge."),
    Spec("immobilised", "You are Immobilised", "Immobilised", ((("parry",), "You take a"),),
         help="Dodge attempts fail automatically."),
)

RANGE_BANDS = ("point_blank", "short", "long", "extreme")
_BAND_ROWS = {
    "point_blank": "Point Blank",
    "short": "Short Distance",
    "long": "Long Distance",
    "extreme": "Extreme Distance",
}
_BAND_ANCHOR = {
    "point_blank": "take a bonus",
    "short": "take a",
    "long": "take a",
    "extreme": "take a",
}


@dataclass(frozen=True)
class Modifier:
    """One toggle's modifiers as read from its row: kind -> value, and a Horde DoS variant."""

    key: str
    label: str
    row: Row
    by_kind: Mapping[str, int]  # test kind -> modifier; a kind it does not modify is absent
    horde_dos: int | None = None

    def value(self, kind: str) -> int | None:
        return self.by_kind.get(kind)


# every number the toggles and the range bands read, declared once (row, anchor) -> entry
_ENTRIES: dict[tuple[str, str], data.Entry] = {
    (r, a): entry(r, a) for r, a in dict.fromkeys(
        [(s.row, a) for s in SPECS for _, a in s.anchors]
        + [(s.row, s.horde_dos) for s in SPECS if s.horde_dos]
        + [(_BAND_ROWS[b], _BAND_ANCHOR[b]) for b in RANGE_BANDS])}


def _load(spec: Spec) -> Modifier:
    r = row(spec.row)
    by_kind: dict[str, int] = {}
    for kinds, anchor in spec.anchors:
        n = _ENTRIES[spec.row, anchor].read()
        for k in kinds:
            by_kind[k] = n
    horde = _ENTRIES[spec.row, spec.horde_dos].read() if spec.horde_dos else None
    return Modifier(spec.key, spec.label, r, MappingProxyType(by_kind), horde)


@cache
def modifiers() -> dict[str, Modifier]:
    """Every toggle's modifiers, read from the extracted tables (cached)."""
    return {s.key: _load(s) for s in SPECS}


# the range bands whose row gives Hordes their own DoS (the sheet's "Hordes gain")
_HORDE_RANGE = {name: entry(name, "Hordes gain") for name in _BAND_ROWS.values()
                if "hordes gain" in row(name).text.lower()}


@cache
def range_modifiers() -> dict[str, Modifier]:
    """Point Blank / Short / Long / Extreme: the BS modifier, and the Horde DoS variant."""
    out: dict[str, Modifier] = {}
    for band, name in _BAND_ROWS.items():
        r = row(name)
        horde = _HORDE_RANGE[name].read() if name in _HORDE_RANGE else None
        out[band] = Modifier(band, name, r,
                             MappingProxyType({"bs": _ENTRIES[name, _BAND_ANCHOR[band]].read()}),
                             horde)
    return out


@dataclass(frozen=True)
class Scaled:
    """A modifier per point (Difficult Terrain per DTV, Size per category)."""

    row: Row
    per_point: int
    below: int = 0
    above: int = 0
    baseline: int = 0


_DTV = entry("Difficult Terrain", "you incur a")
_SIZE_BELOW = entry("Size", "category below")
_SIZE_ABOVE = entry("Size", "category above")
_SIZE_BASELINE = entry("Size", pattern=r"other than (\d+)")


@cache
def scaled() -> dict[str, Scaled]:
    dt = row("Difficult Terrain")
    size = row("Size")
    return {
        "dtv": Scaled(dt, _DTV.read()),
        "size": Scaled(size, 0, _SIZE_BELOW.read(), _SIZE_ABOVE.read(), _SIZE_BASELINE.read()),
    }


_WEATHER = (entry("Weather", "range from"), entry("Weather", "range from", 1))


@cache
def weather_range() -> tuple[int, int]:
    """The Weather row: "Penalties range from -10 to -30" -> (-30, -10)."""
    a, b = (e.read() for e in _WEATHER)
    return min(a, b), max(a, b)


_GANGING_UP = {"2": entry("Ganging Up", "they gain a"),
               "3": entry("Ganging Up", "or more, they gain")}


@cache
def ganging_up() -> dict[str, int]:
    return {k: e.read() for k, e in _GANGING_UP.items()}


_HARD_TARGET = entry("Running", "which makes it")


@cache
def hard_target() -> int:
    """Running with the Hard Target talent: "-40 for BS and flat for WS"."""
    if "flat for ws" not in row("Running").text.lower():
        raise RulesError("d100 data: the Running row no longer says 'flat for WS'")
    return _HARD_TARGET.read()


_HELPLESS_BS = {"modifiers": entry("Helpless", "BS tests instead gain a"),
                "effects": entry("Helpless effect", "BS attacks gain a")}


@cache
def helpless_bs() -> dict[str, tuple[Row, int]]:
    """Helpless BS bonus: the Status Modifiers row and the Status Effects row disagree."""
    return {k: (row(e.row), e.read()) for k, e in _HELPLESS_BS.items()}


# Status Effects § Fatigue: "You take a -10 penalty to all tests" (the collapse rule uses it)
FATIGUE_EFFECT = entry("Fatigue effect", "You take a")
# statuses in both tables, and each table's number
_CROSS = (
    ("Dazed", entry("Dazed", "to hit a dazed target take a"),
     entry("Dazed effect", "enemies gain")),
    ("Stunned", entry("Stunned", "to hit a stunned target take a"),
     entry("Stunned effect", "enemies gain a")),
    ("Fatigue", entry("Fatigue", "you take a"), FATIGUE_EFFECT),
    ("Prone", entry("Prone", "prone target take a"), entry("Prone effect", "Enemies take a")),
)


def cross_check() -> list[str]:
    """Statuses in both tables whose numbers disagree (reported, never 'fixed')."""
    out: list[str] = []
    for name, ea, eb in _CROSS:
        x, y = ea.read(), eb.read()
        if x != y:
            out.append(f"{name}: {x:+d} in Status Modifiers, {y:+d} in Status Effects")
    hb = helpless_bs()
    if hb["modifiers"][1] != hb["effects"][1]:
        out.append(
            f"Helpless BS: {hb['modifiers'][1]:+d} in Status Modifiers, "
            f"{hb['effects'][1]:+d} in Status Effects"
        )
    return out


# -- tests that are not rolled: "automatically fail" and "cannot" -----------------------------
# Tests that are actions or reactions (a Stunned or Helpless character cannot take them).
ACTION_TESTS = ("ws", "bs", "grapple", "parry", "dodge")


@dataclass(frozen=True)
class Barred:
    """A status under which a test is not rolled: it fails outright, or cannot be tried."""

    key: str  # the status input
    row: str  # the sheet's row (row() name)
    kinds: tuple[str, ...]
    outcome: str  # "fails" or "cannot"
    words: str  # the sheet's own words, checked against the row by the tests


BARRED: tuple[Barred, ...] = (
    Barred("blind", "Blind", ("bs",), "fails", "Auto-fail BS tests"),
    Barred("blind", "Blind", ("perception",), "fails",
           "You automatically fail Perception tests or similar depending on sight"),
    Barred("deaf", "Deaf", ("hearing_alone",), "fails",
           "You auto-fail any test that relies on hearing"),
    Barred("frenzy", "Frenzy", ("parry", "dodge"), "cannot", "cannot parry, dodge"),
    Barred("immobilised", "Immobilised", ("dodge",), "fails",
           "automatically fail any dodge attempts"),
    Barred("unaware_self", "Unaware", ("parry", "dodge"), "cannot",
           "unable to attempt to take any evasive action, such as dodge or parry"),
    Barred("stunned_self", "Stunned effect", ACTION_TESTS, "cannot",
           "You cannot take any actions"),
    Barred("helpless_self", "Helpless effect", ACTION_TESTS, "cannot", "You cannot act"),
)

# Statuses of the tester that only bar tests (no modifier row of their own in SPECS).
SELF_STATUSES: tuple[tuple[str, str, str], ...] = (
    ("unaware_self", "You are Unaware of the attack (Parry, Dodge)",
     "An Unaware character cannot dodge or parry."),
    ("stunned_self", "You are Stunned", "You cannot take any actions."),
    ("helpless_self", "You are Helpless", "You cannot act."),
)


def barred(kind: str, flags: dict[str, bool]) -> list[Barred]:
    """The statuses set in `flags` under which a test of `kind` is not rolled."""
    return [b for b in BARRED if flags.get(b.key) and kind in b.kinds]
