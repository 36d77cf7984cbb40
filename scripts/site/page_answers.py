"""Each calculator's answers for its starting inputs (issue 13) and for changes of one input
from them (issue 26), worked out at build time.

A calculator page used to show its forms with nothing under them until Python had
started and run a first calculation: seconds on a phone, about a minute on a first visit
over a slow connection. The build runs the same `rules_pkg` on CPython for every
calculator a page places, with the inputs its form starts with (the calculator's
defaults and the page's preset), and the page carries each answer (`Result.to_dict()`)
beside its registry entries (page_registry.py): calculators/forms/ahead.mjs shows it at once,
through the one result renderer (forms/result.mjs: text, never markup), until the live answer
replaces it.

Then, within a byte budget per page (budget(): BUDGET_GZIP, or CHANGES_GZIP beyond the
starting answers where those are large), the answers for the changes of one
input a reader most likely makes first (issue 26), nearest first, every calculator of the
page in turn: a checkbox toggled and the stepper's +1 and -1, then the options next to a
select's, then the values 2, 3, ... steps from the start (up to INT_REACH) and the options
further along. A reader's first change, if one of those, is answered at once; the live
engine answers the rest once Python is ready (`python -m scripts.bench.ahead`: the share).
Within a step the smallest first, and each written as a patch over its host's starting
answer (answer_patch.py): the substance of an answer is its odds' fractions, so the
budget goes on the changes that cost least.

Exact answers only: nothing is rolled here (a roll's dice, and its entry in the roll log,
come from a real roll in the browser). Starting inputs the engine refuses (a weapon the
source gives no Magazine) get no answer: that form waits for Python as before.
"""

from __future__ import annotations

import html
import json
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from scripts.site import answer_patch

# The hosts render.calc_div and encounter.page_markdown write (values escaped there).
_HOST = re.compile(r'<div class="ts-calc" data-calc="([^"]*)" data-preset=\'([^\']*)\'')
_TRUE = {"1", "true", "yes", "on"}

FormValue = str | bool

# The answers a page carries, gzipped (level 6, as the bench's server and most hosts send
# a page), at most: its starting answers always, then the one-input changes that fit in
# BUDGET_GZIP, or in CHANGES_GZIP beyond the starting answers where those take more than
# BUDGET_GZIP - CHANGES_GZIP (the Encounter pages, a weapon page: 2.5-6.3 KB of them).
BUDGET_GZIP = 6_000
CHANGES_GZIP = 4_000
INT_REACH = 10  # a whole number's changes: at most this many steps from the start


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
    them back (calculators/forms/form.mjs's field(): a box's text, a checkbox's state, a
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


_FRACTION = re.compile(r"-?\d+/\d+")


def compact(value: Any) -> Any:
    """A result as a page carries it: an exact number ({"text": "p/q", "value": p/q}, the
    value's digits the least compressible bytes a page carries) as {"frac": "p/q"}, where
    forms/answers.mjs's expand() gives the same double back (p and q exact in a double, and
    p / q rounded once, in both languages); and an odds table whose rows' "at_least" are
    each the sum of "exactly" from that row down (result.py's Odds, cumulative) without
    them, marked "at_least": "sum" (half its fractions: _sums() works them out again)."""
    if isinstance(value, dict):
        text = value.get("text")
        if list(value) == ["text", "value"] and isinstance(text, str) \
                and _FRACTION.fullmatch(text):
            p, q = (int(n) for n in text.split("/"))
            if abs(p) <= 2**53 and 0 < q <= 2**53 and p / q == value["value"]:
                return {"frac": text}
        out = {k: compact(v) for k, v in value.items()}
        rows = out.get("rows")
        if "at_least" not in out and isinstance(rows, list) and rows and all(
                isinstance(r, dict) and list(r) == ["outcome", "exactly", "at_least"]
                for r in rows):
            bare = [{"outcome": r["outcome"], "exactly": r["exactly"]} for r in rows]
            if _sums(bare) == rows:
                return {**out, "rows": bare, "at_least": "sum"}
        return out
    if isinstance(value, list):
        return [compact(v) for v in value]
    return value


def _sums(rows: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Rows with "at_least" put back as the sum of "exactly" from each row down, as
    {"frac": "p/q"} (forms/answers.mjs's expand does the same), or None: not all fractions."""
    total, out = Fraction(0), []
    for row in reversed(rows):
        frac = row["exactly"].get("frac") if isinstance(row["exactly"], dict) else None
        if not isinstance(frac, str) or not _FRACTION.fullmatch(frac):
            return None
        total += Fraction(frac)
        out.append({**row, "at_least": {"frac": f"{total.numerator}/{total.denominator}"}})
    return out[::-1]


def expand(value: Any) -> Any:
    """compact() undone, as forms/answers.mjs's expand() does it (for the tests)."""
    if isinstance(value, dict):
        if list(value) == ["frac"]:
            p, q = (int(n) for n in value["frac"].split("/"))
            return {"text": value["frac"], "value": p / q}
        if value.get("at_least") == "sum" and isinstance(value.get("rows"), list):
            rows = _sums(value["rows"])
            if rows is None:
                raise ValueError("an odds table's at_least sums over a row with no fraction")
            value = {k: v for k, v in value.items() if k != "at_least"} | {"rows": rows}
        return {k: expand(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v) for v in value]
    return value


def _entry(calc_id: str, calc: Any, inputs: dict[str, FormValue]) -> str | None:
    """One answer as JSON, or None: the engine refuses these inputs (RulesError) or a
    rule fails. The inputs go through Calculator.run exactly as the browser's bridge
    (calculators/python/bridge.py's run_json) passes them: no roll, no seed."""
    try:
        result = calc.run(**inputs).to_dict()
    except Exception:  # refused, or a rule's bug: the form waits for Python
        return None
    if result["dice"]:  # a die a reader entered (d100.test's rolled): the roll log's matter
        return None
    return json.dumps({"calc": calc_id, "inputs": inputs, "result": compact(result)},
                      ensure_ascii=False, separators=(",", ":"))


@cache
def _calc(calc_id: str) -> Any:
    import rules_pkg

    try:
        return rules_pkg.get(calc_id)
    except Exception:  # an unknown id: tableside.js says so where it stands
        return None


@cache
def answer(calc_id: str, preset_json: str) -> str | None:
    """The entry for one calculator's starting inputs (its defaults and this preset) as
    JSON, or None (no such calculator, or the engine refuses these inputs)."""
    calc = _calc(calc_id)
    if calc is None:
        return None
    return _entry(calc_id, calc, form_values(calc, json.loads(preset_json)))


@cache
def changed(calc_id: str, preset_json: str, name: str, value: FormValue) -> str | None:
    """The entry for the starting inputs with input `name` set to `value`, or None."""
    calc = _calc(calc_id)
    inputs = form_values(calc, json.loads(preset_json))
    return _entry(calc_id, calc, {**inputs, name: value})


def changes(calc: Any, start: Mapping[str, FormValue]) -> list[tuple[int, str, FormValue]]:
    """Each change of one input from `start` a reader may make, as (steps from the start,
    input, value as the form holds it): a checkbox toggled (1), a select's other options
    (by their distance in its list), a whole number's values within its limits up to
    INT_REACH steps away (+ before -). Text boxes: none (a reader's text is anyone's)."""
    out: list[tuple[int, str, FormValue]] = []
    for i in calc.inputs:
        now = start[i.name]
        if i.kind == "bool":
            out.append((1, i.name, not now))
        elif i.kind == "choice" and i.choices:
            values = [v for v, _ in i.choices]
            at = values.index(str(now)) if str(now) in values else 0
            out += [(abs(k - at), i.name, v) for k, v in enumerate(values) if k != at]
        elif i.kind == "int":
            try:
                n = int(str(now))
            except ValueError:
                continue
            for d in range(1, INT_REACH + 1):
                for v in (n + d, n - d):
                    if (i.min is None or v >= i.min) and (i.max is None or v <= i.max):
                        out.append((d, i.name, str(v)))
    return out


def attribute(text: str) -> str:
    """`text` escaped for a single-quoted attribute value: only & ' < > need escaping there
    (a double-quoted value would turn every JSON quote into six bytes). Here, not in
    page_registry.py, which imports this module: both write their JSON into one."""
    return html.escape(text, quote=False).replace("'", "&#x27;")


def gzip_size(text: str) -> int:
    """Bytes of `text` gzipped as the budget counts them (level 6)."""
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    return len(c.compress(text.encode("utf-8")) + c.flush())


def _candidates(placed: list[tuple[str, str]]) -> Iterator[tuple[int, str | None]]:
    """The page's entries in the order they are kept, each with its host's place: every
    starting answer, then the one-input changes one step away for every calculator, then
    two steps, and so on; within a step the smallest patches first (the most changes a
    budget holds: a stepper's +1 on a table look-up costs a few bytes, on a dice pool's
    odds a few hundred)."""
    starts = [answer(cid, preset) for cid, preset in placed]
    yield from enumerate(starts)
    by_step: dict[int, list[tuple[int, str, str, FormValue]]] = {}
    for k, (cid, preset) in enumerate(placed):
        calc = _calc(cid)
        if calc is None or starts[k] is None:
            continue  # no starting answer: the form waits for Python anyway
        for d, name, value in changes(calc, form_values(calc, json.loads(preset))):
            by_step.setdefault(d, []).append((k, preset, name, value))
    for d in sorted(by_step):
        step = [(k, changed(placed[k][0], preset, name, value))
                for k, preset, name, value in by_step[d]]
        yield from sorted(step, key=lambda ke: _cost(starts[ke[0]], ke[1]))


def _cost(start: str | None, entry: str | None) -> int:
    """An entry's bytes as a patch over its host's starting answer (about: as written)."""
    if start is None or entry is None:
        return 0
    return len(answer_patch.diff_cached(json.dumps(json.loads(start)["result"]),
                                        json.dumps(json.loads(entry)["result"])))


def _element(entries: list[tuple[int, str]]) -> str:
    """The hidden element for these entries, each host's together (gzip then finds the
    answers of one calculator, much alike, within its window). An entry is written as the
    inputs it sets, the entry it changes ("of", its place) and its result as a patch over
    that entry's (answer_patch.py: forms/answers.mjs's parseAnswers makes it whole): a change of
    one input over its host's starting answer, and a starting answer over the first host's
    of the same calculator (a weapon page's four rifles), when the patch is the shorter."""
    written: list[str] = []
    first: dict[int, dict[str, Any]] = {}  # each host's first entry: its start, if carried
    by_calc: dict[str, dict[str, Any]] = {}  # each calculator's first host's first entry
    for k, text in sorted(entries, key=lambda ke: ke[0]):
        entry = json.loads(text)
        if k not in first:
            first[k] = {"at": len(written), **entry}
            base = by_calc.setdefault(entry["calc"], first[k])
            if base is not first[k]:
                text = _patched(base, entry, text)
        else:
            base = first[k]
            moved = [n for n, v in entry["inputs"].items() if base["inputs"].get(n) != v]
            if len(moved) == 1:
                text = _patched(base, entry, text)
        written.append(text)
    body = ",".join(written)
    return f"<div class=\"ts-answers\" hidden data-answers='{attribute(f'[{body}]')}'></div>"


def _patched(base: dict[str, Any], entry: dict[str, Any], whole: str) -> str:
    """`entry` written over `base` (an entry written before it, at base["at"]): the inputs
    it sets and its result's patch; or `whole`, when that is shorter or the patch cannot be
    (other input names; a base whose keys JavaScript would reorder)."""
    if set(entry["inputs"]) != set(base["inputs"]) \
            or not answer_patch.js_ordered(base["result"]):
        return whole
    moved = {n: v for n, v in entry["inputs"].items() if base["inputs"][n] != v}
    patch = answer_patch.diff_cached(json.dumps(base["result"]), json.dumps(entry["result"]))
    text = (f'{{"of":{base["at"]},"set":'
            + json.dumps(moved, ensure_ascii=False, separators=(",", ":"))
            + f',"patch":{patch}}}')
    return text if len(text) < len(whole) else whole


def carried(element_json: str) -> list[dict[str, Any]]:
    """The entries a page's answers element holds, each with its whole inputs and its
    whole result, as forms/answers.mjs's parseAnswers reads them (for the tests and the bench)."""
    raw: list[dict[str, Any]] = []  # each entry with its result as carried (compact)
    for entry in json.loads(element_json):
        if "of" in entry:
            base = raw[entry["of"]]
            entry = {"calc": base["calc"], "inputs": {**base["inputs"], **entry["set"]},
                     "result": answer_patch.apply(base["result"], entry["patch"])}
        raw.append(entry)
    return [{**entry, "result": expand(entry["result"])} for entry in raw]


def budget(starting_gzip: int) -> int:
    """A page's answers' budget (gzip), given its starting answers' size alone (gzip)."""
    return max(BUDGET_GZIP, starting_gzip + CHANGES_GZIP)


def block(placed: Iterable[tuple[str, Mapping[str, Any]]], changes: bool = True) -> str:
    """The hidden element holding these calculators' answers ("" for none): the starting
    ones, then (unless not `changes`) the most one-input changes (in _candidates' order)
    within budget()."""
    keys = list(dict.fromkeys((cid, json.dumps(dict(p), sort_keys=True)) for cid, p in placed))
    found = _candidates(keys)
    kept: list[tuple[int, str]] = []
    seen: set[str] = set()  # one entry once (a change may give another host's start)

    def take(n: int) -> int:
        """At least n entries in `kept` if there are: how many there are."""
        for k, entry in found:
            if entry is not None and entry not in seen:
                seen.add(entry)
                kept.append((k, entry))
                if len(kept) >= n:
                    break
        return len(kept)

    for k, entry in found:  # the starting answers: always, whatever their size
        if entry is not None and entry not in seen:
            seen.add(entry)
            kept.append((k, entry))
        if k == len(keys) - 1:
            break
    starting = len(kept)
    if not starting or not changes:
        return _element(kept) if starting else ""
    most = budget(gzip_size(_element(kept)))

    def fits(n: int) -> bool:
        return gzip_size(_element(kept[:n])) <= most

    low = starting  # fits, or is the starting answers alone
    high = 0  # 0: every candidate fits
    while more := take(max(2 * low, low + 1)) - low:
        if not fits(low + more):
            high = low + more
            break
        low += more
    while high - low > 1:  # low fits, high does not: the most that fits between them
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    return _element(kept[:low])
