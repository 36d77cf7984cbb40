"""Inputs and links (issue #9): a value the calculator would refuse is never silently
swapped for another, whole numbers take ASCII digits only, and a result whose inputs have
changed is marked out of date until computed again."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from browser.helpers import (  # tests/ is on sys.path (rootdir packages)
    LIVE_RESULT,
    open_calc,
    page_with,
)

import rules_pkg
from rules_pkg.errors import RulesError
from rules_pkg.registry import _to_int


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    yield pg
    context.close()
    assert not errors


CALC = "forbidden_lands.attack"  # a choice whose default is not its first option, a checkbox
PY_MS = 90_000


# --- Python: _to_int -------------------------------------------------------------------
@pytest.mark.parametrize("text", ["²", "+-5", "-+5", "٣", "\uff15", "1_000", "--2", "3.0", "0x10"])
def test_whole_numbers_take_ascii_digits_only(text: str) -> None:
    with pytest.raises(RulesError) as err:
        _to_int(text, "Skill")
    message = str(err.value)
    assert message.startswith("Skill must be a whole number written with the digits 0-9")
    assert repr(text) in message


@pytest.mark.parametrize(("text", "value"), [("7", 7), ("-3", -3), ("+4", 4), (" 12 ", 12)])
def test_ascii_whole_numbers_still_read(text: str, value: int) -> None:
    assert _to_int(text, "Skill") == value


def test_a_calculator_names_the_field_for_a_superscript() -> None:
    calc = rules_pkg.get(CALC)
    with pytest.raises(RulesError, match=r"^Skill: Melee or Marksmanship must be a whole number"):
        calc.run(**{**{i.name: i.default for i in calc.inputs}, "skill": "²"})


# --- the browser ----------------------------------------------------------------------------
def _page(site_dir: Path) -> tuple[str, dict[str, Any]]:
    path = page_with(site_dir, f'data-calc="{CALC}"')
    text = (site_dir / path / "index.html").read_text("utf-8")
    m = re.search(rf'data-calc="{re.escape(CALC)}" data-preset=\'([^\']*)\'', text)
    preset = json.loads(html.unescape(m.group(1))) if m else {}
    return path, preset


def _open(page: Any, base_url: str, path: str, **query: str) -> Any:
    page.goto(f"{base_url}{path}?{urlencode({'calc': CALC, **query})}")
    return open_calc(page, CALC)


@pytest.mark.browser
def test_bad_link_values_are_each_shown_with_their_reason(page: Any, site_dir: Path,
                                                          base_url: str) -> None:
    path, preset = _page(site_dir)
    calc = rules_pkg.get(CALC)
    inputs = {i.name: i for i in calc.inputs}
    own = {n: preset.get(n, i.default) for n, i in inputs.items()}
    host = _open(page, base_url, path, range="moon", heavy_swing="maybe", attribute="99",
                 skill="²", colour="red")
    notes = host.locator(".ts-link-notes li")
    notes.first.wait_for()
    texts = notes.all_inner_texts()
    assert len(texts) == 5, texts
    joined = "\n".join(texts)
    assert f"{inputs['range'].label}: “moon” is not one of the choices" in joined
    assert f"{inputs['heavy_swing'].label}: “maybe” is not yes or no" in joined
    assert f"{inputs['attribute'].label}: “99” is above the largest value, 6" in joined
    assert f"{inputs['skill'].label}: “²” is not a whole number written with the digits 0-9" \
        in joined
    assert "“colour” is not an input of this calculator" in joined
    # The page's own values stay: the range is its default (not the list's first option).
    assert inputs["range"].choices[0][0] != own["range"]
    assert host.locator('select[name="range"]').input_value() == own["range"]
    assert host.locator('input[name="attribute"]').input_value() == str(own["attribute"])
    assert host.locator('input[name="heavy_swing"]').is_checked() is bool(own["heavy_swing"])


@pytest.mark.browser
def test_good_link_values_are_used_without_a_note(page: Any, site_dir: Path,
                                                  base_url: str) -> None:
    path, _ = _page(site_dir)
    host = _open(page, base_url, path, range="long", heavy_swing="1", attribute="5")
    host.locator(".ts-result .ts-summary").wait_for(timeout=PY_MS)  # the link's result
    assert host.locator(".ts-link-notes").count() == 0
    assert host.locator('select[name="range"]').input_value() == "long"
    assert host.locator('input[name="heavy_swing"]').is_checked()


@pytest.mark.browser
@pytest.mark.parametrize(("query", "expected"), [
    ({"calc": CALC, "n": "99"}, "asks for calculator n=“99”"),
    ({"calc": CALC, "n": "x"}, "asks for calculator n=“x”"),
    ({"calc": "forbidden_lands.nothing"},
     "names a calculator “forbidden_lands.nothing” that is not"),
])
def test_a_link_to_a_calculator_the_page_lacks_says_so(page: Any, site_dir: Path, base_url: str,
                                                       query: dict[str, str],
                                                       expected: str) -> None:
    path, _ = _page(site_dir)
    page.goto(f"{base_url}{path}?{urlencode(query)}")
    note = page.locator("article .ts-link-notes").first
    note.wait_for()
    assert expected in note.inner_text()


@pytest.mark.browser
@pytest.mark.parametrize("typed", ["²", "+-5", "٣"])
def test_typed_non_ascii_digits_name_the_field(page: Any, site_dir: Path, base_url: str,
                                               typed: str) -> None:
    path, _ = _page(site_dir)
    page.goto(base_url + path)
    host = open_calc(page, CALC)
    host.locator('input[name="skill"]').fill(typed)
    host.locator("button[type=submit]").click()
    error = host.locator(".ts-error")
    error.wait_for()
    label = next(i.label for i in rules_pkg.get(CALC).inputs if i.name == "skill")
    assert error.inner_text() == (f"{label} must be a whole number written with the digits "
                                  f"0-9, e.g. 3 or -2 (got “{typed}”)")
    assert host.locator(".ts-result").is_hidden()


@pytest.mark.browser
def test_a_result_whose_inputs_changed_is_marked_stale(page: Any, site_dir: Path,
                                                       base_url: str) -> None:
    path, _ = _page(site_dir)
    page.goto(base_url + path)
    host = open_calc(page, CALC)
    host.locator("button[type=submit]").click()
    result = host.locator(".ts-result")
    # the live result, not the answer worked out at build time (issue 13, data-ts-ahead)
    host.locator(f"{LIVE_RESULT} .ts-summary").wait_for(timeout=PY_MS)
    assert result.get_attribute("data-stale") is None
    host.locator('input[name="attribute"]').fill("5")
    assert result.get_attribute("data-stale") == ""
    note = result.locator(".ts-stale-note")
    assert note.inner_text().startswith("Out of date: the inputs have changed")
    # and for screen readers: the calculator's live region says it too
    live = host.locator(".ts-live")
    page.wait_for_function("(el) => el.textContent.startsWith('Out of date')",
                           arg=live.element_handle())
    host.locator("button[type=submit]").click()
    page.wait_for_function("(el) => el.dataset.stale === undefined", arg=result.element_handle())
    assert result.locator(".ts-stale-note").count() == 0
