"""Sharing a fight (issue 27): the players' view and the GM's share panel with its QR code
have no WCAG 2.2 A/AA violation (axe-core), on a phone, light and dark."""

from __future__ import annotations

import pytest
from encounter.share_fight import GAME, code, doc, fight, seed_storage

from rules_pkg.encounter.api import handle

from .conftest import NewPage, axe, goto, report, wait_python

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_players_view_and_share_panel_have_no_violations(new_page: NewPage, base_url: str,
                                                         scheme: str) -> None:
    events = fight(4, 2)
    state = handle({"op": "fold", "game": GAME, "events": events})["state"]
    view = {"format": "tableside-view", "version": 1, "game": GAME, "name": "Bridge fight",
            "at": 1, "round": state["round"], "current": state["current"],
            "order": state["order"], "combatants": [
                {"id": c["id"], "name": c["name"], "initiative": c["initiative"],
                 "words": ["Wounded"], "conditions": [
                     {"name": x["name"], "rounds": x["rounds"], "level": None}
                     for x in c["conditions"]],
                 "values": [{"label": "HP", "value": 20, "hi": 40}] if i == 0 else None}
                for i, c in enumerate(state["combatants"])]}
    page = new_page(width=390, scheme=scheme)
    goto(page, f"{base_url}cyberpunk-red/players/#view={code(view)}", scheme)
    page.locator(".ts-pv").wait_for()
    found = axe(page)
    assert not found, report(found)

    gm = new_page(width=390, scheme=scheme)
    gm.context.add_init_script(seed_storage(doc(events)))
    goto(gm, f"{base_url}cyberpunk-red/encounter/", scheme)
    wait_python(gm)
    gm.locator(".ts-share > summary").click()
    gm.get_by_role("button", name="Show the players").click()
    gm.locator(".ts-share-code svg.ts-qr").wait_for()
    found = axe(gm)
    assert not found, report(found)
