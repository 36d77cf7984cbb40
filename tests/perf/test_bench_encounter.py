"""The Encounter page's benches (scripts/bench/tap.py, scripts/bench/odds.py) measure the
fights they say they do: stored logs the rules accept, folded here as the page folds them.
No timing is asserted here: the figures are the benches' (`python -m scripts.bench
--encounter-only`)."""

from __future__ import annotations

import pytest

from rules_pkg.encounter import fold
from rules_pkg.encounter.log import effective, parse
from scripts.bench import odds, tap


@pytest.mark.parametrize("game", sorted(tap.SLUGS))
def test_the_tap_bench_fight_is_six_combatants_in_round_one(game: str) -> None:
    doc = tap.fight(game)
    enc = fold(game, [x.event for x in effective(parse(doc["events"], 5000))])
    assert len(enc.combatants) == tap.COMBATANTS == 6
    assert enc.round == 1 and enc.current is not None
    assert doc["game"] == game


@pytest.mark.parametrize("game", sorted(odds.FIGHTS))
def test_the_odds_bench_fight_is_an_attacker_and_two_targets(game: str) -> None:
    doc = odds.fight(game)
    enc = fold(game, [x.event for x in effective(parse(doc["events"], 5000))])
    assert [c.name for c in enc.combatants] == ["Ada", "Ganger", "Boss"]
