"""§ Weapon Profiles: the profiles read from the data, rows and bands."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import data
from ..errors import RulesError
from .sheet import GAME, NOT_IN_SOURCE

# --- weapon profiles ------------------------------------------------------------------------

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


# A banded profile's attack cell, read from its heading "Lethal Attack Damage (Hits)":
# "3 (x3)" is 3 damage a hit, 3 hits; "2(3) x2" adds a bracketed number the source never
# explains; "8" prints no hits.
_HITS = re.compile(r"^\s*(\d+)\s*(?:\(\s*(\d+)\s*\))?\s*(?:\(?\s*x\s*(\d+)\s*\)?)?\s*$", re.I)


@dataclass(frozen=True)
class Hits:
    """A banded profile's Lethal or Special Attack cell: damage (or Power) a hit, and hits."""

    per_hit: int
    hits: int | None  # None: the cell prints no "xN"
    aside: int | None  # the bracketed number of "2(3) x2" (not explained by the source)

    @property
    def total(self) -> int:
        return self.per_hit * (self.hits or 1)


def parse_hits(cell: str) -> Hits | None:
    """ "3 (x3)" → 3 a hit, 3 hits; "2(3) x2" → 2 a hit, 2 hits (aside 3); "8" → 8, no hits
    printed. None when the cell is blank or not of that shape."""
    m = _HITS.match(cell)
    if not m:
        return None
    aside, hits = m.group(2), m.group(3)
    return Hits(int(m.group(1)), int(hits) if hits else None, int(aside) if aside else None)


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


# § Weapon Profiles: a record per weapon (its name, tier, group, skill, layout and table) ...
WEAPONS = data.records_spec(GAME, "weapon_profiles", ("id", "table"), 30)
# ... and its Combat Profile, by layout: "ap", a row per AP score: AP | Damage (a grenade's
# per target, "25/20/15/10/5") | Defense | Move or Speed ("Base", "-10") | Range ("Melee / 3");
# "banded", a row per band of AP scores ("0 - 5"), then 4 or 5 columns the heading names
# (Lethal Attack, Aim Bonus, Defense …), some blank.
_SHAPES = {"ap": (("band", "text", "number", "text", "text"), 30, ""),
           "banded": (("band", "text", "text", "text", "text"), 20, "text")}


def _profile_tables() -> dict[str, data.Table]:
    """Each weapon's profile table, declared with its layout's shape."""
    try:
        recs = WEAPONS.all()
    except RulesError:
        return {}  # no extracted data yet: the build (`make data`) writes it
    out = {}
    for r in recs:
        layout = str(r.get("layout") or "ap")
        if layout not in _SHAPES:
            raise RulesError(f"horizon data: {r['id']} has a profile layout {layout!r}, "
                             f"not one of {', '.join(_SHAPES)}")
        columns, min_rows, more = _SHAPES[layout]
        out[str(r["table"])] = data.table_spec(GAME, str(r["table"]), columns, min_rows,
                                               more=more)
    return out


PROFILE_TABLES = _profile_tables()


def _rows(table_id: str) -> tuple[ProfileRow, ...]:
    spec = PROFILE_TABLES[table_id]
    header = spec.header()
    lines = [int(r.get("line", 0)) for r in spec.raw()["rows"]]
    rows = []
    for i, cells in enumerate(spec.rows()):
        scores = data.band(cells[0]) if cells else None
        if not scores:
            continue  # not a score row (never expected; the lint reports such rows)
        rows.append(ProfileRow(table_id, i, *scores, header, cells, lines[i]))
    return tuple(rows)


def _records() -> list[dict[str, Any]]:
    return WEAPONS.all()


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


def lookup(weapon: WeaponProfile, score: int) -> tuple[ProfileRow | None, str]:
    """§ Attack Actions: "find the row in your weapon's combat profile that matches your
    AP score". Returns the row and the step (or the note, when the table has none)."""
    row = weapon.row_for(score)
    return (row, row.step(score)) if row else (None, weapon.outside(score))
