"""The calculators in the built site, driven in Chromium as a person would.

Known answers come from the sources (line quoted next to each); rolled dice are compared
with rules_pkg on CPython given the same seed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

import rules_pkg
from rules_pkg import data
from rules_pkg.registry import game_modules

from .conftest import Recorder
from .helpers import open_calc, open_heavy_pistol, page_with, values, wait_python

pytestmark = pytest.mark.browser


def compute(host: Any) -> dict[str, str]:
    host.get_by_role("button", name="Compute").click()
    return values(host)


# --- one calculator per game, with answers from the sources ------------------------------
def test_horizon_heavy_combat_pistol_17_ap(page: Any, site_dir: Path, base_url: str) -> None:
    # horizon source, Weapon Profile - Heavy Combat Pistol (Tier 3): "17 22 27 Base 20"
    host = open_heavy_pistol(page, site_dir, base_url, "horizon.profile_row")
    host.get_by_label("AP score", exact=True).fill("17")
    shown = compute(host)
    assert shown["Damage"] == "22" and shown["Defense"] == "27"
    row = page.locator('table[data-table="profile-heavy-combat-pistol"] tr.ts-hl')
    assert row.count() == 1
    assert row.locator("th, td").first.inner_text().strip() == "17"
    # The shown values are the CPython result's, value for value.
    expected = rules_pkg.get("horizon.profile_row").run(weapon="heavy-combat-pistol", ap=17)
    assert shown == {k: str(v) for k, v, *_ in expected.values}


def test_forbidden_lands_damage_to_zero_is_broken(page: Any, site_dir: Path,
                                                  base_url: str) -> None:
    # forbidden lands source: "If an attribute reaches zero: ..." (Broken Effects table)
    page.goto(base_url + page_with(site_dir, 'data-table="broken-effects"',
                                       'data-calc="forbidden_lands.broken"'))
    host = open_calc(page, "forbidden_lands.broken")
    host.get_by_label("Attribute", exact=True).select_option("Strength")
    host.get_by_label("Current value", exact=True).fill("3")
    host.get_by_label("Damage taken", exact=True).fill("3")
    shown = compute(host)
    assert shown == {"Attribute": "0", "Broken": "yes"}
    assert page.locator('table[data-table="broken-effects"] tr.ts-hl').count() == 1


def test_cyberpunk_red_concrete_cover(page: Any, site_dir: Path, base_url: str) -> None:
    # cyberpunk source: "Concrete: 25 HP/10 HP"; "If a cover's HP drops to 0, excess
    # damage is lost and doesn't harm any targets hiding behind it."
    page.goto(base_url + page_with(site_dir, 'data-calc="cyberpunk_red.cover"'))
    host = open_calc(page, "cyberpunk_red.cover")
    host.get_by_label("Material", exact=True).select_option(label="Concrete")
    host.get_by_label("Thickness", exact=True).select_option("thick")
    host.get_by_label("Damage", exact=True).fill("30")
    shown = compute(host)
    assert shown["Cover HP"] == "25"
    assert shown["Cover HP after"] == "0" and shown["Damage to target"] == "0"


def test_mecha_success_based_damage(page: Any, site_dir: Path, base_url: str) -> None:
    # mecha source, Success Based Damage: "| 6-10 | 2 |"
    page.goto(base_url + page_with(site_dir, 'data-calc="mecha.damage"'))
    host = open_calc(page, "mecha.damage")
    host.get_by_label("Result greater than the defender's by", exact=True).fill("6")
    host.get_by_label("Weapon damage dice (+1 weapon = 1)", exact=True).fill("0")
    shown = compute(host)
    assert shown["Damage dice"] == "2"
    row = page.locator('table[data-table="success-based-damage"] tr.ts-hl')
    assert row.locator("th, td").first.inner_text().strip() == "6-10"


def test_d100_higher_ground(page: Any, site_dir: Path, base_url: str) -> None:
    # d100 source: "Higher Ground Weapon Skill and Ballistic Skill tests ... take a +10 bonus"
    page.goto(base_url + page_with(site_dir, 'data-calc="d100.test"'))
    host = open_calc(page, "d100.test")
    host.get_by_label("Characteristic (WS, BS, Ag…)", exact=True).fill("40")
    host.get_by_label("On higher ground than the opponent", exact=True).check()
    shown = compute(host)
    assert shown["Target"] == "50"
    assert shown["P(success)"] in ("1/2 (50.0 %)", "50.0 %")  # (2-element values, kinds)
    odds = host.locator("table.ts-odds")
    assert odds.count() >= 1 and "%" in odds.first.inner_text()


# --- seeded rolls: the same dice as CPython ------------------------------------------------
@pytest.mark.parametrize(("calc_id", "inputs", "labels"), [
    ("forbidden_lands.roll", {"attribute": 3, "skill": 2, "gear": 1}, {"✘", "☠"}),
    ("horizon.skill_test", {"dice": 6, "bonus": 2}, {"+2 AP"}),
])
def test_seeded_roll_matches_cpython(page: Any, site_dir: Path, base_url: str, calc_id: str,
                                     inputs: dict[str, int], labels: set[str]) -> None:
    calc = rules_pkg.get(calc_id)
    page.goto(base_url + page_with(site_dir, f'data-calc="{calc_id}"'))
    host = open_calc(page, calc_id)
    for name, value in inputs.items():
        label = next(i.label for i in calc.inputs if i.name == name)
        host.get_by_label(label, exact=True).fill(str(value))
    for seed in (7, 123456):
        host.get_by_label("Seed", exact=True).fill(str(seed))
        host.get_by_role("button", name="Roll").click()
        host.locator(".ts-seed", has_text=f"Seed {seed}").wait_for()
        shown = host.locator(".ts-die").evaluate_all(
            "els => els.map(e => [Number(e.querySelector('.ts-die-value').textContent),"
            " e.querySelector('.ts-die-label')?.textContent ?? ''])")
        expected = calc.run(**inputs, roll=True, seed=seed)
        assert shown == [[d.value, d.label] for d in expected.dice]
        assert host.locator(".ts-summary").inner_text() == expected.summary
    # the faces carry their game's labels (✘/☠ in Forbidden Lands, +2 AP in Horizon)
    all_labels = set(host.locator(".ts-die-label").all_inner_texts())
    assert labels & all_labels


# --- at the table: links, log, chaining ----------------------------------------------------
def test_a_shared_link_reproduces_inputs_and_roll(page: Any, browser: Any, site_dir: Path,
                                                  base_url: str, rec: Recorder) -> None:
    page.goto(base_url + page_with(site_dir, 'data-calc="forbidden_lands.roll"'))
    host = open_calc(page, "forbidden_lands.roll")
    host.get_by_label("Attribute (base dice)", exact=True).fill("4")
    host.get_by_label("Seed", exact=True).fill("99")
    host.get_by_role("button", name="Roll").click()
    host.locator(".ts-dice").wait_for()
    dice = host.locator(".ts-dice").inner_text()
    query = parse_qs(urlsplit(page.url).query)
    assert query["calc"] == ["forbidden_lands.roll"] and query["attribute"] == ["4"]
    assert query["seed"] == ["99"] and query["roll"] == ["1"]
    # A friend opens the link in a fresh browser: same inputs, same dice, no click needed.
    other = browser.new_context().new_page()
    other.goto(page.url)
    twin = other.locator('.ts-calc[data-calc="forbidden_lands.roll"]').first
    twin.locator(".ts-dice").wait_for(timeout=90_000)
    assert twin.locator(".ts-dice").inner_text() == dice
    assert twin.get_by_label("Attribute (base dice)", exact=True).input_value() == "4"
    other.context.close()


def test_roll_log_chains_a_result_into_another_calculator(page: Any, site_dir: Path,
                                                          base_url: str) -> None:
    host = open_heavy_pistol(page, site_dir, base_url, "horizon.profile_row")
    host.get_by_label("AP score", exact=True).fill("17")
    compute(host)
    log = page.locator(".ts-log")
    entry = log.locator(".ts-log-entry").first
    assert "Damage 22" in entry.inner_text()
    entry.get_by_role("button", name="Use Damage 22").click()
    target = entry.get_by_label("Use Damage 22 as")
    option = target.locator("option", has_text=re.compile(
        r"Heavy Combat Pistol.*Incoming damage per Attack")).first
    target.select_option(option.get_attribute("value"))
    entry.get_by_role("button", name="Apply").click()
    defense = page.locator(".ts-calc:has(input:focus)")
    assert defense.get_attribute("data-preset") == '{"weapon": "heavy-combat-pistol"}'
    assert defense.get_attribute("data-calc") == "horizon.defense"
    assert defense.get_by_label("Incoming damage per Attack", exact=True).input_value() == "22"
    # The log survives a page change (sessionStorage), newest first, at most 20 entries.
    page.reload()
    assert "Damage 22" in page.locator(".ts-log-entry").first.inner_text()
    assert page.evaluate("JSON.parse(sessionStorage.getItem('tableside:log')).length") == 1


def test_a_full_roll_log_offers_each_value_where_it_fits(page: Any, site_dir: Path,
                                                        base_url: str) -> None:
    # 20 entries (the most the log keeps), as after a while at the table: each is drawn
    # with its time and a chip for each value an input on this page can take.
    host = open_heavy_pistol(page, site_dir, base_url, "horizon.profile_row")
    host.get_by_label("AP score", exact=True).fill("17")
    compute(host)
    page.evaluate("""() => { const log = JSON.parse(sessionStorage.getItem('tableside:log'));
        const t0 = Date.UTC(2026, 0, 2, 21, 5);
        const all = Array.from({ length: 20 }, (_, i) => ({ ...log[0], t: t0 + i * 60000 }));
        sessionStorage.setItem('tableside:log', JSON.stringify(all)); }""")
    page.reload()
    entries = page.locator(".ts-log .ts-log-entry")
    entries.first.wait_for()
    assert entries.count() == 20
    shown = entries.locator("time").evaluate_all("ts => ts.map((t) => [t.textContent,"
        " new Date(t.dateTime).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })])")
    assert all(text == expected for text, expected in shown), shown
    entry = entries.nth(19)
    chips = entry.locator(".ts-chip").all_inner_texts()
    assert "Use Damage 22" in chips
    # values no input of this page takes (a weapon name, dice) get no chip
    assert all(re.fullmatch(r"Use .+ -?\d+", c) for c in chips), chips
    entry.get_by_role("button", name="Use Damage 22").click()
    options = entry.get_by_label("Use Damage 22 as").locator("option").all_inner_texts()
    # the best fit first: an input named like the value ("Incoming damage per Attack"),
    # named with its calculator's title ("<table>: <calculator> \u203a <input>")
    assert "damage" in options[0].lower() and " \u203a " in options[0], options


def test_the_chooser_offers_inputs_behind_tabs_not_built_yet(page: Any, site_dir: Path,
                                                              base_url: str) -> None:
    # Panels behind a deck's tabs are built when the page is idle. A reader who taps
    # "Use" before that (a busy phone) must still be offered them: here the page is never
    # idle, and the best fit for Damage 22 is the Heavy Combat Pistol's Defense calculator,
    # behind a tab nobody has opened.
    page.add_init_script("window.requestIdleCallback = () => 0;")
    open_heavy_pistol(page, site_dir, base_url)
    heavy = '[data-preset*="heavy-combat-pistol"]'
    host = page.locator(f'.ts-calc[data-calc="horizon.profile_row"]{heavy}')
    page.locator(".ts-deck > .ts-calc[role=tabpanel]").first.wait_for(state="attached")
    page.locator(f"#{host.get_attribute('aria-labelledby')}").click()  # builds it (selectTab)
    host.locator("form").wait_for(state="visible")
    host.get_by_label("AP score", exact=True).fill("17")
    compute(host)
    defense = page.locator(f'.ts-calc[data-calc="horizon.defense"]{heavy}')
    assert defense.get_attribute("data-ts-ready") is None  # not built: the case under test
    entry = page.locator(".ts-log .ts-log-entry").first
    entry.get_by_role("button", name="Use Damage 22").click()
    options = entry.get_by_label("Use Damage 22 as").locator("option").all_inner_texts()
    # the best fit: named like the value, and beside the calculator that made it
    best = r"Heavy Combat Pistol: Defense.* \u203a Incoming damage per Attack"
    assert re.fullmatch(best, options[0]), options
    entry.get_by_role("button", name="Apply").click()
    assert defense.get_by_label("Incoming damage per Attack", exact=True).input_value() == "22"


def test_wake_lock_toggle_only_where_supported(page: Any, site_dir: Path, base_url: str) -> None:
    page.goto(base_url + page_with(site_dir, 'class="ts-calc"'))
    page.locator(".ts-log").wait_for()
    supported = page.evaluate("'wakeLock' in navigator")
    assert page.get_by_label("Keep the screen awake").count() == (1 if supported else 0)


# --- bad input: the calculator's message, never a frozen tab ------------------------------
@pytest.mark.parametrize(("typed", "message"), [
    ("", "is empty"),
    ("lots", "must be a whole number"),
    ("1000000", "must be at most 100"),
    ("-3", "must be at least 0"),
])
def test_bad_input_gets_the_calculators_message(page: Any, site_dir: Path, base_url: str,
                                                typed: str, message: str) -> None:
    page.goto(base_url + page_with(site_dir, 'data-calc="horizon.skill_test"'))
    host = open_calc(page, "horizon.skill_test")
    host.get_by_label("Skill rank (dice)", exact=True).fill(typed)
    host.get_by_role("button", name="Roll").click()
    error = host.locator(".ts-error")
    error.wait_for(timeout=90_000)
    assert message in error.inner_text()
    assert error.get_attribute("aria-live") == "assertive"
    assert host.locator(".ts-dice").count() == 0
    # the tab still answers at once, and no traceback reached the page
    page.evaluate("1 + 1", )
    assert "Traceback" not in page.content()
    host.get_by_label("Skill rank (dice)", exact=True).fill("2")
    host.get_by_role("button", name="Roll").click()
    host.locator(".ts-dice").wait_for()
    assert error.is_hidden()
    # refused again: the earlier result is not left standing next to the bad input
    host.get_by_label("Skill rank (dice)", exact=True).fill(typed)
    host.get_by_role("button", name="Roll").click()
    error.wait_for()
    assert host.locator(".ts-result").is_hidden()


def test_engine_that_cannot_load_says_so(page: Any, site_dir: Path, base_url: str,
                                         rec: Recorder) -> None:
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    open_heavy_pistol(page, site_dir, base_url)
    status = page.locator(".ts-calc .ts-status").first
    status.filter(has_text="could not be loaded").wait_for(timeout=90_000)
    assert page.locator('table[data-table="profile-heavy-combat-pistol"]').is_visible()
    rec.errors.clear()  # the aborted download is logged by the browser itself


# --- the site as a whole ------------------------------------------------------------------
def _pages(site_dir: Path) -> list[tuple[str, str]]:
    out = []
    for html in sorted(site_dir.rglob("index.html")):
        rel = html.relative_to(site_dir).as_posix()[: -len("index.html")]
        out.append((rel, html.read_text("utf-8")))
    return out


def test_every_page_with_a_table_has_a_calculator(site_dir: Path) -> None:
    """Every page showing a table has a calculator. A print cheat sheet (`.ts-cheat`) is
    exempt, but each of its tables must have calculators on its full page."""
    registry = {c["id"] for c in json.loads(
        (site_dir / "assets/calculators/registry.json").read_text("utf-8"))}
    assert registry == {c.id for c in rules_pkg.calculators()}
    table_re = re.compile(r'<table\b[^>]*\bdata-table="([^"]+)"')
    bare, unknown, cheat_tables = [], set(), {}
    with_calcs: set[str] = set()
    for rel, text in _pages(site_dir):
        ids = table_re.findall(text)
        unknown |= set(re.findall(r'data-calc="([^"]+)"', text)) - registry
        if 'class="ts-cheat"' in text:
            cheat_tables[rel] = ids
        elif ids and 'class="ts-calc"' not in text:
            bare.append(rel)
        elif ids:
            with_calcs |= set(ids)
    assert len(with_calcs) > 5, "the built site has (almost) no tables: is this the real site?"
    assert not bare, f"pages with a table but no calculator: {bare}"
    # (a cheat sheet's own summary tables, e.g. "records-…", are not tables of the source)
    source_ids = {t for g in game_modules() for t in data.tables(g)}
    orphans = {rel: sorted((set(ids) & source_ids) - with_calcs)
               for rel, ids in cheat_tables.items() if (set(ids) & source_ids) - with_calcs}
    assert not orphans, f"cheat-sheet tables with no calculator on any full page: {orphans}"
    assert not unknown, f"placeholders naming no registered calculator: {sorted(unknown)}"


def _instant_go(page: Any, base_url: str, rel: str) -> None:
    """Follow a link as a reader would, so Material's instant navigation handles it."""
    _mark_old(page)
    page.evaluate("""url => { const a = document.createElement('a'); a.href = url;
                   document.querySelector('.md-content').append(a); a.click(); a.remove(); }""",
                  base_url + rel)
    _wait_page(page, base_url + rel)


def _mark_old(page: Any) -> None:
    page.evaluate("() => { document.querySelector('.md-content').dataset.tsOld = '1'; }")


def _wait_page(page: Any, url: str) -> None:
    """Wait until Material has swapped in the page at `url` and its calculators are built
    (the address changes before the content does)."""
    page.wait_for_function("url => location.href.split(/[?#]/)[0] === url", arg=url)
    page.wait_for_function("() => !document.querySelector('.md-content[data-ts-old]')")
    page.wait_for_function("() => [...document.querySelectorAll('.ts-calc')]"
                           ".every(e => e.dataset.tsReady !== undefined)")


def _log_length(page: Any) -> int:
    n: int = page.evaluate("JSON.parse(sessionStorage.getItem('tableside:log') || '[]').length")
    return n


def test_instant_navigation_keeps_one_runtime(page: Any, site_dir: Path, base_url: str,
                                              rec: Recorder) -> None:
    a = page_with(site_dir, 'data-table="profile-heavy-combat-pistol"',
                                 'data-calc=')
    b = page_with(site_dir, 'data-calc="d100.test"')
    page.goto(base_url + a)
    wait_python(page)
    page.evaluate("window.__sameDocument = true")
    for step, rel in enumerate([a, b, a, "back"]):
        if rel == "back":  # A -> B -> A, then the browser's Back button: B again
            _mark_old(page)
            page.go_back()
            _wait_page(page, base_url + b)
        elif step:
            _instant_go(page, base_url, rel)
        assert page.evaluate("window.__sameDocument") is True, "a full page load happened"
        calc = "d100.test" if "d100" in page.url else "horizon.profile_row"
        host = open_calc(page, calc)
        host.get_by_role("button", name="Compute").click()
        # No second Python start: the wasm count below says so. This click's result: an
        # answer worked out ahead may already be on screen, so wait for its log entry and
        # for the calculator to be done, not for a summary to exist.
        page.wait_for_function(
            "n => JSON.parse(sessionStorage.getItem('tableside:log') || '[]').length >= n",
            arg=step + 1, timeout=60_000)
        page.wait_for_function("h => !h.getAttribute('aria-busy')", arg=host.element_handle())
        # exactly one log entry per click: no handler was attached twice
        assert _log_length(page) == step + 1
        assert host.locator(".ts-summary").count() == 1
    # one Python, in one worker (calculators/python/client.mjs marks its start once)
    assert page.evaluate(
        "performance.getEntriesByName('tableside:python-worker-ready').length") == 1
    assert page.evaluate("document.documentElement.dataset.tsEngine") == "worker"
    wasm = [u for u in rec.requests if u.endswith("pyodide.asm.wasm")]
    assert len(wasm) == 1, wasm


def test_full_walk_stays_on_the_origin_and_every_calculator_answers(
        page: Any, site_dir: Path, base_url: str, rec: Recorder) -> None:
    pages = [rel for rel, _ in _pages(site_dir)]
    page.goto(base_url)
    failures = []
    for rel in pages:
        _instant_go(page, base_url, rel) if rel else None
        hosts = page.locator(".ts-calc")
        for i in range(hosts.count()):
            host = hosts.nth(i)
            if host.is_hidden():  # in a deck: choose its tab
                page.locator(f"#{host.get_attribute('aria-labelledby')}").click()
            host.get_by_role("button", name="Compute").click()
            answer = host.locator(".ts-summary, .ts-error:not([hidden])").first
            answer.wait_for(timeout=90_000)
            if "Calculator error" in answer.inner_text():
                failures.append(f"{rel}: {host.get_attribute('data-calc')}")
            if i >= 7:  # the first deck of each page is enough to keep the walk short
                break
    origin = base_url.rstrip("/")
    outside = sorted({u for u in rec.requests
                      if not u.startswith(origin + "/") and not u.startswith(("data:", "blob:"))})
    assert not outside, f"requests outside the site's origin: {outside}"
    assert not failures, f"calculators that failed on their defaults: {failures}"
