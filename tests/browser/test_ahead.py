"""Answers worked out ahead (issue 13), in Chromium: with the Python runtime blocked, every
form shows the answer the page carries for its starting inputs (calculators/forms/ahead.mjs);
once Python is ready, the live engine's answer is the same, calculator by calculator; an
input changed before then takes the answer down; a link's own values get none; and an
answer's text is shown as text, never as markup."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from scripts.site import page_answers
from scripts.site.page_registry import attribute

from .conftest import Recorder
from .helpers import LIVE_RESULT, PY_READY_MS, open_calc, wait_python

pytestmark = pytest.mark.browser

GAMES = ("cyberpunk-red", "d100", "forbidden-lands", "horizon", "mecha")
D100 = "d100/combat-circumstances/"  # d100.test first, then d100.degrees, …
HINT = "Worked out ahead"
_ANSWERS = re.compile(r"data-answers='([^']*)'")

# Each calculator on the page: its answer as shown (text, the hint left out), or null.
READ = """() => [...document.querySelectorAll('.ts-calc')].map((host) => {
  const out = host.querySelector('.ts-result');
  if (!out || out.hidden) return { calc: host.dataset.calc, shown: null, ahead: false, hint: null,
                                    summary: null };
  const copy = out.cloneNode(true);
  copy.querySelector(':scope > .ts-ahead')?.remove();
  return { calc: host.dataset.calc, shown: copy.textContent,
           ahead: out.hasAttribute('data-ts-ahead'),
           hint: out.querySelector(':scope > .ts-ahead')?.textContent ?? null,
           summary: out.querySelector('.ts-summary')?.textContent ?? null };
})"""
ALL_BUILT = """() => [...document.querySelectorAll('.ts-calc')]
  .every((h) => h.dataset.tsReady !== undefined)"""
NONE_AHEAD = "() => !document.querySelector('.ts-result[data-ts-ahead]:not([hidden])')"
# Compute on every form that shows an answer, one after another, through the live engine.
COMPUTE_ALL = """async () => {
  for (const host of document.querySelectorAll('.ts-calc')) {
    const out = host.querySelector('.ts-result');
    if (!out || out.hidden) continue;
    host.querySelector('form').requestSubmit();
    while (host.hasAttribute('aria-busy')) await new Promise((r) => setTimeout(r, 10));
  }
}"""


def block_python(page: Any) -> None:
    """The runtime cannot load: its wasm is refused (a snapshot start needs it too)."""
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())


# What the refused download itself leaves in the console: the browser's line for it, and
# (a snapshot build) Pyodide's own fetch of it, rejected where nothing of ours awaits it.
BLOCKED = ("Failed to load resource", "uncaught: Failed to fetch")


def forget_blocked(rec: Recorder) -> None:
    """Forget what the refused download logs, now and at teardown (the rejection may come
    after the test's last step: CI once failed so); any other error stays."""
    rec.expected = BLOCKED
    rec.errors[:] = rec.unexpected()


def carried(site_dir: Path, path: str) -> list[dict[str, Any]]:
    m = _ANSWERS.search((site_dir / path / "index.html").read_text("utf-8"))
    return json.loads(html.unescape(m.group(1))) if m else []


def busiest(site_dir: Path, game: str) -> str:
    """The game's page (not its Encounter page) carrying the most answers."""
    pages = [p.parent.relative_to(site_dir).as_posix() + "/"
             for p in sorted((site_dir / game).glob("*/index.html"))
             if p.parent.name != "encounter"]
    return max(pages, key=lambda p: len(carried(site_dir, p)))


def expected(site_dir: Path, path: str) -> list[str | None]:
    """Each host's summary from rules_pkg on CPython for its starting inputs (None: refused)."""
    text = (site_dir / path / "index.html").read_text("utf-8")
    out: list[str | None] = []
    for calc_id, preset in re.findall(r'data-calc="([^"]*)" data-preset=\'([^\']*)\'', text):
        calc = rules_pkg.get(html.unescape(calc_id))
        start = json.loads(html.unescape(preset))
        try:
            out.append(calc.run(**page_answers.form_values(calc, start)).summary)
        except rules_pkg.RulesError:
            out.append(None)
    return out


def shown_ahead(page: Any, url: str) -> list[dict[str, Any]]:
    block_python(page)
    page.goto(url)
    page.wait_for_function(ALL_BUILT, timeout=PY_READY_MS)
    shown: list[dict[str, Any]] = page.evaluate(READ)
    return shown


@pytest.mark.parametrize("game", GAMES)
def test_every_form_shows_its_answer_before_python_and_python_agrees(
        browser: Any, site_dir: Path, base_url: str, rec: Recorder, game: str) -> None:
    path = busiest(site_dir, game)
    want = expected(site_dir, path)
    assert any(want), path
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.on("console", lambda m: rec.errors.append(m.text) if m.type == "error" else None)
        before = shown_ahead(page, base_url + path)
        assert [h["summary"] for h in before] == want  # every form, in page order
        for h, w in zip(before, want, strict=True):
            assert h["ahead"] == (w is not None) and h["hint"] == (HINT if w else None)
        first = page.locator(".ts-calc").first.locator(".ts-ahead")
        if want[0]:
            assert first.is_visible()
        # nothing worked out ahead goes to the roll log: an entry comes from a real roll
        assert page.evaluate("() => sessionStorage.getItem('tableside:log')") is None
        assert page.locator(".ts-log-entry").count() == 0
        forget_blocked(rec)

        live = ctx.new_page()
        live.on("console", lambda m: rec.errors.append(m.text) if m.type == "error" else None)
        live.goto(base_url + path)
        wait_python(live)
        live.wait_for_function(ALL_BUILT, timeout=PY_READY_MS)
        live.wait_for_function(NONE_AHEAD, timeout=30_000)  # each replaced by the live one
        after = live.evaluate(READ)
        assert [h["shown"] for h in after] == [h["shown"] for h in before]
        assert not any(h["ahead"] for h in after)
        live.evaluate(COMPUTE_ALL)  # and Compute, through the whole live path, agrees
        computed = live.evaluate(READ)
        assert [h["shown"] for h in computed] == [h["shown"] for h in before]
    finally:
        ctx.close()
    assert rec.errors == []


def _summary(calc_id: str, **changed: Any) -> str:
    """rules_pkg's summary on CPython for the calculator's starting inputs, these changed."""
    calc = rules_pkg.get(calc_id)
    summary: str = calc.run(**{**page_answers.form_values(calc, {}), **changed}).summary
    return summary


def test_a_one_input_change_is_answered_before_python(page: Any, base_url: str,
                                                      rec: Recorder) -> None:
    """The stepper's +1, typing a number in, a checkbox: each answered at once while Python
    cannot start, marked as worked out ahead as the starting answer is and marking no
    table row; a second change (not carried) takes the answer down until Python."""
    shown_ahead(page, base_url + D100)
    host = open_calc(page, "d100.test")
    result = host.locator(".ts-result")
    summary = host.locator(".ts-summary")
    assert result.get_attribute("data-ts-ahead") == "" and result.is_visible()
    host.get_by_role("button", name="Increase Characteristic").click()  # the stepper's +1
    assert summary.text_content() == _summary("d100.test", characteristic=41)
    assert result.get_attribute("data-ts-ahead") == "" and result.is_visible()
    assert result.locator(":scope > .ts-ahead").text_content() == HINT
    # an answer worked out ahead marks no table row (a mark answers what a reader
    # computed), but offers the live answer's "Show the row"
    assert page.locator("tr.ts-hl").count() == 0
    assert result.get_by_role("button", name=re.compile("Show the row")).count() >= 1
    assert result.get_attribute("data-stale") is None
    assert result.locator(".ts-stale-note").count() == 0
    host.get_by_label("Tester is a Horde").check()  # a second change: not carried
    assert result.is_hidden()  # not an answer to these inputs: the form waits for the engine
    assert "Loading the rules engine" in host.locator(".ts-status").inner_text()
    host.get_by_label("Tester is a Horde").uncheck()  # one change again: its answer
    assert result.is_visible() and summary.text_content() == _summary(
        "d100.test", characteristic=41)
    box = host.locator('input[name="characteristic"]')
    box.fill("40")  # back to the starting inputs: their answer again, not out of date
    assert result.is_visible() and result.get_attribute("data-ts-ahead") == ""
    assert summary.text_content() == _summary("d100.test")
    assert result.get_attribute("data-stale") is None
    host.get_by_label("Tester is a Horde").check()  # a checkbox (change) alone: answered
    assert result.is_visible() and summary.text_content() == _summary("d100.test", horde=True)
    host.get_by_label("Tester is a Horde").uncheck()
    box.fill("93")  # far from the start: not carried, the form waits
    assert result.is_hidden()
    forget_blocked(rec)


def test_a_changed_input_s_answer_is_the_live_engine_s_once_python_is_ready(
        page: Any, base_url: str, rec: Recorder) -> None:
    """Python held back: a change is answered ahead; Python let go: the live engine works
    the same inputs out, its answer takes the place (the same text, no longer marked), and
    from then on a change waits for Compute, as without answers ahead."""
    held: list[Any] = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(base_url + D100)
    page.wait_for_function(ALL_BUILT, timeout=PY_READY_MS)
    host = open_calc(page, "d100.test")
    result = host.locator(".ts-result")
    host.get_by_role("button", name="Decrease Characteristic").click()
    ahead = page.evaluate(READ)[0]
    assert ahead["ahead"] and ahead["summary"] == _summary("d100.test", characteristic=39)
    assert page.evaluate("() => document.documentElement.dataset.tsPython") != "ready"
    page.unroute("**/pyodide.asm.wasm")
    for route in held:  # Python may start now
        route.continue_()
    wait_python(page)
    page.wait_for_function(NONE_AHEAD, timeout=30_000)
    live = page.evaluate(READ)[0]
    assert live["shown"] == ahead["shown"] and not live["ahead"]  # the live engine's: the same
    host.locator("form").evaluate("f => f.requestSubmit()")  # and Compute agrees
    page.wait_for_function("() => !document.querySelector('.ts-calc[aria-busy]')")
    assert page.evaluate(READ)[0]["shown"] == ahead["shown"]
    host.get_by_role("button", name="Decrease Characteristic").click()  # the live engine's now
    assert result.get_attribute("data-ts-ahead") is None
    assert result.get_attribute("data-stale") == ""
    assert rec.errors == []


@pytest.mark.parametrize("link", ["characteristic=55", "roll=1&seed=7"])
def test_a_link_s_calculator_gets_no_answer_worked_out_ahead(page: Any, base_url: str,
                                                             rec: Recorder, link: str) -> None:
    """A link's values, or a link's roll with the starting values: the form shows what the
    link asks for once Python has it, never the answer worked out for the defaults."""
    shown = shown_ahead(page, base_url + D100 + "?calc=d100.test&" + link)
    assert shown[0]["calc"] == "d100.test" and shown[0]["shown"] is None
    box = page.locator(".ts-calc").first.locator('input[name="characteristic"]')
    assert box.input_value() == ("55" if "55" in link else "40")
    # the page's other calculators start from their own inputs: theirs are shown
    assert shown[1]["calc"] == "d100.degrees" and shown[1]["ahead"]
    forget_blocked(rec)


def test_an_answer_s_text_is_shown_as_text(page: Any, site_dir: Path, base_url: str,
                                           rec: Recorder) -> None:
    """The text in an answer can come from a source document (untrusted): a page whose
    answer holds markup shows that markup as text, and runs none of it."""
    nasty = '<img src=x onerror="window.__pwned=1"><b>bold</b>'
    answers = carried(site_dir, D100)
    test = next(a for a in answers if a["calc"] == "d100.test")
    test["result"]["summary"] = nasty
    test["result"]["steps"] = [nasty]
    test["result"]["notes"] = [nasty]
    test["result"]["values"] = [[nasty, nasty, "text"]] + test["result"]["values"]
    hostile = attribute(json.dumps(answers, ensure_ascii=False))

    def swap(route: Any) -> None:
        body = route.fetch().text()
        body, n = _ANSWERS.subn(lambda _: f"data-answers='{hostile}'", body, count=1)
        assert n == 1
        route.fulfill(body=body, content_type="text/html; charset=utf-8")

    page.route(base_url + D100, swap)
    shown_ahead(page, base_url + D100)
    host = page.locator(".ts-calc").first
    result = host.locator(".ts-result")
    assert result.get_attribute("data-ts-ahead") == ""
    assert host.locator(".ts-summary").text_content() == nasty
    assert host.locator(".ts-steps li").first.text_content() == nasty
    assert host.locator(".ts-notes li").first.text_content() == nasty
    assert host.locator(".ts-values dt").first.text_content() == nasty
    assert result.locator("img, b").count() == 0
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__pwned") is None
    forget_blocked(rec)


def _patched_step(site_dir: Path, path: str) -> tuple[str, int, str, dict[str, Any]] | None:
    """A +1 step the page carries as a patch, on a calculator whose starting answer is a
    patch too (a later host of a calculator the page places more than once): (calculator,
    host's place among its own, input's label, the inputs), or None."""
    text = (site_dir / path / "index.html").read_text("utf-8")
    raw = carried(site_dir, path)
    whole = page_answers.carried(json.dumps(raw))
    hosts = page_answers.hosts(text)
    for k, (calc_id, preset) in enumerate(hosts):
        n = [c for c, _ in hosts[:k]].count(calc_id)
        calc = rules_pkg.get(calc_id)
        start = page_answers.form_values(calc, preset)
        if n == 0 or not any("patch" in e and whole[j]["inputs"] == start
                             for j, e in enumerate(raw)):
            continue
        for field in (i for i in calc.inputs if i.kind == "int"):
            up = {**start, field.name: str(int(str(start[field.name])) + 1)}
            if any("patch" in e and whole[j]["inputs"] == up and whole[j]["calc"] == calc_id
                   for j, e in enumerate(raw)):
                return calc_id, n, field.label, up
    return None


def test_a_change_carried_as_a_patch_is_the_live_engine_s_answer(
        browser: Any, site_dir: Path, base_url: str, rec: Recorder) -> None:
    """On a weapon page (a calculator placed for four weapons, its odds tables carried
    without their sums), a +1 step carried as a patch over a starting answer itself
    carried as a patch is shown before Python, and is, text for text, what the live engine
    shows for the same inputs."""
    found = [(p.parent.relative_to(site_dir).as_posix() + "/", step)
             for p in sorted((site_dir / "horizon").glob("*/index.html"))
             if (step := _patched_step(site_dir, p.parent.relative_to(site_dir).as_posix()))]
    assert found, "no Horizon page carries a +1 step as a patch over a patched start"
    path, (calc_id, n, label, inputs) = found[0]
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        ahead_page = ctx.new_page()
        shown_ahead(ahead_page, base_url + path)
        host = open_calc(ahead_page, calc_id, n)
        host.get_by_role("button", name=f"Increase {label}").click()
        result = host.locator(".ts-result")
        assert result.get_attribute("data-ts-ahead") == "" and result.is_visible()
        calc = rules_pkg.get(calc_id)
        assert host.locator(".ts-summary").text_content() == calc.run(**inputs).summary
        ahead = ahead_page.evaluate(READ)
        forget_blocked(rec)

        live = ctx.new_page()
        live.goto(base_url + path)
        wait_python(live)
        host = open_calc(live, calc_id, n)
        host.get_by_role("button", name=f"Increase {label}").click()
        host.locator("form").evaluate("f => f.requestSubmit()")
        live.wait_for_function("() => !document.querySelector('.ts-calc[aria-busy]')")
        host.locator(LIVE_RESULT).wait_for()
        mine = [h for h in live.evaluate(READ) if h["calc"] == calc_id][n]
        assert mine["shown"] == [h for h in ahead if h["calc"] == calc_id][n]["shown"]
    finally:
        ctx.close()
    assert rec.errors == []
