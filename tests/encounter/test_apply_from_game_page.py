"""'Apply to …' from an ordinary game page, not the Encounter page (issue 12).

A Cyberpunk RED fight is stored from its Encounter page; Autofire is rolled on the
Resolving Ranged Combat page and applied there: the damage to the target, the 10 bullets
to the shooter (each its own "Apply to"). The Encounter page then shows both changes.
Known answer (seed 5): REF 6 + Autofire 4 + d10 10 = 20 against DV 15, beaten by 5, capped
at 3 for an SMG; damage 3 + 6 = 9 x 3 = 27; - body SP 11 = 16 through, SP ablated to 10
(§ Auto fire mode, § Taking damage).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from offline.helpers import wait_python

from encounter.test_encounter_walk import PHONE, calc_host, open_tracker, stored, wait_events
from rules_pkg.encounter import fold

pytestmark = pytest.mark.browser


def test_apply_autofire_from_the_ranged_combat_page(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_tracker(page, f"{base_url}cyberpunk-red/encounter/")
        page.locator(".ts-enc-add summary").click()
        for i, name in enumerate(("Ada", "Bo")):
            page.get_by_label("Name", exact=True).fill(name)
            page.get_by_role("button", name="Add to the fight").click()
            wait_events(page, i + 1)
        page.get_by_role("button", name="Roll initiative").click()
        wait_events(page, 3)
        _, log = stored(page, "cyberpunk_red")
        enc = fold("cyberpunk_red", log)
        ids = {c.name: c.id for c in enc.combatants}
        current = enc.order[0]

        page.goto(f"{base_url}cyberpunk-red/resolving-ranged-combat/")
        wait_python(page)
        host = calc_host(page, "cyberpunk_red.autofire")
        host.locator("[name=seed]").fill("5")
        host.get_by_role("button", name="Roll", exact=True).click()
        # Python answers from its worker: wait for the rolled result, not the one before
        host.locator(".ts-result", has_text="9 \u00d7 3 = 27 damage").wait_for()
        target_row = host.locator(".ts-apply-row[data-role=target]")
        actor_row = host.locator(".ts-apply-row[data-role=actor]")
        target_row.locator(".ts-apply-go").wait_for()
        # by default the damage goes to someone other than the one acting, the bullets
        # come off the one whose turn it is
        assert actor_row.locator("select").input_value() == current
        assert target_row.locator("select").input_value() != current
        target_row.locator("select").select_option(label="Bo")
        target_row.get_by_role("button", name="Apply: 27 damage (body, 9 \u00d7 3)").click()
        host.locator(".ts-apply-said", has_text="Applied").wait_for()
        actor_row.locator("select").select_option(label="Ada")
        actor_row.get_by_role("button", name="Apply: 10 bullets spent").click()
        host.locator(".ts-apply-said", has_text="Bullets 30 → 20").wait_for()

        open_tracker(page, f"{base_url}cyberpunk-red/encounter/")
        wait_events(page, 5)
        enc = fold("cyberpunk_red", stored(page, "cyberpunk_red")[1])
        bo, ada = enc.combatant(ids["Bo"]), enc.combatant(ids["Ada"])
        assert (bo.value("hp"), bo.value("sp_body"), ada.value("bullets")) == (24, 10, 20)
        row = page.locator(".ts-enc-order > li").filter(
            has=page.locator(".ts-enc-name", has_text=re.compile(r"^Bo$")))
        assert row.locator(".ts-enc-main").inner_text() == "HP 24/40"  # of its real maximum
        page.locator(".ts-enc-order > li").filter(
            has=page.locator(".ts-enc-name", has_text=re.compile(r"^Ada$"))
        ).locator(".ts-enc-who").click()
        assert page.get_by_label("Bullets of Ada").input_value() == "20"
        assert "Ada is hit" not in page.locator(".ts-enc-hist").inner_text()
        assert not errors, errors
    finally:
        ctx.close()
