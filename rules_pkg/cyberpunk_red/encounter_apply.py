"""'Apply to …' for Cyberpunk RED: what each calculator's rolled result does to a combatant.

The damage is applied as a Hit, so the target's own SP is used (and ablated) by the
encounter's rule; what ignores armour is applied direct to HP. Everything is read from
the result's own dice and the calculator's inputs, by the calculators' own rule helpers.
"""

from __future__ import annotations

from collections.abc import Callable

from ..encounter import events as ev
from ..encounter.proposal import Proposal, Values, as_int, dice_of, summary_of, values_of
from .core import crit_face
from .cover import hit_cover
from .environment import ELECTROCUTION_DICE, FALLING_DV
from .ranged import AUTOFIRE_BULLETS, SUPPRESSIVE_BULLETS, autofire_caps
from .sheet import dice_of as sheet_dice

Handler = Callable[[str, Values, Values], list[Proposal]]


def _crit(rolled: list[int]) -> bool:
    """§ Critical Injuries: two or more damage dice come up 6."""
    return sum(1 for d in rolled if d == crit_face()) >= 2


def _label(damage: int, loc: str, melee: bool, critical: bool, extra: str = "") -> str:
    return (f"{damage} damage ({loc}{', melee' if melee else ''}"
            f"{', Critical Injury' if critical else ''}{extra})")


def _hit(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    vals = values_of(result)
    rolled = dice_of(result, "damage")
    if calc == "cyberpunk_red.damage":
        damage = as_int(inputs.get("rolled")) or sum(rolled)
        if not damage or "HP lost" not in vals:
            return []
        critical = bool(inputs.get("sixes")) or _crit(rolled)
        loc, melee = str(inputs.get("location", "body")), bool(inputs.get("melee"))
    else:
        if not rolled or not summary_of(result).startswith("Hit"):
            return []
        damage, critical = sum(rolled), _crit(rolled)
        loc = "head" if inputs.get("aim") == "head" else "body"
        melee = calc == "cyberpunk_red.melee"
    hit = ev.Hit("", damage, location=loc, melee=melee, critical=critical,
                 source=summary_of(result))
    return [Proposal(_label(damage, loc, melee, critical), hit)]


def _shot(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """A single shot (§ Ranged combat): its damage on a hit, and the bullet, hit or miss."""
    if not dice_of(result, "attack"):
        return []
    return [*_hit(calc, inputs, result), _spent(calc, 1, "bullet")]


def _spent(calc: str, n: int, what: str) -> Proposal:
    return Proposal(f"{n} {what} spent", ev.Apply("", f"{calc}: {n} {what}",
                                                  (("bullets", -n),)), "actor")


def _ammo(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Suppressive Fire: it costs an Action and 10 Bullets (whatever the rolls)."""
    if not result.get("dice"):
        return []
    return [_spent(calc, SUPPRESSIVE_BULLETS,
                   "bullets")]


def _autofire(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Auto fire mode: 10 bullets; on a hit 2d6 x the amount the DV was beaten by, up to
    the weapon's Autofire (3 SMG, 4 Assault Rifle); both dice 6: a Critical Injury."""
    (attack,) = dice_of(result, "attack") or [0]
    if not attack:
        return []
    out = [_spent(calc, AUTOFIRE_BULLETS,
                  "bullets")]
    rolled = dice_of(result, "damage")
    if rolled:
        dodge = dice_of(result, "defence")
        beat = (int(inputs["ref"]) + int(inputs["skill"]) + int(inputs["modifier"]) + attack
                - (int(inputs["def_dex"]) + int(inputs["def_evasion"]) + dodge[0] if dodge
                   else int(inputs["dv"])))
        k = min(beat, autofire_caps()[str(inputs["weapon"])])
        damage, critical = sum(rolled) * k, _crit(rolled)
        out.insert(0, Proposal(
            _label(damage, "body", False, critical, f", {sum(rolled)} \u00d7 {k}"),
            ev.Hit("", damage, location="body", critical=critical, source=summary_of(result))))
    return out


def _shotgun(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Shotgun Shells: on a hit every target in the 3x3 squares takes 3d6."""
    if not dice_of(result, "attack"):
        return []
    out = [_spent(calc, 1, "Shotgun Shell")]
    rolled = dice_of(result, "damage")
    if rolled:
        damage, critical = sum(rolled), _crit(rolled)
        out.insert(0, Proposal(_label(damage, "body", False, critical), ev.Hit(
            "", damage, location="body", critical=critical, source=summary_of(result))))
    return out


def _explosive(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Explosives: one damage roll for everyone in the blast; a dodge higher than the
    Check leaves it; cover the damage cannot destroy stops it all, else full damage."""
    (check,) = dice_of(result, "attack") or [0]
    rolled = dice_of(result, "damage")
    if not check or not rolled:
        return []
    base = int(inputs["ref"]) + int(inputs["skill"]) + int(inputs["modifier"]) + check
    dodge = dice_of(result, "defence")
    if dodge and int(inputs["def_dex"]) + int(inputs["def_evasion"]) + dodge[0] > base:
        return []  # outside the blast
    cover = int(inputs["cover_hp"])
    reach = hit_cover(sum(rolled), cover, True).to_target if cover else sum(rolled)
    if not reach:
        return []
    critical = _crit(rolled)
    return [Proposal(_label(reach, "body", False, critical, ", caught in the blast"), ev.Hit(
        "", reach, location="body", critical=critical, source=summary_of(result)))]


def _electrocution(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Electrocution: 6d6 at once, soaked by armour; again at the end of each of your
    Turns until you move away (the Electrocuted condition ticks it)."""
    n = sheet_dice(ELECTROCUTION_DICE).n
    shocks = dice_of(result, "shock")
    if len(shocks) < n:
        return []
    damage = sum(shocks[:n])
    return [Proposal(f"{damage} damage (first shock), Electrocuted", ev.Hit(
        "", damage, location="body", source=summary_of(result), condition="Electrocuted"))]


def _drowning(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    name = "Asphyxiating in space" if inputs.get("space") else "Drowning"
    return [Proposal(name, ev.SetCondition("", name))]


def _direct(what: str) -> Handler:
    """Damage direct to HP, armour not ablated (§ Poisons and Drugs, § Exposure)."""
    def handler(calc: str, inputs: Values, result: Values) -> list[Proposal]:
        rolled = dice_of(result, what)
        if not rolled:
            return []
        return [Proposal(f"{sum(rolled)} damage direct to HP", ev.Hit(
            "", sum(rolled), bypass=True, source=summary_of(result)))]
    return handler


def _falling(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Falling: 2d6 per 10 m soaked by body armour; a failed DV15 Athletics: Broken Leg."""
    rolled, (athletics,) = dice_of(result, "fall"), dice_of(result, "athletics") or [0]
    if not rolled:
        return []
    out = [Proposal(_label(sum(rolled), "body", False, False), ev.Hit(
        "", sum(rolled), location="body", source=summary_of(result)))]
    dv = FALLING_DV.read()
    if int(inputs["dex"]) + int(inputs["athletics"]) + athletics <= dv:
        out.append(Proposal("Broken Leg (Critical Injury)", ev.Injury("", "Broken Leg")))
    return out


def _fire(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    level = str(inputs.get("severity", "Mild"))
    radiation = inputs.get("radiation")
    if radiation == "hot":
        level = "Mild"
    elif radiation == "extreme":
        level = "Deadly"
    return [Proposal(f"On Fire ({level})", ev.SetCondition("", "On Fire", None, level))]


def _grapple(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Choke, § Throw: worked out on the target's own HP and its successive Chokes."""
    body = as_int(inputs.get("body"))
    if not body:
        return []
    action = "throw" if inputs.get("action") == "throw" else "choke"
    return [Proposal(f"{action.title()}: {body} direct to HP" + (", Prone" if action == "throw"
                                                                  else ""),
                     ev.Hit("", body, location=action, bypass=True, source=summary_of(result)))]


def _grab(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Brawling/Grappling: win the Grab (roll higher) and you may grab hold of the
    Defender: both in a Grapple. A successful Grab by the Defender ends the Grapple."""
    (a,) = dice_of(result, "attacker") or [0]
    (d,) = dice_of(result, "defender") or [0]
    if not a or not d:
        return []
    if (int(inputs["dex"]) + int(inputs["brawling"]) + a
            <= int(inputs["def_dex"]) + int(inputs["def_brawling"]) + d):
        return []
    if inputs.get("breaking"):
        return [Proposal("Grapple broken", ev.ClearCondition("", "Grappled"), "actor")]
    return [Proposal("Grappled", ev.SetCondition("", "Grappled"))]


def _human_shield(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """§ Human Shields: "When your Human Shield is shot, they take damage as if they had
    been shot normally" (a shield of HP is cover, not a combatant: nothing to apply)."""
    damage = as_int(inputs.get("damage"))
    if inputs.get("shield") != "human" or not damage or "Damage to Human Shield" not in \
            values_of(result):
        return []
    return [Proposal(f"{damage} damage to the Human Shield (body)", ev.Hit(
        "", damage, location="body", source=summary_of(result)))]


def _brawling(calc: str, inputs: Values, result: Values) -> list[Proposal]:
    """Bare fists: the defender's SP in full (Brawling is not a melee weapon)."""
    rolled = dice_of(result, "damage")
    if not rolled:
        return []
    critical = _crit(rolled)
    return [Proposal(_label(sum(rolled), "body", False, critical), ev.Hit(
        "", sum(rolled), location="body", critical=critical, source=summary_of(result)))]


HANDLERS: dict[str, Handler] = {
    "cyberpunk_red.damage": _hit, "cyberpunk_red.ranged": _shot, "cyberpunk_red.melee": _hit,
    "cyberpunk_red.autofire": _autofire, "cyberpunk_red.suppressive": _ammo,
    "cyberpunk_red.shotgun_shell": _shotgun, "cyberpunk_red.explosive": _explosive,
    "cyberpunk_red.electrocution": _electrocution, "cyberpunk_red.drowning": _drowning,
    "cyberpunk_red.poison": _direct("damage"), "cyberpunk_red.exposure": _direct("exposure"),
    "cyberpunk_red.falling": _falling, "cyberpunk_red.fire": _fire,
    "cyberpunk_red.grapple_action": _grapple, "cyberpunk_red.brawling": _brawling,
    "cyberpunk_red.grab": _grab, "cyberpunk_red.shield": _human_shield,
}
