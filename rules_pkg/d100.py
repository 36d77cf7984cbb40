"""d100 combat (a Dark Heresy 2e / Only War style homebrew): tests, degrees, jams, cover.

Source: sources/d100-combat-circumstances-and-status-effects.txt, its two tables
"Combat Circumstances" (Circumstance | Details | Horde Details, with the
"Ranged Attack Distance" and "Status Modifiers" rows) and "Status Effects"
(Status | Effect | Horde Effect | Duration).

Every modifier number is read out of the table cell text at load time by
`number_after` (the text is the data; the number is extracted from it, never
re-typed). Degrees of success/failure follow the game's standard rule (DH2e):
1 + the difference of the tens digits of target and roll; the sheet only refers
to DoS. A roll succeeds when it is at most the target; a roll of 100 is "00".
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from . import data
from .dice import Distribution, roll
from .errors import LimitError, RulesError
from .kernel import Each, In, calculator
from .registry import Die, Highlight, Input, Odds, OddsRow, Result

GAME = "d100"
SOURCE = "d100 Combat Circumstances and Status Effects"
CIRC = f"{SOURCE} § Combat Circumstances"
STATUS = f"{SOURCE} § Status Effects"
# the extracted table ids (scripts/extract/d100.py)
TABLES_ALL = (
    "combat-circumstances",
    "ranged-attack-distance",
    "status-modifiers",
    "status-effects",
)
DOS_RULE = "standard d100 rule (DH2e): DoS/DoF = 1 + difference of the tens digits"

# -- the small parser: modifier numbers out of cell text ----------------------------------

# A signed number as the sheet writes it: "-30 penalty", "+20 bonus", "Skill+20", "+1 Dos".
_SIGNED = re.compile(r"([+\-\u2212\u2013])\s?(\d+)")


def signed_numbers(text: str) -> list[int]:
    """Every signed number in `text`, in order: "take a -30 penalty ... +10 bonus" -> [-30, 10]."""
    return [(-1 if m.group(1) != "+" else 1) * int(m.group(2)) for m in _SIGNED.finditer(text)]


def number_after(text: str, anchor: str, nth: int = 0) -> int:
    """The nth signed number after the first occurrence of `anchor` (case-insensitive)."""
    at = text.lower().find(anchor.lower())
    if at < 0:
        raise RulesError(f"d100 data: {anchor!r} not found in {text[:60]!r}…")
    found = signed_numbers(text[at + len(anchor) :])
    if len(found) <= nth:
        raise RulesError(f"d100 data: no modifier after {anchor!r} in {text[:60]!r}…")
    return found[nth]


def plain_number(text: str, pattern: str) -> int:
    """An unsigned number picked by a regex with one group, e.g. r"(\\d+) or higher"."""
    m = re.search(pattern, text, re.IGNORECASE)
    if not m:
        raise RulesError(f"d100 data: {pattern!r} not found in {text[:60]!r}…")
    return int(m.group(1))


# -- rows of the extracted tables -------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One extracted table row: which table, its index, and its text (all cells but the name)."""

    table: str
    index: int
    name: str
    text: str
    cells: tuple[str, ...]

    @property
    def highlight(self) -> Highlight:
        return Highlight(self.table, self.index)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


@cache
def _rows() -> dict[str, Row]:
    """Every row of every d100 table by its (normalised) first cell."""
    out: dict[str, Row] = {}
    for tid, t in data.tables(GAME).items():
        for i, r in enumerate(t["rows"]):
            cells = tuple(str(c) for c in r["cells"])
            if not cells or not cells[0].strip():
                continue
            key = _norm(cells[0])
            # a status listed in both tables: keep the first (Combat Circumstances) row,
            # and the Status Effects one under "<name> effect".
            if key in out:
                key = f"{key} effect"
            out[key] = Row(tid, i, cells[0].strip(), " ".join(cells[1:]), cells)
    return out


def row(name: str) -> Row:
    """The row called `name` (first cell), e.g. row("Darkness"); the Status Effects
    duplicate of a name is row("Dazed effect")."""
    try:
        return _rows()[_norm(name)]
    except KeyError:
        raise RulesError(f"d100 data: no row {name!r} in the extracted tables") from None


# -- test kinds and modifiers ----------------------------------------------------------------

KINDS: tuple[tuple[str, str], ...] = (
    ("ws", "Weapon Skill attack"),
    ("bs", "Ballistic Skill attack"),
    ("grapple", "Grapple (WS) test"),
    ("parry", "Parry (WS) test"),
    ("agility", "Agility test"),
    ("dodge", "Dodge (Agility) test"),
    ("perception", "Perception test (sight)"),
    ("hearing", "Test relying on hearing and more"),
    ("concealment", "Concealment test"),
    ("stealth", "Stealth test"),
    ("willpower", "Willpower test"),
    ("toughness", "Toughness test"),
    ("other", "Other test"),
)
ALL = tuple(k for k, _ in KINDS)


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
        ((("ws", "bs", "parry"), "take a"),),
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
            (("ws", "bs"), "Weapon Skill and Ballistic Skill tests"),
            (("perception",), "Perception tests using sight"),
            (("concealment",), "Concealment tests"),
        ),
    ),
    Spec(
        "darkness",
        "Darkness",
        "Darkness",
        (
            (("ws",), "Weapon Skill tests take a"),
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
            (("ws", "parry"), "prone characters take a"),
            (("agility", "dodge"), "(including Parry) and a"),
        ),
    ),
    Spec(
        "blind",
        "You are Blind",
        "Blind",
        ((("ws", "agility", "dodge"), "You take"),),
        help="BS tests fail automatically.",
    ),
    Spec(
        "deaf",
        "You are Deaf",
        "Deaf",
        ((("hearing",), "it takes a"),),
        help="Tests relying on hearing alone fail automatically.",
    ),
    Spec("frenzy", "You are Frenzied", "Frenzy", ((("ws", "willpower"), "You gain a"),)),
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


# -- degrees of success -----------------------------------------------------------------

MAX_TARGET = 200  # targets above this are not a d100 test any more
MIN_TARGET = -200


def _tens(n: int) -> int:
    return max(n, 0) // 10


def degrees(target: int, rolled: int) -> int:
    """+DoS for a success (roll <= target), -DoF for a failure.

    Standard rule (DH2e): 1 + the difference of the tens digits; 100 ("00") has tens 10.
    A target below 0 counts as 0 for the tens digit (not in the source).
    """
    if not 1 <= rolled <= 100:
        raise RulesError(f"a d100 roll is 1 to 100 (got {rolled})")
    if rolled <= target:
        return 1 + _tens(target) - _tens(rolled)
    return -(1 + _tens(rolled) - _tens(target))


JAM = 0  # the outcome of a roll that jams (or, for a Horde, misses on 96+)


def _dlabel(d: int, zero: str = "jam (automatic miss)") -> str:
    if d == JAM:
        return zero
    return f"{d} DoS" if d > 0 else f"{-d} DoF"


@dataclass(frozen=True)
class TestOutcome:
    """The outcome of one roll: degrees (+DoS / -DoF) and whether the weapon jammed."""

    degrees: int
    jammed: bool = False


def test_distribution(
    target: int, jam_at: int | None = None, bonus_dos: int = 0, auto: str = ""
) -> Distribution[int]:
    """Degrees over the 100 faces. `jam_at`: rolls at or above it miss (a jam);
    `auto`: "fail" or a forced DoS ("dos:N") for the sheet's automatic results."""
    counts: dict[int, int] = {}
    for r in range(1, 101):
        counts_key = _face(target, r, jam_at, bonus_dos, auto)
        counts[counts_key] = counts.get(counts_key, 0) + 1
    return Distribution.from_counts(counts)


def _face(target: int, r: int, jam_at: int | None, bonus_dos: int, auto: str) -> int:
    if auto == "fail":
        return JAM  # an automatic failure: the sheet gives it no degrees
    if auto.startswith("dos:"):
        return int(auto[4:])
    if jam_at is not None and r >= jam_at:
        return JAM  # an automatic miss; the sheet gives it no degrees
    d = degrees(target, r)
    return d + bonus_dos if d > 0 else d


def degree_odds(dist: Distribution[int], zero: str = "jam (automatic miss)") -> tuple[Odds]:
    """One table, best first: each DoS with P(at least that many DoS), then each DoF with
    P(at least that many DoF), then automatic results (jams, auto-fails)."""
    pmf = dist.pmf()
    succ = sorted((d for d in pmf if d > 0), reverse=True)
    fail = sorted((d for d in pmf if d < 0), reverse=True)
    rows_: list[OddsRow] = [
        OddsRow(_dlabel(d), pmf[d], sum((pmf[x] for x in succ if x >= d), Fraction(0)))
        for d in succ
    ]
    rows_ += [
        OddsRow(_dlabel(d), pmf[d], sum((pmf[x] for x in fail if x <= d), Fraction(0)))
        for d in fail
    ]
    if JAM in pmf:
        rows_.append(OddsRow(zero, pmf[JAM]))
    return (Odds("Degrees of success and failure", tuple(rows_)),)


# -- the test calculator ---------------------------------------------------------------------



@dataclass(frozen=True)
class Line:
    """One step of the stacking: what, how much, from which row."""

    text: str
    value: int
    row: Row | None


def _status_inputs() -> list[Input]:
    """One yes/no input per circumstance or status row the test reads (SPECS)."""
    return [Input(s.key, s.label, "bool", False, help=s.help) for s in SPECS]


def stack(
    kind: str,
    horde: bool,
    flags: dict[str, bool],
    range_band: str = "normal",
    ganging: str = "none",
    dtv: int = 0,
    size: int = 4,
    weather: int = 0,
    helpless_rule: str = "modifiers",
) -> tuple[list[Line], int, list[str]]:
    """Every modifier that applies to a test of `kind`, line by line, with Horde DoS bonuses."""
    if kind not in ALL:
        raise RulesError(f"unknown test kind {kind!r}")
    lines: list[Line] = []
    bonus_dos = 0
    notes: list[str] = []
    mods = modifiers()
    ignore_melee = any(flags.get(k) for k in ("stunned", "helpless", "unaware"))
    for spec in SPECS:
        if not flags.get(spec.key):
            continue
        m = mods[spec.key]
        v = m.value(kind)
        if spec.key == "running" and flags.get("hard_target") and kind in ("bs", "ws"):
            v = hard_target() if kind == "bs" else 0
            lines.append(
                Line(
                    f"{m.row.name} with Hard Target: {v:+d} "
                    + ("(BS)" if kind == "bs" else "(flat for WS)"),
                    v,
                    m.row,
                )
            )
            continue
        if v is None:
            continue
        if spec.key == "shooting_into_melee" and ignore_melee:
            lines.append(
                Line(
                    f"{m.row.name}: penalty ignored (target stunned, helpless or Unaware)", 0, m.row
                )
            )
            continue
        if spec.key == "prone_target" and kind == "bs" and range_band == "point_blank":
            lines.append(Line(f"{m.row.name}: no BS penalty at Point Blank range", 0, m.row))
            continue
        if horde and m.horde_dos is not None:
            bonus_dos += m.horde_dos
            lines.append(Line(f"{m.row.name}: Hordes gain {m.horde_dos:+d} DoS instead", 0, m.row))
            continue
        lines.append(Line(f"{m.row.name}: {v:+d}", v, m.row))
    if flags.get("helpless") and kind == "bs":
        r, v = helpless_bs()[helpless_rule]
        lines.append(
            Line(
                f"Helpless ({_HELPLESS_FROM[helpless_rule]}): {v:+d}",
                v,
                r,
            )
        )
        notes.append("; ".join(cross_check()) or "")
    if flags.get("burning_horde") and horde and kind == "willpower":
        r = row("Burning")
        v = number_after(r.text, "suffer a")
        lines.append(Line(f"Burning (Horde): {v:+d} to Willpower", v, r))
    if range_band != "normal":
        if range_band not in RANGE_BANDS:
            raise RulesError(f"unknown range band {range_band!r}")
        if kind == "bs":
            m = range_modifiers()[range_band]
            v = m.value("bs") or 0
            if horde and m.horde_dos is not None:
                bonus_dos += m.horde_dos
                lines.append(
                    Line(f"{m.row.name}: Hordes gain {m.horde_dos:+d} DoS instead", 0, m.row)
                )
            else:
                lines.append(Line(f"{m.row.name}: {v:+d}", v, m.row))
    if ganging != "none" and kind == "ws":
        r = row("Ganging Up")
        if ganging not in ("2", "3"):
            raise RulesError(f"ganging up is 'none', '2' or '3' (got {ganging!r})")
        if horde:
            lines.append(Line("Ganging Up: Hordes do not gain Ganging Up bonuses", 0, r))
        else:
            v = ganging_up()[ganging]
            lines.append(Line(f"Ganging Up ({ganging} to 1): {v:+d}", v, r))
    sc = scaled()
    if dtv and kind in ("ws", "agility"):
        v = sc["dtv"].per_point * dtv
        lines.append(
            Line(
                f"Difficult Terrain: {sc['dtv'].per_point:+d} \u00d7 DTV {dtv} = {v:+d}",
                v,
                sc["dtv"].row,
            )
        )
    s = sc["size"]
    if size != s.baseline and kind in ("ws", "bs"):
        steps = size - s.baseline
        per = s.above if steps > 0 else s.below
        v = per * abs(steps)
        lines.append(
            Line(
                f"Size {size}: {per:+d} \u00d7 {abs(steps)} categories from {s.baseline} = {v:+d}",
                v,
                s.row,
            )
        )
    if weather and kind in ("ws", "bs"):
        lo, hi = weather_range()
        if not lo <= weather <= hi:
            raise RulesError(f"the Weather penalty ranges from {hi} to {lo} (got {weather})")
        lines.append(Line(f"Weather: {weather:+d}", weather, row("Weather")))
    return lines, bonus_dos, [n for n in notes if n]


_HELPLESS_FROM = {"modifiers": "Status Modifiers", "effects": "Status Effects"}


@calculator(
    id="d100.test",
    title="Test: target, success and degrees",
    source=f"{CIRC}, § Status Modifiers, {STATUS}, § Weapon Jams + {DOS_RULE}",
    tables=TABLES_ALL,
    description="Characteristic plus every circumstance and status modifier that applies, "
    "with exact odds of each degree of success and failure.",
)
def test(
    *,
    characteristic: Annotated[int, In("Characteristic (WS, BS, Ag…)", 0, 100)] = 40,
    kind: Annotated[str, In("Test", choices=KINDS)] = "bs",
    horde: Annotated[bool, In("Tester is a Horde")] = False,
    status: Annotated[Mapping[str, bool], Each(_status_inputs)],
    hard_target: Annotated[bool, In("Target has Hard Target (with Running)")] = False,
    helpless: Annotated[bool, In("Target is Helpless")] = False,
    helpless_rule: Annotated[str, In(
        "Helpless BS bonus from",
        choices=(("modifiers", "Status Modifiers row"), ("effects", "Status Effects row")),
        help="The two rows give different BS bonuses.")] = "modifiers",
    burning_horde: Annotated[bool, In("Horde is Burning (Willpower)")] = False,
    range_band: Annotated[str, In("Range band", choices=(
        ("normal", "Normal range"),
        ("point_blank", "Point Blank"),
        ("short", "Short Distance"),
        ("long", "Long Distance"),
        ("extreme", "Extreme Distance"),
    ))] = "normal",
    ganging: Annotated[str, In("Ganging up (outnumbering)", choices=(
        ("none", "No"), ("2", "2 to 1"), ("3", "3 to 1 or more")))] = "none",
    dtv: Annotated[int, In("Difficult Terrain Value", 0, 20)] = 0,
    size: Annotated[int, In("Target size category", 1, 10)] = 4,
    weather: Annotated[int, In("Weather penalty (0 = none)", -30, 0,
                                help="The sheet gives a range from -10 to -30 by severity.")] = 0,
    wsb: Annotated[int, In("Your WS bonus (for a Helpless target)", -1, 20,
                           help="-1: the tens digit of the characteristic (standard rule).")] = -1,
    rolled: Annotated[int, In("Your roll (0 = none)", 0, 100)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Test target = characteristic + modifiers; success when the d100 roll is at most it."""
    flags = {**status, "hard_target": hard_target, "helpless": helpless,
             "burning_horde": burning_horde}
    known = {s.key for s in SPECS} | {"hard_target", "helpless", "burning_horde"}
    bad = sorted(set(flags) - known)
    if bad:
        raise RulesError(f"unknown modifier(s): {', '.join(bad)}")
    if not 0 <= characteristic <= 100:
        raise RulesError(f"a characteristic is 0 to 100 (got {characteristic})")
    if not 0 <= rolled <= 100:
        raise RulesError(f"a d100 roll is 1 to 100, or 0 for none (got {rolled})")
    bflags = {k: bool(v) for k, v in flags.items()}
    lines, bonus_dos, notes = stack(
        kind, horde, bflags, range_band, ganging, dtv, size, weather, helpless_rule
    )
    target = characteristic + sum(ln.value for ln in lines)
    steps = [f"Characteristic {characteristic}"]
    running = characteristic
    for ln in lines:
        running += ln.value
        steps.append(f"{ln.text} → {running}")
    auto = ""
    zero = "miss on 96+ (Hordes do not jam)" if horde else "jam (automatic miss)"
    if bflags.get("helpless") and kind == "ws":
        wsb = characteristic // 10 if wsb < 0 else wsb
        auto = f"dos:{max(1, wsb)}"
        lines.append(Line("", 0, row("Helpless")))
        steps.append(
            f"Helpless: WS tests automatically succeed, with DoS equal to your WSB ({wsb})"
        )
        if wsb < 1:
            notes.append(
                "A WSB of 0 is counted as 1 DoS: a success has at least one degree "
                "(standard rule; not in the sheet)."
            )
    if bflags.get("blind") and kind == "bs":
        auto, zero = "fail", "automatic failure"
        steps.append("Blind: BS tests fail automatically")
    if bflags.get("immobilised") and kind == "dodge":
        auto, zero = "fail", "automatic failure"
        steps.append("Immobilised: dodge attempts fail automatically")
    if bflags.get("deaf") and kind == "hearing":
        notes.append(
            "Deaf: a test relying on hearing alone fails automatically; "
            "the -30 is for hearing in combination with something else."
        )
    jam_at: int | None = None
    jrow = row("Weapon Jams")
    if kind == "bs" and not auto:
        jam_at = plain_number(jrow.text, r"rolls a (\d+) or higher")
        steps.append(
            f"A roll of {jam_at}+ "
            + ("misses (Hordes do not jam; they just miss)" if horde else "jams: an automatic miss")
        )
        notes.append("Burst fire increases the chance of a jam; its entry is not in the sheet.")
    if bonus_dos:
        steps.append(f"Horde: {bonus_dos:+d} DoS on a success")
    if not auto:
        steps.append(f"Target {target}: succeed on a roll of {target} or less")
    dist = test_distribution(target, jam_at, bonus_dos, auto)
    p_succ = dist.p(lambda d: d > 0)
    values: list[tuple[str, Any]] = [("Target", target), ("P(success)", p_succ)]
    if jam_at is not None:
        values.append(("P(miss on 96+)" if horde else "P(jam)", dist.probability(JAM)))
    dice: list[Die] = []
    shown = roll(rng, 100)[0] if rng is not None else rolled
    summary = f"Target {target}: {float(p_succ):.0%} to succeed"
    if shown:
        d = _face(target, shown, jam_at, bonus_dos, auto)
        text = _dlabel(d, zero)
        dice.append(Die(100, shown, text, "d100"))
        values += [("Roll", shown), ("Result", text)]
        steps.append(f"Rolled {shown:02d}: {'success' if d > 0 else 'failure'}, {text}")
        summary += f"; rolled {shown:02d}: {text}"
    notes.append("The sheet sets no cap on the total modifier (not in the source).")
    if horde:  # the rows' own Horde column, where it says more than "As normal."
        used = {ln.row for ln in lines if ln.row is not None}
        notes += [
            f"{r.name} (Hordes): {r.cells[2]}"
            for r in sorted(used, key=_order)
            if len(r.cells) > 2 and r.cells[2].strip() not in ("", "As normal.")
        ]
    hl = _unique(ln.row.highlight for ln in lines if ln.row is not None)
    if jam_at is not None:
        hl = _unique([*hl, jrow.highlight])
    return Result(
        summary, tuple(values), tuple(steps), degree_odds(dist, zero), tuple(dice), hl, tuple(notes)
    )


def _order(r: Row) -> tuple[str, int]:
    return (r.table, r.index)


def _unique(hs: Iterable[Highlight]) -> tuple[Highlight, ...]:
    out: list[Highlight] = []
    for h in hs:
        if h not in out:
            out.append(h)
    return tuple(out)


@calculator(
    id="d100.degrees",
    title="Degrees of success or failure",
    source=f"{SOURCE} + {DOS_RULE}",
    # the Horde DoS rows and the Weapon Jams row live in this table
    tables=("combat-circumstances",),
)
def degrees_calc(
    *,
    target: Annotated[int, In("Test target", MIN_TARGET, MAX_TARGET)] = 40,
    rolled: Annotated[int, In("d100 roll", 1, 100)] = 35,
) -> Result:
    """Degrees of success (roll <= target) or failure, by the tens digits."""
    d = degrees(target, rolled)
    steps = (
        f"Tens digit of the target: {_tens(target)}; of the roll: {_tens(rolled)}",
        f"{'Success' if d > 0 else 'Failure'}: 1 + {abs(d) - 1} = {_dlabel(d)}",
    )
    return Result(
        f"{rolled:02d} against {target}: {_dlabel(d)}",
        (("Success", d > 0), ("Degrees", abs(d))),
        steps,
        degree_odds(test_distribution(target)),
    )


# -- jams -------------------------------------------------------------------------------------


@calculator(
    id="d100.jam_clear",
    title="Clearing a weapon jam",
    source=f"{CIRC} § Weapon Jams",
    tables=("combat-circumstances",),
)
def jam_clear(
    *,
    bs: Annotated[int, In("Ballistic Skill", 0, 100)] = 40,
    proficient: Annotated[bool, In("Proficient with the weapon")] = True,
    specialised: Annotated[bool, In("Specialised talent for the weapon")] = False,
    mastery: Annotated[bool, In("Mastery talent for the weapon")] = False,
    fatigue: Annotated[bool, In("You have a level of Fatigue")] = False,
    rng: random.Random | None = None,
) -> Result:
    """A Full Action: Ballistic Skill +20 (+10 per Specialised/Mastery), or -20 unproficient."""
    r = row("Weapon Jams")
    steps = [f"Ballistic Skill {bs}"]
    if proficient:
        base = number_after(r.text, "Ballistic Skill")
        talent = number_after(r.text, "test,")
        mod = base + talent * (specialised + mastery)
        steps.append(f"Clearing test: {base:+d}")
        for name, has in (("Specialised", specialised), ("Mastery", mastery)):
            if has:
                steps.append(f"{name}: {talent:+d} (cumulative)")
    else:
        if specialised or mastery:
            raise RulesError("Specialised or Mastery talents imply proficiency with the weapon")
        mod = number_after(r.text, "the test is")
        steps.append(f"No proficiency with the weapon: the test is {mod:+d} instead")
    hl = [r.highlight]
    if fatigue:
        f = modifiers()["fatigue"]
        mod += f.value("other") or 0
        steps.append(f"Fatigue: {f.value('other'):+d}")
        hl.append(f.row.highlight)
    target = bs + mod
    steps.append(
        f"Target {target}; if passed, the jam is cleared, the ammo within is lost "
        "and the weapon must be reloaded"
    )
    dist = test_distribution(target)
    p = dist.p(lambda d: d > 0)
    dice: tuple[Die, ...] = ()
    summary = f"Clear the jam on {target} or less: {float(p):.0%}"
    if rng is not None:
        v = roll(rng, 100)[0]
        ok = v <= target
        dice = (Die(100, v, "cleared" if ok else "still jammed", "d100"),)
        summary += f"; rolled {v:02d}: {'cleared' if ok else 'still jammed'}"
    return Result(
        summary,
        (("Target", target), ("P(cleared)", p)),
        tuple(steps),
        degree_odds(dist),
        dice,
        tuple(hl),
        ("'Cumulative' is read as +10 for each of the two talents.",),
    )


@calculator(
    id="d100.missile_jam",
    title="Missile and grenade jams",
    source=f"{CIRC} § Missile and Grenade Jams, § Weapon Jams",
    tables=("combat-circumstances",),
)
def missile_jam(
    *,
    horde: Annotated[bool, In("Attacker is a Horde")] = False,
    rng: random.Random | None = None,
) -> Result:
    """On a jam roll 1d10: 1-9 a dud, 10 it explodes in the user's hands."""
    r = row("Missile and Grenade Jams")
    lo, hi = (int(x) for x in re.findall(r"on a (\d+)-(\d+)", r.text, re.IGNORECASE)[0])
    boom = plain_number(r.text, r"On a (\d+), however")
    jam_at = plain_number(row("Weapon Jams").text, r"rolls a (\d+) or higher")
    if horde:
        return Result(
            "Hordes do not jam; they just miss.",
            (("P(explodes)", Fraction(0)),),
            ("Hordes do not jam; they just miss.",),
            highlight=(r.highlight,),
        )
    d10 = Distribution.d(10)
    p_dud = d10.p(lambda v: lo <= v <= hi)
    p_boom = d10.p(lambda v: v == boom)
    p_jam = Fraction(101 - jam_at, 100)
    steps = (
        f"A ranged attack jams on {jam_at}+ ({p_jam})",
        f"Roll 1d10: on {lo}-{hi} a dud, expended ({p_dud})",
        f"On a {boom} it explodes in the user's hands, centred on them; "
        f"a launcher is destroyed too ({p_boom})",
        f"Per attack: {p_jam} \u00d7 {p_boom} = {p_jam * p_boom} to explode",
    )
    dice: tuple[Die, ...] = ()
    summary = f"A jammed missile or grenade explodes {p_boom}; per attack {p_jam * p_boom}"
    if rng is not None:
        v = roll(rng, 10)[0]
        dice = (Die(10, v, "explodes!" if v == boom else "dud", "d10"),)
        summary = f"Rolled {v}: " + ("it explodes in your hands" if v == boom else "a dud")
    odds = Odds("After a jam", (OddsRow("Dud", p_dud), OddsRow("Explodes", p_boom)))
    return Result(
        summary,
        (("P(dud)", p_dud), ("P(explodes)", p_boom), ("P(explodes per attack)", p_jam * p_boom)),
        steps,
        (odds,),
        dice,
        (r.highlight,),
    )


# -- range bands ----------------------------------------------------------------------------

WEAPON_CLASSES = (
    ("assault", "Assault"),
    ("close", "Close"),
    ("medium", "Medium"),
    ("long", "Long"),
    ("very_long", "Very Long"),
)


@cache
def quick_reference() -> dict[str, dict[str, int | None]]:
    """The sheet's Quick Reference figures per weapon class and band (None = n/a)."""
    out: dict[str, dict[str, int | None]] = {c: {} for c, _ in WEAPON_CLASSES}
    for band, name in (
        ("short", "Short Distance"),
        ("extreme", "Extreme Distance"),
        ("maximum", "Maximum Distance"),
    ):
        t = row(name).text
        for c, label in WEAPON_CLASSES:
            m = re.search(rf"(n/a|(\d+)\s*km)\s+for\s+{label}\b(?!\s+Long)", t, re.IGNORECASE)
            if not m:
                raise RulesError(f"d100 data: no quick reference for {label} in {name}")
            out[c][band] = int(m.group(2)) if m.group(2) else None
    return out


def class_range(weapon_class: str) -> int:
    """A class's Range value: "The maximum range of a ranged weapon is triple its Range value"."""
    qr = quick_reference()
    if weapon_class not in qr:
        raise RulesError(f"unknown weapon class {weapon_class!r}")
    mx = qr[weapon_class]["maximum"]
    assert mx is not None
    if mx % 3:
        raise RulesError(f"d100 data: maximum {mx} for {weapon_class} is not triple a Range")
    return mx // 3


def point_blank() -> int:
    """Point Blank: "Ranged attacks at a distance of 1km"."""
    return plain_number(row("Point Blank").text, r"distance of (\d+)")


def range_band(distance: int, rng_value: int) -> str:
    """point_blank / short / normal / long / extreme / out_of_range, by the sheet's rules."""
    pb = point_blank()
    if distance > 3 * rng_value:
        return "out_of_range"
    if distance <= pb:
        return "point_blank"
    if distance >= math.ceil(Fraction(3, 2) * rng_value):
        return "extreme"
    if distance > rng_value:
        return "long"
    if distance <= math.ceil(Fraction(rng_value, 2)):
        return "short"
    return "normal"


@calculator(
    id="d100.range",
    title="Range band",
    source=f"{CIRC} § Ranged Attack Distance",
    tables=("ranged-attack-distance",),
)
def range_calc(
    *,
    distance: Annotated[int, In("Distance to the target (as the sheet: km)", 1, 10000)] = 4,
    weapon_class: Annotated[str, In("Weapon class", choices=WEAPON_CLASSES)] = "medium",
    weapon_range: Annotated[int, In("Weapon Range (0 = from the class)", 0, 3000)] = 0,
    horde: Annotated[bool, In("Attacker is a Horde")] = False,
) -> Result:
    """The band a distance falls in, and its BS modifier (or a Horde's DoS)."""
    rv = weapon_range or class_range(weapon_class)
    steps = [
        f"Range {rv}" + ("" if weapon_range else f" (the class's Maximum Distance {3 * rv} ÷ 3)")
    ]
    band = range_band(distance, rv)
    if band == "out_of_range":
        steps.append(f"{distance} is beyond the maximum range, triple the Range ({3 * rv})")
        return Result(
            f"Out of range: the maximum is {3 * rv}",
            (("Band", "out of range"),),
            tuple(steps),
            highlight=(row("Maximum Distance").highlight,),
        )
    steps += [
        f"Point Blank at {point_blank()}",
        f"Short at half the Range or less, rounded up: {math.ceil(Fraction(rv, 2))}",
        f"Long beyond the Range: over {rv}",
        f"Extreme at 1.5 \u00d7 Range, rounded up: {math.ceil(Fraction(3, 2) * rv)}",
        f"Maximum: triple the Range: {3 * rv}",
    ]
    if band == "normal":
        return Result(
            f"{distance}: normal range, no modifier",
            (("Band", "normal"), ("Modifier", 0)),
            tuple(steps),
        )
    m = range_modifiers()[band]
    v = m.value("bs") or 0
    values: list[tuple[str, Any]] = [("Band", m.row.name), ("Modifier", v)]
    if horde and m.horde_dos is not None:
        values = [("Band", m.row.name), ("Modifier", 0), ("Horde DoS", m.horde_dos)]
        summary = f"{m.row.name}: Hordes gain {m.horde_dos:+d} DoS instead"
    else:
        summary = f"{m.row.name}: {v:+d} to hit"
    return Result(
        summary,
        tuple(values),
        tuple(steps),
        highlight=(m.row.highlight,),
        notes=("Distances are in km as the sheet writes them.",),
    )


# -- cover ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverHit:
    through: int  # damage in excess of the Cover's AP, applied to the character
    depletion: int
    cover_after: int


def deplete_cover(damage: int, cover_ap: int, depletion: int) -> CoverHit:
    """Damage beyond Cover AP reaches the character; only then does the Cover deplete."""
    through = max(0, damage - cover_ap)
    dep = depletion if through > 0 else 0
    return CoverHit(through, dep, max(0, cover_ap - dep))


def ranged_depletion(pen: int, blast: int, acid: int) -> int:
    """Depleting Cover (Ranged): Penetration + Blast + Acid."""
    return pen + blast + acid


def melee_depletion(pen: int, sb: int, charge: bool, dos: int) -> int:
    """Depleting Cover (Melee): Penetration + Strength Bonus, plus 1 per 2 DoS on a Charge."""
    return pen + sb + (dos // 2 if charge else 0)


@calculator(
    id="d100.cover",
    title="Cover: damage through and depletion",
    source=f"{CIRC} § Cover, § Depleting Cover (Ranged), § Depleting Cover (Melee)",
    tables=("combat-circumstances",),
)
def cover(
    *,
    attack: Annotated[str, In(
        "Attack",
        choices=(("ranged", "Ranged"), ("melee", "Melee")),
    )] = "ranged",
    damage: Annotated[int, In("Damage rolled", 0, 1000)] = 12,
    cover_ap: Annotated[int, In("Cover AP", 0, 1000)] = 8,
    pen: Annotated[int, In("Weapon Penetration", 0, 100)] = 3,
    blast: Annotated[int, In("Blast value (ranged)", 0, 100)] = 1,
    acid: Annotated[int, In("Acid value (ranged)", 0, 100)] = 2,
    sb: Annotated[int, In("Strength Bonus (melee)", 0, 100)] = 4,
    charge: Annotated[bool, In("Charge (melee)")] = False,
    dos: Annotated[int, In("DoS of the Charge", 0, 30)] = 0,
) -> Result:
    """The attack resolves against the Cover first; excess damage reaches the character."""
    if attack == "ranged":
        r = row("Depleting Cover (Ranged)")
        dep = ranged_depletion(pen, blast, acid)
        how = f"Penetration {pen} + Blast {blast} + Acid {acid} = {dep}"
    elif attack == "melee":
        r = row("Depleting Cover (Melee)")
        dep = melee_depletion(pen, sb, charge, dos)
        how = (
            f"Penetration {pen} + Strength Bonus {sb}"
            + (f" + 1 per 2 DoS on a Charge ({dos} DoS → {dos // 2})" if charge else "")
            + f" = {dep}"
        )
    else:
        raise RulesError(f"attack is 'ranged' or 'melee' (got {attack!r})")
    hit = deplete_cover(damage, cover_ap, dep)
    steps = [f"Damage {damage} against Cover AP {cover_ap}"]
    if hit.through:
        steps += [
            f"{hit.through} damage in excess of the Cover's reduction reaches the character",
            f"The Cover depletes by {how}: AP {cover_ap} → {hit.cover_after}",
        ]
    else:
        steps.append("No damage in excess of the Cover: it does not deplete")
    return Result(
        f"{hit.through} through; Cover AP {cover_ap} → {hit.cover_after}",
        (
            ("Damage to the character", hit.through),
            ("Depletion", hit.depletion),
            ("Cover AP after", hit.cover_after),
            ("Depletion if exceeded", dep),
        ),
        tuple(steps),
        highlight=(row("Cover").highlight, r.highlight),
        notes=(
            "The character's own armour and Toughness then apply as normal "
            "(standard rule; not in the sheet).",
            "Cover AP is not depleted below 0 (not in the source).",
        ),
    )


# -- status effects ---------------------------------------------------------------------------

MAX_ROUNDS = 30
MAX_HELPLESS_DICE = 10  # doubled to 20 dice: exact odds stay quick


@calculator(
    id="d100.burning",
    title="Burning damage by round",
    source=f"{STATUS} § Burning",
    tables=("status-effects",),
)
def burning(
    *,
    round: Annotated[int, In("Round on fire (1 = first)", 1, MAX_ROUNDS)] = 1,
    horde: Annotated[bool, In("A Horde")] = False,
    rng: random.Random | None = None,
) -> Result:
    """1d10 energy damage ignoring AP, +1 for every round that passes.

    Hordes instead lose 1d10 magnitude at the end of each turn."""
    if not 1 <= round <= MAX_ROUNDS:
        raise LimitError(f"round is 1 to {MAX_ROUNDS} (got {round})")
    r = row("Burning")
    die = plain_number(r.text, r"take 1d(\d+) energy damage")
    step = number_after(r.text, "increases by")
    d = Distribution.d(die)
    if horde:
        hd = plain_number(r.text, r"automatically lose 1d(\d+) magnitude")
        this = Distribution.d(hd)
        steps = [f"Hordes automatically lose 1d{hd} magnitude at the end of each turn"]
        total = this.repeat(round)
        what = "magnitude"
    else:
        extra = step * (round - 1)
        this = d + extra
        total = d.repeat(round) + sum(step * i for i in range(round))
        steps = [
            f"1d{die} energy damage to a random location, ignoring AP",
            f"+{step} for every round that passes: round {round} → 1d{die}{extra:+d}",
        ]
        what = "damage"
    dice: list[Die] = []
    lo, hi = min(this.outcomes()), max(this.outcomes())
    summary = f"Round {round}: {what} {lo}-{hi} (mean {float(this.mean()):.1f})"
    if rng is not None:
        v = roll(rng, hd if horde else die)[0]
        got = v if horde else v + step * (round - 1)
        dice.append(Die(hd if horde else die, v, f"{got} {what}", "fire"))
        summary = f"Round {round}: {got} {what}"
    steps.append(f"Total over rounds 1-{round}: mean {float(total.mean()):.1f}")
    return Result(
        summary,
        (
            ("This round", f"{min(this.outcomes())}-{max(this.outcomes())}"),
            ("Mean total", total.mean()),
        ),
        tuple(steps),
        (
            Odds.of(this, f"{what.capitalize()} in round {round}"),
            Odds.of(total, f"Total {what} over {round} round(s)"),
        ),
        tuple(dice),
        (r.highlight,),
        ("Willpower test to act, Agility test to put it out: their results are yours to roll.",),
    )


def blood_loss_chain(toughness: int, modifier: int, rounds: int, decay_die: int) -> dict[int, int]:
    """Toughness after `rounds` tests: counts over (100 x die)^rounds equally likely ways.

    Each round test Toughness (current value + modifier); on a failure lose 1d`decay_die`.
    At 0 Toughness the character dies (state 0 absorbs).
    """
    states = {toughness: 1}
    for _ in range(rounds):
        nxt: dict[int, int] = {}
        for t, c in states.items():
            if t <= 0:
                nxt[0] = nxt.get(0, 0) + c * 100 * decay_die
                continue
            succ = min(100, max(0, t + modifier))
            nxt[t] = nxt.get(t, 0) + c * succ * decay_die
            for k in range(1, decay_die + 1):
                nt = max(0, t - k)
                nxt[nt] = nxt.get(nt, 0) + c * (100 - succ)
        states = nxt
    return states


@calculator(
    id="d100.blood_loss",
    title="Blood Loss over rounds",
    source=f"{STATUS} § Blood Loss + standard d100 test (roll at most the target)",
    tables=("status-effects",),
)
def blood_loss(
    *,
    toughness: Annotated[int, In("Toughness (or a Horde's)", 1, 100)] = 30,
    modifier: Annotated[int, In("Modifier to the Toughness test", -100, 100)] = 0,
    rounds: Annotated[int, In("Rounds", 1, 30)] = 3,
    horde: Annotated[bool, In("A Horde")] = False,
    magnitude: Annotated[int, In("Horde magnitude", 1, 500)] = 30,
) -> Result:
    """Test Toughness every round; a failure costs 1d5 Toughness (Hordes: 1d5 magnitude)."""
    if not 1 <= rounds <= 30:
        raise LimitError(f"at most 30 rounds (got {rounds})")
    r = row("Blood Loss")
    die = plain_number(r.text, r"suffer 1d(\d+) Toughness decay")
    if horde:
        hd = plain_number(r.text, r"lose 1d(\d+) magnitude")
        succ = min(100, max(0, toughness + modifier))
        per = Distribution.from_counts({0: succ * hd, **{k: 100 - succ for k in range(1, hd + 1)}})
        lost = per.repeat(rounds)
        after = lost.map(lambda x: max(0, magnitude - x))
        return Result(
            f"After {rounds} round(s): magnitude mean {float(after.mean()):.1f}",
            (("P(destroyed)", after.probability(0)), ("Mean magnitude", after.mean())),
            (
                f"Test Toughness {toughness}{modifier:+d} = {succ} each round",
                f"On a failure the Horde loses 1d{hd} magnitude at the end of the turn",
            ),
            (Odds.of(after, "Magnitude after"),),
            highlight=(r.highlight,),
        )
    states = blood_loss_chain(toughness, modifier, rounds, die)
    dist = Distribution.from_counts(states)
    p_dead = dist.probability(0)
    steps = (
        f"Each round test Toughness (current Toughness {modifier:+d}); "
        f"on a failure suffer 1d{die} Toughness decay",
        "The test is against the decayed Toughness (decay lowers the characteristic)",
        f"At 0 Toughness you die: {float(p_dead):.2%} within {rounds} round(s)",
    )
    return Result(
        f"P(dead within {rounds} rounds) = {float(p_dead):.2%}",
        (("P(dead)", p_dead), ("Mean Toughness", dist.mean())),
        steps,
        (Odds.of(dist, f"Toughness after {rounds} round(s)"),),
        highlight=(r.highlight,),
        notes=("Until the blood loss is staunched (Medicae).",),
    )


@calculator(
    id="d100.crippled",
    title="Crippled: acting beyond a Half Action",
    source=f"{STATUS} § Crippled",
    tables=("status-effects",),
)
def crippled(
    *,
    toughness: Annotated[int, In("Toughness", 0, 100)] = 30,
    modifier: Annotated[int, In("Modifier to the Toughness test", -100, 100)] = 0,
    wounds: Annotated[int, In("Wounds remaining", 0, 1000)] = 10,
    horde: Annotated[bool, In("A Horde")] = False,
    rng: random.Random | None = None,
) -> Result:
    """More than a Half Action: test Toughness; on a failure 1d10 damage ignoring AP and TB."""
    r = row("Crippled")
    if horde:
        return Result(
            "Hordes instead instantly gain the Blood Loss status effect.",
            (("Blood Loss", True),),
            ("Hordes instead instantly gain Blood Loss",),
            highlight=(r.highlight, row("Blood Loss").highlight),
        )
    die = plain_number(r.text, r"suffer 1d(\d+) damage")
    target = toughness + modifier
    succ = min(100, max(0, target))
    d = Distribution.d(die)
    # wounds after: a pass keeps them (succ x die ways); a failure loses each 1d`die` face
    counts = {wounds: succ * die}
    for k in range(1, die + 1):
        left = max(0, wounds - k)
        counts[left] = counts.get(left, 0) + (100 - succ)
    after = Distribution.from_counts(counts)
    p_bl = after.probability(0) if wounds > 0 else Fraction(0)
    steps = [
        f"Test Toughness {target}: pass on {succ} or less ({Fraction(succ, 100)})",
        f"On a failure suffer 1d{die} damage that ignores AP and TB "
        "(it cannot inflict critical damage)",
        f"Reduced to 0 wounds: lose Crippled, gain Blood Loss ({p_bl})",
    ]
    dice: list[Die] = []
    summary = f"P(damage) = {Fraction(100 - succ, 100)}; P(Blood Loss) = {p_bl}"
    if rng is not None:
        t = roll(rng, 100)[0]
        dice.append(Die(100, t, "pass" if t <= target else "fail", "toughness"))
        if t <= target:
            summary = f"Rolled {t:02d}: passed, no damage"
        else:
            v = roll(rng, die)[0]
            dice.append(Die(die, v, f"{v} damage", "damage"))
            left = max(0, wounds - v)
            summary = f"Rolled {t:02d}: failed, {v} damage, {left} wounds left" + (
                " → Blood Loss" if left == 0 and wounds > 0 else ""
            )
    return Result(
        summary,
        (("P(damage)", Fraction(100 - succ, 100)), ("P(Blood Loss)", p_bl)),
        tuple(steps),
        (
            Odds.of(after, "Wounds after", cumulative=False),
            Odds.of(d, f"Damage on a failure (1d{die})"),
        ),
        tuple(dice),
        (r.highlight,),
    )


@dataclass(frozen=True)
class Collapse:
    collapses: bool
    minutes: int
    penalty: int
    rest_hours: int


def fatigue_collapse(fatigue: int, threshold: int, tb: int) -> Collapse:
    """Fatigue equal to or over the Threshold: collapse for 10-TB minutes, +10 minutes per
    point of Fatigue above TB+1; 1 hour of rest removes 1 rank, 6 hours all of it."""
    r = row("Fatigue effect")
    base = plain_number(r.text, r"collapse for (\d+)-TB")
    per = plain_number(r.text, r"\+(\d+) minutes per")
    above = plain_number(r.text, r"above your TB\+(\d+)")
    all_hours = plain_number(r.text, r"(\d+) hours removes all")
    penalty = number_after(r.text, "You take a") if fatigue > 0 else 0
    minutes = 0
    if fatigue >= threshold:
        minutes = max(0, base - tb) + per * max(0, fatigue - (tb + above))
    return Collapse(fatigue >= threshold, minutes, penalty, min(fatigue, all_hours))


@calculator(
    id="d100.fatigue",
    title="Fatigue: penalty, collapse and rest",
    source=f"{STATUS} § Fatigue",
    tables=("status-effects",),
)
def fatigue(
    *,
    fatigue: Annotated[int, In("Levels of Fatigue", 0, 100)] = 1,
    threshold: Annotated[int, In(
        "Fatigue Threshold",
        1,
        100,
        help="Not defined in the sheet (standard rule: TB + WPB).",
    )] = 6,
    tb: Annotated[int, In("Toughness Bonus (TB)", 0, 20)] = 3,
) -> Result:
    c = fatigue_collapse(fatigue, threshold, tb)
    r = row("Fatigue effect")
    steps = [f"With a level of Fatigue: {c.penalty:+d} to all tests" if fatigue else "No Fatigue"]
    if c.collapses:
        steps.append(
            f"Fatigue {fatigue} ≥ Threshold {threshold}: collapse for 10 - TB "
            f"= {max(0, 10 - tb)} minutes + 10 per point above TB+1 "
            f"({max(0, fatigue - tb - 1)}) = {c.minutes} minutes"
        )
    steps.append(f"Rest: 1 hour removes 1 rank, 6 hours removes all: {c.rest_hours} hour(s)")
    summary = (f"Collapsed for {c.minutes} minutes" if c.collapses else "No collapse") + (
        f"; {c.penalty:+d} to all tests" if fatigue else ""
    )
    return Result(
        summary,
        (
            ("Collapses", c.collapses),
            ("Minutes", c.minutes),
            ("Penalty", c.penalty),
            ("Hours of rest", c.rest_hours),
        ),
        tuple(steps),
        highlight=(r.highlight, row("Fatigue").highlight),
        notes=(
            "The Fatigue Threshold is not defined in the sheet.",
            "10 - TB below 0 is counted as 0 minutes (not in the source).",
            "Hordes take the penalty, and lose 1d10 magnitude in any turn they act "
            "whilst over the Threshold.",
        ),
    )


@calculator(
    id="d100.helpless_damage",
    title="Damage against a Helpless target",
    source=f"{CIRC} § Helpless (Status Modifiers), {STATUS} § Helpless",
    tables=("status-modifiers", "status-effects"),
)
def helpless_damage(
    *,
    dice: Annotated[int, In("Damage dice", 1, MAX_HELPLESS_DICE)] = 1,
    sides: Annotated[int, In("Sides", 2, 20)] = 10,
    bonus: Annotated[int, In("Damage modifier", -50, 100)] = 0,
    rng: random.Random | None = None,
) -> Result:
    """Roll the damage dice twice and add both, damage modifiers only once."""
    if not 1 <= dice <= MAX_HELPLESS_DICE:
        raise LimitError(f"1 to {MAX_HELPLESS_DICE} damage dice (asked for {dice})")
    if not 2 <= sides <= 20:
        raise LimitError(f"damage dice of 2 to 20 sides (asked for d{sides})")
    base = Distribution.d(sides).repeat(dice)
    normal = base + bonus
    doubled = base.repeat(2) + bonus
    steps = [
        f"Normal: {dice}d{sides}{bonus:+d}, mean {float(normal.mean()):.1f}",
        f"Helpless: roll the damage dice twice and add both: {2 * dice}d{sides}{bonus:+d} "
        f"(modifier once), mean {float(doubled.mean()):.1f}",
    ]
    dice_out: list[Die] = []
    summary = f"{2 * dice}d{sides}{bonus:+d}: mean {float(doubled.mean()):.1f}"
    if rng is not None:
        vs = roll(rng, sides, 2 * dice)
        dice_out = [Die(sides, v, "", "damage") for v in vs]
        summary = f"Rolled {' + '.join(map(str, vs))} {bonus:+d} = {sum(vs) + bonus}"
    return Result(
        summary,
        (("Mean", doubled.mean()), ("Mean normally", normal.mean())),
        tuple(steps),
        (Odds.of(doubled, "Damage against a Helpless target"),),
        tuple(dice_out),
        (row("Helpless").highlight, row("Helpless effect").highlight),
    )
