"""Device storage that fails or lies (issue 24 item 7), on the real pages in Chromium.

Each fault is injected before any page script (an init script overriding the Storage API or
seeding hostile values): storage blocked outright, a setItem that always throws (some
private modes), a quota that fills mid-fight, `null` and garbage under the tracker's keys,
an encounter Python cannot read, and a corrupt roll log in session storage. In each the
tracker runs (in memory when it must), says plainly that the fight is not being saved with
an Export button at hand, never stays on "Loading…", tells the reader what was set aside
and lets them export it; a calculator page builds every calculator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import wait_python  # tests/ is on sys.path (rootdir packages)

from encounter.test_encounter_walk import wait_events

pytestmark = pytest.mark.browser

URL = "d100/encounter/"
LOADING = "Loading the rules engine…"
# what a browser's own error text looks like: never shown to the reader
RAW = ("DOMException", "QuotaExceededError", "SecurityError", "Failed to execute", "setItem")

# every uncaught error, wherever it came from: Material's storage reads (its __md_get,
# overridden in overrides/partials/javascripts/base.html) included
WHERE_UNCAUGHT = """
window.__uncaught = [];
addEventListener('error', (e) => window.__uncaught.push(`${e.filename}: ${e.message}`));
addEventListener('unhandledrejection', (e) => window.__uncaught.push(`promise: ${e.reason}`));
"""
BLOCKED = WHERE_UNCAUGHT + """
for (const name of ['localStorage', 'sessionStorage']) {
  Object.defineProperty(window, name, { configurable: true,
    get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });
}
"""
SETITEM_THROWS = """
Storage.prototype.setItem = function () {
  throw new DOMException("Failed to execute 'setItem' on 'Storage'", "QuotaExceededError");
};
"""
# seeded once per tab (init scripts run on every navigation)
SEED = """
if (!sessionStorage.getItem('seeded')) {
  sessionStorage.setItem('seeded', '1');
  for (const [k, v] of Object.entries(%s)) localStorage.setItem(k, v);
}
"""


def open_page(ctx: Any, base_url: str, script: str = "") -> tuple[Any, list[str]]:
    if script:
        ctx.add_init_script(script)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + URL)
    wait_python(page)
    # the fight is shown (data-events), or the page says why not: never "Loading…" for ever
    page.wait_for_function("""(loading) => {
      const e = document.querySelector('.ts-encounter');
      return e?.dataset.events !== undefined
        || (e?.querySelector('.ts-enc-round')?.textContent || loading) !== loading;
    }""", arg=LOADING)
    return page, errors


def add(page: Any, n: int, name: str) -> None:
    if page.locator(".ts-enc-add[open]").count() == 0:
        page.locator(".ts-enc-add summary").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("button", name="Add to the fight").click()
    wait_events(page, n)


def names(page: Any) -> list[str]:
    return page.locator(".ts-enc-order .ts-enc-name").all_inner_texts()


def stored_names(page: Any) -> list[str]:
    raw = page.evaluate("() => localStorage.getItem('tableside:encounters')")
    docs = [d for d in json.loads(raw).values() if d["game"] == "d100"]
    return [e["name"] for d in docs for e in d["events"] if e["type"] == "add"]


def no_raw_text(page: Any) -> None:
    text = page.locator(".ts-encounter").inner_text()
    assert not any(r in text for r in RAW), text


def export_fight(page: Any) -> dict[str, Any]:
    with page.expect_download() as d:
        page.get_by_role("button", name="Export this fight").click()
    doc: dict[str, Any] = json.loads(Path(d.value.path()).read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("fault", [BLOCKED, SETITEM_THROWS], ids=["blocked", "setitem-throws"])
def test_the_tracker_runs_in_memory_and_says_the_fight_is_not_saved(
        fault: str, phone: Any, base_url: str) -> None:
    page, errors = open_page(phone, base_url, fault)
    note = page.locator(".ts-enc-unsaved")
    note.wait_for()
    assert "This fight is not being saved on this device" in note.inner_text()
    assert page.locator(".ts-enc-round").inner_text() != LOADING
    add(page, 1, "Alice")
    add(page, 2, "Bob")
    assert names(page) == ["Alice", "Bob"]
    no_raw_text(page)
    doc = export_fight(page)  # the fight kept in memory, exported whole
    assert [e["name"] for e in doc["events"]] == ["Alice", "Bob"]
    assert not errors
    if fault is BLOCKED:  # none from the site's scripts, nor from Material's
        assert not page.evaluate("() => window.__uncaught")


@pytest.mark.parametrize("value", ["{", "undefined", "\"<img src=x onerror=alert(1)>\"", "7",
                                   '{"index": 0, "color": {"x y": "1"}}', '[{"index": 0}]'])
def test_materials_stored_values_that_are_not_json_are_ignored(
        value: str, phone: Any, base_url: str) -> None:
    """Material keeps its palette, tabs and dismissed banner in storage as JSON; a value that
    is not JSON, or JSON of another shape, stopped its scripts on every page. Now it reads as
    nothing stored: no uncaught error, the search and the tracker work."""
    seeded = {f"/.{k}": value for k in ("__palette", "__tabs", "__announce", "__consent")}
    page, errors = open_page(phone, base_url, WHERE_UNCAUGHT + SEED % json.dumps(seeded))
    add(page, 1, "Alice")
    assert names(page) == ["Alice"]
    assert not errors and not page.evaluate("() => window.__uncaught")
    page.locator("label[for=__search]").first.click()
    box = page.locator("input.md-search__input")
    box.wait_for(state="visible")
    box.press_sequentially("wounds", delay=20)  # Material searches on key events
    page.locator(".md-search-result__item").first.wait_for()


def test_a_full_quota_mid_fight_says_so_plainly_and_keeps_the_fight(
        phone: Any, base_url: str) -> None:
    page, errors = open_page(phone, base_url)
    add(page, 1, "Alice")
    assert stored_names(page) == ["Alice"]
    page.evaluate("""() => {
      window.realSetItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function () {
        throw new DOMException("Failed to execute 'setItem' on 'Storage': exceeded the quota.",
                               "QuotaExceededError");
      };
    }""")
    add(page, 2, "Bob")
    note = page.locator(".ts-enc-unsaved")
    note.wait_for()
    assert "storage on the device is full" in note.inner_text()
    no_raw_text(page)
    assert names(page) == ["Alice", "Bob"]  # kept in this tab, as the page says
    assert stored_names(page) == ["Alice"]
    # an event the rules refuse is dropped for good: not stored later with the next action
    page.locator(".ts-enc-order > li .ts-enc-who").first.click()  # its actions (#25)
    page.locator(".ts-enc-hit input[name=damage]").fill("5000")
    page.locator(".ts-enc-hit").get_by_role("button", name="Hit").click()
    page.locator(".ts-enc-msg", has_text="Damage: enter a whole number from 0 to 999").wait_for()
    page.evaluate("() => { Storage.prototype.setItem = window.realSetItem; }")
    add(page, 3, "Cy")  # room again: the fight is stored whole, and the note goes
    note.wait_for(state="detached")
    assert stored_names(page) == ["Alice", "Bob", "Cy"]
    raw = page.evaluate("() => localStorage.getItem('tableside:encounters')")
    assert '"hit"' not in raw
    assert not errors


HOSTILE_VALUES = {
    "null": {"tableside:encounters": "null", "tableside:encounter-active": "null",
             "tableside:encounter-presets": "null"},
    "garbage": {"tableside:encounters": "{not json", "tableside:encounter-active": "[1,2",
                "tableside:encounter-presets": '{"d100": [null, 5, {"name": 1}]}'},
    "wrong-shapes": {"tableside:encounters": json.dumps({
        "x1": None, "x2": 5, "x3": {"id": "x3", "game": "d100", "name": None, "events": 5},
        "x4": {"id": "other", "game": "d100", "name": "n", "events": [], "schema": 2}}),
        "tableside:encounter-active": json.dumps({"d100": {"not": "an id"}})},
}


@pytest.mark.parametrize("values", list(HOSTILE_VALUES.values()), ids=list(HOSTILE_VALUES))
def test_unreadable_stored_values_are_set_aside_and_offered_for_export(
        values: dict[str, str], phone: Any, base_url: str) -> None:
    page, errors = open_page(phone, base_url, SEED % json.dumps(values))
    aside = page.locator(".ts-enc-aside")
    aside.wait_for()
    assert "could not be read and were set aside" in aside.inner_text()
    assert page.locator(".ts-enc-unsaved").count() == 0  # storage itself works
    add(page, 1, "Alice")
    assert stored_names(page) == ["Alice"]
    kept = page.evaluate("""() => Object.keys(localStorage)
      .filter((k) => k.includes(':unreadable:')).map((k) => localStorage.getItem(k))""")
    with page.expect_download() as d:
        aside.get_by_role("button", name="Export").first.click()
    assert Path(d.value.path()).read_text(encoding="utf-8") in kept  # as it was stored
    for _ in range(aside.get_by_role("button", name="Discard").count()):
        aside.get_by_role("button", name="Discard").first.click()
    aside.wait_for(state="hidden")
    assert not errors


def test_an_encounter_python_cannot_read_is_set_aside_and_the_reader_told(
        phone: Any, base_url: str) -> None:
    bad = {"format": "tableside-encounter", "schema": 2, "game": "d100", "name": "Broken",
           "id": "ebad", "updated": 1, "events": [{"eid": "a", "type": "no such event"}]}
    page, errors = open_page(phone, base_url, SEED % json.dumps({
        "tableside:encounters": json.dumps({"ebad": bad}),
        "tableside:encounter-active": json.dumps({"d100": "ebad"})}))
    page.locator(".ts-enc-msg", has_text="“Broken” could not be read").wait_for()
    assert "set aside" in page.locator(".ts-enc-msg").inner_text()
    aside = page.locator(".ts-enc-aside")
    with page.expect_download() as d:
        aside.get_by_role("button", name="Export").first.click()
    assert json.loads(Path(d.value.path()).read_text(encoding="utf-8")) == bad
    add(page, 1, "Alice")  # the page goes on with a fresh encounter
    assert stored_names(page) == ["Alice"]
    assert not errors


CORRUPT_LOGS = ['{"x":1}', "null", "[[[", '"text"',
                json.dumps([None, 5, {"t": 1, "id": "x", "title": "t", "summary": "s",
                                      "href": "javascript:alert(1)", "dice": "", "values": []},
                            {"t": 1, "id": "x", "title": "t", "summary": "s", "href": "/",
                             "dice": "", "values": [[1, 2, 3]]}])]


@pytest.mark.parametrize("log_text", CORRUPT_LOGS, ids=range(len(CORRUPT_LOGS)))
def test_a_corrupt_roll_log_never_stops_a_calculator(log_text: str, browser: Any,
                                                    base_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(f"sessionStorage.setItem('tableside:log', {json.dumps(log_text)});")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + "horizon/assault-rifles/")
    wait_python(page)
    total = page.locator(".ts-calc").count()
    assert total > 10
    page.wait_for_function(
        "(n) => document.querySelectorAll('.ts-calc[data-ts-ready]').length === n", arg=total)
    note = page.locator(".ts-log-note")
    assert "could not be read" in note.inner_text()
    assert page.locator(".ts-log-entry").count() == 0
    assert page.locator(".ts-log a[href^='javascript']").count() == 0
    ctx.close()
    assert not errors
