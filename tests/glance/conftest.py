"""Fixtures for the glance tests (issue #11): the browser tests' `page` (errors fail the
test) and a helper to open pages at a phone's or a desktop's width."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser.conftest import Recorder, page, rec  # noqa: F401  # (shared fixtures)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = {"phone": PHONE, "desktop": DESKTOP}

NewPage = Callable[..., Any]


@pytest.fixture
def new_page(browser: Any) -> Iterator[NewPage]:
    """new_page(viewport, **context options) -> a page in its own context; a page that
    logs a console error or throws fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int], **options: Any) -> Any:
        ctx = browser.new_context(viewport=viewport, **options)
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)  # a loaded CI machine
        pg.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}")
              if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        return pg

    yield make
    for ctx in contexts:
        ctx.close()
    if errors:
        pytest.fail("the page logged errors:\n" + "\n".join(errors), pytrace=False)
