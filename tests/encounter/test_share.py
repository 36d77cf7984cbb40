"""Sharing a fight without a server (issue 27), on the built site, GM and players in
separate browser contexts.

- The GM shows the players' code; the test reads the QR code off the screen (jsqr) and
  opens it in a player's context with no storage: the same round, order and turn, numbers
  only for the combatant the GM shows. With TABLESIDE_SHARE_SCREENS=<folder> it saves the
  GM's code and the player's view (390 px wide).
- Two devices act on the same turn, each sends its fight to the other, each merges: the
  same union of events on both, none lost, and the clash shown on both.
- The printed encounter (one A4 page) and its combat log, checked as PDFs; the log as
  Markdown.
- Hostile links: oversized, truncated, markup, another game, a newer version.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offline.helpers import PY_READY_MS, wait_python, wait_sw_ready

from encounter.test_encounter_walk import DESKTOP, IN_SIGHT, PHONE
from rules_pkg.encounter.api import handle

from .share_fight import GAME, code, doc, fight, seed_storage

pytestmark = pytest.mark.browser

JSQR = Path(__file__).resolve().parents[2] / "node_modules" / "jsqr" / "dist" / "jsQR.js"
MIN_BOX = 7.75  # as tests/glance/test_print.py: no text under 7 pt


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    made: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        ctx = browser.new_context(**options)
        ctx.set_default_timeout(60_000)
        made.append(ctx)
        return ctx

    def page(ctx: Any) -> Any:
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        return pg

    make.page = page  # type: ignore[attr-defined]
    yield make
    for ctx in made:
        ctx.close()
    assert not errors, errors


def open_gm(contexts: Any, base_url: str, events: list[Any], **options: Any) -> Any:
    ctx = contexts(**options)
    ctx.add_init_script(seed_storage(doc(events)))
    page = contexts.page(ctx)
    page.goto(f"{base_url}cyberpunk-red/encounter/")
    wait_python(page)
    page.wait_for_function(f"() => document.querySelector('.ts-encounter')?.dataset.events"
                           f" === '{len(events)}'", timeout=PY_READY_MS)
    page.locator(".ts-share > summary").click()
    return page


def stored_events(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("""() => {
      const all = JSON.parse(localStorage.getItem('tableside:encounters'));
      const id = JSON.parse(localStorage.getItem('tableside:encounter-active')).cyberpunk_red;
      return all[id].events; }""")


def read_qr(browser: Any, png: bytes) -> str:
    """The text of the QR code in a screenshot, read by jsqr in a page of its own."""
    ctx = browser.new_context()
    try:
        pg = ctx.new_page()
        pg.add_script_tag(path=str(JSQR))
        text: str | None = pg.evaluate("""async (b64) => {
          const img = new Image();
          img.src = 'data:image/png;base64,' + b64;
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.width; c.height = img.height;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height);
          return jsQR(d.data, c.width, c.height)?.data ?? null; }""",
                                       base64.b64encode(png).decode())
    finally:
        ctx.close()
    assert text, "no QR code could be read from the screen"
    return text


def shoot(page: Any, name: str, target: Any = None) -> None:
    folder = os.environ.get("TABLESIDE_SHARE_SCREENS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (target or page).screenshot(path=str(Path(folder) / name))


def test_the_players_see_the_gms_fight_with_hidden_numbers_hidden(
        contexts: Any, browser: Any, base_url: str) -> None:
    events = fight(10, 5)
    gm = open_gm(contexts, base_url, events, **PHONE)
    gm.get_by_role("button", name="Show the players").click()
    qr = gm.locator(".ts-share-code svg.ts-qr")
    qr.wait_for()
    # the code comes into view, clear of the header and of the turn bar at the bottom
    gm.wait_for_function(IN_SIGHT, arg=".ts-share-code svg.ts-qr", timeout=5_000)
    gm.get_by_label("Show Fighter 2's numbers").check()
    qr.wait_for()
    gm.wait_for_function("() => document.querySelector('.ts-share-code')?.dataset.url"
                         ".includes('#view=')")
    shoot(gm, "share-gm-code.png", gm.locator(".ts-share"))
    url = read_qr(browser, qr.screenshot())
    assert url == gm.locator(".ts-share-code").get_attribute("data-url")
    print(f"players' link, 10 combatants, 5 rounds: {len(url)} characters")

    player_ctx = contexts(**PHONE)  # a phone of its own: no storage, no service worker
    player = contexts.page(player_ctx)
    player.goto(url)
    player.locator(".ts-pv").wait_for()
    state = handle({"op": "fold", "game": GAME, "events": events})["state"]
    by = {c["id"]: c for c in state["combatants"]}
    cur = by[state["current"]]["name"]
    assert player.locator(".ts-pv-round").inner_text() == f"Round {state['round']} · {cur}'s turn"
    names = player.locator(".ts-pv-who").all_inner_texts()
    assert names == [by[i]["name"] for i in state["order"]]
    assert player.locator("li[aria-current=true] .ts-pv-who").inner_text() == cur
    rows = {r.locator(".ts-pv-who").inner_text(): r for r in player.locator(".ts-pv-row").all()}
    hp = next(v["value"] for v in by["c1"]["values"] if v["key"] == "hp")
    assert rows["Fighter 2"].locator(".ts-pv-nums").inner_text().startswith(f"HP {hp}/40")
    for name, row in rows.items():  # words for everyone, numbers for Fighter 2 only
        assert row.locator(".ts-pv-words").inner_text() in {"Unhurt", "Wounded",
                                                             "Seriously Wounded"}
        if name != "Fighter 2":
            assert row.locator(".ts-pv-nums").count() == 0
            assert "HP" not in row.inner_text()
    grappled = [c["name"] for c in state["combatants"] if c["conditions"]]
    assert grappled and all("Grappled" in rows[n].inner_text() for n in grappled)
    keys = player.evaluate("() => Object.keys(localStorage)")
    assert not [k for k in keys if k.startswith("tableside")], keys  # nothing of the fight kept
    shoot(player, "share-player-view.png")

    # a newer code, opened in the same tab, brings the view up to date
    gm.get_by_role("button", name="Next turn").click()
    gm.wait_for_function(f"() => document.querySelector('.ts-share-code')?.dataset.url !== "
                         f"{json.dumps(url)}")
    newer = gm.locator(".ts-share-code").get_attribute("data-url")
    player.evaluate("(u) => { location.href = u; }", newer)
    player.wait_for_function(f"() => !document.querySelector('.ts-pv-round')?.textContent"
                             f".endsWith({json.dumps(cur + chr(39) + 's turn')})")


def open_share(page: Any) -> None:
    page.locator(".ts-share").evaluate("(d) => { d.open = true; }")


def send(page: Any) -> str:
    open_share(page)
    page.get_by_role("button", name="Send to my other device").click()
    page.wait_for_function("() => document.querySelector('.ts-share-code')?.dataset.url"
                           ".includes('#fight=')")
    return str(page.locator(".ts-share-code").get_attribute("data-url"))


def merge_from(page: Any, url: str) -> None:
    page.goto(url)
    wait_python(page)
    page.get_by_role("button", name=re.compile("^Merge into")).click()


def test_two_devices_merge_each_way_to_the_same_union(contexts: Any, base_url: str) -> None:
    base = fight(3, 1)
    a = open_gm(contexts, base_url, base, **DESKTOP)
    b = open_gm(contexts, base_url, base, **DESKTOP, accept_downloads=True)
    # both act on the same turn: A ends it, B takes HP off the one whose turn it is
    a.get_by_role("button", name="Next turn").click()
    a.wait_for_function(f"() => document.querySelector('.ts-encounter').dataset.events === "
                        f"'{len(base) + 1}'")
    b.locator(".ts-enc-order > li[aria-current=true] .ts-enc-who").click()  # its actions (#25)
    b.locator(".ts-enc-card .ts-enc-hit [name=damage]").fill("14")
    b.locator(".ts-enc-card .ts-enc-hit").get_by_role("button", name="Hit").click()
    b.wait_for_function(f"() => document.querySelector('.ts-encounter').dataset.events === "
                        f"'{len(base) + 1}'")
    ours, theirs = stored_events(a), stored_events(b)
    to_a, to_b = send(b), send(a)

    for page, url in ((b, to_b), (a, to_a)):  # B merges A's copy, A merges B's
        merge_from(page, url)
        clash = page.locator(".ts-merge[data-clash]")
        clash.wait_for()
        said = clash.inner_text()
        assert "Both devices acted on the same turn" in said
        assert "On this device" in said and "On the other device" in said
        page.get_by_role("button", name="Keep both").click()
        page.locator(".ts-share-msg", has_text="Merged: 1 event(s)").wait_for()
    union_a, union_b = stored_events(a), stored_events(b)
    assert [e["eid"] for e in union_a] == [e["eid"] for e in union_b]  # the same union
    eids = {e["eid"] for e in ours} | {e["eid"] for e in theirs}
    assert {e["eid"] for e in union_a} == eids and len(union_a) == len(eids)  # none lost
    assert a.locator(".ts-enc-round").inner_text() == b.locator(".ts-enc-round").inner_text()

    # merging the same copy again changes nothing, by link or as a file
    merge_from(a, to_a)
    a.locator(".ts-share-msg", has_text="Nothing new").wait_for()
    assert stored_events(a) == union_a
    send(b)
    with b.expect_download() as got:
        b.get_by_role("button", name="Save it as a file").click()
    open_share(a)
    a.locator("#ts-share-file").set_input_files(got.value.path())
    a.get_by_role("button", name=re.compile("^Merge into")).click()
    a.locator(".ts-share-msg", has_text="Nothing new").wait_for()
    assert stored_events(a) == union_a


def pdf_check(page: Any, path: Path) -> tuple[int, str]:
    page.emulate_media(media="print")
    path.write_bytes(page.pdf(format="A4", print_background=True, prefer_css_page_size=True))

    def run(*args: str) -> str:
        return subprocess.run(args, capture_output=True, text=True, check=True,
                              timeout=120).stdout

    pages = int(re.search(r"Pages:\s+(\d+)", run("pdfinfo", str(path))).group(1))  # type: ignore[union-attr]
    words = run("pdftotext", "-bbox", str(path), "-")
    boxes = [float(b) - float(a) for a, b in re.findall(
        r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', words)]
    assert boxes and min(boxes) >= MIN_BOX, sorted(boxes)[:5]
    return pages, " ".join(run("pdftotext", "-layout", str(path), "-").split())


def test_the_printed_encounter_and_its_log(contexts: Any, base_url: str,
                                           tmp_path: Path) -> None:
    events = fight(10, 5)
    state = handle({"op": "fold", "game": GAME, "events": events})["state"]
    gm = open_gm(contexts, base_url, events, **DESKTOP, accept_downloads=True)
    gm.evaluate("() => { window.print = () => {}; }")
    gm.get_by_role("button", name="Print the encounter").click()
    pages, text = pdf_check(gm, tmp_path / "encounter.pdf")
    assert pages == 1  # one A4 page
    assert f"Bridge fight: round {state['round']}" in text
    for c in state["combatants"]:  # every combatant, its numbers and conditions
        assert c["name"] in text
        assert f"HP {c['values'][1]['value']}" in text
    assert "Grappled" in text and "Calculators" not in text
    gm.emulate_media(media="screen")
    gm.get_by_role("button", name="Print the log").click()
    pages, text = pdf_check(gm, tmp_path / "log.pdf")
    assert "Bridge fight: combat log" in text and "Fighter 1" in text
    for entry in (state["history"][0], state["history"][-1]):
        assert entry["summary"].split()[0] in text
    gm.emulate_media(media="screen")
    with gm.expect_download() as got:
        gm.get_by_role("button", name="Download the log").click()
    md = Path(got.value.path()).read_text("utf-8")
    assert md.startswith("# Bridge fight: combat log\n") and "## Round 5" in md
    assert md.count("\n- ") == len(state["history"])


def hostile_links(base_url: str) -> list[tuple[str, str]]:
    view = {"format": "tableside-view", "version": 1, "game": GAME, "name": "x", "at": 1,
            "round": 1, "current": "a", "order": ["a"],
            "combatants": [{"id": "a", "name": "<img src=x id=pwned>", "initiative": 3,
                            "words": ["Unhurt"], "conditions": [], "values": None}]}
    good = code(view)
    at = f"{base_url}cyberpunk-red/players/#view="
    return [
        (at + "A" * 70_000, "too long"),
        (at + good[: len(good) // 2], "cut short or damaged"),
        (at + code({**view, "version": 2}), "newer Tableside"),
        (f"{base_url}horizon/players/#view={good}", "another game (cyberpunk_red)"),
        (at + code({**view, "order": ["<b>x</b>"]}), "turn order names someone"),
    ]


def test_hostile_links_get_a_clear_message_and_stay_text(contexts: Any, base_url: str) -> None:
    page = contexts.page(contexts(**PHONE))
    for url, said in hostile_links(base_url):
        page.goto("about:blank")
        page.goto(url)
        page.locator(".ts-pv-error").wait_for()
        assert said in page.locator(".ts-pv-error").inner_text(), url[:120]
    # markup in a name is shown as text, never made into an element
    view = json.loads(json.dumps({"format": "tableside-view", "version": 1, "game": GAME,
                                  "name": "<script>1</script>", "at": 1, "round": 1,
                                  "current": "a", "order": ["a"], "combatants": [
                                      {"id": "a", "name": "<img src=x id=pwned>",
                                       "initiative": 3, "words": ["Unhurt"],
                                       "conditions": [], "values": None}]}))
    page.goto(f"{base_url}cyberpunk-red/players/#view={code(view)}")
    page.locator(".ts-pv").wait_for()
    assert page.locator(".ts-pv-who").inner_text() == "<img src=x id=pwned>"
    assert page.locator("#pwned").count() == 0

    # a bad whole-fight link on the GM's page: a message, and the GM's fights untouched
    events = fight(2, 1)
    gm = open_gm(contexts, base_url, events, **DESKTOP)
    before = stored_events(gm)
    # a good one is only offered: nothing is stored until the GM chooses to merge
    more = {"format": "tableside-encounter", "schema": 2, "game": GAME, "name": "Other",
            "events": [*events, {"eid": "e9zzzzzzz.x", "type": "next_round", "seed": 1}]}
    gm.goto(f"{base_url}cyberpunk-red/encounter/#fight={code(more)}")
    gm.locator(".ts-merge", has_text="A copy of “Other” from another device").wait_for()
    wait_python(gm)
    gm.get_by_role("button", name="Dismiss").click()
    assert stored_events(gm) == before and "#fight" not in gm.url
    bad = {"format": "tableside-encounter", "schema": 3, "game": GAME, "name": "n",
           "events": []}
    gm.goto(f"{base_url}cyberpunk-red/encounter/#fight={code(bad)}")
    gm.locator(".ts-merge .ts-pv-error").wait_for()
    assert "newer Tableside" in gm.locator(".ts-merge").inner_text()
    assert "unchanged" in gm.locator(".ts-merge").inner_text()
    forged = {**bad, "schema": 2, "events": [{"eid": "x1", "type": "hit", "target": "nobody",
                                              "damage": 5}]}
    gm.goto(f"{base_url}cyberpunk-red/encounter/#fight={code(forged)}")
    wait_python(gm)
    gm.get_by_role("button", name=re.compile("^Merge into")).click()
    # a log that cannot be replayed even on its own: Python refuses it, saying why
    gm.locator(".ts-share-msg", has_text="no combatant 'nobody'").wait_for()
    assert stored_events(gm) == before


def test_the_players_view_works_offline_once_the_site_is_cached(contexts: Any,
                                                                base_url: str) -> None:
    """A phone that visited the site once opens a code with no network at all."""
    events = fight(3, 1)
    state = handle({"op": "fold", "game": GAME, "events": events})["state"]
    view = {"format": "tableside-view", "version": 1, "game": GAME, "name": "Offline",
            "at": 1, "round": state["round"], "current": state["current"],
            "order": state["order"], "combatants": [
                {"id": c["id"], "name": c["name"], "initiative": c["initiative"],
                 "words": ["Unhurt"], "conditions": [], "values": None}
                for c in state["combatants"]]}
    ctx = contexts(**PHONE)
    page = contexts.page(ctx)
    page.goto(f"{base_url}cyberpunk-red/")
    wait_sw_ready(page)
    ctx.set_offline(True)
    page.goto(f"{base_url}cyberpunk-red/players/#view={code(view)}")
    page.locator(".ts-pv").wait_for()
    assert page.locator(".ts-pv-who").all_inner_texts() == [
        next(c["name"] for c in state["combatants"] if c["id"] == i) for i in state["order"]]
