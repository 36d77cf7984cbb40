"""The fight drawn before Python (issue 26 item 2), in Chromium with Python held back.

The Encounter page keeps the fight as last folded beside its log
(`tableside:encounter-folded:<game>`, calculators/encounter/cache.js). On a reload it draws
it at once: names, round and numbers are on screen while Python is still loading (its
wasm held by a route), the controls that need Python are disabled, and nothing moves when
Python arrives and its fold (which wins) replaces it. A stored state that is not one is
ignored with a note; one that looks right but lies is drawn as text and then corrected by
the fold. The log itself is never touched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import wait_python

from encounter.test_encounter_walk import DESKTOP, PHONE, SHIFTS
from scripts.bench.replay import fight, file_text

pytestmark = pytest.mark.browser

GAME = "cyberpunk_red"
URL = "cyberpunk-red/encounter/"
FOLDED = f"tableside:encounter-folded:{GAME}"
SCREENS = {"phone": PHONE, "desktop": DESKTOP}
# what a reader sees of the fight: the round line, and each row's name and numbers
SEEN = """() => [document.querySelector('.ts-enc-round').textContent,
  [...document.querySelectorAll('.ts-enc-order > li .ts-enc-who')].map((b) => b.textContent)]"""


@pytest.fixture(params=sorted(SCREENS))
def ctx(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    c = browser.new_context(**SCREENS[request.param], service_workers="block")
    c.set_default_timeout(60_000)
    c.add_init_script(SHIFTS)
    yield c
    c.close()


def a_fight_kept(ctx: Any, base_url: str, tmp_path: Path) -> tuple[Any, int]:
    """A fight imported and folded: its log and its folded state are stored."""
    events = fight(GAME, events=40, combatants=3, seed=5)
    path = tmp_path / "fight.json"
    path.write_text(file_text(GAME, events))
    page = ctx.new_page()
    page.goto(base_url + URL)
    wait_python(page)
    page.wait_for_function("() => document.querySelector('.ts-encounter')?.dataset.events")
    page.set_input_files("#ts-enc-file", str(path))
    page.wait_for_function(
        "(n) => { const e = document.querySelector('.ts-encounter');"
        " return e?.dataset.events === String(n) && e.dataset.replayed === 'done'; }",
        arg=len(events))
    page.wait_for_function("""([k, game]) => {  // the fold of the imported encounter's log
      const id = JSON.parse(localStorage.getItem('tableside:encounter-active') || '{}')[game];
      return id && JSON.parse(localStorage.getItem(k) || '{}').id === id; }""", arg=[FOLDED, GAME])
    return page, len(events)


def held_back(ctx: Any) -> list[Any]:
    """Python's wasm held (the worker cannot start) until the routes are let go."""
    held: list[Any] = []
    ctx.route("**/pyodide.asm.wasm*", lambda route: held.append(route))
    return held


def let_go(ctx: Any, held: list[Any]) -> None:
    for route in held:
        route.continue_()
    ctx.unroute("**/pyodide.asm.wasm*")


def python_state(page: Any) -> str | None:
    state: str | None = page.evaluate("() => document.documentElement.dataset.tsPython")
    return state


def test_a_stored_fight_is_shown_before_python_and_nothing_moves_when_it_arrives(
        ctx: Any, base_url: str, tmp_path: Path) -> None:
    first, n = a_fight_kept(ctx, base_url, tmp_path)
    folded = first.evaluate(SEEN)
    log = first.evaluate("() => localStorage.getItem('tableside:encounters')")
    first.close()
    held = held_back(ctx)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + URL)
    page.locator(".ts-encounter[data-drawn=stored]").wait_for(state="attached")
    assert python_state(page) != "ready"
    assert page.evaluate(SEEN) == folded  # names, round, numbers: as Python folded them
    assert folded[0].startswith("Round ") and "HP " in folded[1][0]
    note = page.locator(".ts-enc-wait")
    assert "fight as last saved" in note.inner_text()
    assert page.get_by_role("button", name="Next turn").is_disabled()  # it needs Python
    assert page.get_by_role("button", name="More").is_enabled()  # Export needs none
    page.wait_for_timeout(300)
    drawn_at = page.evaluate("() => performance.now()")
    assert python_state(page) != "ready"
    let_go(ctx, held)
    wait_python(page)
    page.wait_for_function(
        "() => document.querySelector('.ts-encounter')?.dataset.drawn === 'done'")
    page.wait_for_timeout(500)
    assert page.evaluate(SEEN) == folded  # the fold agrees
    assert page.locator(".ts-encounter").get_attribute("data-events") == str(n)
    assert page.get_by_role("button", name="Next turn").is_enabled()
    assert note.count() == 0
    shifts = page.evaluate("window.__shifts")
    after = [(t, v) for t, v in shifts if t >= drawn_at]
    assert sum(v for _, v in after) == 0, f"moved when Python arrived: {after}"
    assert sum(v for _, v in shifts) <= 0.1, shifts
    assert page.evaluate("() => localStorage.getItem('tableside:encounters')") == log
    assert not errors


def stored_fold(page: Any) -> dict[str, Any]:
    kept: dict[str, Any] = json.loads(page.evaluate("(k) => localStorage.getItem(k)", FOLDED))
    return kept


def test_a_tampered_stored_state_is_ignored_with_a_note(
        ctx: Any, base_url: str, tmp_path: Path) -> None:
    first, n = a_fight_kept(ctx, base_url, tmp_path)
    folded = first.evaluate(SEEN)
    kept = stored_fold(first)
    kept["state"]["combatants"][0]["name"] = {"html": "<img src=x onerror=window.__pwned=1>"}
    kept["state"]["order"].append("nobody")
    first.evaluate("([k, v]) => localStorage.setItem(k, v)", [FOLDED, json.dumps(kept)])
    first.close()
    held = held_back(ctx)
    page = ctx.new_page()
    page.goto(base_url + URL)
    page.locator(".ts-enc-msg", has_text="could not be shown").wait_for()
    assert "fight as last saved could not be shown" in page.locator(".ts-enc-msg").inner_text()
    assert page.locator(".ts-encounter").get_attribute("data-drawn") is None
    assert page.locator(".ts-enc-round").inner_text() == "Loading the rules engine…"
    assert page.evaluate("(k) => localStorage.getItem(k)", FOLDED) is None  # dropped
    let_go(ctx, held)
    wait_python(page)
    page.wait_for_function(
        "() => document.querySelector('.ts-encounter')?.dataset.drawn === 'done'")
    assert page.evaluate(SEEN) == folded  # the fight, from its events: none lost
    assert page.locator(".ts-encounter").get_attribute("data-events") == str(n)
    assert page.evaluate("() => window.__pwned") is None


def test_a_stored_state_that_lies_is_drawn_as_text_and_the_fold_wins(
        ctx: Any, base_url: str, tmp_path: Path) -> None:
    first, _ = a_fight_kept(ctx, base_url, tmp_path)
    folded = first.evaluate(SEEN)
    kept = stored_fold(first)
    c = kept["state"]["combatants"][0]
    c["name"] = "<b>Mallory</b><img src=x onerror=window.__pwned=1>"
    for v in c["values"]:
        v["value"] = 999
    first.evaluate("([k, v]) => localStorage.setItem(k, v)", [FOLDED, json.dumps(kept)])
    first.close()
    held = held_back(ctx)
    page = ctx.new_page()
    page.goto(base_url + URL)
    page.locator(".ts-encounter[data-drawn=stored]").wait_for(state="attached")
    names = page.locator(".ts-enc-order .ts-enc-name").all_inner_texts()
    assert "<b>Mallory</b><img src=x onerror=window.__pwned=1>" in names  # text, not markup
    assert page.locator(".ts-encounter b, .ts-encounter img").count() == 0
    let_go(ctx, held)
    wait_python(page)
    page.wait_for_function(
        "() => document.querySelector('.ts-encounter')?.dataset.drawn === 'done'")
    assert page.evaluate(SEEN) == folded  # Python's fold of the log wins
    assert page.evaluate("() => window.__pwned") is None
