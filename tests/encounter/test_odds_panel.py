"""The odds before the roll on the Encounter page, on a phone (issue #28): the panel's
numbers are the engine's (rules_pkg.takeout over the same stored log), it follows the
inputs and the fight, its chart is drawn without a style attribute, and an answer appears
within 200 ms of asking once Python is ready (`TABLESIDE_ODDS_SCREENS=<dir>` keeps a
screenshot of each game's panel)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from offline.helpers import PY_READY_MS, wait_python

from rules_pkg.encounter import api

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
FIGHTS = {
    # Ada shoots two Gangers behind body SP 4, HP 10 and 20 (tests/rules/test_takeout.py)
    "cyberpunk_red": ("cyberpunk-red", [["hp", 10], ["sp_body", 4]], [["hp", 20], ["sp_body", 4]],
                      {"dv": "13", "dice": "3"}),
    "forbidden_lands": ("forbidden-lands", [["strength", 2], ["armour", 1]], [["strength", 4]],
                        {"weapon_damage": "2"}),
}


def doc(game: str, first: list[list[Any]], second: list[list[Any]]) -> dict[str, Any]:
    return {"format": "tableside-encounter", "schema": 2, "game": game, "name": "Odds",
            "id": "eodds", "updated": 1, "events": [
                {"type": "add", "eid": "e1", "id": "a", "name": "Ada"},
                {"type": "add", "eid": "e2", "id": "g", "name": "Ganger", "values": first},
                {"type": "add", "eid": "e3", "id": "b", "name": "Boss", "values": second}]}


def engine(game: str, stored: dict[str, Any], calc: str, inputs: dict[str, Any],
           attacks: int) -> list[dict[str, Any]]:
    reply = json.loads(api.handle_json(json.dumps(
        {"op": "odds", "game": game, "events": stored["events"], "attacker": "a",
         "targets": ["g", "b"], "calc": calc, "inputs": inputs, "attacks": attacks})))
    assert reply["ok"], reply
    answers: list[dict[str, Any]] = reply["odds"]
    return answers


@pytest.mark.parametrize("game", list(FIGHTS))
def test_the_panel_shows_the_engines_odds(game: str, phone: Any, base_url: str) -> None:
    slug, first, second, typed = FIGHTS[game]
    stored = doc(game, first, second)
    phone.add_init_script(
        "(([d, g]) => { if (!localStorage.getItem('tableside:encounters')) {"
        " localStorage.setItem('tableside:encounters', JSON.stringify({[d.id]: d}));"
        " localStorage.setItem('tableside:encounter-active', JSON.stringify({[g]: d.id})); } })"
        f"({json.dumps([stored, game])})")
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text
            else None)
    page.goto(f"{base_url}{slug}/encounter/")
    wait_python(page)
    page.locator(".ts-enc-odds > summary").click()  # a folded panel, like the others
    panel = page.locator(".ts-takeout")
    panel.locator(".ts-takeout-target").first.wait_for(timeout=PY_READY_MS)

    # choose both targets, type the attack's inputs, two attacks this turn
    page.locator("#ts-takeout-attacker").select_option("a")
    for tid in ("g", "b"):
        page.locator(f"#ts-takeout-t-{tid}").check()
    page.locator("#ts-takeout-more").click()
    for name, value in typed.items():
        page.locator(f"#ts-takeout-in-{name}").fill(value)
    if game == "cyberpunk_red":  # Ada's REF comes from her sheet: not asked
        page.wait_for_function("() => document.querySelector('#ts-takeout-in-dv')"
                               " && !document.querySelector('#ts-takeout-in-ref')")
    page.locator("#ts-takeout-n").fill("2")
    calc = page.locator("#ts-takeout-attack").input_value()
    page.wait_for_function("() => document.querySelectorAll('.ts-takeout-target').length === 2"
                           " && !('busy' in document.querySelector('.ts-enc-oddsbox').dataset)")
    want = engine(game, stored, calc, typed, 2)
    page.wait_for_function(
        "(t) => document.querySelector('.ts-takeout-target[data-target=b] .ts-takeout-out-value')"
        "?.dataset.out === t", arg=want[1]["out_by"][-1]["text"])
    for w in want:
        art = page.locator(f".ts-takeout-target[data-target={w['target']}]")
        out = art.locator(".ts-takeout-out-value").get_attribute("data-out")
        assert out == w["out_by"][-1]["text"]
        by = art.locator(".ts-takeout-by [data-out]")
        assert [by.nth(i).get_attribute("data-out") for i in range(by.count())] \
            == [p["text"] for p in w["out_by"]]
        hit = art.locator(".ts-takeout-values dd").first
        hit.locator("button").click()  # the exact fraction on a tap
        assert hit.inner_text().endswith(w["p_hit"]["text"])
        assert art.locator("svg.ts-takeout-chart rect").count() == len(w["damage"]) + 2
        assert art.locator("svg [style]").count() == 0
    # the panel fits the phone's width
    width = page.evaluate(
        "() => document.querySelector('.ts-takeout').getBoundingClientRect().right")
    assert width <= 390

    # from Python ready, an answer appears in 200 ms or less (the warm engine)
    page.locator("#ts-takeout-n").fill("1")
    page.wait_for_function("() => document.querySelector('.ts-takeout-by') === null")
    ms = int(page.evaluate("() => Number(document.querySelector('.ts-enc-oddsbox').dataset.ms)"))
    print(f"\n{game}: odds for 2 targets, 1 attack: {ms} ms")
    if os.environ.get("TABLESIDE_ODDS_SCREENS"):
        shots = Path(os.environ["TABLESIDE_ODDS_SCREENS"])
        shots.mkdir(parents=True, exist_ok=True)
        page.locator("#ts-takeout-n").fill("3")
        page.wait_for_function("() => document.querySelectorAll('.ts-takeout-by').length === 2")
        panel.screenshot(path=str(shots / f"{slug}-odds-390.png"))
    assert not errors, errors
    assert not violations, violations


def test_the_panel_opens_while_python_starts(phone: Any, base_url: str) -> None:
    """The panel is not held with the tracker's controls while Python starts (it only
    asks): a GM opens it at once, it says it is working out, and the engine's answer to
    its first question (the current combatant against the first other, the first attack)
    comes once Python is ready. Python is kept from starting (the worker's script held
    back) until the panel is open, so the tap surely comes first."""
    game = "cyberpunk_red"
    slug, first, second, _ = FIGHTS[game]
    stored = doc(game, first, second)
    phone.add_init_script(
        "(([d, g]) => { localStorage.setItem('tableside:encounters', JSON.stringify({[d.id]: d}));"
        " localStorage.setItem('tableside:encounter-active', JSON.stringify({[g]: d.id})); })"
        f"({json.dumps([stored, game])})")
    held: list[Any] = []  # the page's checked fetch of the worker's script: Python waits

    def hold(route: Any) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    released = False
    phone.route("**/python/worker.mjs", hold)
    page = phone.new_page()
    page.goto(f"{base_url}{slug}/encounter/")
    page.wait_for_function("() => document.querySelector('.ts-encounter[aria-busy] .ts-enc-odds')")
    page.locator(".ts-enc-odds > summary").click(timeout=10_000)  # a tap: not if inert
    status = page.locator(".ts-takeout-status")
    status.wait_for()
    assert page.evaluate("() => document.documentElement.dataset.tsPython") != "ready"
    assert status.inner_text() == "Working out…"
    assert page.evaluate("() => document.querySelector('.ts-enc-initbox').inert")  # held
    page.wait_for_function("() => true", timeout=1000)  # (routes are served between calls)
    assert held, "the worker's script was not asked for"
    released = True
    for route in held:
        route.continue_()
    wait_python(page)
    reply = json.loads(api.handle_json(json.dumps(
        {"op": "odds", "form": True, "game": game, "events": stored["events"]})))
    assert reply["ok"] and [a["target"] for a in reply["odds"]] == ["g"], reply
    want = reply["odds"][0]["out_by"][-1]["text"]
    page.wait_for_function(
        "(t) => document.querySelector('.ts-takeout-target[data-target=g] .ts-takeout-out-value')"
        "?.dataset.out === t", arg=want, timeout=PY_READY_MS)
