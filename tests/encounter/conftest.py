"""What every Encounter page test here shares: a phone (390 px, touch), its own context."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from encounter.test_encounter_walk import PHONE


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A new phone context (downloads allowed: Export), closed after the test."""
    ctx = browser.new_context(**PHONE, accept_downloads=True)
    ctx.set_default_timeout(30_000)
    yield ctx
    ctx.close()
