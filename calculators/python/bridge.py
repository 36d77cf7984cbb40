"""The Python side of the calculators, in the Pyodide of Python's worker (or, where no
worker runs, the one PyScript loads on the page).

`tableside.zip` (rules_pkg as shipped, see scripts/site/runtime.py) is in the working
directory. calculators/python/worker.mjs runs this file under another name than
`__main__`, calls prepare() and then run_json() per message (and the encounter tracker's
rules_pkg.encounter.api.handle_json); on the page, calculators/python/pyscript.mjs runs it as
`__main__` in PyScript's onReady hook, and install() hands JavaScript
`tablesideRun(calc_id, inputs_json) -> reply_json` and `tablesideEncounter`. We import
rules_pkg from the zip with zipimport (or find it already imported, when Python was
restored from the build's snapshot).

A reply is `{"ok": true, "result": Result.to_dict()}`, or `{"ok": false, "kind":
"rules", "message": ...}` for a RulesError (its message is meant for the player), or
`{"ok": false, "kind": "error", ...}` for anything else: the page shows a short
"calculator error", never a traceback. Limits are checked by the calculators before
any work (Calculator.run validates first), so a call cannot freeze the tab.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

BUNDLE = "tableside.zip"
MAX_REQUEST = 4000  # characters of JSON; the JS side guards its inputs too


def run_json(calc_id: str, inputs_json: str) -> str:
    """Run one calculator; always returns JSON, never raises."""
    from rules_pkg import RulesError, get

    try:
        if len(inputs_json) > MAX_REQUEST:
            raise RulesError("the inputs are too long")
        raw: Any = json.loads(inputs_json)
        if not isinstance(raw, dict):
            raise RulesError("the inputs must be named values")
        result = get(str(calc_id)).run(**raw)
        reply: dict[str, Any] = {"ok": True, "result": result.to_dict()}
    except RulesError as e:
        reply = {"ok": False, "kind": "rules", "message": str(e)}
    except Exception as e:  # a bug in a rule: keep the page usable, say so briefly
        reply = {"ok": False, "kind": "error", "message": "calculator error",
                 "detail": f"{type(e).__name__}: {str(e)[:200]}"}
    return json.dumps(reply, ensure_ascii=False)


def prepare() -> None:
    """Everything Python-only the bridge needs: rules_pkg from the bundle, every game, its
    odds and the encounter tracker imported, the registry built. The build's snapshot maker
    (scripts/snapshot/make_snapshot.mjs) runs this very function, so a snapshot start
    finds it all done and imports nothing (the encounter tracker's modules alone took
    ~1 s to compile from the zip at each start when they were left out); on a plain
    start it runs here."""
    path = os.path.abspath(BUNDLE)
    if path not in sys.path:
        sys.path.insert(0, path)
    import rules_pkg
    import rules_pkg.encounter.api
    from rules_pkg import RulesError, takeout
    from rules_pkg.registry import game_modules

    rules_pkg.calculators()  # import every game now, not on the first click
    for game in game_modules():  # and its odds (#28): compiling one on the panel's first
        with contextlib.suppress(RulesError):  # answer took ~0.1 s of it on a phone
            takeout.attacks_of(game)  # (a game without odds yet: RulesError)


def install() -> None:
    """Prepare rules_pkg and expose run_json to JavaScript."""
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to the page
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    prepare()
    # create_proxy keeps the function alive across calls (and page changes).
    js.window.tablesideRun = create_proxy(run_json)
    # The encounter tracker (issue 12): one JSON entry point, rules_pkg.encounter.api.
    from rules_pkg.encounter import api as encounter_api

    js.window.tablesideEncounter = create_proxy(encounter_api.handle_json)
    js.window.dispatchEvent(js.CustomEvent.new("tableside:python-ready"))


# The snapshot maker runs this file under another __name__, for prepare() alone.
if sys.platform == "emscripten" and __name__ == "__main__":
    try:
        install()
    except Exception as e:  # tell the page, which then says the engine could not load
        import js  # type: ignore[import-not-found]
        from pyodide.ffi import to_js  # type: ignore[import-not-found]

        options = to_js({"detail": repr(e)[:300]}, dict_converter=js.Object.fromEntries)
        js.window.dispatchEvent(js.CustomEvent.new("tableside:python-failed", options))
