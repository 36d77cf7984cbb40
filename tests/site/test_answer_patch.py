"""A change's answer carried as a patch over its starting answer (scripts/site/answer_patch.py,
issue 26): the patch gives the answer back exactly, and the browser's reader
(calculators/forms/answers.mjs's parseAnswers, run under Node) makes every built page's answers
into the very entries the Python reader does (page_answers.carried, which
test_page_answers.py checks against rules_pkg's own answers)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scripts.site import answer_patch, page_answers

ROOT = Path(__file__).resolve().parents[2]
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
_KEYS = st.text(max_size=6).filter(lambda k: not re.fullmatch(r"0|[1-9]\d*", k))
_ELEMENT = re.compile(r"class=\"ts-answers\" hidden data-answers='([^']*)'")
JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(_KEYS, inner, max_size=5), max_leaves=30)


def _typed(value: Any) -> Any:
    """The value with each scalar's type beside it (True is not 1, 1.0 not 1)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


@settings(deadline=None)  # difflib on a shared, busy machine: no time limit per example
@given(JSON, JSON)
def test_a_patch_gives_the_new_value_back_exactly(base: Any, new: Any) -> None:
    patch = answer_patch.diff(base, new)
    back = answer_patch.apply(base, json.loads(json.dumps(patch)))  # as a page carries it
    assert _typed(back) == _typed(new)
    if isinstance(new, dict):
        assert list(back) == list(new)  # key order too: the browser compares JSON texts


def test_a_near_answer_is_a_short_patch() -> None:
    base = {"summary": "Target 40", "values": [["Target", 40, "count"]], "notes": ["n"] * 20}
    new = {**base, "summary": "Target 41", "values": [["Target", 41, "count"]]}
    assert answer_patch.diff(base, new) == [2, ["Target 41"], 4, [41]]
    assert answer_patch.diff(base, base) == []
    assert not answer_patch.js_ordered({"rows": [{"1": 2}]})  # JavaScript orders "1" first
    assert answer_patch.js_ordered({"rows": [{"01": 2, "a": [1]}]})


def test_the_browser_reads_every_page_s_answers_as_python_does(site_dir: Path) -> None:
    """parseAnswers under Node, on every built page's answers element, gives exactly
    page_answers.carried's entries (patches made whole, fractions expanded)."""
    node = shutil.which("node")
    assert node, "node is needed (make setup)"
    module = json.dumps((ROOT / "calculators/forms/answers.mjs").as_uri())
    script = (f"import {{ parseAnswers }} from {module}"
              + ";\nlet text = ''; process.stdin.on('data', (d) => { text += d; });\n"
              "process.stdin.on('end', () => { for (const el of JSON.parse(text)) "
              "console.log(JSON.stringify(parseAnswers(el))); });")
    elements = []
    for page in sorted(site_dir.rglob("index.html")):
        m = _ELEMENT.search(page.read_text("utf-8"))
        if m:
            elements.append(html.unescape(m.group(1)))
    assert elements
    proc = subprocess.run([node, "--input-type=module", "-e", script], input=json.dumps(elements),
                          capture_output=True, text=True, timeout=120, check=True)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(elements)
    patched = 0
    for text, line in zip(elements, lines, strict=True):
        python = page_answers.carried(text)
        assert json.loads(line) == python
        patched += sum("patch" in e for e in json.loads(text))
    assert patched > 0  # changes are carried as patches
