"""A limit that follows another input, in the built site (issue #10 item 7): the form's
steppers stop where the engine's check (rules_pkg.registry.Bound) does, and a typed value
past it gets the engine's message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import open_heavy_pistol, values

pytestmark = pytest.mark.browser


def test_attack_steppers_stop_at_the_weapons_magazine(page: Any, site_dir: Path,
                                                      base_url: str) -> None:
    # Heavy Combat Pistol "Magazine: 3Shots" (horizon-out-of-the-ashes-combat.txt)
    host = open_heavy_pistol(page, site_dir, base_url, "horizon.attack")
    attacks = host.get_by_label("Attack actions", exact=True)
    assert attacks.input_value() == "2"
    for _ in range(3):
        host.get_by_role("button", name="Increase Attack actions").click()
    assert attacks.input_value() == "3"  # the Magazine: the static limit is 20
    host.get_by_role("button", name="Compute").click()
    assert values(host)["Total damage"]
    attacks.fill("4")
    host.get_by_role("button", name="Compute").click()
    error = host.locator(".ts-error")
    error.wait_for(state="visible")
    assert "at most 3 with that weapon's Magazine" in error.inner_text()
