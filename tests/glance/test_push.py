"""Forbidden Lands: you push after seeing the dice (issue #11). A rolled result offers
"Push", which keeps the first roll and re-rolls exactly the dice the rule allows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser.helpers import open_calc, page_with

import rules_pkg

pytestmark = pytest.mark.browser


def dice(host: Any) -> list[tuple[int, str, str]]:
    return [(int(v), lbl, kind) for v, lbl, kind in host.locator(".ts-die").evaluate_all(
        "ds => ds.map(d => [d.querySelector('.ts-die-value').textContent,"
        " d.querySelector('.ts-die-label')?.textContent || '',"
        " d.querySelector('.ts-die-kind')?.textContent || ''])")]


def test_push_after_the_roll(page: Any, site_dir: Path, base_url: str) -> None:
    page.goto(base_url + page_with(site_dir, 'data-calc="forbidden_lands.roll"'))
    host = open_calc(page, "forbidden_lands.roll")
    for label, value in (("Attribute (base dice)", "4"), ("Skill level (skill dice)", "2"),
                         ("Gear bonus (gear dice)", "1"), ("Seed", "7")):
        host.get_by_label(label, exact=True).fill(value)
    host.get_by_role("button", name="Roll").click()
    host.locator(".ts-dice").wait_for(timeout=90_000)
    first = dice(host)
    assert all(kind.startswith("first") for _, _, kind in first)
    push = host.get_by_role("button", name="Push: throw the dice the rule allows again")
    push.click()
    host.locator(".ts-die-kind", has_text="pushed").first.wait_for()
    after = dice(host)
    assert after[:len(first)] == first  # the roll you saw stays
    pushed = after[len(first):]
    assert len(pushed) == len(first)
    # exactly the dice the rule lets you re-roll: ✘ stay, ☠ on base and gear dice stay
    for (face, label, kind), (again, _, _) in zip(first, pushed, strict=True):
        if label == "✘" or (label == "☠" and not kind.endswith("skill")):
            assert again == face
    # the same dice as rules_pkg on CPython, pushing with the same seed
    want = rules_pkg.get("forbidden_lands.roll").run(
        attribute=4, skill=2, gear=1, push="always", roll=True, seed="7")
    assert after == [(d.value, d.label, d.kind) for d in want.dice]
    assert host.get_by_label("Push the roll?", exact=True).input_value() == "always"
    assert push.count() == 0  # pushed once: no second push
