"""Tooltips are text (issue #24): a link title or a lint flag that quotes markup from a
source never becomes an element when the reader hovers or focuses it. Material's
content.tooltips wrote the title into innerHTML: `<meta http-equiv=refresh ...>` in a
link title sent the reader to another site a second after hovering it. Every titled element
of the hostile pages (tests/security/bigdoc.py's TITLES_DOC, in the many-documents build) is
hovered and focused in Chromium, with the site's CSP."""

from __future__ import annotations

from typing import Any

import pytest

from .bigdoc import REFRESH
from .conftest import RECORD_VIOLATIONS
from .corpus import Built

pytestmark = [pytest.mark.hostile, pytest.mark.browser]

# Every element added to the document while the test runs, with the tags inside it.
RECORD_ADDED = """
window.__added = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (!(n instanceof Element)) continue;
    window.__added.push({tag: n.tagName.toLowerCase(), cls: String(n.className || ''),
      inner: [...n.querySelectorAll('*')].map((e) => e.tagName.toLowerCase())});
  }
}).observe(document, {childList: true, subtree: true});
"""
ACTIVE = {"meta", "img", "svg", "iframe", "script", "a", "object", "embed", "link", "style",
          "form", "base", "image", "text"}


def test_every_titled_element_shows_its_title_as_text(many_docs: Built, browser: Any) -> None:
    pages = sorted(p.parent.relative_to(many_docs.site).as_posix() + "/"
                   for p in (many_docs.site / "titles").rglob("index.html"))
    assert len(pages) >= 2
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(30_000)
    dialogs: list[str] = []
    navigations: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("framenavigated", lambda f: navigations.append(f.url))
    shown: dict[str, str] = {}  # title -> the tooltip's text
    problems: list[str] = []
    try:
        for path in pages:
            url = many_docs.url + path
            page.goto(url, wait_until="load")
            page.evaluate(RECORD_ADDED)
            navigations.clear()
            titled = page.evaluate("""() => [...document.querySelectorAll(
                '.md-content [title], .md-content [data-gloss]')].map((e, i) => {
                  e.dataset.testTip = String(i);
                  return [e.getAttribute('title') || e.dataset.gloss,
                          e.matches('a, .ts-flag, abbr.ts-abbr')]; })""")
            for i, (title, tipped) in enumerate(titled):
                el = page.locator(f'[data-test-tip="{i}"]')
                el.scroll_into_view_if_needed()
                for act in (el.hover, el.focus):
                    act()
                    if tipped:  # glossary.js's tooltip, text only
                        tip = page.locator(".ts-tip")
                        tip.wait_for(state="visible")
                        shown[title] = tip.text_content() or ""
                    else:  # the browser's own tooltip (text): nothing is added
                        page.wait_for_timeout(300)
                    page.mouse.move(1, 1)
                    page.evaluate("() => document.activeElement.blur()")
            page.wait_for_timeout(1500)  # the refresh's 1 s would have left by now
            added = page.evaluate("() => window.__added")
            for a in added:
                bad = ({a["tag"], *a["inner"]} & ACTIVE)
                if bad or a["inner"]:
                    problems.append(f"{path}: <{a['tag']} class={a['cls']!r}> with {a['inner']}")
            violations = page.evaluate("() => window.__cspViolations")
            if violations:
                problems.append(f"{path}: CSP violations {violations}")
            if page.url != url or navigations:
                problems.append(f"{path}: navigated to {page.url} {navigations}")
    finally:
        context.close()
    assert problems == [] and dialogs == []
    # each hostile title was shown, as the very text the source wrote
    flag = next(t for t in shown if t.startswith("Source line"))
    assert "<img src=x onerror=alert(3)>" in flag
    for title in (REFRESH, "<img src=x onerror=alert(1)>", "<script>alert(2)</script>",
                  '<svg><a href="https://example.invalid/"><text>x</text></a></svg>',
                  "<iframe src=https://example.invalid/>"):
        assert shown.get(title) == title, (title, shown)
