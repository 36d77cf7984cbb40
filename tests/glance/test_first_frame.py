"""The first frame of a calculator page already shows its forms (issue #11).

A form built after the first paint grows its box and moves what is under it. On a busy
phone a deep link then jumped: a frame showed the #heading with empty calculator boxes
under it, and the forms, built a moment later, pushed the footer or the heading itself
(CLS up to 0.8). So the page carries its calculators' registry entries and tableside.js is
render-blocking in the head: the browser paints nothing before the forms are built.

These checks are deterministic, where the deep-link walk can only catch the race now and
then: registry.json answers 2 s late (a busy service worker), and an animation-frame
callback, which the browser runs just before it paints each frame, records the page as the
first frame shows it.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import WIDTHS, NewPage
from .test_deep_links import OBSERVE, check_landing, cls_since, settle, shifts_since

# In the first animation frame: how many calculator boxes are on show, how many are built,
# and where the #heading is.
FIRST_FRAME = """
requestAnimationFrame(() => {
  const shown = [...document.querySelectorAll(".ts-calc")].filter((el) => !el.closest("[hidden]"));
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  window.__tsFirstFrame = {
    shown: shown.length,
    unbuilt: shown.filter((el) => el.dataset.tsReady === undefined).map((el) => el.dataset.calc),
    top: target ? Math.round(target.getBoundingClientRect().top) : null,
  };
});
"""

# (page, heading): a calculator box under the heading on screen (d100), and the heading
# below many calculators (Horizon's last weapon, once shifted 0.81 in session 6's probe).
LANDINGS = [
    ("d100/combat-circumstances/", "status-modifiers"),
    ("horizon/assault-rifles/", "weapon-profile-tactical-auto-cannon-tier-4"),
]


def slow_registry(route: Any) -> None:
    time.sleep(2)  # Playwright runs route handlers on its own thread: the page goes on
    route.continue_()


@pytest.mark.browser
@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize(("path", "anchor"), LANDINGS)
def test_first_frame_shows_built_forms_at_the_heading(new_page: NewPage, base_url: str,
                                                       width: str, path: str,
                                                       anchor: str) -> None:
    page = new_page(WIDTHS[width], service_workers="block")
    page.add_init_script(OBSERVE)
    page.add_init_script(FIRST_FRAME)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # Python never starts
    page.route(re.compile(r"/registry\.json"), slow_registry)
    page.goto(f"{base_url}{path}#{anchor}", wait_until="domcontentloaded")
    page.wait_for_function("window.__tsFirstFrame !== undefined")
    first = page.evaluate("window.__tsFirstFrame")
    assert first["shown"] > 0, first  # the page has calculators on show
    assert first["unbuilt"] == [], f"painted before these were built: {first['unbuilt']}"
    assert first["top"] is not None, first  # the heading is on the page from the first frame
    page.wait_for_timeout(2500)  # past the late registry.json, were it still awaited
    where = f"{width} {path}#{anchor}"
    assert (err := check_landing(where, settle(page, anchor))) is None, err
    assert cls_since(page, 0) <= 0.1, shifts_since(page, 0)
