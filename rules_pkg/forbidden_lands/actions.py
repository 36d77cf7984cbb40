"""Actions in a round and the initiative cards (Start of Combat, Start of Round)."""

from __future__ import annotations

import random
from math import comb
from typing import Annotated, Any

from ..dice import Distribution, Draw, shuffled
from ..errors import InputError, RulesError
from ..kernel import Faces, In, Roll, Unlike, rolled
from ..result import Die, Highlight, Odds, Result
from .dice import _p
from .sheet import SHEET, T_ATTACKS, T_NON_ATTACK, TABLES, _clean, _slug


# -- actions, initiative -----------------------------------------------------------------------
def _action_choices() -> tuple[tuple[str, str], ...]:
    out = [("none", "—"), ("reaction", "Dodge or parry (reaction: a fast action)")]
    for tid in (T_ATTACKS, T_NON_ATTACK):
        out += [(f"{tid}:{_slug(_clean(r[0]))}", f"{_clean(r[0])} ({r[1].lower()})")
                for r in TABLES[tid].rows()]
    return tuple(out)


@SHEET.calculator(title="Fast and slow actions in a round",
                  at="Declare Action, § Target Declares Reaction, Reference Tables § Attacks, "
                     "§ Non-Attack",
                  tables=(T_NON_ATTACK,))
def actions(
    *,
    action1: Annotated[str, In("Action 1", choices=_action_choices())] = "none",
    action2: Annotated[str, In("Action 2", choices=_action_choices())] = "none",
    action3: Annotated[str, In("Action 3", choices=_action_choices())] = "none",
) -> Result:
    """Combat Order § Declare Action: 1 fast + 1 slow action, or 2 fast actions; a dodge or
    parry needs a fast action left (§ Target Declares Reaction)."""
    fast = slow = 0
    steps, highlights = [], []
    for choice in (action1, action2, action3):
        if choice == "none":
            continue
        if choice == "reaction":
            fast += 1
            steps.append("Dodge/parry: a fast action.")
            continue
        tid, _, slug = choice.partition(":")
        if tid not in (T_ATTACKS, T_NON_ATTACK):
            raise RulesError(f"{choice!r} is not an action on the sheet")
        rows = TABLES[tid].rows()
        match = [i for i, r in enumerate(rows) if _slug(_clean(r[0])) == slug]
        if not match:
            raise RulesError(f"{choice!r} is not an action on the sheet")
        r = rows[match[0]]
        highlights.append(Highlight(tid, match[0]))
        if r[1].lower() == "slow":
            slow += 1
        else:
            fast += 1
        steps.append(f"{_clean(r[0])}: {r[1].lower()} action.")
    ok = slow <= 1 and slow + fast <= 2
    fast_left = max(0, (1 if slow else 2) - fast) if ok else 0
    steps.append("Each round: 1 fast action + 1 slow action, OR 2 fast actions.")
    if ok:
        summary = (f"Allowed ({slow} slow, {fast} fast); {fast_left} fast action(s) left "
                   "for a dodge or parry")
    else:
        summary = f"Not allowed: {slow} slow and {fast} fast actions is more than a round allows"
    return Result(summary, (("Allowed", ok), ("Slow actions", slow), ("Fast actions", fast),
                            ("Fast actions left", fast_left)),
                  tuple(steps), highlight=tuple(highlights))


CARDS_NOTE = ("Not in the sheet: Forbidden Lands standard rule, the initiative cards are "
              "numbered 1-10 and the lowest card acts first.")
DECK = tuple(range(1, 11))  # initiative cards 1-10; the lowest card acts first


def card_in(label: str, unlike: Unlike | None = None) -> In:
    """An initiative card: one of the DECK's (`unlike`: a card another input holds)."""
    return In(label, DECK[0], DECK[-1], unlike=unlike)


def card_distribution(surprise: bool) -> Distribution[int]:
    """Your initiative card: one card from 1-10, or with surprise the better of two (no
    replacement): counts of the better card over all C(10, 2) pairs."""
    if not surprise:
        return Distribution.die(DECK)
    return Distribution.from_counts({k: sum(1 for j in DECK if j > k) for k in DECK})


def position_distribution(combatants: int, surprise: bool, return_other: bool) -> Distribution[int]:
    """Your place in the order (1 = first): others draw from what is left of the deck."""
    others = combatants - 1
    pool = len(DECK) - 1 - (1 if surprise and not return_other else 0)
    if others > pool:
        raise InputError(
            "combatants", f"{combatants} combatants need more than the {len(DECK)} cards")
    counts: dict[int, int] = {}
    for k, ck in card_distribution(surprise):
        lower = k - 1  # cards better than yours; the card you did not keep is always worse
        for j in range(0, min(lower, others) + 1):
            ways = comb(lower, j) * comb(pool - lower, others - j)
            if ways:
                counts[j + 1] = counts.get(j + 1, 0) + ck * ways
    return Distribution.from_counts(counts)


@SHEET.calculator(title="Initiative cards",
                  at="Start of Combat, § Start of Round, § End Round + Forbidden Lands standard "
                     "rule: the initiative cards are numbered 1-10 and card 1 acts first")
def initiative(
    *,
    combatants: Annotated[int, In("Combatants drawing a card (you included)", 1,
                                   len(DECK))] = 4,  # a card each
    surprise: Annotated[bool, In("Surprise: you draw 2 cards and keep the better")] = False,
    other_card: Annotated[str, In(
        "The card you do not keep",
        choices=(("returned", "goes back into the deck"),
                       ("set_aside", "is set aside")),
        help="the sheet does not say",
    )] = "returned",
    rng: random.Random | None = None,
) -> Result:
    """Combat Order § Start of Combat: draw initiative cards; surprise: draw 2, choose better.
    The lowest card acts first; the cards are kept for the whole combat (§ End Round)."""
    returned = other_card == "returned"
    cards = card_distribution(surprise)
    place = position_distribution(combatants, surprise, returned)
    steps = ["Each combatant draws one initiative card (1-10); the lowest card acts first."]
    if surprise:
        steps.append("Surprise: draw 2 cards and keep the better (lower) one.")
    steps.append("The same cards are kept for the whole combat; at the start of each round "
                 "players may exchange cards; a Feint (fast action) swaps initiative.")
    odds = (Odds.of(cards, "Your initiative card", lambda k: f"card {k}", cumulative=False),
            Odds.of(place, "Your place in the order", lambda n: f"#{n}", cumulative=False))
    values: list[tuple[str, Any]] = [("P(you act first)", place.probability(1))]
    notes = (CARDS_NOTE,) + (("The sheet does not say whether the card not kept after surprise "
                              "goes back into the deck; choose above.",) if surprise else ())

    def deal(draw: Draw) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(the cards you drew, the others' cards): the exact odds above count the same deal
        (card_distribution, position_distribution); 10! orders are too many to expand."""
        deck = shuffled(draw, DECK)
        drawn = deck[:2] if surprise else deck[:1]
        rest = [c for c in deck if c not in drawn] + ([max(drawn)] if surprise and returned else [])
        return tuple(drawn), tuple(sorted(shuffled(draw, rest)[:combatants - 1]))

    def say(got: tuple[tuple[int, ...], tuple[int, ...]], _: Faces) -> Roll:
        drawn, theirs = got
        mine = min(drawn)
        mine_place = 1 + sum(1 for c in theirs if c < mine)
        return Roll(f"Card {mine}: you act #{mine_place} of {combatants}",
                    tuple(Die(10, c, "kept" if c == mine else "not kept", "you") for c in drawn)
                    + tuple(Die(10, c, "", "other") for c in theirs),
                    (("Your card", mine), ("Your place", mine_place)),
                    steps=(f"You drew {', '.join(map(str, drawn))} → card {mine}; the others "
                           f"drew {', '.join(map(str, theirs)) or 'nothing'}: you act "
                           f"#{mine_place}.",))

    return rolled(Result(f"P(act first) = {_p(place.probability(1))}", tuple(values),
                         tuple(steps), odds, notes=notes), rng, deal, say)


@SHEET.calculator(title="Swap initiative cards",
                  at="Start of Round (players may exchange cards), § Non-Attack (Feint)",
                  tables=(T_NON_ATTACK,))
def initiative_swap(
    *,
    your_card: Annotated[int, card_in("Your card", unlike=Unlike(
        "their_card", "two combatants cannot hold the same initiative card"))] = 5,
    their_card: Annotated[int, card_in("Their card")] = 2,
    how: Annotated[str, In(
        "How",
        choices=(("exchange", "Players exchange cards at the start of a round"),
                       ("feint", "Feint (fast action; the enemy is at arm's length)")),
    )] = "exchange",
) -> Result:
    """Combat Order § Start of Round: players may exchange initiative cards; Reference Tables
    § Non-Attack, Feint: swap initiative (fast action, enemy in arm's length range)."""
    highlights: tuple[Highlight, ...] = ()
    if how == "feint":
        highlights = (Highlight(T_NON_ATTACK, TABLES[T_NON_ATTACK].index("Feint")),)
        step = "Feint: a fast action against an enemy at arm's length; you swap initiative."
    else:
        step = "At the start of the round the players exchange their cards."
    first = "you" if their_card < your_card else "they"
    steps = (step, f"You now hold card {their_card}, they hold {your_card}: {first} act first "
                   "(the lowest card acts first); keep these cards for the rest of the combat.")
    return Result(f"You now act on card {their_card}", (("Your card", their_card),
                                                        ("Their card", your_card)),
                  steps, highlight=highlights, notes=(CARDS_NOTE,))
