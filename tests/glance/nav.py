"""Moving around the built site as a reader does, keeping Python loaded."""

from __future__ import annotations

from typing import Any

from browser.helpers import LIVE_RESULT  # tests/ is on sys.path (rootdir packages)

# Material's instant navigation as a click on a link starts it (a link in the page, so the
# address, history and #fragment are handled as for a reader), resolved once the new page
# is in place (document$ emits) and two frames have been painted.
INSTANT = """(href) => new Promise((resolve) => {
  let first = true;
  const s = window.document$.subscribe(() => {
    if (first) { first = false; return; } // the replayed current page
    s.unsubscribe();
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
  });
  const a = document.createElement("a");
  a.href = href;
  a.textContent = "go";
  document.querySelector(".md-content__inner").append(a);
  a.click();
})"""


def instant(page: Any, href: str) -> float:
    """Navigate like a click on a link (Python stays loaded); the time the page settled.
    Should Material fall back to a full load (it does when it cannot fetch the page), the
    new document's own clock starts at 0."""
    from playwright.sync_api import Error

    try:
        return float(page.evaluate(INSTANT, href))
    except Error as e:
        if "context was destroyed" not in str(e):
            raise
        page.wait_for_load_state("domcontentloaded")
        return 0.0


def compute_defaults(host: Any) -> Any:
    """Compute a calculator on its defaults; its result (or its error) element."""
    host.get_by_role("button", name="Compute").click()
    # a live result, not the answer worked out at build time (issue 13, data-ts-ahead)
    done = host.locator(f"{LIVE_RESULT}, .ts-error:not([hidden])").first
    done.wait_for(timeout=90_000)
    return done
