"""A cold deep link on a slow phone: no layout shift while the forms are built (issue #11).

A built form grows its box and moves what is under it. A browser counts that as a layout
shift unless the scroll of the same frame makes up for it. Two races did it, now and then,
on a busy machine (session 6's probe: about 1 cold phone load in 20 at load 15-19):
- the #heading was pinned, a frame was painted with the empty boxes, and the forms came a
  moment later (registry.json on its way): the footer under a box below the heading moved;
- the jump to the heading and the forms above it fell in one frame: the heading itself
  moved (CLS 0.8).
Now the page carries its calculators' registry entries, and tableside.js builds the forms
below the heading, paints, jumps, paints, then builds those above under the pin.

Here each landing runs on a CPU slowed 6x (as the probe did), with every frame recorded: no
frame may both scroll and move the heading within the page.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest

from .conftest import WIDTHS, NewPage
from .test_deep_links import OBSERVE, check_landing, cls_since, settle, shifts_since

# Every frame: the scroll and the heading's place in the page (its top plus the scroll).
FRAMES = """
window.__tsFrames = [];
const frame = () => {
  const id = decodeURIComponent(location.hash.slice(1));
  const el = id && document.getElementById(id);
  if (el) window.__tsFrames.push({ y: Math.round(scrollY),
    doc: Math.round(el.getBoundingClientRect().top + scrollY) });
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"""

# (page, heading): a calculator box under the heading on screen (d100), and the heading
# below many calculators (Horizon's last weapon, the 0.8 shift).
LANDINGS = [
    ("d100/combat-circumstances/", "status-modifiers"),
    ("horizon/assault-rifles/", "weapon-profile-tactical-auto-cannon-tier-4"),
]


def jumps_and_moves(frames: list[dict[str, int]]) -> list[str]:
    """Frames in which the page scrolled and the heading moved within it, both at once."""
    out = []
    for a, b in pairwise(frames):
        scrolled, moved = b["y"] - a["y"], b["doc"] - a["doc"]
        if scrolled and moved and scrolled != moved:
            out.append(f"scrolled {scrolled} px while the heading moved {moved} px")
    return out


@pytest.mark.browser
@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize(("path", "anchor"), LANDINGS)
def test_cold_deep_link_on_a_slow_cpu_does_not_shift(new_page: NewPage, base_url: str,
                                                     width: str, path: str,
                                                     anchor: str) -> None:
    page = new_page(WIDTHS[width], service_workers="block")
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 6})
    page.add_init_script(OBSERVE)
    page.add_init_script(FRAMES)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "registry.json" in r.url else None)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # Python never starts
    page.goto(f"{base_url}{path}#{anchor}", wait_until="domcontentloaded")
    where = f"{width} {path}#{anchor}"
    assert (err := check_landing(where, settle(page, anchor))) is None, err
    assert asked == [], "the page waited for registry.json instead of its own entries"
    assert jumps_and_moves(page.evaluate("window.__tsFrames")) == []
    assert cls_since(page, 0) <= 0.1, shifts_since(page, 0)


def test_jumps_and_moves_finds_a_jump_with_a_build() -> None:
    frames: list[dict[str, Any]] = [{"y": 0, "doc": 6319}, {"y": 8041, "doc": 8109},
                                    {"y": 8141, "doc": 8209}]
    assert jumps_and_moves(frames) == ["scrolled 8041 px while the heading moved 1790 px"]
