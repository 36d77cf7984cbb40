"""Horizon: Out of the Ashes: the combat rules, with exact odds.

Source: sources/horizon-out-of-the-ashes-combat.txt ("Combat Quick Reference"),
cited below as "§ <section>". Weapon profiles and the other tables are read
from the extracted data (rules_pkg/data/horizon.json), never re-typed here.
Where the source leaves a number out, results say so in their notes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from . import data
from .dice import MAX_DICE, Distribution, check_dice, roll
from .errors import RulesError
from .kernel import In, calculator
from .registry import Die, Highlight, Odds, OddsRow, Result

GAME = "horizon"
SOURCE = "Horizon: Out of the Ashes combat reference § "
NOT_IN_SOURCE = "not in the source: "
X = "\u00d7"  # the multiplication sign, as the source writes "(10\u00d72) = 20"

MAX_RANK = 100  # engine limit on a Trait rank (the source sets no maximum)
MAX_AP = 1000  # engine limit on an AP score typed in
MAX_ACTIONS = 20  # engine limit on actions/attacks per turn (Augs can add Attacks)
POINT_BLANK_AP = 5  # § Point Blank Range: "+5AP"
HELPER_AP = 5  # § Pick Up / Carry / Drop / Throw: "Each helper reduces the difficulty by -5AP"
TRAITS = ("ACU", "AGI", "STR")


# --- skill tests --------------------------------------------------------------------------

@cache
def face_ap() -> tuple[int, ...]:
    """§ Forgotten how to use Skills?, the source's own table: "Die result: 1 2 3 4 5 6 /
    Score: 0 0 0 +1AP +1AP +2AP" (read from the extracted data, not re-typed)."""
    t = _find_table("die result")
    faces = [str(c).strip() for c in t["header"][1:]]
    scores = [str(c) for c in t["rows"][0]["cells"][1:]]
    if faces != [str(f) for f in range(1, 7)] or len(scores) != 6:
        raise RulesError("the source's die-result table is not the six faces of a d6")
    out = []
    for cell in scores:
        m = re.match(r"^\s*\+?(\d+)\s*(?:AP)?\s*$", cell)
        if not m:
            raise RulesError(f"unreadable die score {cell!r} in the source's die-result table")
        out.append(int(m.group(1)))
    return tuple(out)


def face_label(face: int) -> str:
    ap = face_ap()[face - 1]
    return f"+{ap} AP" if ap else "0"


@cache
def _dice_distribution(dice: int) -> Distribution[int]:
    # one die: counts 0:3, 1:2, 2:1; Distribution.repeat doubles, so 100 dice stay fast
    return Distribution.die(face_ap()).repeat(dice)


def _check_rank(value: int, what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{what} must be a whole number")
    if value < 0:
        raise RulesError(f"{what} cannot be negative (got {value})")
    if value > MAX_RANK:
        raise RulesError(f"{what} is at most {MAX_RANK} here (got {value})")


@dataclass(frozen=True)
class SkillTest:
    """A Skill test (§ Forgotten how to use Skills?).

    Roll as many dice as the Skill rank; each 1-3 scores 0, 4-5 +1 AP, 6 +2 AP;
    add the Trait bonus (the highest rank among the Skill's linked Traits).
    Without the Skill no dice are rolled: the Trait rank alone is the score
    (§ Starting Combat, THE AWARENESS TEST). `extra` is any further bonus
    (Surprise, § Surprise!) and is added like the Trait bonus.
    """

    dice: int
    trait_bonus: int
    extra: int = 0
    extra_label: str = "bonus"  # what `extra` is, for the explanation ("Surprise")

    def __post_init__(self) -> None:
        check_dice(self.dice, "dice (Skill rank)")
        _check_rank(self.trait_bonus, "The Trait bonus")
        _check_rank(self.extra, "The extra bonus")

    @property
    def bonus(self) -> int:
        return self.trait_bonus + self.extra

    def distribution(self) -> Distribution[int]:
        """The exact distribution of the AP score."""
        return _dice_distribution(self.dice) + self.bonus

    def score(self, faces: Sequence[int]) -> int:
        """The AP score of rolled faces: dice results plus the bonus."""
        if len(faces) != self.dice or any(f not in range(1, 7) for f in faces):
            raise RulesError(f"a {self.dice}-dice test needs {self.dice} faces from 1 to 6")
        return sum(face_ap()[f - 1] for f in faces) + self.bonus

    def roll(self, rng: random.Random) -> tuple[tuple[int, ...], int]:
        faces = roll(rng, 6, self.dice)
        return faces, self.score(faces)

    def explain(self, faces: Sequence[int] | None = None) -> str:
        """e.g. "(4+5) = 9 AP": dice results plus Trait bonus, as the source writes it."""
        parts = [f"Trait bonus +{self.trait_bonus}"]
        if self.extra:
            parts.append(f"{self.extra_label} +{self.extra}")
        if faces is None:
            return f"{self.dice} dice + " + " + ".join(parts)
        dice_ap = sum(face_ap()[f - 1] for f in faces)
        return f"dice +{dice_ap} AP, " + ", ".join(parts) + f": ({dice_ap}+{self.bonus}) = " \
            f"{dice_ap + self.bonus} AP"


# § Weapon Profiles: "You will make a combat test using this profile every round": a Skill
# test on the weapon's Combat Skill (§ Weapons and Combat Skills).
CombatTest = SkillTest


def _dice(faces: Sequence[int], kind: str) -> tuple[Die, ...]:
    return tuple(Die(6, f, face_label(f), kind) for f in faces)


def _ap_odds(dist: Distribution[int], title: str) -> Odds:
    return Odds.of(dist, title, lambda s: f"{s} AP")


# --- weapon profiles ------------------------------------------------------------------------

_AP_CELL = re.compile(r"^\s*(\d+)\s*(?:AP)?\s*(?:-\s*(\d+)\s*(?:AP)?)?\s*$")
_INT = re.compile(r"^\s*([+-]?\d+)\s*m?\s*$")


def parse_int(cell: str) -> int | None:
    """A whole number as the tables print it ("22", "-5", "+5", "-10m"); else None."""
    m = _INT.match(cell)
    return int(m.group(1)) if m else None


def parse_move(cell: str) -> int | None:
    """A Move cell: "Base" is no change, "-10" is -10 m (§ The Move Action, WEAPONS)."""
    if cell.strip().lower() == "base":
        return 0
    return parse_int(cell)


def parse_damage(cell: str) -> tuple[int, ...] | None:
    """Damage: "22", or per target for grenades: "25/20/15/10/5". None if not plain numbers."""
    parts = [parse_int(p) for p in cell.split("/")]
    if not cell.strip() or any(p is None for p in parts):
        return None
    return tuple(p for p in parts if p is not None)


@dataclass(frozen=True)
class ProfileRow:
    """One row of a Combat Profile: an AP score (or a band of scores) and its cells."""

    table: str
    index: int  # position in the table's rows (what a Highlight points at)
    low: int
    high: int
    header: tuple[str, ...]
    cells: tuple[str, ...]
    line: int

    @property
    def label(self) -> str:
        return f"{self.low} AP" if self.low == self.high else f"{self.low} - {self.high} AP"

    def column(self, *keys: str) -> int | None:
        """Index of the first column whose heading contains one of `keys` (any case)."""
        for key in keys:
            for i, h in enumerate(self.header):
                if i and key in h.lower():
                    return i
        return None

    def cell(self, *keys: str) -> str | None:
        """The cell under the column named by `keys`; None when blank or absent."""
        i = self.column(*keys)
        if i is None or i >= len(self.cells) or not self.cells[i].strip():
            return None
        return self.cells[i].strip()

    def describe(self) -> str:
        """ "Damage 22, Defense 27, Move Base, Range 20" (blank cells named as blank)."""
        parts = []
        for i, h in enumerate(self.header[1:], start=1):
            text = self.cells[i].strip() if i < len(self.cells) else ""
            parts.append(f"{h} {text}" if text else f"{h} (blank in the source)")
        return ", ".join(parts)

    def step(self, score: int) -> str:
        """ "17 AP → row 17: Damage 22, …" as a player reads the profile."""
        row = str(self.low) if self.low == self.high else f"{self.low} - {self.high}"
        return f"{score} AP → row {row}: {self.describe()}"


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon's Combat Profile (§ Weapon Profiles), as extracted from the source."""

    id: str
    name: str
    tier: int | None
    group: str
    skill: str
    layout: str  # "ap": one row per AP score; "banded": rows of AP bands
    table: str
    record: tuple[tuple[str, Any], ...]
    rows: tuple[ProfileRow, ...]

    def get(self, key: str) -> Any:
        return dict(self.record).get(key)

    @property
    def kind(self) -> str:
        """melee, unarmed, grenade or ranged: what § Point Blank Range and Defense ask."""
        text = f"{self.group} {self.get('category') or ''}".lower()
        for kind in ("unarmed", "melee", "grenade"):
            if kind in text:
                return kind
        return "ranged"

    @property
    def first(self) -> int:
        return min(r.low for r in self.rows)

    @property
    def last(self) -> int:
        return max(r.high for r in self.rows)

    def row_for(self, score: int) -> ProfileRow | None:
        """The row whose AP (or AP band) holds `score`; None if the table has none."""
        for r in self.rows:
            if r.low <= score <= r.high:
                return r
        return None

    def outside(self, score: int) -> str:
        """Why a score has no row, in words (the source gives no rule for it)."""
        if score > self.last:
            return (f"{NOT_IN_SOURCE}{score} AP is beyond the {self.name} profile, whose table "
                    f"ends at {self.last} AP; the source does not say what a higher score gives")
        if score < self.first:
            return (f"{NOT_IN_SOURCE}{score} AP is below the {self.name} profile, whose table "
                    f"starts at {self.first} AP; the source does not say what a lower score gives")
        return f"{NOT_IN_SOURCE}the {self.name} profile has no row for {score} AP"

    def count(self, key: str) -> int | None:
        """Magazine or Reload as a number of Attacks, when the source gives one."""
        value = self.get(f"{key}_count")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        m = re.search(r"(\d+)", str(self.get(key) or ""))
        return int(m.group(1)) if m else None


def _rows(table_id: str) -> tuple[ProfileRow, ...]:
    t = data.table(GAME, table_id)
    header = tuple(str(h) for h in t["header"])
    rows = []
    for i, r in enumerate(t["rows"]):
        cells = tuple(str(c) for c in r["cells"])
        m = _AP_CELL.match(cells[0]) if cells else None
        if not m:
            continue  # not a score row (never expected; the lint reports such rows)
        low = int(m.group(1))
        high = int(m.group(2)) if m.group(2) else low
        rows.append(ProfileRow(table_id, i, low, high, header, cells, int(r.get("line", 0))))
    return tuple(rows)


def _records() -> list[dict[str, Any]]:
    return [r for r in data.records(GAME, "weapon_profiles") if isinstance(r, dict)]


@cache
def profiles() -> dict[str, WeaponProfile]:
    """Every weapon profile in the source, by id (loaded on first use)."""
    found: dict[str, WeaponProfile] = {}
    for rec in _records():
        tier = rec.get("tier")
        found[str(rec["id"])] = WeaponProfile(
            id=str(rec["id"]), name=str(rec.get("name") or rec["id"]),
            tier=tier if isinstance(tier, int) else None,
            group=str(rec.get("group") or ""), skill=str(rec.get("skill") or ""),
            layout=str(rec.get("layout") or "ap"), table=str(rec["table"]),
            record=tuple(sorted(rec.items())), rows=_rows(str(rec["table"])))
    return found


def profile(weapon: str) -> WeaponProfile:
    try:
        return profiles()[weapon]
    except KeyError:
        raise RulesError(f"no weapon profile called {weapon!r} in Horizon") from None


def _weapon_choices() -> tuple[tuple[str, str], ...]:
    # Only the records are read here (no table parsing), so importing stays cheap.
    try:
        recs = _records()
    except RulesError:
        return ()  # no extracted data yet: the build (`make data`) writes it
    out = []
    for r in recs:
        tier = f" (Tier {r['tier']})" if r.get("tier") else ""
        out.append((str(r["id"]), f"{r.get('name') or r['id']}{tier}"))
    return tuple(out)


def _default_weapon(choices: tuple[tuple[str, str], ...]) -> str:
    for r in _records() if choices else []:
        if r.get("layout") == "ap":
            return str(r["id"])
    return choices[0][0] if choices else ""


def _find_table(*words: str) -> dict[str, Any]:
    """A non-profile table whose header holds all `words` (ids are the extractor's)."""
    for t in data.tables(GAME).values():
        head = " ".join(str(h) for h in t["header"]).lower()
        if all(w in head for w in words):
            return t
    raise RulesError(f"no table with {', '.join(words)} in the Horizon data")


def lookup(weapon: WeaponProfile, score: int) -> tuple[ProfileRow | None, str]:
    """§ Attack Actions: "find the row in your weapon's combat profile that matches your
    AP score". Returns the row and the step (or the note, when the table has none)."""
    row = weapon.row_for(score)
    return (row, row.step(score)) if row else (None, weapon.outside(score))


# --- combat test ----------------------------------------------------------------------------

def linked_traits(weapon: WeaponProfile) -> tuple[str, ...]:
    """§ Weapons and Combat Skills: the Traits whose highest rank is the Trait bonus."""
    t = _find_table("skill", "trait")
    group = str(weapon.get("category") or weapon.group).lower()
    for r in t["rows"]:
        cells = [str(c) for c in r["cells"]]
        name = cells[0].lower().split(" (")[0]
        # "Melee weapons" / "Melee", "SMGs" / "SMGs (Sub-Machine Guns)", "Unarmed styles"
        if name and (group.startswith(name.split()[0]) or name.startswith(group.split(" (")[0])):
            traits = tuple(tr for tr in TRAITS if re.search(rf"\b{tr}\b", cells[-1]))
            if traits:
                return traits
    raise RulesError(f"the source's Weapons and Combat Skills table has no row for {group}")


def trait_bonus(traits: Sequence[str], ranks: dict[str, int]) -> tuple[int, str]:
    """§ Forgotten how to use Skills?: the bonus is "the highest rank in its linked Traits"."""
    best = max(traits, key=lambda tr: ranks[tr])
    shown = " or ".join(f"{tr} {ranks[tr]}" for tr in traits)
    return ranks[best], f"Trait bonus: highest of {shown} → +{ranks[best]} AP"


def row_odds(weapon: WeaponProfile, dist: Distribution[int]) -> Odds:
    """Exact odds of landing on each profile row, and of reaching it or better."""
    pmf = dist.pmf()
    rows: list[OddsRow] = []
    below = sum((p for s, p in pmf.items() if s < weapon.first), Fraction(0))
    if below:
        rows.append(OddsRow(f"below {weapon.first} AP: no row ({NOT_IN_SOURCE.strip(': ')})",
                            below, Fraction(1)))
    for r in weapon.rows:
        exactly = sum((p for s, p in pmf.items() if r.low <= s <= r.high), Fraction(0))
        at_least = sum((p for s, p in pmf.items() if s >= r.low), Fraction(0))
        if exactly or 0 < at_least < 1:  # rows surely passed or out of reach are left out
            rows.append(OddsRow(f"{r.label}: {r.describe()}", exactly, at_least))
    above = sum((p for s, p in pmf.items() if s > weapon.last), Fraction(0))
    if above:
        rows.append(OddsRow(f"above {weapon.last} AP: no row ({NOT_IN_SOURCE.strip(': ')})",
                            above, above))
    return Odds(f"{weapon.name}: row reached", tuple(rows))


# Inputs several calculators share, declared once: the type (with the form's label and
# limits) and the default.
WeaponIn = Annotated[str, In("Weapon", choices=_weapon_choices(),
                             help="the weapon's Combat Profile", from_table="profile-")]
WEAPON_DEFAULT = _default_weapon(_weapon_choices())
ApScoreIn = Annotated[int, In("AP score", 0, MAX_AP, help="your combat test's score")]
AP_SCORE_DEFAULT = 10


@calculator(
    id="horizon.skill_test", title="Skill test: AP score",
    source=SOURCE + "Forgotten how to use Skills?")
def skill_test(
    *,
    dice: Annotated[int, In(
        "Skill rank (dice)",
        0,
        MAX_DICE,
        help="0 if you don't have the Skill: the Trait rank alone is the score",
    )] = 3,
    bonus: Annotated[int, In(
        "Trait bonus",
        0,
        MAX_RANK,
        help="the highest rank among the Skill's linked Traits",
    )] = 3,
    rng: random.Random | None = None,
) -> Result:
    """§ Forgotten how to use Skills?: dice results plus the Trait bonus."""
    test = SkillTest(dice, bonus)
    dist = test.distribution()
    steps = [f"roll {dice} dice (the Skill rank): 1-3 score 0, 4-5 +1 AP, 6 +2 AP",
             f"add the Trait bonus: +{bonus} AP"]
    if not dice:
        steps[0] = "no Skill: no dice are rolled; the Trait rank alone is the score"
    values: list[tuple[str, Any]] = [("Mean AP", dist.mean())]
    dice_shown: tuple[Die, ...] = ()
    summary = f"{dice} dice + {bonus}: {min(dist.outcomes())}-{max(dist.outcomes())} AP, " \
              f"mean {float(dist.mean()):.2f}"
    if rng is not None:
        faces, score = test.roll(rng)
        dice_shown = _dice(faces, "skill")
        steps.append(test.explain(faces))
        values.insert(0, ("AP score", score))
        summary = f"{score} AP"
    return Result(summary, tuple(values), tuple(steps), (_ap_odds(dist, "AP score"),),
                  dice_shown)


@calculator(
    id="horizon.combat_test", title="Combat test with a weapon profile",
    source=SOURCE + "Weapons and Combat Skills; Weapon Profiles; Surprise!", tables=("profile-*",))
def combat_test(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    skill: Annotated[int, In(
        "Combat Skill rank (dice)",
        0,
        MAX_DICE,
        help="High-Caliber, Rapid-Fire or Special Combat, as the weapon needs",
    )] = 3,
    acuity: Annotated[int, In("ACU (Acuity)", 0, MAX_RANK)] = 2,
    agility: Annotated[int, In("AGI (Agility)", 0, MAX_RANK)] = 2,
    strength: Annotated[int, In("STR (Strength)", 0, MAX_RANK)] = 2,
    surprise: Annotated[bool, In(
        "Surprise (first combat test)",
        help="your side started combat by surprise: +ACU AP",
    )] = False,
    rng: random.Random | None = None,
) -> Result:
    """§ Weapons and Combat Skills (Skill and Trait bonus), § Weapon Profiles (the row),
    § Surprise! (+ACU AP on the first combat test)."""
    w = profile(weapon)
    ranks = {"ACU": acuity, "AGI": agility, "STR": strength}
    for tr, v in ranks.items():
        _check_rank(v, tr)
    traits = linked_traits(w)
    bonus, bonus_step = trait_bonus(traits, ranks)
    test = SkillTest(skill, bonus, acuity if surprise else 0, "Surprise")
    steps = [f"{w.name}: roll {skill} dice ({w.skill or 'its Combat Skill'} rank)", bonus_step]
    if surprise:
        steps.append(f"Surprise!: +ACU = +{acuity} AP on the first combat test")
    dist = test.distribution()
    odds = (row_odds(w, dist), _ap_odds(dist, "AP score"))
    values: list[tuple[str, Any]] = [("Trait bonus", bonus), ("Mean AP", dist.mean())]
    notes: list[str] = []
    if rng is None:
        summary = f"{w.name}: {skill} dice + {test.bonus} → mean {float(dist.mean()):.2f} AP"
        return Result(summary, tuple(values), tuple(steps), odds)
    faces, score = test.roll(rng)
    steps.append(test.explain(faces))
    row, step = lookup(w, score)
    (steps if row else notes).append(step)
    values.insert(0, ("AP score", score))
    highlight = (Highlight(w.table, row.index),) if row else ()
    summary = f"{score} AP" + (f": {row.describe()}" if row else ": no row in the profile")
    return Result(summary, tuple(values), tuple(steps), odds, _dice(faces, "skill"), highlight,
                  tuple(notes))


@calculator(
    id="horizon.profile_row", title="Combat profile: row for an AP score",
    source=SOURCE + "Weapon Profiles; Attack Actions",
    tables=("profile-*",))
def profile_row(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    ap: ApScoreIn = AP_SCORE_DEFAULT,
) -> Result:
    """§ Attack Actions / Defense Actions / The Move Action: "find the row in your weapon's
    combat profile that matches your AP score"; banded profiles: the band holding it."""
    w = profile(weapon)
    row, step = lookup(w, ap)
    if row is None:
        return Result(f"{ap} AP: no row in the {w.name} profile", (("AP score", ap),),
                      notes=(step,))
    values: list[tuple[str, Any]] = [("AP score", ap), ("Row", row.label)]
    values += [(h, row.cells[i] if i < len(row.cells) else "")
               for i, h in enumerate(row.header) if i]
    blanks = [h for i, h in enumerate(row.header)
              if i and (i >= len(row.cells) or not row.cells[i].strip())]
    notes = tuple(f"{NOT_IN_SOURCE}the {h} cell of row {row.label} is blank" for h in blanks)
    return Result(f"{w.name}, {ap} AP: {row.describe()}", tuple(values), (step,),
                  highlight=(Highlight(w.table, row.index),), notes=notes)


# --- attacks ---------------------------------------------------------------------------------

MODES: tuple[tuple[str, str], ...] = (
    ("normal", "Normal Attack (Melee and Unarmed strikes are always Point Blank)"),
    ("point_blank", "Point Blank: 2 m or less from the target (+5 AP)"),
    ("thrown", "Thrown Melee weapon, more than 2 m (no bonus)"),
    ("struck", "Non-Melee weapon striking at Melee range or thrown under 2 m "
               "(+5 AP, half damage)"),
    ("improvised", "Improvised weapon, Melee profile (+5 AP, half damage)"),
)
ModeIn = Annotated[str, In("How you Attack", choices=MODES)]
MODE_DEFAULT = "normal"


@dataclass(frozen=True)
class AttackResult:
    """Damage of one Attack after § Point Blank Range and § Wounding Attacks."""

    weapon: WeaponProfile
    ap: int  # the AP used for the row: score + Point Blank - Wounding penalty
    row: ProfileRow | None
    damage: tuple[int, ...] | None  # per Attack; per target in turn for grenades
    ignores_defense: bool
    steps: tuple[str, ...]
    notes: tuple[str, ...]


def _half_up(n: int) -> int:
    return -(-n // 2)  # "half the damage amount, rounding all fractions up"


def attack(weapon: WeaponProfile, score: int, mode: str = "normal", penalty: int = 0,
           double: bool = False, condition: str = "") -> AttackResult:
    """One Attack's damage (§ Attack Actions), with § Point Blank Range (+5 AP; half damage,
    rounded up, for non-Melee weapons at Melee range and improvised weapons) and a Wounding
    Attack's penalty (§ Wounding Attacks; Shatter Head: double damage)."""
    kind = weapon.kind
    steps: list[str] = []
    notes: list[str] = []
    melee_strike = kind in ("melee", "unarmed") and mode == "normal"
    if mode == "thrown" and kind != "melee":
        raise RulesError("only Melee weapons are thrown as a Melee weapon")
    if mode == "struck" and kind in ("melee", "unarmed"):
        raise RulesError(f"the {weapon.name} is a Melee/Unarmed profile: its strikes are "
                         "normal Point Blank Attacks")
    if mode == "improvised" and kind != "melee":
        raise RulesError("improvised weapons use a Melee weapon combat profile "
                         "(§ Improvised Weapons): choose one of the Melee profiles")
    if mode == "point_blank" and kind == "grenade":
        raise RulesError("a grenade thrown under 2 m is a non-Melee weapon thrown at Melee "
                         "range: choose that option (+5 AP, half damage)")
    ap = score
    if mode in ("point_blank", "struck", "improvised") or melee_strike:
        ap += POINT_BLANK_AP
        why = "a Melee/Unarmed strike always gains it" if melee_strike else "2 m or less"
        steps.append(f"Point Blank Range ({why}): +{POINT_BLANK_AP} AP → "
                     f"{score} + {POINT_BLANK_AP} = {ap} AP")
    if penalty:
        steps.append(f"Wounding Attack ({condition}): -{penalty} AP → {ap} - {penalty} = "
                     f"{ap - penalty} AP")
        ap -= penalty
    elif condition:
        steps.append(f"Wounding Attack ({condition}): no Attack penalty")
    row, step = lookup(weapon, ap)
    damage: tuple[int, ...] | None = None
    if row is None:
        notes.append(step)
    else:
        steps.append(step)
        cell = row.cell("damage", "lethal") or ""
        damage = parse_damage(cell) if weapon.layout == "ap" else None
        if weapon.layout != "ap":
            notes.append(f"{NOT_IN_SOURCE}how to read the banded {weapon.name} profile's "
                         f"{row.header[row.column('damage', 'lethal') or 1]} cell "
                         f"{cell or '(blank)'!r} as damage: § Attack Actions only explains "
                         "the Damage column")
        elif damage is None:
            notes.append(f"{NOT_IN_SOURCE}the {weapon.name}'s damage cell {cell!r} is not a "
                         "plain number and the source does not explain it; read it as printed")
    if damage is not None and mode in ("struck", "improvised"):
        halved = tuple(_half_up(d) for d in damage)
        steps.append("half the damage, fractions rounded up: "
                     + ", ".join(f"{d} → {h}" for d, h in zip(damage, halved, strict=True)))
        damage = halved
    if damage is not None and double:
        doubled = tuple(2 * d for d in damage)
        steps.append(f"{condition}: the target suffers double damage from the attack: "
                     + ", ".join(f"{d} → {h}" for d, h in zip(damage, doubled, strict=True)))
        damage = doubled
    ignores = (mode in ("point_blank", "struck", "improvised") or melee_strike
               or kind in ("melee", "unarmed", "grenade"))
    if ignores:
        why = ("Attacks with Grenades" if kind == "grenade" else
               "Melee or Unarmed Attacks" if kind in ("melee", "unarmed") or mode == "improvised"
               else "Attacks at Point Blank Range")
        steps.append(f"this Attack ignores the target's Defense ({why}); "
                     "Dive! armor is never ignored")
    if mode == "thrown":
        notes.append(f"{NOT_IN_SOURCE}whether a thrown Melee weapon counts as a Melee Attack "
                     "that ignores Defense")
    return AttackResult(weapon, ap, row, damage, ignores, tuple(steps), tuple(notes))


def split_attacks(attacks: int, targets: int) -> tuple[int, ...]:
    """§ Attack Actions, MULTIPLE TARGETS: at least 1 Attack per target (spread evenly here;
    the player may assign them any way that gives each target one)."""
    if targets > attacks:
        raise RulesError(f"{targets} targets need at least {targets} Attacks: you can't hit "
                         f"more targets than you have Attacks (you have {attacks})")
    q, r = divmod(attacks, targets)
    return tuple(q + 1 if i < r else q for i in range(targets))


def _check_magazine(w: WeaponProfile, attacks: int, mode: str,
                    notes: list[str]) -> None:
    if w.kind in ("melee", "unarmed") and mode != "thrown":
        return  # strikes use no ammunition
    mag = w.count("magazine")
    if mag is None:
        notes.append(f"{NOT_IN_SOURCE}the {w.name}'s Magazine is blank, so the number of "
                     "Attacks is not checked")
    elif attacks > mag:
        raise RulesError(f"the {w.name}'s Magazine holds {mag} Attack{'s' * (mag != 1)}: it "
                         f"can't make {attacks} without a Reload (§ Reload Actions)")


@calculator(
    id="horizon.attack", title="Attack: damage per target",
    source=SOURCE + "Attack Actions; Point Blank Range",
    tables=("profile-*",))
def attack_calc(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    ap: ApScoreIn = AP_SCORE_DEFAULT,
    mode: ModeIn = MODE_DEFAULT,
    attacks: Annotated[int, In(
        "Attack actions",
        1,
        MAX_ACTIONS,
        help="Characters normally make 2 actions per turn",
    )] = 2,
    targets: Annotated[int, In(
        "Targets",
        1,
        MAX_ACTIONS,
        help="each target needs at least 1 Attack (a grenade hits several)",
    )] = 1,
) -> Result:
    """§ Attack Actions: every Attack deals the row's damage; several on one target add up;
    several targets need at least one Attack each. Grenades damage several targets with one
    Attack, losing damage for each target "as shown in their profile"."""
    w = profile(weapon)
    notes: list[str] = []
    _check_magazine(w, attacks, mode, notes)
    a = attack(w, ap, mode)
    steps = list(a.steps)
    notes += a.notes
    if attacks > 2:
        notes.append("Characters normally make 2 actions per turn (§ The Basics); more "
                     "Attacks come from Augs")
    values: list[tuple[str, Any]] = [("AP used", a.ap),
                                               ("Ignores Defense", a.ignores_defense)]
    if a.damage is None:
        return Result(f"{w.name}: damage not in the source for {a.ap} AP", tuple(values),
                      tuple(steps), notes=tuple(notes), highlight=_hl(a.row))
    if w.kind == "grenade" or len(a.damage) > 1:
        if attacks != 1:
            raise RulesError("work out one grenade Attack at a time")
        if targets > len(a.damage):
            raise RulesError(f"the {w.name} profile gives damage for at most "
                             f"{len(a.damage)} targets")
        per = a.damage[:targets]
        steps.append("one Attack hits several targets, losing damage for each: "
                     + ", ".join(f"target {i + 1}: {d}" for i, d in enumerate(per)))
        values += [(f"Target {i + 1}", d) for i, d in enumerate(per)]
        values.append(("Total damage", sum(per)))
        return Result(f"{w.name}: " + " / ".join(map(str, per)) + " damage",
                      tuple(values), tuple(steps), notes=tuple(notes), highlight=_hl(a.row))
    dmg = a.damage[0]
    split = split_attacks(attacks, targets)
    values.insert(0, ("Damage per Attack", dmg))
    for i, n in enumerate(split):
        steps.append(f"target {i + 1}: {n} Attack{'s' * (n != 1)} → "
                     + ("+".join([str(dmg)] * n)) + f" = {n * dmg} damage")
        values.append((f"Target {i + 1}", n * dmg))
    values.append(("Total damage", attacks * dmg))
    if targets > 1 and attacks % targets:
        notes.append("Attacks are spread as evenly as possible here; any split giving each "
                     "target at least 1 Attack is allowed")
    summary = f"{w.name}: {dmg} damage per Attack, " + ", ".join(
        str(n * dmg) for n in split) + (" to the target" if targets == 1 else "")
    return Result(summary, tuple(values), tuple(steps), notes=tuple(notes), highlight=_hl(a.row))


def _hl(row: ProfileRow | None) -> tuple[Highlight, ...]:
    return (Highlight(row.table, row.index),) if row else ()


# --- wounding attacks ------------------------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    """A Wounding Attack condition (§ Wounding Attacks table)."""

    name: str
    effect: str
    penalty: int  # AP taken off the Attack ("-" in the source: none)


@cache
def conditions() -> tuple[Condition, ...]:
    t = _find_table("condition", "penalty")
    out = []
    for r in t["rows"]:
        cells = [str(c).strip() for c in r["cells"]]
        m = re.search(r"(\d+)", cells[-1])
        out.append(Condition(cells[0], cells[1] if len(cells) > 2 else "",
                             int(m.group(1)) if m else 0))
    return tuple(out)


def _condition_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple((c.name, f"{c.name} (-{c.penalty} AP)" if c.penalty else c.name)
                     for c in conditions())
    except RulesError:
        return ()


def find_condition(name: str) -> Condition:
    for c in conditions():
        if c.name.lower() == name.lower():
            return c
    raise RulesError(f"no Wounding Attack condition called {name!r}")


def opposed(attack_ap: int, endurance: Distribution[int]) -> tuple[Fraction, Fraction, Fraction]:
    """§ Wounding Attacks: the Wounding Attack succeeds if its AP is higher than the target's
    Endurance test AP, is resisted if the Endurance AP is higher; returns (success, resisted,
    tie). The source does not say what an equal score does."""
    win = endurance.p(lambda e: e < attack_ap)
    lose = endurance.p(lambda e: e > attack_ap)
    return win, lose, 1 - win - lose


_COND = _condition_choices()


@calculator(
    id="horizon.wounding", title="Wounding Attack against Endurance",
    source=SOURCE + "Wounding Attacks", tables=("profile-*", "*wounding*"))
def wounding(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    ap: ApScoreIn = AP_SCORE_DEFAULT,
    mode: ModeIn = MODE_DEFAULT,
    condition: Annotated[str, In("Condition", choices=_COND)] = _COND[0][0] if _COND else "",
    end_dice: Annotated[int, In("Target's Endurance rank (dice)", 0, MAX_DICE)] = 2,
    end_bonus: Annotated[int, In("Target's Endurance Trait bonus", 0, MAX_RANK)] = 2,
    rng: random.Random | None = None,
) -> Result:
    """§ Wounding Attacks: the penalty comes off the Attack first; then an opposed
    Attack-Vs-Endurance test decides the Condition. Damage is what the penalty leaves,
    whatever the opposed test gives."""
    w = profile(weapon)
    cond = find_condition(condition)
    a = attack(w, ap, mode, cond.penalty, cond.name.lower() == "shatter head", cond.name)
    steps = list(a.steps)
    notes = list(a.notes)
    endurance = SkillTest(end_dice, end_bonus)
    dist = endurance.distribution()
    win, lose, tie = opposed(a.ap, dist)
    steps.append(f"opposed test: your Wounding Attack {a.ap} AP against the target's "
                 f"Endurance ({endurance.explain()})")
    values: list[tuple[str, Any]] = [
        ("Wounding Attack AP", a.ap), ("Damage", a.damage[0] if a.damage and
                                       len(a.damage) == 1 else a.damage),
        ("P(condition applied)", win), ("P(resisted)", lose), ("P(equal scores)", tie)]
    if tie:
        notes.append(f"{NOT_IN_SOURCE}what happens when the scores are equal")
    odds = (Odds("Opposed test", (OddsRow(f"{cond.name} applied ({cond.effect})", win),
                                  OddsRow("resisted", lose),
                                  OddsRow("equal scores (not in the source)", tie))),
            _ap_odds(dist, "Target's Endurance AP"))
    dice: tuple[Die, ...] = ()
    summary = f"{cond.name}: {a.ap} AP, applied with probability {float(win):.1%}"
    if rng is not None:
        faces, score = endurance.roll(rng)
        dice = _dice(faces, "endurance")
        steps.append("target's Endurance: " + endurance.explain(faces))
        outcome = ("applied" if a.ap > score else "resisted" if score > a.ap
                   else "equal (not in the source)")
        values.insert(0, ("Outcome", outcome))
        summary = f"{cond.name}: {a.ap} AP against {score} AP: {outcome}"
    steps.append("the target takes the damage either way; the opposed test has no effect "
                 "on it")
    return Result(summary, tuple(values), tuple(steps), odds, dice, _hl(a.row), tuple(notes))


# --- defense and Dive! -------------------------------------------------------------------

IGNORED_BY = (("none", "an ordinary ranged Attack (Defense applies)"),
              ("point_blank", "Point Blank Range (2 m or less)"),
              ("melee", "a Melee or Unarmed Attack"),
              ("grenade", "a Grenade"))


@dataclass(frozen=True)
class DefenseOutcome:
    """§ Defense Actions: Defense negates up to value x actions of incoming damage."""

    pool: int
    negated: int
    taken: int
    left: int


def defend(value: int, actions: int, incoming: Sequence[int], ignored: bool) -> DefenseOutcome:
    """§ Defense Actions: "taking it twice would negate the next (10x2) = 20 damage"; it lasts
    until it has negated all it can. Attacks that ignore Defense pass it untouched."""
    pool = value * actions
    left = pool
    taken = 0
    for d in incoming:
        if d < 0:
            raise RulesError("incoming damage cannot be negative")
        blocked = 0 if ignored else min(left, d)
        left -= blocked
        taken += d - blocked
    return DefenseOutcome(pool, pool - left, taken, left)


@calculator(
    id="horizon.defense", title="Defense: incoming damage negated",
    source=SOURCE + "Defense Actions",
    tables=("profile-*",))
def defense(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    ap: ApScoreIn = AP_SCORE_DEFAULT,
    actions: Annotated[int, In("Defense actions", 1, MAX_ACTIONS)] = 1,
    damage: Annotated[int, In("Incoming damage per Attack", 0, 10_000)] = 15,
    hits: Annotated[int, In("Incoming Attacks", 0, 100)] = 1,
    ignored: Annotated[str, In("Incoming Attacks are", choices=IGNORED_BY)] = "none",
) -> Result:
    """§ Defense Actions: the row's Defense, times the Defense actions taken, negates the
    next incoming damage; Point Blank, Melee/Unarmed and Grenade Attacks ignore it."""
    w = profile(weapon)
    row, step = lookup(w, ap)
    if row is None:
        return Result(f"{ap} AP: no row in the {w.name} profile", notes=(step,))
    cell = row.cell("defense") or ""
    value = parse_int(cell)
    if value is None:
        return Result(f"{w.name}, {row.label}: Defense not in the source", steps=(step,),
                      notes=(f"{NOT_IN_SOURCE}the Defense cell is {cell!r}",),
                      highlight=_hl(row))
    out = defend(value, actions, [damage] * hits, ignored != "none")
    steps = [step, f"Defense {value} {X} {actions} action{'s' * (actions != 1)} = {out.pool} "
                   "damage negated at most (until your next turn)"]
    if ignored != "none":
        steps.append(f"{dict(IGNORED_BY)[ignored]} ignores Defense: it negates nothing; "
                     "Dive! armor is never ignored")
    else:
        steps.append(f"incoming {hits} {X} {damage} = {hits * damage}: {out.negated} negated, "
                     f"{out.taken} taken, {out.left} Defense left")
    values = (("Defense", value), ("Negates up to", out.pool), ("Negated", out.negated),
              ("Damage taken", out.taken), ("Defense left", out.left))
    return Result(f"Defense {value} {X} {actions} = {out.pool}: {out.taken} damage taken",
                  values, tuple(steps), highlight=_hl(row))


@dataclass(frozen=True)
class Dive:
    """§ Dive!: the higher of STR and AGI in metres, and twice that in bonus armor."""

    metres: int
    armor: int

    @staticmethod
    def of(strength: int, agility: int) -> Dive:
        _check_rank(strength, "STR")
        _check_rank(agility, "AGI")
        best = max(strength, agility)
        return Dive(best * 1, best * 2)


@calculator(id="horizon.dive", title="Dive!", source=SOURCE + "Dive!",
            )
def dive(
    *,
    strength: Annotated[int, In("STR (Strength)", 0, MAX_RANK)] = 2,
    agility: Annotated[int, In("AGI (Agility)", 0, MAX_RANK)] = 3,
) -> Result:
    """§ Dive!: compare STR and AGI; Dive that many metres and gain twice that in armor,
    never ignored by anything."""
    d = Dive.of(strength, agility)
    higher = "STR" if strength > agility else "AGI" if agility > strength else "STR and AGI"
    best = max(strength, agility)
    steps = (f"STR {strength}, AGI {agility}: {higher} is higher at rank {best}",
             f"({best}{X}1) = {d.metres} m of movement and ({best}{X}2) = +{d.armor} armor",
             "the armor is never ignored; in combat it lasts until your next turn, and it "
             "uses 1 action (borrowed from your next turn when it isn't your turn)")
    return Result(f"Dive {d.metres} m, +{d.armor} armor", (("Dive", d.metres),
                  ("Armor", d.armor)), steps,
                  notes=("how armor reduces damage is not in this source",))


# --- move ------------------------------------------------------------------------------------

def base_move(agility: int) -> int:
    """§ The Move Action, BASE MOVE: "Each rank in AGI increases your Base movement range by
    +5m per round" (AGI 4 → 20 m)."""
    _check_rank(agility, "AGI")
    return agility * 5


def move_modifier(w: WeaponProfile, row: ProfileRow) -> tuple[int | None, str]:
    """The Move cell of the row, or the profile-wide Move of a banded profile."""
    cell = row.cell("move", "speed")
    if cell is None and w.layout == "banded":
        cell = str(w.get("move") or "") or None
    if cell is None:
        return None, ""
    return parse_move(cell), cell


@calculator(
    id="horizon.move", title="Move: distance this round",
    source=SOURCE + "The Move Action", tables=("profile-*",))
def move(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    ap: ApScoreIn = AP_SCORE_DEFAULT,
    agi: Annotated[int, In("AGI (Agility)", 0, MAX_RANK)] = 4,
    endurance: Annotated[bool, In(
        "Push with Endurance",
        help="needs the Endurance Skill unlocked",
    )] = False,
    end_dice: Annotated[int, In("Endurance rank (dice)", 0, MAX_DICE)] = 2,
    end_bonus: Annotated[int, In("Endurance Trait bonus", 0, MAX_RANK)] = 2,
    rng: random.Random | None = None,
) -> Result:
    """§ The Move Action: base move AGI x 5 m plus the row's Move modifier ("Base": none);
    ENDURANCE adds the Endurance test's AP score in metres."""
    w = profile(weapon)
    base = base_move(agi)
    row, step = lookup(w, ap)
    if row is None:
        return Result(f"{ap} AP: no row in the {w.name} profile", notes=(step,))
    mod, cell = move_modifier(w, row)
    if mod is None:
        return Result(f"{w.name}: Move not in the source for {row.label}", steps=(step,),
                      notes=(f"{NOT_IN_SOURCE}the Move cell is {cell or 'blank'}",),
                      highlight=_hl(row))
    total = base + mod
    steps = [step, f"base move AGI {agi} {X} 5 m = {base} m",
             f"Move {cell}: " + (f"({base}m{mod:+d}m) = {total} m" if mod else
                                 f"base move, {total} m")]
    notes: list[str] = []
    if total < 0:
        notes.append(f"{NOT_IN_SOURCE}a move below 0 m ({total} m)")
    values: list[tuple[str, Any]] = [("Base move (m)", base), ("Modifier (m)", mod),
                                              ("Move (m)", total)]
    if not endurance:
        return Result(f"Move {total} m", tuple(values), tuple(steps), notes=tuple(notes),
                      highlight=_hl(row))
    if end_dice < 1:
        raise RulesError("pushing your move needs the Endurance Skill unlocked "
                         "(§ The Move Action, ENDURANCE)")
    test = SkillTest(end_dice, end_bonus)
    dist = test.distribution()
    steps.append(f"Endurance: the test's AP score is extra metres ({test.explain()})")
    odds = (Odds.of(dist.map(lambda ap: pushed_move(total, ap)), "Move with Endurance",
                    lambda m: f"{m} m"),)
    values.append(("Mean move with Endurance (m)", dist.mean() + total))
    if rng is None:
        return Result(f"Move {total} m + Endurance (mean {float(dist.mean() + total):.2f} m)",
                      tuple(values), tuple(steps), odds, notes=tuple(notes), highlight=_hl(row))
    faces, score = test.roll(rng)
    pushed = pushed_move(total, score)
    steps.append(f"Endurance {test.explain(faces)} → +{score} m: {pushed} m")
    values.append(("Move with Endurance (m)", pushed))
    return Result(f"Move {pushed} m", tuple(values), tuple(steps), odds,
                  _dice(faces, "endurance"), _hl(row), tuple(notes))


def pushed_move(move_m: int, endurance_ap: int) -> int:
    """§ The Move Action, ENDURANCE: "Your AP score for the test is your extra movement in
    meters" (5AP → an additional 5m)."""
    return move_m + endurance_ap


# --- reload ----------------------------------------------------------------------------------

def reload_magazine(loaded: int, magazine: int, per_action: int, actions: int) -> int:
    """§ Reload Actions: each Reload adds its number of Attacks; "If a Reload action would add
    more Attacks than the Magazine can hold, it will be completely filled but no more"."""
    if loaded < 0 or loaded > magazine:
        raise RulesError(f"a Magazine of {magazine} holds 0 to {magazine} Attacks "
                         f"(got {loaded})")
    return min(magazine, loaded + per_action * actions)


@calculator(
    id="horizon.reload", title="Reload: Attacks in the Magazine",
    source=SOURCE + "Reload Actions",
    tables=("profile-*",))
def reload(
    *,
    weapon: WeaponIn = WEAPON_DEFAULT,
    loaded: Annotated[int, In("Attacks left in the Magazine", 0, 1000)] = 0,
    actions: Annotated[int, In("Reload actions", 1, MAX_ACTIONS)] = 1,
) -> Result:
    """§ Reload Actions: fixed for each weapon, not improved by AP; capped at the Magazine."""
    w = profile(weapon)
    mag, per = w.count("magazine"), w.count("reload")
    raw_mag, raw_reload = w.get("magazine") or "", w.get("reload") or ""
    if mag is None or per is None:
        missing = "Magazine" if mag is None else "Reload"
        shown = raw_mag if mag is None else raw_reload
        other = _other_reloads(w)
        extra = (f"; it lists {' and '.join(other)} without saying how they work"
                 if other else "")
        raise RulesError(f"the {w.name} has no {missing} number in the source "
                         f"({shown or 'blank'}){extra}")
    after = reload_magazine(loaded, mag, per, actions)
    added = per * actions
    steps = [f"{w.name}: Magazine {raw_mag}, Reload {raw_reload}",
             f"{actions} Reload action{'s' * (actions != 1)}: "
             + (f"({per}{X}{actions}) = {added}" if actions > 1 else f"{added}")
             + f" Attacks added to {loaded}"]
    if loaded + added > mag:
        steps.append(f"the Magazine holds {mag}: completely filled but no more")
    notes = [f"{NOT_IN_SOURCE}how the profile's {o} differs from the Reload used here"
             for o in _other_reloads(w)]
    return Result(f"{after} of {mag} Attacks loaded", (("Magazine", mag), ("Reload", per),
                  ("Loaded", after)), tuple(steps), notes=tuple(notes))


def _other_reloads(w: WeaponProfile) -> list[str]:
    """Reload-like fields besides "Reload" (the Rusty Assault Rifle's Half/Full Reload)."""
    fields = w.get("fields")
    if not isinstance(fields, dict):
        return []
    return [f"{k} {v}" for k, v in fields.items()
            if "reload" in str(k).lower() and str(k) != "Reload" and v]


# --- turn order and surprise ----------------------------------------------------------------

def awareness(dice: int, acu: int, surprise: bool) -> SkillTest:
    """§ Starting Combat: an Awareness test (linked to Acuity); without the Skill, the ACU
    rank alone. § Surprise!: the surprising side adds its ACU rank again."""
    return SkillTest(dice, acu, acu if surprise else 0, "Surprise")


@calculator(
    id="horizon.turn_order", title="Turn order: Awareness tests",
    source=SOURCE + "Starting Combat; Surprise!")
def turn_order(
    *,
    my_dice: Annotated[int, In(
        "Your Awareness rank (dice)",
        0,
        MAX_DICE,
        help="0 without the Skill: your ACU rank is the score",
    )] = 2,
    my_acu: Annotated[int, In("Your ACU (Acuity)", 0, MAX_RANK)] = 3,
    my_surprise: Annotated[bool, In("Your side has Surprise")] = False,
    their_dice: Annotated[int, In("Their Awareness rank (dice)", 0, MAX_DICE)] = 2,
    their_acu: Annotated[int, In("Their ACU (Acuity)", 0, MAX_RANK)] = 3,
    their_surprise: Annotated[bool, In("Their side has Surprise")] = False,
    rng: random.Random | None = None,
) -> Result:
    """§ Starting Combat: turn order runs from the highest Awareness score to the lowest."""
    if my_surprise and their_surprise:
        raise RulesError("only the side that strikes first gains the Surprise bonus")
    me, them = awareness(my_dice, my_acu, my_surprise), awareness(their_dice, their_acu,
                                                                  their_surprise)
    diff = me.distribution().combine(them.distribution(), lambda a, b: a - b)
    first, second = diff.p(lambda d: d > 0), diff.p(lambda d: d < 0)
    tie = 1 - first - second
    steps = [f"you: {me.explain()}", f"them: {them.explain()}",
             "highest score goes first"]
    for who, t, s in (("you", me, my_surprise), ("they", them, their_surprise)):
        if s:
            steps.append(f"Surprise!: {who} add ACU {t.extra} → +{t.extra} AP")
    notes = [f"{NOT_IN_SOURCE}how equal Awareness scores are ordered"] if tie else []
    odds = (Odds("Turn order", (OddsRow("you act first", first), OddsRow("equal scores", tie),
                                OddsRow("they act first", second))),)
    values: list[tuple[str, Any]] = [("P(you first)", first), ("P(equal)", tie),
                                              ("P(they first)", second)]
    if rng is None:
        return Result(f"you act first with probability {float(first):.1%}", tuple(values),
                      tuple(steps), odds, notes=tuple(notes))
    mf, ms = me.roll(rng)
    tf, ts = them.roll(rng)
    steps += [f"you: {me.explain(mf)}", f"them: {them.explain(tf)}"]
    who = "you act first" if ms > ts else "they act first" if ts > ms else "equal scores"
    values = [("Your Awareness", ms), ("Their Awareness", ts), *values]
    return Result(f"{ms} AP against {ts} AP: {who}", tuple(values), tuple(steps), odds,
                  _dice(mf, "you") + _dice(tf, "them"), notes=tuple(notes))


# --- move, carry and throw objects ------------------------------------------------------------

TASKS = (("move", "Move"), ("carry", "Carry"), ("throw", "Throw"))


@dataclass(frozen=True)
class HeavyObject:
    """A row of § Using Endurance to Move, Carry and Throw: AP needed, or None for none."""

    name: str
    index: int
    table: str
    move: int | None
    carry: int | None
    throw: int | None


def _ap_or_none(cell: str) -> int | None:
    m = re.match(r"^\s*(\d+)\s*AP\s*$", cell, re.I)
    if m:
        return int(m.group(1))
    if cell.strip().lower() == "none":
        return None
    raise RulesError(f"unreadable Endurance requirement {cell!r} in the source table")


@cache
def heavy_objects() -> tuple[HeavyObject, ...]:
    t = _find_table("endurance to move", "carry", "throw")
    out = []
    for i, r in enumerate(t["rows"]):
        c = [str(x) for x in r["cells"]]
        out.append(HeavyObject(c[0], i, str(t["id"]), _ap_or_none(c[1]),
                               _ap_or_none(c[2]), _ap_or_none(c[3])))
    return tuple(out)


def _object_choices() -> tuple[tuple[str, str], ...]:
    try:
        return tuple((str(o.index), o.name) for o in heavy_objects())
    except (RulesError, IndexError, KeyError):
        return ()


def helped_difficulty(ap: int, helpers: int) -> int:
    """§ Pick Up / Carry / Drop / Throw, HELPERS: each helper takes -5 AP off the difficulty
    (20 AP, one helper → 15 AP, two → 10 AP); everyone must pass the reduced test."""
    if helpers < 0:
        raise RulesError("helpers cannot be negative")
    return ap - HELPER_AP * helpers


_OBJ = _object_choices()


@calculator(
    id="horizon.heavy_object", title="Move, carry or throw an object (Endurance)",
    source=SOURCE + "Pick Up / Carry / Drop / Throw; Using Endurance to Move, Carry and Throw",
    tables=("*endurance*",))
def heavy_object(
    *,
    item: Annotated[str, In("Object", choices=_OBJ)] = _OBJ[0][0] if _OBJ else "",
    task: Annotated[str, In("Task", choices=TASKS)] = "carry",
    helpers: Annotated[int, In("Helpers", 0, MAX_ACTIONS, help="at the Director's discretion")] = 0,
    end_dice: Annotated[int, In("Your Endurance rank (dice)", 0, MAX_DICE)] = 2,
    end_bonus: Annotated[int, In("Your Endurance Trait bonus", 0, MAX_RANK)] = 2,
    strength: Annotated[int, In(
        "Highest STR among the carriers",
        0,
        MAX_RANK,
        help="how far a throw goes, in m",
    )] = 3,
    rng: random.Random | None = None,
) -> Result:
    """§ Pick Up / Carry / Drop / Throw: the table's Endurance test (a guideline for the
    Director), -5 AP per helper; a throw goes as many metres as the highest STR carrying."""
    objs = heavy_objects()
    try:
        obj = objs[int(item)]
    except (ValueError, IndexError):
        raise RulesError(f"no object {item!r} in the Endurance table") from None
    need: int | None = getattr(obj, task)
    steps = [f"{obj.name}: Endurance to {task}: " + (f"{need}AP" if need else "None")]
    values: list[tuple[str, Any]] = []
    notes = ["the table is a guideline; the difficulty is at the Director's discretion"]
    if task == "throw":
        steps.append(f"thrown distance: the highest STR rank among the people carrying it, "
                     f"{strength} m")
        values.append(("Throw distance (m)", strength))
    if need is None:
        return Result(f"{obj.name}: no Endurance test to {task}", tuple(values),
                      tuple(steps), highlight=(Highlight(obj.table, obj.index),),
                      notes=tuple(notes))
    target = helped_difficulty(need, helpers)
    if helpers:
        chain = " → ".join(f"{need - HELPER_AP * k}AP" for k in range(helpers + 1))
        steps.append(f"{helpers} helper{'s' * (helpers != 1)}, -5AP each: {chain}; all "
                     f"{helpers + 1} people need to pass the {target}AP test")
    test = SkillTest(end_dice, end_bonus)
    dist = test.distribution()
    p = dist.at_least(target)
    notes.append("a test is read as passed when its AP score reaches the difficulty")
    if target <= 0:
        notes.append(f"{NOT_IN_SOURCE}a difficulty of {target}AP after helpers")
    values += [("Difficulty (AP)", target), ("P(you pass)", p)]
    odds = (Odds("Your Endurance test", (OddsRow(f"pass ({target}AP or more)", p),
                                         OddsRow("fail", 1 - p))),
            _ap_odds(dist, "Endurance AP"))
    summary = f"{obj.name}, {task}: {target}AP; you pass with probability {float(p):.1%}"
    dice: tuple[Die, ...] = ()
    if rng is not None:
        faces, score = test.roll(rng)
        dice = _dice(faces, "endurance")
        verdict = "pass" if score >= target else "fail"
        steps.append(f"your Endurance: {test.explain(faces)}: {verdict}")
        values.insert(0, ("Your Endurance", score))
        summary = f"{obj.name}, {task}: {score} AP against {target}AP: {verdict}"
    return Result(summary, tuple(values), tuple(steps), odds, dice,
                  (Highlight(obj.table, obj.index),), tuple(notes))
