"""The light/dark toggle in the header (docs/assets/javascripts/palette.js, issue 26): the
same toggle as Material's palette component, which no longer mounts (its start restyled the
whole page twice). It shows the button of the other option, switches the colours, keeps the
choice for the next page before its first paint, follows a system in dark mode when nothing
is stored, and its start sets no colours the page already has."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

URL = "horizon/assault-rifles/"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
# Init script: the body's colour attributes as first parsed (before any script changed them),
# and every later change of the switching attribute (a whole-page restyle each)
WATCH = """
window.__switching = 0;
new MutationObserver((records) => {
  for (const r of records) {
    if (r.attributeName === "data-md-color-switching") window.__switching++;
  }
}).observe(document, { subtree: true, attributes: true });
document.addEventListener("DOMContentLoaded", () => {
  window.__first = document.body.getAttribute("data-md-color-scheme");
});
"""


# the colour scheme given to the browser, and the header's own
SCHEMES = """[document.querySelector('meta[name=color-scheme]')?.content || 'light',  // (normal)
  getComputedStyle(document.querySelector('[data-md-component=header]')).colorScheme]"""


def scheme(page: Any) -> str:
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


def shown(page: Any) -> list[str]:
    """The names of the toggle buttons on screen."""
    return page.evaluate("""[...document.querySelectorAll('form.ts-palette label')]
      .filter((l) => !l.hidden && l.getBoundingClientRect().width > 0)
      .map((l) => l.title)""")


def test_the_toggle_switches_and_keeps_the_choice(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE, color_scheme="light", service_workers="block")
    errors: list[str] = []
    try:
        ctx.add_init_script(WATCH)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base_url + URL)
        page.wait_for_function("document.querySelector('form.ts-palette label:not([hidden])')")
        assert scheme(page) == "default"
        assert shown(page) == ["Switch to dark mode"]
        assert page.evaluate("window.__switching") == 0  # the start restyled nothing
        assert page.evaluate("document.querySelector('meta[name=color-scheme]')") is None
        assert page.evaluate("document.querySelector('[data-md-component=palette]')") is None
        page.locator("form.ts-palette label[title='Switch to dark mode']").click()
        assert scheme(page) == "slate"
        assert shown(page) == ["Switch to light mode"]
        page.wait_for_function("!document.body.hasAttribute('data-md-color-switching')")
        assert page.evaluate("window.__switching") == 2  # set and taken out: the switch only
        assert page.evaluate(SCHEMES) == ["dark", "dark"]  # the browser's, the header's
        # the next page is dark from its first paint (Material's inline script reads the
        # stored choice), and its start sets nothing again
        page.goto(base_url + "horizon/")
        page.wait_for_function("document.querySelector('form.ts-palette label:not([hidden])')")
        assert page.evaluate("window.__first") == "slate"
        assert scheme(page) == "slate"
        assert shown(page) == ["Switch to light mode"]
        assert page.evaluate("window.__switching") == 0
        assert page.evaluate(SCHEMES) == ["dark", "dark"]
        page.keyboard.press("Tab")  # Enter on a focused option picks the next, as Material's
        page.locator("#__palette_1").focus()
        page.keyboard.press("Enter")
        assert scheme(page) == "default"
        assert shown(page) == ["Switch to dark mode"]
        assert page.evaluate(SCHEMES) == ["light", "light"]
    finally:
        ctx.close()
    assert not errors


def test_a_dark_system_gets_the_dark_palette(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE, color_scheme="dark", service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(base_url + URL)
        page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
        assert shown(page) == ["Switch to light mode"]
        stored = page.evaluate("""Object.entries(localStorage)
          .filter(([k]) => k.endsWith('.__palette')).map(([, v]) => JSON.parse(v))""")
        assert [s["color"]["scheme"] for s in stored] == ["slate"]  # kept, as Material keeps it
    finally:
        ctx.close()
