"""A change's answer carried as its difference from the starting answer (issue 26).

An answer for a one-input change is mostly its calculator's starting answer: the same keys,
titles, row labels and notes, with some numbers and words changed and a row more or less.
page_answers.py writes it as a patch over the starting answer's tokens, which
calculators/forms/answers.mjs applies (`rebuild`): a page then carries about twice the changes
within its byte budget (`python -m scripts.bench.ahead`).

Tokens: a JSON value walked depth first, an object as its opening mark, then each key and
its value's tokens, then its closing mark; an array likewise; a scalar as itself. A mark is
written [k] (0 "{", 1 "}", 2 "[", 3 "]"), never a scalar's form. A patch is a list of ops
over the base's tokens, applied in order, the rest of the base kept after the last op:
  n (a whole number >= 0)  keep the next n tokens
  [t, ...]                 put these tokens in place of as many
  {"d": n}                 drop the next n tokens
  {"i": [t, ...]}          insert these tokens
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from typing import Any

OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR = 0, 1, 2, 3
# A key JavaScript orders before the others (an array index): JSON.parse would not give the
# base's tokens in Python's order, so such a value is never a patch's base.
_INDEX_KEY = re.compile(r"0|[1-9]\d*")

Token = tuple[str, Any]  # ("m", k) a mark, else (the scalar's type, the scalar)


def tokens(value: Any) -> list[Token]:
    out: list[Token] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            out.append(("m", OPEN_OBJ))
            for k, x in v.items():
                out.append(("str", k))
                walk(x)
            out.append(("m", CLOSE_OBJ))
        elif isinstance(v, list):
            out.append(("m", OPEN_ARR))
            for x in v:
                walk(x)
            out.append(("m", CLOSE_ARR))
        else:  # the type too: True is not 1, nor 1.0 1
            out.append((type(v).__name__, v))

    walk(value)
    return out


def js_ordered(value: Any) -> bool:
    """Whether JSON.parse keeps every object's keys in this order (no array-index key)."""
    if isinstance(value, dict):
        return all(not _INDEX_KEY.fullmatch(k) and js_ordered(v) for k, v in value.items())
    if isinstance(value, list):
        return all(js_ordered(v) for v in value)
    return True


def _written(t: Token) -> Any:
    return [t[1]] if t[0] == "m" else t[1]


def _read(t: Any) -> Token:
    return ("m", t[0]) if isinstance(t, list) else (type(t).__name__, t)


def diff(base: Any, new: Any) -> list[Any]:
    """The patch that makes `new` from `base`."""
    a, b = tokens(base), tokens(new)
    ops: list[Any] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append(i2 - i1)
        elif tag == "replace" and i2 - i1 == j2 - j1:
            ops.append([_written(t) for t in b[j1:j2]])
        else:
            if i2 > i1:
                ops.append({"d": i2 - i1})
            if j2 > j1:
                ops.append({"i": [_written(t) for t in b[j1:j2]]})
    while ops and isinstance(ops[-1], int):  # the rest of the base is kept anyway
        ops.pop()
    return ops


@cache
def diff_cached(base_json: str, new_json: str) -> str:
    """diff() of two JSON texts, as JSON (the budget's search writes an element many times)."""
    import json

    return json.dumps(diff(json.loads(base_json), json.loads(new_json)),
                      ensure_ascii=False, separators=(",", ":"))


def apply(base: Any, patch: list[Any]) -> Any:
    """The value `patch` makes from `base` (forms/answers.mjs's rebuild, for the tests and the
    bench)."""
    src, out, at = tokens(base), [], 0
    for op in patch:
        if isinstance(op, int) and not isinstance(op, bool):
            out += src[at:at + op]
            at += op
        elif isinstance(op, list):
            out += [_read(t) for t in op]
            at += len(op)
        elif "d" in op:
            at += op["d"]
        else:
            out += [_read(t) for t in op["i"]]
    return _value(out + src[at:])


def _value(toks: list[Token]) -> Any:
    at = 0

    def one() -> Any:
        nonlocal at
        kind, v = toks[at]
        at += 1
        if kind != "m":
            return v
        if v == OPEN_OBJ:
            obj = {}
            while toks[at] != ("m", CLOSE_OBJ):
                key = toks[at][1]
                at += 1
                obj[key] = one()
            at += 1
            return obj
        if v == OPEN_ARR:
            arr = []
            while toks[at] != ("m", CLOSE_ARR):
                arr.append(one())
            at += 1
            return arr
        raise ValueError(f"a closing mark where a value starts: token {at - 1}")

    value = one()
    if at != len(toks):
        raise ValueError("tokens left after the value")
    return value
