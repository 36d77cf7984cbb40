"""Test kinds and the circumstance and status modifiers that reach each of them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..errors import RulesError
from .sheet import Row, number_after, plain_number, row

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
AGILITY_TESTS = ("agility", "dodge")


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
    Spec(
        "flying",
        "Target used the Flying action",
        "Flying",
        ((("bs",), "BS attacks against the character take a"),),
    ),
    Spec(
        "running",
        "Target used the Running action",
        "Running",
        ((("bs",), "BS attacks against the character take a"), (("ws",), "WS attacks take a")),
    ),
    Spec(
        "armour_penalty",
        "Wearing armour of AP 8+ on any location",
        "Armour Penalty",
        ((("stealth",), "incur a"),),
    ),
    Spec(
        "higher_ground",
        "On higher ground than the opponent",
        "Higher Ground",
        (((*WS_TESTS, "bs"), "take a"),),
        horde_dos="Hordes gain",
    ),
    Spec(
        "fog",
        "Target in fog, smoke, mist or deep shadow",
        "Fog/Smoke/Mist",
        (
            (("bs",), "Ballistic skill tests against targets"),
            (("perception",), "Perception tests using sight"),
            (("concealment",), "Concealment tests"),
        ),
    ),
    Spec(
        "low_light",
        "Low Light",
        "Low Light",
        (
            ((*WS_TESTS, "bs"), "Weapon Skill and Ballistic Skill tests"),
            (("perception",), "Perception tests using sight"),
            (("concealment",), "Concealment tests"),
        ),
    ),
    Spec(
        "darkness",
        "Darkness",
        "Darkness",
        (
            (WS_TESTS, "Weapon Skill tests take a"),
            (("bs",), "Ballistic Skill tests take a"),
            (("perception",), "Perception tests using sight"),
            (("concealment",), "Concealment tests"),
        ),
    ),
    Spec(
        "shooting_into_melee",
        "Shooting at a target in melee",
        "Shooting into Melee",
        ((("bs",), "take a"),),
        help="Ignored if the target or its only opponent is stunned, helpless or Unaware.",
    ),
    Spec("pinned", "You are Pinned", "Pinning", ((("bs",), "They suffer a"),)),
    Spec(
        "pinning_recovery",
        "Recovering from Pinning, not shot at since your last turn or under cover",
        "Pinning",
        ((("willpower",), "then this becomes a Willpower"),),
    ),
    Spec("dazed", "Target is Dazed", "Dazed", ((("ws", "bs"), "take a"),)),
    Spec("fatigue", "You have a level of Fatigue", "Fatigue", ((ALL, "take a"),)),
    Spec("stunned", "Target is Stunned", "Stunned", ((("ws", "bs"), "take a"),)),
    Spec("unaware", "Target is Unaware", "Unaware", ((("ws", "bs"), "take a"),)),
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
    Spec(
        "blind",
        "You are Blind",
        "Blind",
        (((*WS_TESTS, *AGILITY_TESTS), "You take"), (("charge_run",), "you must test Agility")),
        help="BS tests fail automatically.",
    ),
    Spec(
        "deaf",
        "You are Deaf",
        "Deaf",
        ((("hearing",), "it takes a"),),
        help="Tests relying on hearing alone fail automatically.",
    ),
    Spec("frenzy", "You are Frenzied", "Frenzy",
         ((("ws", "grapple", "willpower"), "You gain a"),),
         help="Frenzied characters cannot parry or dodge."),
    Spec(
        "immobilised",
        "You are Immobilised",
        "Immobilised",
        ((("parry",), "You take a"),),
        help="Dodge attempts fail automatically.",
    ),
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
    by_kind: tuple[tuple[str, int], ...]
    horde_dos: int | None = None

    def value(self, kind: str) -> int | None:
        for k, v in self.by_kind:
            if k == kind:
                return v
        return None


def _load(spec: Spec) -> Modifier:
    r = row(spec.row)
    by_kind: dict[str, int] = {}
    for kinds, anchor in spec.anchors:
        n = number_after(r.text, anchor)
        for k in kinds:
            by_kind[k] = n
    horde = number_after(r.text, spec.horde_dos) if spec.horde_dos else None
    return Modifier(spec.key, spec.label, r, tuple(by_kind.items()), horde)


@cache
def modifiers() -> dict[str, Modifier]:
    """Every toggle's modifiers, read from the extracted tables (cached)."""
    return {s.key: _load(s) for s in SPECS}


@cache
def range_modifiers() -> dict[str, Modifier]:
    """Point Blank / Short / Long / Extreme: the BS modifier, and the Horde DoS variant."""
    out: dict[str, Modifier] = {}
    for band, name in _BAND_ROWS.items():
        r = row(name)
        horde = number_after(r.text, "Hordes gain") if "hordes gain" in r.text.lower() else None
        out[band] = Modifier(
            band, name, r, (("bs", number_after(r.text, _BAND_ANCHOR[band])),), horde
        )
    return out


@dataclass(frozen=True)
class Scaled:
    """A modifier per point (Difficult Terrain per DTV, Size per category)."""

    row: Row
    per_point: int
    below: int = 0
    above: int = 0
    baseline: int = 0


@cache
def scaled() -> dict[str, Scaled]:
    dt = row("Difficult Terrain")
    size = row("Size")
    return {
        "dtv": Scaled(dt, number_after(dt.text, "you incur a")),
        "size": Scaled(
            size,
            0,
            number_after(size.text, "category below"),
            number_after(size.text, "category above"),
            plain_number(size.text, r"other than (\d+)"),
        ),
    }


@cache
def weather_range() -> tuple[int, int]:
    """The Weather row: "Penalties range from -10 to -30" -> (-30, -10)."""
    t = row("Weather").text
    a, b = number_after(t, "range from"), number_after(t, "range from", 1)
    return min(a, b), max(a, b)


@cache
def ganging_up() -> dict[str, int]:
    t = row("Ganging Up").text
    return {"2": number_after(t, "they gain a"), "3": number_after(t, "or more, they gain")}


@cache
def hard_target() -> int:
    """Running with the Hard Target talent: "-40 for BS and flat for WS"."""
    t = row("Running").text
    if "flat for ws" not in t.lower():
        raise RulesError("d100 data: the Running row no longer says 'flat for WS'")
    return number_after(t, "which makes it")


@cache
def helpless_bs() -> dict[str, tuple[Row, int]]:
    """Helpless BS bonus: the Status Modifiers row and the Status Effects row disagree."""
    m, e = row("Helpless"), row("Helpless effect")
    return {
        "modifiers": (m, number_after(m.text, "BS tests instead gain a")),
        "effects": (e, number_after(e.text, "BS attacks gain a")),
    }


def cross_check() -> list[str]:
    """Statuses in both tables whose numbers disagree (reported, never 'fixed')."""
    out: list[str] = []
    pairs = (
        ("Dazed", "to hit a dazed target take a", "enemies gain"),
        ("Stunned", "to hit a stunned target take a", "enemies gain a"),
        ("Fatigue", "you take a", "You take a"),
        ("Prone", "prone target take a", "Enemies take a"),
    )
    for name, a, b in pairs:
        x, y = number_after(row(name).text, a), number_after(row(f"{name} effect").text, b)
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
