"""Each calculator's answer for its starting inputs, worked out at build time (issue 13).

A calculator page used to show its forms with nothing under them until Python had
started and run a first calculation: seconds on a phone, about a minute on a first visit
over a slow connection. The build runs the same `rules_pkg` on CPython for every
calculator a page places, with the inputs its form starts with (the calculator's
defaults and the page's preset), and the page carries each answer (`Result.to_dict()`)
beside its registry entries (page_registry.py): calculators/ahead.mjs shows it at once,
through the one result renderer (result.mjs: text, never markup), until the live answer
replaces it.

Exact answers only: nothing is rolled here (a roll's dice, and its entry in the roll log,
come from a real roll in the browser). Starting inputs the engine refuses (a weapon the
source gives no Magazine) get no answer: that form waits for Python as before.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

# The hosts render.calc_div and encounter.page_markdown write (values escaped there).
_HOST = re.compile(r'<div class="ts-calc" data-calc="([^"]*)" data-preset=\'([^\']*)\'')
_TRUE = {"1", "true", "yes", "on"}

FormValue = str | bool


def hosts(markdown: str) -> list[tuple[str, dict[str, str]]]:
    """Each (calculator id, preset) a page's text places, once each, in page order."""
    out: dict[str, tuple[str, dict[str, str]]] = {}
    for calc_id, preset in _HOST.findall(markdown):
        cid, text = html.unescape(calc_id), html.unescape(preset)
        try:
            values = json.loads(text)
        except ValueError:
            values = {}  # as tableside.js reads a broken preset
        if isinstance(values, dict):
            out.setdefault(f"{cid}\n{text}", (cid, values))
    return list(out.values())


def _js_string(value: Any) -> str:
    """JavaScript's String(value) for a JSON value (the form writes its fields with it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def form_values(calc: Any, preset: Mapping[str, Any]) -> dict[str, FormValue]:
    """What a form's fields hold when it starts from these values, as readInputs() reads
    them back (calculators/form.mjs's field(): a box's text, a checkbox's state, a
    select's value, which falls back to the default when the value is not a choice)."""
    values: dict[str, FormValue] = {}
    for i in calc.inputs:
        start = preset.get(i.name, i.default)
        if i.kind == "bool":
            values[i.name] = start is True or _js_string(start).lower() in _TRUE
        elif i.kind == "choice" and i.choices:
            text = _js_string(start)
            values[i.name] = text if text in {v for v, _ in i.choices} else _js_string(i.default)
        elif i.kind == "int":
            values[i.name] = _js_string(start)
        else:
            values[i.name] = "" if start is None else _js_string(start)
    return values


@cache
def answer(calc_id: str, preset_json: str) -> str | None:
    """The entry for one calculator and preset as JSON, or None (no such calculator, or the
    engine refuses these inputs). The inputs go through Calculator.run exactly as the
    browser's bridge (calculators/bridge.py's run_json) passes them: no roll, no seed."""
    import rules_pkg

    try:
        calc = rules_pkg.get(calc_id)
    except Exception:  # an unknown id: tableside.js says so where it stands
        return None
    inputs = form_values(calc, json.loads(preset_json))
    try:
        result = calc.run(**inputs).to_dict()
    except Exception:  # refused (RulesError) or a rule's bug: the form waits for Python
        return None
    return json.dumps({"calc": calc_id, "inputs": inputs, "result": result},
                      ensure_ascii=False, separators=(",", ":"))


def attribute(text: str) -> str:
    """`text` escaped for a single-quoted attribute value: only & ' < > need escaping there
    (a double-quoted value would turn every JSON quote into six bytes). Here, not in
    page_registry.py, which imports this module: both write their JSON into one."""
    return html.escape(text, quote=False).replace("'", "&#x27;")


def block(placed: Iterable[tuple[str, Mapping[str, Any]]]) -> str:
    """The hidden element holding these calculators' answers ("" for none)."""
    entries = [answer(cid, json.dumps(dict(preset), sort_keys=True)) for cid, preset in placed]
    body = ",".join(dict.fromkeys(e for e in entries if e is not None))
    if not body:
        return ""
    return f"<div class=\"ts-answers\" hidden data-answers='{attribute(f'[{body}]')}'></div>"
