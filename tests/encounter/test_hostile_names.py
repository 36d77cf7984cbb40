"""Names typed or imported into a fight are cleaned as sources are, and a too-deep file
or stored value is refused as "nested too deeply" (issue 24 item 8), on the real page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import wait_python

from encounter.test_encounter_walk import PHONE
from encounter.test_storage_faults import SEED, add, names

pytestmark = pytest.mark.browser


@pytest.fixture
def ctx(browser: Any) -> Iterator[Any]:
    c = browser.new_context(**PHONE)
    c.set_default_timeout(30_000)
    yield c
    c.close()


def open_page(ctx: Any, base_url: str) -> tuple[Any, list[str]]:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + "d100/encounter/")
    wait_python(page)
    page.wait_for_function("() => document.querySelector('.ts-encounter')?.dataset.events")
    return page, errors


def test_typed_and_imported_names_are_cleaned(ctx: Any, base_url: str, tmp_path: Path) -> None:
    page, errors = open_page(ctx, base_url)
    add(page, 1, "Ali\u202ecod.exe\u200b\u0007")
    assert names(page) == ["Alicod.exe"]
    path = tmp_path / "fight.json"
    path.write_text(json.dumps({
        "format": "tableside-encounter", "schema": 2, "game": "d100",
        "name": "Raid\u2066 on the\u200b keep",
        "events": [{"eid": "a", "type": "add", "id": "c1", "name": "\u2067Bob\u2069\u001b[2J"}]}))
    page.set_input_files("#ts-enc-file", str(path))
    page.locator(".ts-enc-msg", has_text="Imported").wait_for()
    assert names(page) == ["Bob[2J"]
    assert page.locator("#ts-enc-pick option:checked").inner_text() == "Raid on the keep"
    assert not errors


def test_a_100000_deep_import_says_nested_too_deeply(ctx: Any, base_url: str,
                                                      tmp_path: Path) -> None:
    page, errors = open_page(ctx, base_url)
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    page.set_input_files("#ts-enc-file", str(path))
    msg = page.locator(".ts-enc-msg", has_text="nested too deeply")
    msg.wait_for()
    assert "call stack" not in msg.inner_text()
    assert not errors


def test_a_deep_stored_value_is_set_aside(ctx: Any, base_url: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    ctx.add_init_script(SEED % json.dumps({"tableside:encounters": deep,
                                           "tableside:encounter-presets": deep}))
    page, errors = open_page(ctx, base_url)
    aside = page.locator(".ts-enc-aside")
    aside.wait_for()
    assert "could not be read and were set aside" in aside.inner_text()
    assert "200000 characters" in aside.inner_text()  # kept whole, never parsed
    add(page, 1, "Alice")
    assert not errors
