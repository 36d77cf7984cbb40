"""Helpers for driving the calculators in Chromium (fixtures site_dir/base_url/browser
come from tests/conftest.py).

`page` is a fresh context (cold: nothing cached) that records every request, console
error and uncaught exception; a test fails at teardown if the page logged an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest


@dataclass
class Recorder:
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # what a test provokes on purpose (a download it refuses), forgotten at teardown too:
    # the page may report it after the test's last step
    expected: tuple[str, ...] = ()

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(x in e for x in self.expected)]


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def page(browser: Any, rec: Recorder) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.on("request", lambda r: rec.requests.append(r.url))
    pg.on("console", lambda m: rec.errors.append(f"console.{m.type}: {m.text}")
          if m.type == "error" else None)
    pg.on("pageerror", lambda e: rec.errors.append(f"uncaught: {e}"))
    yield pg
    context.close()
    if errors := rec.unexpected():
        pytest.fail("the page logged errors:\n" + "\n".join(errors), pytrace=False)


