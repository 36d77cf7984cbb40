"""One number reader (issue 24 item 8): the link check (guards.mjs, forms/url-state.mjs) and the
engine (rules_pkg.registry._to_int) read a whole number the same way, with the rule
declared once (registry.WHOLE_NUMBER, given to the browser as each int input's `pattern`),
so a link's value is used exactly when the note says so. A hostile corpus of numbers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from browser.helpers import open_calc

import rules_pkg
from rules_pkg import registry
from rules_pkg.errors import RulesError
from rules_pkg.registry import WHOLE_NUMBER, _to_int
from security.test_urls import CALC, PY_MS, _page, page  # noqa: F401 (the page fixture)

ROOT = Path(__file__).resolve().parents[2]
READ = [("7", 7), ("-3", -3), ("+4", 4), (" 12 ", 12), ("\t5", 5), ("0000000005", 5),
        ("4294967295", 4294967295)]
REFUSED = ["0x0", "0x10", "1e3", "-0x1", "1_000", "1.0", "²", "٣", "+-5", "0" * 30,
           "0" * 29 + "5", "\u00a05", "5\ufeff", "Infinity", "NaN", "\u20075"]


@pytest.mark.parametrize(("text", "value"), READ)
def test_the_engine_reads_whole_numbers(text: str, value: int) -> None:
    assert _to_int(text, "Skill") == value


@pytest.mark.parametrize("text", REFUSED)
def test_the_engine_refuses_what_the_link_check_refuses(text: str) -> None:
    with pytest.raises(RulesError, match="must be a whole number written with the digits"):
        _to_int(text, "Skill")


def test_the_rule_is_declared_once_and_given_to_the_browser() -> None:
    ints = [i.to_dict() for c in registry.calculators() for i in c.inputs
            if i.kind == "int"]
    assert ints and all(d["pattern"] == WHOLE_NUMBER for d in ints)
    js = (ROOT / "tests" / "js" / "guards.test.mjs").read_text(encoding="utf-8")
    m = re.search(r'const PATTERN = "(.*)";', js)
    assert m and m.group(1).replace("\\\\", "\\") == WHOLE_NUMBER
    for text, value in READ:  # the browser's own reading of the same pattern
        m2 = re.fullmatch(WHOLE_NUMBER, text)
        assert m2 and int(m2.group(1)) == value


@pytest.mark.browser
@pytest.mark.parametrize("query", [
    {"n": "0x0", "skill": "5"}, {"n": "-0", "skill": "5"}, {"n": "", "skill": "5"},
    {"skill": "0" * 29 + "5"}, {"skill": "0x5"}, {"skill": "5e0"}])
def test_a_hostile_link_value_is_used_exactly_when_the_note_says_so(
        query: dict[str, str], page: Any, site_dir: Path, base_url: str) -> None:  # noqa: F811
    path, preset = _page(site_dir)
    calc = rules_pkg.get(CALC)
    own = str(preset.get("skill", next(i.default for i in calc.inputs if i.name == "skill")))
    assert own != "5"
    page.goto(f"{base_url}{path}?{urlencode({'calc': CALC, **query})}")
    host = open_calc(page, CALC)
    note = page.locator(".ts-link-notes").first
    note.wait_for()
    said = note.inner_text()
    assert "not used" in said
    # not used, as the note says: the form keeps the page's own value, no result computed
    assert host.locator('input[name="skill"]').input_value() == own
