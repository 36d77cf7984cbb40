"""What `make bench`'s "next page" measures (issue 13): a reader going from one weapon
profile page to another through Material's instant navigation, choosing the calculator's
tab as soon as it is there, and that page's own answer. No timing is asserted here: the
figure is the bench's (scripts/bench/main.py, scripts/bench/next_page.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

import rules_pkg
from scripts.bench.main import CALC, plan
from scripts.bench.pages import NEXT_PAGE


def first_preset(page_html: str) -> dict[str, Any]:
    m = re.search(rf'data-calc="{re.escape(CALC)}" data-preset=\'([^\']*)\'', page_html)
    return json.loads(html.unescape(m.group(1))) if m else {}


def test_next_page_is_another_profile_page_not_the_encounter_page(site_dir: Path) -> None:
    p = plan(site_dir)
    encounter = site_dir / "horizon" / "encounter" / "index.html"
    # The Encounter page carries CALC too (in its sheet) and comes second by name: the
    # plan must pass over it on purpose, not by the order of names.
    assert f'data-calc="{CALC}"' in encounter.read_text("utf-8")
    assert p.next != "horizon/encounter/" and p.next != p.profile
    text = (site_dir / p.next / "index.html").read_text("utf-8")
    assert f'data-calc="{CALC}"' in text and 'class="ts-encounter"' not in text
    assert first_preset(text).get("weapon"), "the next page's calculator names its weapon"


@pytest.mark.browser
def test_next_page_script_gets_that_pages_answer(browser: Any, site_dir: Path,
                                                 base_url: str) -> None:
    p = plan(site_dir)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(base_url + p.profile)
        page.wait_for_function("() => document.documentElement.dataset.tsPython === 'ready'",
                               timeout=90_000)
        # the next page's calculator is behind a deck's tab: the script chooses it
        preset = first_preset((site_dir / p.next / "index.html").read_text("utf-8"))
        got = page.evaluate(NEXT_PAGE, [base_url + p.next, CALC])
        assert got["instant"] is True, "a full page load, not instant navigation"
        assert got["url"].split("?")[0] == base_url + p.next
        calc = rules_pkg.get(CALC)
        inputs = {i.name: preset.get(i.name, i.default) for i in calc.inputs}
        assert got["summary"] == calc.run(**inputs).summary
        # the page's forms were built once for that page (scripts/bench/next_page.py's split).
        # Its mark comes once the forms below the screen are built too, in slices: the
        # answer can come first (a preset answered ahead), so it is waited for
        built = "() => performance.getEntriesByName('tableside:page-built').length"
        page.wait_for_function(f"{built} >= 2", timeout=30_000)
        page.wait_for_timeout(500)  # and no third build follows
        assert page.evaluate(built) == 2
    finally:
        ctx.close()
