"""The players' view of each game (issue 27), in the built site: a page with the view's
mount point and no calculator, so the rules engine never starts there; its scripts and the
QR code's module are shipped, listed for integrity and precached by the service worker."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scripts.site import runtime

GAMES = {"horizon": "horizon", "forbidden_lands": "forbidden-lands",
         "cyberpunk_red": "cyberpunk-red", "mecha": "mecha", "d100": "d100"}
SHARE = ("share/link.mjs", "share/player-view.js", "share/gm.js", "share/share.css", "qr/index.js")


@pytest.mark.parametrize("game", GAMES)
def test_players_page_draws_without_python(site_dir: Path, game: str) -> None:
    text = (site_dir / GAMES[game] / "players" / "index.html").read_text("utf-8")
    m = re.search(r'<div class="ts-player-view" data-game="([^"]+)"', text)
    assert m and m.group(1) == game
    assert "ts-calc" not in text and 'name="tableside:calculators"' not in text
    assert not re.search(r"<script[^>]+boot\.mjs", text)  # no Python start from the head


def test_sharing_scripts_are_shipped_checked_and_precached(site_dir: Path) -> None:
    sw = (site_dir / "sw.js").read_text("utf-8")
    meta = re.search(r'<meta name="tableside:integrity" content="([^"]+)"',
                     (site_dir / "index.html").read_text("utf-8"))
    assert meta
    listed = json.loads(meta.group(1).replace("&#34;", '"').replace("&quot;", '"'))["files"]
    for name in SHARE:
        path = f"assets/calculators/{name}"
        assert (site_dir / path).is_file() and path in sw and path in listed, path
    # the QR module is the pinned npm file, byte for byte
    pins = runtime.load_pins()
    shipped = (site_dir / "assets/calculators/qr/index.js").read_bytes()
    assert runtime._sha256(shipped) == pins[runtime.QR_MODULE]
