"""The test: characteristic plus every modifier that applies; degrees of success."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from .. import kernel
from ..errors import InputError, RulesError
from ..kernel import Each, Faces, In, Roll, calculator
from ..registry import Input
from ..result import Die, Highlight, Result
from .degrees import (
    JAM,
    MAX_TARGET,
    MIN_TARGET,
    _dlabel,
    _face,
    _tens,
    clamp_note,
    degree_odds,
    degrees,
    test_distribution,
)
from .modifiers import (
    AGILITY_TESTS,
    ALL,
    GRAPPLE_TO_HIT,
    KINDS,
    RANGE_BANDS,
    SELF_STATUSES,
    SPECS,
    TO_HIT,
    WS_TESTS,
    WS_TO_HIT,
    Barred,
    barred,
    cross_check,
    ganging_up,
    hard_target,
    helpless_bs,
    modifiers,
    range_modifiers,
    scaled,
    weather_range,
)
from .sheet import (
    BURN_HORDE_WILLPOWER,
    CIRC,
    DOS_RULE,
    JAM_AT,
    SOURCE,
    STATUS,
    TABLES_ALL,
    Row,
    characteristic_in,
    row,
)

# -- the test calculator ---------------------------------------------------------------------



@dataclass(frozen=True)
class Line:
    """One step of the stacking: what, how much, from which row."""

    text: str
    value: int
    row: Row | None


def _status_inputs() -> list[Input]:
    """One yes/no input per circumstance or status row the test reads (SPECS), then the
    tester's statuses that only bar a test (SELF_STATUSES)."""
    return ([Input(s.key, s.label, "bool", False, help=s.help) for s in SPECS]
            + [Input(key, label, "bool", False, help=help) for key, label, help in SELF_STATUSES])


def _not_rolled(kind: str, bars: list[Barred]) -> Result:
    """A test the sheet fails outright or forbids: the answer says so, with no percentage."""
    test_name = dict(KINDS)[kind]
    fails = [b for b in bars if b.outcome == "fails"]
    first = (fails or bars)[0]
    verdict = "fails automatically" if fails else "cannot be attempted"
    steps = tuple(f"{row(b.row).name}: \u201c{b.words}\u201d (the sheet, {row(b.row).table})"
                  for b in bars)
    return Result(
        f"{test_name}: {verdict} ({row(first.row).name}); no roll",
        (("Result", "automatic failure" if fails else "not allowed", "text"),),
        steps,
        highlight=_unique(row(b.row).highlight for b in bars),
        notes=("No percentage: the sheet decides this test without a roll.",),
    )


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
        if spec.key == "running" and flags.get("hard_target") and kind in TO_HIT:
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
        v = BURN_HORDE_WILLPOWER.read()
        lines.append(Line(f"Burning (Horde): {v:+d} to Willpower", v, r))
    if range_band != "normal":
        if range_band not in RANGE_BANDS:
            raise RulesError(f"unknown range band {range_band!r}")
        if kind == "bs":
            m = range_modifiers()[range_band]
            v = m.value("bs") or 0
            if flags.get("gun_in_melee") and (v > 0 or (horde and m.horde_dos is not None)):
                lines.append(Line(f"{m.row.name}: no bonus, a pistol in melee gains none due to "
                                  "range (Guns in Melee)", 0, row("Guns in Melee")))
            elif horde and m.horde_dos is not None:
                bonus_dos += m.horde_dos
                lines.append(
                    Line(f"{m.row.name}: Hordes gain {m.horde_dos:+d} DoS instead", 0, m.row)
                )
            else:
                lines.append(Line(f"{m.row.name}: {v:+d}", v, m.row))
    if ganging != "none" and kind in WS_TESTS:  # "a +10 bonus to WS tests"
        r = row("Ganging Up")
        if ganging not in ("2", "3"):
            raise RulesError(f"ganging up is 'none', '2' or '3' (got {ganging!r})")
        if horde:
            lines.append(Line("Ganging Up: Hordes do not gain Ganging Up bonuses", 0, r))
        else:
            v = ganging_up()[ganging]
            lines.append(Line(f"Ganging Up ({ganging} to 1): {v:+d}", v, r))
    sc = scaled()
    if dtv and kind in (*WS_TESTS, *AGILITY_TESTS, "charge_run"):
        v = sc["dtv"].per_point * dtv
        lines.append(
            Line(
                f"Difficult Terrain: {sc['dtv'].per_point:+d} \u00d7 DTV {dtv} = {v:+d}",
                v,
                sc["dtv"].row,
            )
        )
    s = sc["size"]
    if size != s.baseline and kind in TO_HIT:  # attacks to hit them
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
    if weather and kind in (*WS_TESTS, "bs"):
        lo, hi = weather_range()
        if not lo <= weather <= hi:
            raise InputError(
                "weather", f"the Weather penalty ranges from {hi} to {lo} (got {weather})")
        lines.append(Line(f"Weather: {weather:+d}", weather, row("Weather")))
    return lines, bonus_dos, [n for n in notes if n]


def ignored(kind: str, horde: bool, flags: Mapping[str, bool], range_band: str) -> list[str]:
    """Inputs that name a test other than this one: the answer says each is left out, and
    why (issue #29: they were dropped in silence)."""
    test_name = dict(KINDS)[kind]
    out: list[str] = []
    if range_band != "normal" and kind != "bs":
        band = range_modifiers()[range_band].row.name
        out.append(f"{band} ignored: the Ranged Attack Distance rows are for ranged attacks "
                   f"(Ballistic Skill); a {test_name} takes no range modifier.")
    if flags.get("gun_in_melee") and kind != "bs":
        out.append(f"Firing a gun in melee ignored: Guns in Melee is about shooting; a "
                   f"{test_name} is not a shot.")
    if flags.get("pinning_recovery") and kind != "willpower":
        out.append(f"Recovering from Pinning ignored: it is a Willpower test (“this "
                   f"becomes a Willpower+{modifiers()['pinning_recovery'].value('willpower')}"
                   f" test”, Pinning); this is a {test_name}.")
    if flags.get("burning_horde") and not horde:
        out.append(f"Horde is Burning ignored: the tester is not a Horde; the "
                   f"{BURN_HORDE_WILLPOWER.read():+d} to Willpower is Burning's Horde effect.")
    elif flags.get("burning_horde") and kind != "willpower":
        out.append(f"Horde is Burning ignored: its {BURN_HORDE_WILLPOWER.read():+d} is to "
                   f"Willpower tests (Burning's Horde effect); this is a {test_name}.")
    return out


DOS_NOTE = f"Degrees of success are not in the sheet: {DOS_RULE}."
_HELPLESS_FROM = {"modifiers": "Status Modifiers", "effects": "Status Effects"}


@calculator(
    title="Test: target, success and degrees",
    source=f"{CIRC}, § Status Modifiers, {STATUS}, § Weapon Jams + {DOS_RULE}",
    tables=TABLES_ALL,
    description="Characteristic plus every circumstance and status modifier that applies, "
    "with exact odds of each degree of success and failure.",
)
def test(
    *,
    characteristic: Annotated[int, characteristic_in("Characteristic (WS, BS, Ag…)")] = 40,
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
    gun_in_melee: Annotated[bool, In(
        "Firing a gun in melee", help="Only pistols can be used in melee.")] = False,
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
             "burning_horde": burning_horde, "gun_in_melee": gun_in_melee}
    known = ({s.key for s in SPECS} | {k for k, _, _ in SELF_STATUSES}
             | {"hard_target", "helpless", "burning_horde", "gun_in_melee"})
    bad = sorted(set(flags) - known)
    if bad:
        raise RulesError(f"unknown modifier(s): {', '.join(bad)}")
    if not 0 <= characteristic <= 100:
        raise RulesError(f"a characteristic is 0 to 100 (got {characteristic})")
    if not 0 <= rolled <= 100:
        raise RulesError(f"a d100 roll is 1 to 100, or 0 for none (got {rolled})")
    bflags = {k: bool(v) for k, v in flags.items()}
    if kind not in ALL:
        raise RulesError(f"unknown test kind {kind!r}")
    bars = barred(kind, bflags)
    if bars:
        return _not_rolled(kind, bars)
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
    if bflags.get("helpless") and kind in WS_TO_HIT:
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
    if bflags.get("deaf") and kind == "hearing":
        notes.append(
            "Deaf: a test relying on hearing alone fails automatically (choose that test); "
            "the -30 is for hearing in combination with something else."
        )
    if gun_in_melee and kind == "bs":
        notes.append("Guns in Melee: only pistols can be used in melee.")
    if any(bflags.get(k) for k in ("stunned_self", "helpless_self")):
        notes.append("Stunned or Helpless: you cannot act, so attacks, parries and dodges are "
                     "barred; a test that is not an action (e.g. Toughness against Blood Loss) "
                     "is still rolled (not in the sheet).")
    jam_at: int | None = None
    jrow = row("Weapon Jams")
    if kind == "bs" and not auto:
        jam_at = JAM_AT.read()
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
    summary = f"Target {target}: {float(p_succ):.0%} to succeed"

    def say(shown: int, _: Faces) -> Roll:
        """A d100 rolled here or at the table (typed in), reported one way."""
        d = _face(target, shown, jam_at, bonus_dos, auto)
        text = _dlabel(d, zero)
        return Roll(summary + f"; rolled {shown:02d}: {text}", (Die(100, shown, text, "d100"),),
                    more=(("Roll", shown), ("Result", text)),
                    steps=(f"Rolled {shown:02d}: {'success' if d > 0 else 'failure'}, {text}",))
    to_hit = {"Running", "Dazed", "Stunned", "Unaware", "Size", "Helpless"}
    if kind == "grapple" and any(ln.row and ln.row.name in to_hit for ln in lines):
        notes.append(GRAPPLE_TO_HIT)
    notes += ignored(kind, horde, bflags, range_band)
    notes.append("The sheet sets no cap on the total modifier (not in the source).")
    notes += clamp_note(target)
    notes.append(DOS_NOTE)
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
    return kernel.rolled(
        Result(summary, tuple(values), tuple(steps), degree_odds(dist, zero), (), hl,
               tuple(notes)),
        rng, lambda draw: draw(100), say, given=rolled or None)


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
        notes=(DOS_NOTE, *clamp_note(target)),
    )
