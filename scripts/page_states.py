"""The states a page shows on its <html> element, declared once for the bench and the tests.

calculators/offline.js sets `data-ts-sw` (the service worker: "ready" once the reading
precache is complete) and `data-ts-saved` (the Python runtime in the runtime cache);
calculators/python/boot.mjs sets `data-ts-python` (the rules engine's start). The bench's first
visits and the offline tests wait on these, through `expect()`; tests/offline/test_states.py
checks that the JavaScript sets no other value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PageState:
    """One attribute of <html> and the values it can take."""

    attr: str
    values: tuple[str, ...]

    def is_(self, value: str) -> str:
        """A JavaScript condition: the page is in `value`."""
        if value not in self.values:
            raise ValueError(f"{self.attr} is never {value!r}: it is one of {self.values}")
        return f"document.documentElement.getAttribute('{self.attr}') === '{value}'"

    def of(self, page: Any) -> str | None:
        """The page's value now (a Playwright page), or None before it is set."""
        value: str | None = page.locator("html").get_attribute(self.attr)
        return value


SW = PageState("data-ts-sw", ("off", "registered", "ready", "failed"))
SAVED = PageState("data-ts-saved", ("none", "saving", "all"))
PYTHON = PageState("data-ts-python", ("loading", "ready", "failed"))


def expect(*conditions: str) -> str:
    """A predicate for Playwright's wait_for_function: all of `conditions` hold. (An arrow
    function: the pages' Content-Security-Policy forbids the eval a bare expression needs.)"""
    return "() => " + " && ".join(conditions)
