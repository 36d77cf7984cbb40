"""Names in a fight are cleaned as sources are, and deep JSON is refused by name (issue 24
item 8): a hostile corpus of names (bidi overrides and isolates, zero-width and control
characters, tag characters, line separators) typed or imported, and of nesting."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_pkg.encounter import api, codec
from rules_pkg.encounter import events as ev
from rules_pkg.encounter.fold import fold
from rules_pkg.encounter.limits import LIMITS
from rules_pkg.errors import RulesError
from rules_pkg.untrusted import INVISIBLE, clean_name, json_depth
from scripts.extract import clean

ROOT = Path(__file__).resolve().parents[2]

# (typed, shown)
HOSTILE_NAMES = [
    ("Ali\u202ecod.exe", "Alicod.exe"),  # right-to-left override ("Trojan Source")
    ("\u2066Bob\u2069", "Bob"),  # isolates
    ("Cy\u200b\u200bril", "Cyril"),  # zero-width spaces
    ("Dan\u00adny", "Dan\u00adny"),  # a soft hyphen is visible where it breaks: kept
    ("E\u0007v\u001be[2Jl\u007f", "Eve[2Jl"),  # bell, escape, DEL
    ("Fay\u2028Line\u2029", "Fay Line"),  # line and paragraph separators: a space
    ("G\U000e0041\U000e0042us", "Gus"),  # tag characters (invisible ASCII)
    ("\ufeffHal\u200e\u200f\u061c", "Hal"),  # BOM, LRM, RLM, ALM
    ("Ivy \t\n  Ann", "Ivy Ann"),  # runs of white space made one
    ("Jo\u200d\U0001f9d1\u200d\U0001f692", "Jo\u200d\U0001f9d1\u200d\U0001f692"),  # ZWJ stays
]


def test_one_class_of_invisible_characters_for_sources_and_fights() -> None:
    assert clean._REMOVE is INVISIBLE  # declared once, in rules_pkg
    for typed, shown in HOSTILE_NAMES:
        assert clean_name(typed) == " ".join(clean.clean_line(typed).split()) == shown


@pytest.mark.parametrize(("typed", "shown"), HOSTILE_NAMES)
def test_a_typed_combatant_name_is_cleaned(typed: str, shown: str) -> None:
    enc = fold("d100", [ev.AddCombatant("c1", typed)])
    assert enc.combatants[0].name == shown
    assert shown in enc.history[0].summary


@pytest.mark.parametrize("typed", ["\u202e\u200b", "\x00\x01", "\u2066\u2069 \u200b"])
def test_a_name_of_nothing_visible_is_refused(typed: str) -> None:
    with pytest.raises(RulesError, match="needs a name of 1 to"):
        fold("d100", [ev.AddCombatant("c1", typed)])


def test_an_imported_encounter_and_its_combatants_are_cleaned() -> None:
    text = json.dumps({"format": codec.FORMAT, "schema": codec.SCHEMA, "game": "mecha",
                       "name": "Raid\u202e on \u200bthe\u0007 keep",
                       "events": [{"eid": "a", "type": "add", "id": "c1",
                                   "name": "Ali\u202ecod.exe"}]})
    reply = json.loads(api.handle_json(json.dumps({"op": "import", "text": text})))
    assert reply["name"] == "Raid on the keep"
    state = json.loads(api.handle_json(json.dumps(
        {"op": "fold", "game": "mecha", "events": reply["events"]})))["state"]
    assert state["combatants"][0]["name"] == "Alicod.exe"


def test_a_typed_encounter_name_is_cleaned() -> None:
    typed = " My\u2066 fight\u2069\u200b "
    reply = json.loads(api.handle_json(json.dumps({"op": "name", "text": typed})))
    assert reply["name"] == "My fight"


DEEP = ["[" * 100_000 + "]" * 100_000, "[" * 100_000, "{\"a\":" * 50_000 + "1" + "}" * 50_000,
        json.dumps({"format": codec.FORMAT, "events": [[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]})]


@pytest.mark.parametrize("text", DEEP, ids=["100k-arrays", "100k-open", "50k-objects", "22-deep"])
def test_too_deep_json_is_refused_as_nested_too_deeply(text: str) -> None:
    with pytest.raises(RulesError, match="nested too deeply"):
        codec.load(text)
    reply = json.loads(api.handle_json(json.dumps({"op": "import", "text": text})))
    assert not reply["ok"] and "nested too deeply" in reply["message"]


def test_a_too_deep_request_is_refused_as_nested_too_deeply() -> None:
    reply = json.loads(api.handle_json('{"op": "fold", "events": ' + "[" * 100_000))
    assert not reply["ok"] and "nested too deeply" in reply["message"]


@pytest.mark.parametrize(("text", "depth"), [
    ("", 0), ("5", 0), ("[]", 1), ('{"a": [1, {"b": 2}]}', 3),
    ('["]]]]]", [[[1]]]]', 4), ('["\\"[[[[", 1]', 1), ('"[[["', 0)])
def test_json_depth_skips_strings(text: str, depth: int) -> None:
    assert json_depth(text) == depth


def _depth(v: Any) -> int:
    if isinstance(v, list):
        return 1 + max(map(_depth, v), default=0)
    if isinstance(v, dict):
        return 1 + max(map(_depth, v.values()), default=0)
    return 0


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab:,\n'),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=4), inner, max_size=4),
    max_leaves=20)


@given(_JSON)
def test_json_depth_is_the_nesting_of_any_json_value(v: Any) -> None:
    # strings with quotes and brackets in them, with and without escapes (both ways of
    # skipping strings: untrusted.py)
    assert json_depth(json.dumps(v)) == json_depth(json.dumps(v, indent=1)) == _depth(v)


def test_the_page_stores_no_deeper_than_the_engine_reads() -> None:
    js = (ROOT / "calculators" / "encounter/store.js").read_text(encoding="utf-8")
    m = re.search(r"export const MAX_DEPTH = (\d+);", js)
    assert m and int(m.group(1)) == LIMITS.depth
