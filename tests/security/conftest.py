"""Helpers for the security tests (fixtures site_dir/base_url/browser come from
tests/conftest.py). Pages here run with the site's Content-Security-Policy enforced."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import rules_pkg

from .bigdoc import TITLES_DOC, small_doc
from .corpus import ROOT, Built, build_from, new_server, serving

PY_READY_MS = 90_000
# Installed before any page script: records every CSP violation report of the page.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push({
  directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample,
  source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
}));
"""


@dataclass
class Log:
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def log() -> Log:
    return Log()


MANY = 24  # small documents beside the five real ones (issue #24's scale target)


@pytest.fixture(scope="session")
def many_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    """The real sources plus 24 small documents (one of them link titles and a flag that
    quote markup), built once and served: the scale tests (test_scale.py) and the tooltip
    tests (test_tooltips.py) read it."""
    tmp = tmp_path_factory.mktemp("many")
    src = tmp / "sources"
    src.mkdir()
    for p in (ROOT / "sources").iterdir():
        (src / p.name).write_bytes(p.read_bytes())
    for i in range(1, MANY):
        (src / f"game-{i:02d}.md").write_text(small_doc(i), "utf-8")
    (src / "titles.md").write_text(TITLES_DOC, "utf-8")
    server = new_server()
    # a budget far past the site: the test reports the size instead of the build failing
    built = build_from(src, tmp, f"http://127.0.0.1:{server.server_address[1]}/",
                       budget_mb="100000")
    with serving(built.site, server):
        yield built


@pytest.fixture
def csp_page(browser: Any, log: Log) -> Iterator[Any]:
    """A fresh page with CSP enforced that records violations and console errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("console", lambda m: log.errors.append(f"console.{m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: log.errors.append(f"uncaught: {e}"))
    yield page
    context.close()


def violations(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__cspViolations")
    return found


def wait_python(page: Any) -> str:
    """Wait until Python is ready or has failed; the final state.

    (A function, not an expression: Playwright polls expressions with eval(), which
    this very policy forbids.)"""
    page.wait_for_function("() => ['ready', 'failed'].includes("
                           "document.documentElement.dataset.tsPython)", timeout=PY_READY_MS)
    state: str = page.evaluate("() => document.documentElement.dataset.tsPython")
    return state


def games() -> list[str]:
    return sorted({c.id.split(".")[0] for c in rules_pkg.calculators()})


def busiest_page(site_dir: Path, game: str) -> str:
    """The built page with the most calculators of `game`."""
    best = (0, "")
    for html in sorted(site_dir.rglob("index.html")):
        n = html.read_text("utf-8").count(f'data-calc="{game}.')
        if n > best[0]:
            rel = html.relative_to(site_dir).as_posix()
            best = (n, rel[: -len("index.html")])
    assert best[0], f"no page has a calculator of {game}"
    return best[1]
