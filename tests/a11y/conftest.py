"""Helpers for the accessibility tests (fixtures site_dir/base_url/browser come from
tests/conftest.py).

axe-core runs inside the page. It is injected as a <script>, which the site's own
Content-Security-Policy forbids (that is the point of the policy), so these contexts
bypass CSP; tests/security checks the policy itself with it enforced.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser.helpers import open_calc, page_with  # noqa: F401  # (tests/ is on sys.path: rootdir packages)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags for them).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PY_READY_MS = 90_000
SCHEMES = {"light": "default", "dark": "slate"}

NewPage = Callable[..., Any]


@pytest.fixture
def new_page(browser: Any) -> Iterator[NewPage]:
    """new_page(width=1280, scheme="light", touch=False): a fresh context and page; the
    scheme is the reader's system preference, which Material's palette follows."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, scheme: str = "light", touch: bool = False) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": 900},
                                  color_scheme=scheme, bypass_csp=True,
                                  has_touch=touch, is_mobile=touch)
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(30_000)
        pg.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        pg.on("console", lambda m: errors.append(f"console.error: {m.text}")
              if m.type == "error" else None)
        return pg

    yield make
    for ctx in contexts:
        ctx.close()
    if errors:
        pytest.fail("the page logged errors:\n" + "\n".join(errors), pytrace=False)


def goto(page: Any, url: str, scheme: str = "light") -> None:
    """Open url and check Material shows the expected palette."""
    page.goto(url)
    page.locator("body[data-md-color-scheme]").wait_for(state="attached")
    shown = page.locator("body").get_attribute("data-md-color-scheme")
    assert shown == SCHEMES[scheme], f"palette {shown!r}, expected {SCHEMES[scheme]!r}"
    # Calculators' forms are built from registry.json right after load.
    page.wait_for_function("() => [...document.querySelectorAll('.ts-calc')]"
                           ".every(c => c.dataset.tsReady !== undefined)")


def wait_python(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.tsPython === 'ready'",
                           timeout=PY_READY_MS)


# The settled page, as a reader sees it: a colour fade still running (Material's header
# title crossfades on scroll, buttons recolour on hover) has blended colours for ~0.25 s,
# which a contrast check would measure (CI flake, session 5). Waits for every finite
# animation and transition, including those started meanwhile.
SETTLE = """async () => {
  for (let i = 0; i < 10; i++) {
    const running = document.getAnimations().filter((a) => a.playState === 'running'
      && a.effect?.getComputedTiming().endTime !== Infinity);
    if (!running.length) return;
    await Promise.all(running.map((a) => a.finished.catch(() => null)));
  }
}"""


def settle(page: Any) -> None:
    """Wait until no colour or position transition is running on the page."""
    page.evaluate(SETTLE)


def axe(page: Any, include: str | None = None,
        rules: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.2 A/AA violations on the settled page (or inside `include`); with
    `rules`, those rules' violations instead."""
    settle(page)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG_TAGS}
    result: list[dict[str, Any]] = page.evaluate(
        """async ([include, runOnly]) => {
             const r = await axe.run(include ? { include: [include] } : document, { runOnly });
             return r.violations.map(v => ({ id: v.id, help: v.help, nodes: v.nodes.map(
               n => ({ target: n.target.join(' '), why: n.failureSummary })) }));
           }""", [include, run_only])
    return result


def report(violations: list[dict[str, Any]]) -> str:
    """A readable failure message: each rule and (up to 5 of) its nodes."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
        for n in v["nodes"][:5]:
            lines.append(f"  {n['target']}\n    " + n["why"].replace("\n", "\n    "))
    return "\n".join(lines) or json.dumps(violations)


