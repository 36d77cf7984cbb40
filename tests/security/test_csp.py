"""The Content-Security-Policy: one identical <meta> policy first in every page's <head>,
inline scripts allowed by hash only, no 'unsafe-eval' / 'unsafe-inline'; and in Chromium,
with the policy enforced, every calculator of one page per game computes and rolls
without a single violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scripts.site import csp

from .conftest import Log, busiest_page, games, violations, wait_python

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


# --- the hook's pieces ----------------------------------------------------------------
def test_script_hash_matches_the_csp_spec_example() -> None:
    # CSP Level 3, "hash-source" example: alert('Hello, world.');
    assert csp.script_hash("alert('Hello, world.');") == \
        "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"


def test_inline_scripts_are_the_ones_the_browser_runs() -> None:
    html = ('<head><script src="a.js"></script><script type="application/json">{"a":1}'
            '</script><script>one()</script>\r\n<SCRIPT type="module">two()\r\n</SCRIPT>'
            "<script type='text/javascript'>three()</script></head>")
    # External and JSON scripts need no hash; CRLF reaches the script as LF.
    assert csp.inline_scripts(html) == ["one()", "two()\n", "three()"]


def test_policy_goes_first_in_head_and_replaces_an_older_one() -> None:
    page = '<html><head>\n<meta charset="utf-8"><script>x()</script></head></html>'
    policy = csp.policy([csp.script_hash("x()")])
    once = csp.with_policy(page, policy)
    assert once.startswith(f'<html><head><meta http-equiv="Content-Security-Policy" '
                           f'content="{policy}">')
    assert csp.with_policy(once, policy) == once  # idempotent: one meta, not two
    assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy


# --- the built site ---------------------------------------------------------------------
def _pages(site_dir: Path) -> dict[Path, str]:
    pages = {p: p.read_text("utf-8") for p in sorted(site_dir.rglob("*.html"))}
    assert len(pages) > 5
    return pages


def test_every_page_has_the_same_policy_first_in_head(site_dir: Path) -> None:
    policies = set()
    for path, html in _pages(site_dir).items():
        metas = META.findall(html)
        assert len(metas) == 1, f"{path}: {len(metas)} CSP metas"
        head = re.search(r"<head\b[^>]*>\s*(<[^>]*>)", html)
        assert head and head.group(1).startswith('<meta http-equiv="Content-Security-Policy"'), \
            f"{path}: the policy is not the first element of <head>"
        # The charset declaration must still sit in the first 1024 bytes.
        assert html.encode("utf-8").find(b'<meta charset="utf-8">') < 1024, path
        policies.add(metas[0])
    assert len(policies) == 1, "pages carry different policies (instant navigation keeps the first)"


def test_policy_allows_each_inline_script_by_hash_and_nothing_unsafe(site_dir: Path) -> None:
    pages = _pages(site_dir)
    policy = META.findall(next(iter(pages.values())))[0]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    script_src = directives["script-src"]
    for path, html in pages.items():
        for source in csp.inline_scripts(html):
            assert csp.script_hash(source) in script_src, f"{path}: inline script not allowed"
    assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy
    assert "'wasm-unsafe-eval'" in script_src  # Pyodide compiles WebAssembly
    assert directives["default-src"] == ["'self'"] and directives["object-src"] == ["'none'"]
    assert directives["style-src"] == ["'self'"] and directives["connect-src"] == ["'self'"]
    assert directives["base-uri"] == ["'self'"] and directives["form-action"] == ["'self'"]
    # Only 'self' and hashes: no host, scheme or wildcard anywhere except data: images.
    for name, sources in directives.items():
        for s in sources:
            assert s.startswith("'") or (name == "img-src" and s == "data:"), (name, s)


def test_no_markup_needs_unsafe_inline(site_dir: Path) -> None:
    """style-src has no 'unsafe-inline' and script-src no 'unsafe-hashes': so no page may
    carry a style attribute, a <style> element, an on* handler or a javascript: URL."""
    bad = re.compile(r"""<style\b|\sstyle\s*=|\son[a-z]+\s*=\s*["']|javascript:""", re.I)
    for path, html in _pages(site_dir).items():
        body = re.sub(r"<script\b.*?</script>", "", html, flags=re.S | re.I)
        m = bad.search(body)
        assert m is None, f"{path}: {body[max(0, m.start() - 60):m.end() + 60]!r}"


# --- in Chromium, enforced ----------------------------------------------------------------
@pytest.mark.browser
def test_policy_is_enforced(csp_page: Any, base_url: str) -> None:
    """Control: the listener hears violations, and inline code and eval are refused."""
    page = csp_page
    page.goto(base_url)
    page.evaluate("""() => { const s = document.createElement('script');
                             s.textContent = 'window.__ran = true'; document.head.append(s); }""")
    assert page.evaluate("() => window.__ran === undefined")
    # From a page task (code run directly by the test driver is exempt from CSP).
    page.evaluate("""() => setTimeout(() => {
        try { eval('1'); window.__eval = 'ran'; } catch (e) { window.__eval = e.name; } })""")
    page.wait_for_function("() => window.__eval !== undefined")
    assert page.evaluate("() => window.__eval") == "EvalError"
    found = violations(page)
    assert {v["directive"] for v in found} == {"script-src-elem", "script-src"}, found


@pytest.mark.browser
@pytest.mark.parametrize("game", games())
def test_every_calculator_runs_under_the_policy(csp_page: Any, log: Log, site_dir: Path,
                                                base_url: str, game: str) -> None:
    page = csp_page
    page.goto(base_url + busiest_page(site_dir, game))
    assert wait_python(page) == "ready", log.errors
    hosts = page.locator(".ts-calc")
    ran = 0
    for i in range(hosts.count()):
        host = hosts.nth(i)
        tab = host.get_attribute("aria-labelledby")
        if tab and host.get_attribute("role") == "tabpanel":
            page.locator(f"#{tab}").click()
        host.get_by_role("button", name="Compute", exact=True).click()
        answered = ("(h) => !h.hasAttribute('aria-busy')"
                    " && h.querySelector('.ts-summary, .ts-error:not([hidden])')")
        page.wait_for_function(answered, arg=host.element_handle())
        roll = host.get_by_role("button", name="Roll", exact=True)
        if roll.count():
            host.evaluate("h => h.querySelector('.ts-result').replaceChildren()")
            roll.click()
            page.wait_for_function(answered, arg=host.element_handle())
        ran += 1
    # Every calculator answered (the waits above); the page was the game's own.
    assert ran == hosts.count() and page.locator(f'.ts-calc[data-calc^="{game}."]').count() > 0
    assert violations(page) == []
    assert log.errors == []


@pytest.mark.browser
def test_instant_navigation_and_search_under_the_policy(csp_page: Any, log: Log, site_dir: Path,
                                                        base_url: str) -> None:
    """Material swaps pages in (keeping the first page's policy) and searches in a worker."""
    page = csp_page
    page.goto(base_url)
    page.evaluate("() => { window.__samePage = true; }")
    target = busiest_page(site_dir, "horizon")
    page.locator(f'a.md-nav__link[href$="{target}"]').first.evaluate("a => a.click()")
    page.wait_for_function("(t) => location.pathname.endsWith(t)", arg=target)
    assert page.evaluate("() => window.__samePage") is True, "a full page load happened"
    assert wait_python(page) == "ready"
    page.keyboard.press("/")
    box = page.locator("input.md-search__input")
    box.wait_for(state="visible")
    box.press_sequentially("attack", delay=20)
    page.locator(".md-search-result__item").first.wait_for()
    assert violations(page) == []
    assert log.errors == []
