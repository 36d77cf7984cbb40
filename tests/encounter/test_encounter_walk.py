"""A fight per game on the Encounter page, on a phone, from a fresh profile (issue 12).

Add three combatants and roll initiative; apply two hits from the game's calculators;
set a condition for two of its bearer's turns and advance until it ends; undo once; close the page,
reopen it offline (service worker) and find the same state; export and re-import.
The numbers shown are checked against rules_pkg.encounter folding the stored log, and,
where the calculator's answer does not depend on dice, against the source's own answer.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from offline.helpers import PY_READY_MS, wait_python, wait_sw_ready

from rules_pkg.encounter import fold
from rules_pkg.encounter import log as stored_log
from rules_pkg.encounter.fold import MAX_EVENTS

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# An element brought into view on a phone: below Material's header and clear of the
# tracker's turn bar at the bottom (a predicate on a selector, for wait_for_function)
IN_SIGHT = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const bar = document.querySelector('.ts-enc-sticky').getBoundingClientRect();
  const head = document.querySelector('.md-header').getBoundingClientRect();
  return box.top >= head.bottom && box.bottom <= bar.top; }"""
# An init script: every layout shift not caused by input, as [startTime, value], in
# window.__shifts (CLS is their sum within session windows; the tests want none).
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__shifts.push([e.startTime, e.value]);
  }
}).observe({ type: "layout-shift", buffered: true });
"""


@dataclass(frozen=True)
class Walk:
    game: str
    slug: str
    calc: str  # the calculator whose result is applied
    fields: dict[str, str]  # typed into its form
    roll_seed: str | None  # Roll with this seed (None: Compute)
    key: str  # the value the hits change
    expected: int | None  # that value after the two hits (None: checked by the fold only)
    condition: str
    follows: tuple[str, str] | None = None  # a field that takes the target's new number


WALKS = [
    # § Taking damage: 16 vs body SP 11 → 5 (ablated to 10); 16 vs SP 10 → 6: HP 40 → 29
    Walk("cyberpunk_red", "cyberpunk-red", "cyberpunk_red.damage", {"rolled": "16"}, None,
         "hp", 29, "Grappled", ("sp", "10")),
    # § Attack Actions: 10 AP, 2 Attacks of 12 = 24 per hit, no Defense: 48 taken
    Walk("horizon", "horizon", "horizon.attack", {"ap": "10"}, None, "damage", 48, "Shatter Leg"),
    # Cover: 12 vs Cover AP 8 → 4 through; - AP 0 - TB 3 = 1 Wound per hit: 12 → 10
    Walk("d100", "d100", "d100.cover", {}, None, "wounds", 10, "Blind"),
    Walk("forbidden_lands", "forbidden-lands", "forbidden_lands.armour", {"damage": "1"}, "7",
         "strength", 1, "Prone"),
    # seeds 1 and 2: 13 + 3 damage, Bo stays in the fight (at 0 vitality it would be out
    # and get no turns, #25 item 3, so a condition on it would not count down)
    Walk("mecha", "mecha", "mecha.damage", {}, "1", "vitality", 4, "Entangled"),
]


def events_count(page: Any) -> int:
    return int(page.locator(".ts-encounter").get_attribute("data-events") or -1)


def wait_events(page: Any, n: int) -> None:
    """Wait until the stored log holds n events (undo and redo are events of their own)."""
    page.wait_for_function(
        "(n) => document.querySelector('.ts-encounter')?.dataset.events === String(n)", arg=n)


def stored(page: Any, game: str) -> tuple[str, list[Any]]:
    raw = page.evaluate("""(game) => {
      const all = JSON.parse(localStorage.getItem('tableside:encounters') || '{}');
      const id = JSON.parse(localStorage.getItem('tableside:encounter-active') || '{}')[game];
      return JSON.stringify(all[id]);
    }""", game)
    doc = json.loads(raw)
    live = stored_log.effective(stored_log.parse(doc["events"], MAX_EVENTS))
    return doc["id"], [x.event for x in live]


def snapshot(page: Any) -> tuple[str, str, str]:
    return (page.locator(".ts-enc-round").inner_text(),
            page.locator(".ts-enc-order").inner_text(),
            page.locator(".ts-enc-card").inner_text())


def open_tracker(page: Any, url: str) -> None:
    page.goto(url)
    wait_python(page)
    page.wait_for_function("() => document.querySelector('.ts-encounter')?.dataset.events",
                           timeout=PY_READY_MS)


def add_combatant(page: Any, n: int, name: str, values: dict[str, str] | None = None,
                  kind: str = "") -> None:
    """Fill the open "Add a combatant" form (its fields by label, "Copies" included) and
    add; wait until the stored log holds n events."""
    form = page.locator(".ts-enc-addform")
    form.get_by_label("Name", exact=True).fill(name)
    if kind:
        form.get_by_label("Kind", exact=True).select_option(kind)
    for label, value in (values or {}).items():
        form.get_by_label(label, exact=True).fill(value)
    form.get_by_role("button", name="Add to the fight").click()
    wait_events(page, n)


def calc_host(page: Any, calc: str) -> Any:
    host = page.locator(f".ts-calc[data-calc='{calc}']")
    panel = host.get_attribute("id")
    if panel:  # in a deck of tabs: select it
        page.locator(f"#{panel}-tab").click()
    host.locator("form").wait_for(state="visible")
    return host


@pytest.mark.parametrize("walk", WALKS, ids=[w.game for w in WALKS])
def test_a_whole_fight_on_a_phone(walk: Walk, phone: Any, base_url: str, tmp_path: Path) -> None:
    url = f"{base_url}{walk.slug}/encounter/"
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_tracker(page, url)
    assert events_count(page) == 0

    # 1. three combatants, initiative
    page.locator(".ts-enc-add summary").click()
    for i, name in enumerate(("Ada", "Bo", "Cy")):
        page.get_by_label("Name", exact=True).fill(name)
        if name == "Cy":  # kept as a preset for the next fight
            page.get_by_label("Also save as a preset for the next fight").check()
        page.get_by_role("button", name="Add to the fight").click()
        wait_events(page, i + 1)
    assert page.get_by_label("Preset", exact=True).locator("option").all_inner_texts() == ["Cy"]
    page.get_by_role("button", name="Roll initiative").click()
    wait_events(page, 4)
    # Horizon's Awareness test is each player's (#25 item 2, horizon:1793): asked, here all
    # rolled by the page at once; `o` counts those answers in the events that follow
    o = 0
    if walk.game == "horizon":
        page.get_by_role("button", name="Roll the 3 waiting here").click()
        o = 3
        wait_events(page, 4 + o)
    assert page.locator(".ts-enc-round").inner_text().startswith("Round 1 · ")
    assert page.locator(".ts-enc-order > li").count() == 3
    assert page.locator(".ts-enc-order > li[aria-current=true]").count() == 1

    # 2. two hits from a calculator, applied to Bo
    page.get_by_role("button", name="Calculators").click()
    page.locator("#ts-enc-target").select_option(label="Bo")
    host = calc_host(page, walk.calc)
    for n in (5 + o, 6 + o):
        if n == 6 + o and walk.follows:  # "against Bo": the calculator takes Bo's numbers
            name, value = walk.follows
            page.wait_for_function(
                "([c, n, v]) => document.querySelector(`.ts-calc[data-calc='${c}'] [name=${n}]`)"
                "?.value === v", arg=[walk.calc, name, value])
        for name, value in walk.fields.items():
            host.locator(f"[name={name}]").fill(value)
        if walk.roll_seed is None:
            host.get_by_role("button", name="Compute").click()
        else:  # another seed for the second hit: the same roll is the same result (#25)
            host.locator("[name=seed]").fill(str(int(walk.roll_seed) + n - o - 5))
            host.get_by_role("button", name="Roll", exact=True).click()
        apply = host.locator(".ts-apply-go").first
        apply.wait_for()
        assert host.locator(".ts-apply-row[data-role=target] .ts-apply-who").input_value() \
            == stored(page, walk.game)[1][1].id
        apply.click()
        wait_events(page, n)
        host.locator(".ts-apply-said").filter(has_text="Applied").wait_for()
    ms = page.evaluate("() => window.tablesideApplyMs")
    assert isinstance(ms, int | float) and ms < 1000, ms
    print(f"\n{walk.game}: Apply → updated state {ms:.1f} ms (warm, second hit)")
    page.get_by_role("button", name="Close the calculators").click()

    _, log = stored(page, walk.game)
    assert [type(e).__name__ for e in log[4 + o:]] in (["Hit", "Hit"], ["Apply", "Apply"])
    enc = fold(walk.game, log)
    bo = next(c for c in enc.combatants if c.name == "Bo")
    if walk.expected is not None:
        assert bo.value(walk.key) == walk.expected
    bo_row = page.locator(".ts-enc-order > li").filter(
        has=page.locator(".ts-enc-name", has_text=re.compile(r"^Bo$")))
    bo_row.locator(".ts-enc-who").click()
    # the number that matters, with its real maximum where it has one ("HP 29/40", #25)
    label = bo_row.locator(".ts-enc-main").inner_text()
    assert re.fullmatch(rf"(HP|Damage taken|Wounds|Strength|Vitality) {bo.value(walk.key)}"
                        r"(/\d+)?", label), label
    if os.environ.get("TABLESIDE_ENCOUNTER_SCREENS"):
        shots = Path(os.environ["TABLESIDE_ENCOUNTER_SCREENS"])
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{walk.slug}-fight.png"))
        page.screenshot(path=str(shots / f"{walk.slug}-fight-full.png"), full_page=True)

    # 3. a condition for two of its bearer's turns, set on the current combatant during its
    # own turn, which does not count (#25 item 5); advance until it ends
    current = page.locator(".ts-enc-order > li[aria-current=true] .ts-enc-who")
    if not page.locator(".ts-enc-order > li[aria-current=true].ts-selected").count():
        current.click()
    card = page.locator(".ts-enc-card")
    card.get_by_label("Condition", exact=True).select_option(walk.condition)
    card.get_by_label(re.compile(r"^Turns of .*'s \(blank: until cleared\)$")).fill("2")
    card.get_by_role("button", name="Set").click()
    wait_events(page, 7 + o)
    chip = page.locator(".ts-enc-order .ts-chip", has_text=walk.condition)
    assert chip.inner_text() == f"{walk.condition}, 2 turns left"
    page.get_by_role("button", name="Next round").click()
    wait_events(page, 8 + o)
    assert chip.inner_text() == f"{walk.condition}, 2 turns left"  # the turn it was set in
    page.get_by_role("button", name="Next round").click()
    wait_events(page, 9 + o)
    assert chip.inner_text() == f"{walk.condition}, 1 turn left"
    page.get_by_role("button", name="Next round").click()
    wait_events(page, 10 + o)
    assert chip.count() == 0
    assert page.locator(".ts-enc-round").inner_text().startswith("Round 4 · ")
    assert any(f"{walk.condition} ends" in s for s in fold(walk.game, stored(page, walk.game)[1])
               .history[-1].steps)

    # 4. undo once: back in round 3, the condition with 1 turn left. Undo is an event of
    # its own (the log is only appended to); redo and undo again are two more.
    page.get_by_role("button", name="Undo").click()
    wait_events(page, 11 + o)
    assert page.locator(".ts-enc-round").inner_text().startswith("Round 3 · ")
    page.get_by_role("button", name="Redo").click()
    wait_events(page, 12 + o)
    assert page.locator(".ts-enc-round").inner_text().startswith("Round 4 · ")
    page.get_by_role("button", name="Undo").click()
    wait_events(page, 13 + o)
    assert page.locator(".ts-enc-round").inner_text().startswith("Round 3 · ")
    assert chip.inner_text() == f"{walk.condition}, 1 turn left"
    # Which card is open is the reader's choice, not the fight's: a reopened page shows the
    # current combatant's, so compare with that (mecha re-rolls initiative each round, so
    # the current combatant of round 2 need not be the one chosen in round 1).
    if not page.locator(".ts-enc-order > li[aria-current=true].ts-selected").count():
        current.click()
    before = snapshot(page)
    enc_id, log = stored(page, walk.game)

    # 5. close, reopen offline: the same state
    wait_sw_ready(page)
    page.close()
    phone.set_offline(True)
    page = phone.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(url)
    assert response is not None and response.from_service_worker
    wait_python(page)
    wait_events(page, 13 + o)
    if not page.locator(".ts-enc-order > li[aria-current=true].ts-selected").count():
        page.locator(".ts-enc-order > li[aria-current=true] .ts-enc-who").click()
    assert snapshot(page) == before
    assert stored(page, walk.game) == (enc_id, log)

    # 6. export, then import as a new encounter: the same fight
    page.get_by_role("button", name="More").click()
    with page.expect_download() as dl:
        page.get_by_role("button", name="Export").click()
    path = tmp_path / "fight.json"
    dl.value.save_as(path)
    doc = json.loads(path.read_text("utf-8"))
    assert doc["format"] == "tableside-encounter" and doc["game"] == walk.game
    assert len(doc["events"]) == 13 + o and len({e["eid"] for e in doc["events"]}) == 13 + o
    page.locator("#ts-enc-file").set_input_files(str(path))
    page.locator(".ts-enc-msg", has_text="Imported").wait_for()
    new_id, new_log = stored(page, walk.game)
    assert new_id != enc_id and new_log == log
    assert snapshot(page) == before
    # imported back beside the fight it came from: the list tells them apart (played at
    # 390 px: two "Encounter 1" in the list)
    name = doc["name"]
    assert page.locator(".ts-enc-msg").inner_text().startswith(f"Imported “{name} (2)”")
    assert sorted(page.locator("#ts-enc-pick option").all_inner_texts()) == [name, f"{name} (2)"]
    # a foreign file is refused and nothing is lost
    bad = tmp_path / "foreign.json"
    bad.write_text('{"format": "foundry-vtt", "actors": []}', "utf-8")
    page.locator("#ts-enc-file").set_input_files(str(bad))
    page.locator(".ts-enc-msg", has_text="not a Tableside encounter file").wait_for()
    assert stored(page, walk.game) == (new_id, log)
    phone.set_offline(False)
    assert not errors, errors
