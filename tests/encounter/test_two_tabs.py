"""Two tabs on one encounter (issue 24 item 6): no event is lost, each sees the other's.

Two pages of ONE browser context share localStorage as two tabs of one profile do. Tab B
is opened first, tab A later; A adds Alice, B (which never re-read since) adds Bob: both
tabs end with both, within a second of the other's change, and the stored log holds both.
Then the two add at once, many times over: every event of both survives.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browser.helpers import wait_python

from encounter.test_storage_faults import add, names

pytestmark = pytest.mark.browser

URL = "d100/encounter/"


@pytest.fixture
def ctx(browser: Any) -> Iterator[Any]:
    c = browser.new_context(viewport={"width": 1280, "height": 900})
    c.set_default_timeout(30_000)
    yield c
    c.close()


def tab(ctx: Any, base_url: str) -> tuple[Any, list[str]]:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + URL)
    wait_python(page)
    page.wait_for_function("() => document.querySelector('.ts-encounter')?.dataset.events")
    return page, errors


def shows(page: Any, who: list[str], within_ms: int = 5000) -> None:
    page.wait_for_function("(want) => JSON.stringify([...document.querySelectorAll("
                           "'.ts-enc-order .ts-enc-name')].map((e) => e.textContent).sort())"
                           " === JSON.stringify(want)", arg=sorted(who), timeout=within_ms)


def watch(page: Any, name: str) -> None:
    """Note the time (Date.now(): one clock for both tabs) `name` is first shown."""
    page.evaluate("""(name) => { window.__seen = null;
      const o = new MutationObserver(() => {
        const all = [...document.querySelectorAll('.ts-enc-order .ts-enc-name')];
        if (all.some((e) => e.textContent === name)) { window.__seen = Date.now(); o.disconnect(); }
      });
      o.observe(document.querySelector('.ts-encounter'), { childList: true, subtree: true });
    }""", name)


def lag_ms(writer: Any, reader: Any) -> int:
    """From the writer's store (the doc's `updated`) to the reader showing it."""
    reader.wait_for_function("() => window.__seen !== null", timeout=10_000)
    raw = writer.evaluate("() => localStorage.getItem('tableside:encounters')")
    updated = max(d["updated"] for d in json.loads(raw).values())
    seen: int = reader.evaluate("() => window.__seen")
    return seen - updated


def stored(page: Any) -> list[str]:
    raw = page.evaluate("() => localStorage.getItem('tableside:encounters')")
    docs = [d for d in json.loads(raw).values() if d["game"] == "d100"]
    assert len(docs) == 1
    return [e["name"] for e in docs[0]["events"] if e["type"] == "add"]


def test_two_tabs_never_lose_an_event(ctx: Any, base_url: str) -> None:
    b, b_errors = tab(ctx, base_url)  # opened earlier
    a, a_errors = tab(ctx, base_url)
    watch(b, "Alice")
    add(a, 1, "Alice")
    assert lag_ms(a, b) <= 1000  # B sees A's change within a second
    shows(b, ["Alice"])
    watch(a, "Bob")
    add(b, 2, "Bob")
    assert lag_ms(b, a) <= 1000
    shows(a, ["Alice", "Bob"])
    assert sorted(names(b)) == ["Alice", "Bob"]
    assert stored(a) == ["Alice", "Bob"]

    # both at once, ten times each: every one kept, in both tabs and on the device. Each
    # tab waits for its own add to be stored (the form is drawn again after each), never
    # for the other's: their writes interleave.
    for i in range(10):
        for page, who in ((a, "A"), (b, "B")):
            before = int(page.locator(".ts-encounter").get_attribute("data-events") or 0)
            page.get_by_label("Name", exact=True).fill(f"{who}{i}")
            page.get_by_role("button", name="Add to the fight").click()
            page.wait_for_function("(n) => Number(document.querySelector('.ts-encounter')"
                                   ".dataset.events) > n", arg=before)
    want = ["Alice", "Bob"] + [f"{w}{i}" for w in "AB" for i in range(10)]
    shows(a, want, 10_000)  # names typed in one tab survive the other tab's redraws
    shows(b, want, 10_000)
    assert sorted(stored(a)) == sorted(want)
    assert not a_errors and not b_errors
