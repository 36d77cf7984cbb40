"""§ COMBAT 2-5: the combat contest and its damage, with § Combat Actions."""

from __future__ import annotations

import random
from typing import Annotated, Any

from ..dice import Draw
from ..errors import InputError, InputLimitError, LimitError, RulesError
from ..kernel import Faces, In, Roll, calculator, rolled
from ..result import Die, Highlight, Odds, Result
from .contest import (
    FIRE_MODES,
    FUMBLE,
    HIT,
    Contest,
    DamageSpec,
    Modifier,
    _action_choices,
    _called_choices,
    _combat_type_choices,
    _lookup_row,
    _p,
    _range_choices,
    after_armour,
    damage_dice_distribution,
    damage_roll,
    mixture,
    rolled_damage,
    rounds_distribution,
)
from .sheet import (
    AIM_BONUS,
    AUTO_FIRE_DEFENCE,
    COVER,
    DOC,
    ENTANGLED,
    MAX_ARMOUR_DICE,
    MAX_DAMAGE_DICE,
    MAX_SCORE,
    SIDES,
    SIGHT,
    action_penalty,
    max_success_dice,
    max_success_margin,
    number,
    strength_dice,
    success_dice,
    table_ids,
)

# == calculators ===============================================================================
# Inputs the attack and the damage calculators share, declared once. The weapon's dice
# default to a +1 weapon: the form always offered 1, while the attack's signature once said 0.
WeaponDiceIn = Annotated[int, In("Weapon damage dice (+1 weapon = 1)", -3, 6)]
WEAPON_DICE_DEFAULT = 1
ArmourDiceIn = Annotated[int, In("Defender's armour dice", 0, MAX_ARMOUR_DICE)]
ARMOUR_DICE_DEFAULT = 0


@calculator(
    title="Combat contest and damage",
    source=f"{DOC} § COMBAT (Non-Mecha) 2-5 (actions, contests, range, damage, wounds), "
           "§ Combat Actions (Aiming, Automatic Weapons fire, Suppressive Fire, "
           "Blindfighting, Called Shots, Cover, Critical Failures, Entangling)",
    tables=tuple(table_ids()[k] for k in ("types", "actions", "range", "success",
                                          "strength", "called")),
    description="Exact odds that the attack beats the defence, and of the damage after armour.",
)
def attack(
    *,
    combat: Annotated[str, In(
        "Type of combat",
        choices=_combat_type_choices(),
    )] = _combat_type_choices()[-1][0],
    thrown: Annotated[bool, In("Thrown weapon")] = False,
    mode: Annotated[str, In("Fire mode", choices=FIRE_MODES)] = "single",
    attack_score: Annotated[int, In("Attacker's skill score (added to the die)", 0, MAX_SCORE)] = 6,
    defence_score: Annotated[int, In(
        "Defender's skill score (added to the die)",
        0,
        MAX_SCORE,
    )] = 5,
    actions: Annotated[str, In("Attacker's actions this turn", choices=_action_choices())] = "1",
    defender_actions: Annotated[str, In(
        "Defender's actions this turn",
        choices=_action_choices(),
    )] = "1",
    range: Annotated[str, In(
        "Range (firefight or thrown)",
        choices=_range_choices(),
    )] = next((v for v, lab in _range_choices() if "(0)" in lab), _range_choices()[0][0]),
    aim: Annotated[str, In(
        "Actions spent aiming",
        choices=(("0", "None"), ("1", "One (+4)"), ("2", "Two (+6)")),
    )] = "0",
    called: Annotated[str, In("Called shot", choices=_called_choices())] = "none",
    cover: Annotated[str, In(
        "Defender's cover",
        choices=(("none", "None"), ("light", "Light (-2)"), ("heavy", "Heavy (-4)")),
    )] = "none",
    attacker_sight: Annotated[str, In(
        "Attacker's sight",
        choices=(("clear", "Clear"), ("difficult", "Difficult: light fog/dusk (-2)"),
                       ("obscuring", "Obscuring: heavy smoke/darkness (-4)")),
    )] = "clear",
    defender_sight: Annotated[str, In(
        "Defender's sight",
        choices=(("clear", "Clear"), ("difficult", "Difficult: light fog/dusk (-2)"),
                       ("obscuring", "Obscuring: heavy smoke/darkness (-4)")),
    )] = "clear",
    attacker_entangled: Annotated[bool, In("Attacker entangled (-4)")] = False,
    defender_entangled: Annotated[bool, In("Defender entangled (-4)")] = False,
    weapon_dice: WeaponDiceIn = WEAPON_DICE_DEFAULT,
    strength: Annotated[int, In("Attacker's Strength (hand weapons, bare hands)", 1, 15)] = 5,
    armour_dice: ArmourDiceIn = ARMOUR_DICE_DEFAULT,
    fumble_face: Annotated[int, In(
        "Critical failure on a die of (0 = off)",
        0,
        SIDES,
        help="the source does not say which roll is a critical failure",
    )] = 0,
    rng: random.Random | None = None,
) -> Result:
    """§ 3 Make Combat Contests, § 4 Roll Damage, § 5 Check Wounds, with § Combat Actions."""
    ids = table_ids()
    ci, crow = _lookup_row("types", combat)
    firefight = "firefight" in crow[0].lower()
    if mode != "single" and not firefight:
        raise InputError("mode", "burst, auto and suppressive fire are firefight modes")
    if thrown and firefight:
        raise InputError(
            "thrown", "thrown weapons are close quarters armed fighting on the source's "
            "table; choose that type")
    hl = [Highlight(ids["types"], ci)]
    att: list[Modifier] = []
    dfn: list[Modifier] = []
    automatic = mode in ("auto5", "auto10")
    if automatic:  # § Automatic Weapons fire, 1: uses all the character's actions
        if actions != "1":
            raise InputError(
                "actions", "an auto fire attack uses all a character's actions for the turn")
        dfn.append(Modifier("auto fire: targets defend with", AUTO_FIRE_DEFENCE))
    ai, apen = action_penalty(int(actions)) if actions.isdigit() else (-1, 0)
    if ai < 0:
        raise RulesError(f"{actions!r} is not a number of actions")
    att.append(Modifier(f"{actions} action(s)", apen, Highlight(ids["actions"], ai)))
    di, dpen = action_penalty(int(defender_actions)) if defender_actions.isdigit() else (-1, 0)
    if di < 0:
        raise RulesError(f"{defender_actions!r} is not a number of actions")
    dfn.append(Modifier(f"defender's {defender_actions} action(s)", dpen))
    if firefight or thrown:  # § 3: if firefight or thrown weapons, check range
        ri, rrow = _lookup_row("range", range)
        att.append(Modifier(f"range {rrow[0]}", number(rrow[1]), Highlight(ids["range"], ri)))
    if aim not in ("0", "1", "2"):
        raise RulesError("aiming takes 0, 1 or 2 actions")
    if aim != "0" and mode == "suppressive":  # issue #29 item 4: it was accepted in silence
        raise InputError("aim", "suppressive fire cannot be aimed; it targets "
                         "no one (\u201cdo not target anyone\u201d, § Suppressive Fire)")
    att.append(Modifier("aiming", AIM_BONUS[int(aim)]))
    called_dice = 0
    if called != "none":
        ki, krow = _lookup_row("called", called)
        att.append(Modifier(f"called shot: {krow[0]}", number(krow[1]),
                            Highlight(ids["called"], ki)))
        called_dice = number(krow[2])
    for name, table, value in (("cover", COVER, cover), ("attacker's sight", SIGHT,
                                                          attacker_sight)):
        if value not in table:
            raise RulesError(f"{value!r} is not a choice for {name}")
    if defender_sight not in SIGHT:
        raise RulesError(f"{defender_sight!r} is not a choice for the defender's sight")
    att.append(Modifier(f"defender's {cover} cover", COVER[cover]))
    att.append(Modifier(f"{attacker_sight} sight", SIGHT[attacker_sight]))
    dfn.append(Modifier(f"defender's {defender_sight} sight", SIGHT[defender_sight]))
    if attacker_entangled:
        att.append(Modifier("attacker entangled", ENTANGLED))
    if defender_entangled:
        dfn.append(Modifier("defender entangled", ENTANGLED))
    # Damage dice: strength dice only for hand weapons, bare hands, natural weapons.
    si, sdice = strength_dice(strength) if not firefight else (-1, 0)
    if si >= 0:
        hl.append(Highlight(ids["strength"], si))
    extra = 1 if mode in ("burst", "suppressive") else 0
    spec = DamageSpec(weapon_dice, sdice, called_dice, extra)
    hl += [m.highlight for m in (*att, *dfn) if m.highlight]
    a_mod = sum(m.value for m in att)
    d_mod = sum(m.value for m in dfn)
    contest = Contest(attack_score + a_mod, defence_score + d_mod, fumble_face)
    # Limits before the heavy work: the most dice any hit could need.
    rounds = rounds_distribution(mode)
    most = spec.dice(max_success_dice()) + (
        spec.weapon * (max(rounds.outcomes()) - 1) if rounds else 0)
    if most > MAX_DAMAGE_DICE:
        raise InputLimitError(
            "weapon_dice", f"at most {MAX_DAMAGE_DICE} damage dice (this attack could need {most})")
    if armour_dice > MAX_ARMOUR_DICE:
        raise LimitError(f"at most {MAX_ARMOUR_DICE} armour dice")
    cd = contest.distribution()
    p_hit = cd.p(lambda o: o[0] == HIT)
    top = max_success_margin()
    p_past = cd.p(lambda o: o[0] == HIT and o[1] > top)
    fmt = ", ".join(f"{m.what} {m.value:+d}" for m in att if m.value)
    dfmt = ", ".join(f"{m.what} {m.value:+d}" for m in dfn if m.value)
    steps = [f"Attacker: 1 die + {attack_score}" + (f" ({fmt})" if fmt else "")
             + f" = die + {contest.attack}.",
             f"Defender: 1 die + {defence_score}" + (f" ({dfmt})" if dfmt else "")
             + f" = die + {contest.defence}.",
             "If the attacker's result is higher the attack succeeds; equal or lower fails."]
    if aim != "0":
        steps.append(f"Aiming ({aim} action(s)): +{AIM_BONUS[int(aim)]}; the bonus is lost if "
                     "you had to defend yourself in any way between aiming and firing.")
    if mode == "suppressive":
        steps.insert(0, "Suppressive fire: a normal attack roll without a target; each of the "
                        "first ten targets moving into the arc within short range defends "
                        "against it or is struck as by a three-round burst.")
    dice_n = damage_dice_distribution(cd, spec, rounds)
    steps.append("Damage dice = success dice (margin 1-5: 1, 6-10: 2, … from the table)"
                 + f" {weapon_dice:+d} weapon" + (f" {sdice:+d} Strength" if si >= 0 else "")
                 + (f" {called_dice:+d} called shot" if called_dice else "")
                 + (" + the weapon's dice once more (burst)" if extra else "")
                 + (" + the weapon's dice for each round after the first (auto fire)"
                    if rounds else "") + "; roll them all and add.")
    if armour_dice:
        steps.append(f"Armour roll: {armour_dice} dice, subtracted from the damage "
                     "(one armour roll against the total).")
    odds = [Odds.of(cd.map(lambda o: o[1] if o[0] == HIT else 0),
                    "Margin of success (0 = the attack fails)", str)]
    if rounds:
        odds.append(Odds.of(rounds, "Rounds that hit (given a hit)", str))
    values: list[tuple[str, Any]] = [("P(attack succeeds)", p_hit)]
    summary = f"P(hit) = {_p(p_hit)}"
    if dice_n is not None:
        final = after_armour(mixture(dice_n), armour_dice)
        odds += [Odds.of(dice_n, "Damage dice (given a hit)", str),
                 Odds.of(final, "Damage after armour (given a hit)", str)]
        values.append(("Mean damage after armour (given a hit)", final.mean()))
        summary += f"; mean damage on a hit {float(final.mean()):.1f}"
    notes = ["The source does not spell out a skill test: here 1 die + the skill score "
             "(as initiative is 1 die + Reflex).",
             "Damage dice are d10s, the game's die; a total below one die does no damage "
             "(the source gives no minimum).",
             "Called-shot DMG bonus counted as dice, like the weapon's bonus (the source "
             "does not say)."]
    if p_past:
        notes.append(f"P(margin above {top}) = {_p(p_past)}: the Success Based Damage table "
                     f"stops at {top}, so those hits are left out of the damage odds.")
    if fumble_face:
        p_f = cd.p(lambda o: o[0] == FUMBLE)
        values.append(("P(attacker's critical failure)", p_f))
        notes.append("Critical failure (your choice of face): attack — lose the next two "
                     "actions or one full turn; defence — its roll counts as zero.")

    def attack_roll(draw: Draw) -> tuple[str, int, tuple[int, int, int, int] | None]:
        """The contest (kind, margin) and on a hit within the table: (rounds that hit,
        damage dice, damage, armour). The exact odds compose the same contest.outcome and
        spec.dice (contest.distribution, damage_dice_distribution)."""
        kind, margin = contest.outcome(draw(SIDES), draw(SIDES))
        if kind != HIT or margin > top:
            return kind, margin, None
        r = 1
        if rounds:
            face = draw(SIDES)
            r = (face + 1) // 2 if mode == "auto5" else face
        n = spec.dice(success_dice(margin)[1]) + spec.weapon * (r - 1)
        return kind, margin, (r, n, *damage_roll(draw, max(n, 0), armour_dice))

    def say(got: tuple[str, int, tuple[int, int, int, int] | None], faces: Faces) -> Roll:
        kind, margin, hit = got
        (_, a_die), (_, d_die) = faces[:2]
        shown: tuple[Die, ...] = (Die(SIDES, a_die, "attack", "attack"),
                                  Die(SIDES, d_die, "defence", "defence"))
        step = (f"Rolled: attack {a_die} + {contest.attack} = {a_die + contest.attack}, "
                f"defence {d_die} + {contest.defence} = {d_die + contest.defence}.")
        if kind == FUMBLE:
            return Roll("Critical failure: the attack fails; lose the next two actions", shown,
                        steps=(step,))
        if kind == HIT and hit is None:
            return Roll(f"Hit by {margin}: past the Success Based Damage table (not in the "
                        "source)", shown, steps=(step,))
        if hit is None:
            return Roll("The attack fails", shown, steps=(step,))
        r, n, dmg, armour = hit
        idx, sdie = success_dice(margin)
        rest = faces[2:]
        if rounds:
            shown += (Die(SIDES, rest[0][1], f"{r} rounds", "rate"),)
            rest = rest[1:]
        damage = rolled_damage((dmg, armour), rest, max(n, 0))
        through = damage.values[0][1]
        return Roll(f"Hit by {margin}: {through} damage", shown + damage.dice,
                    (("Margin", margin), ("Damage dice", n), ("Damage", through)),
                    steps=(step, f"Hit by {margin}: {sdie} success dice → {n} damage dice"
                           + (f" ({r} rounds)" if rounds else "") + f" = {dmg}; armour "
                           f"{armour} → {through} damage."),
                    highlight=(Highlight(ids["success"], idx),))

    return rolled(Result(summary, tuple(values), tuple(steps), tuple(odds), (), tuple(hl),
                         tuple(notes)), rng, attack_roll, say)
