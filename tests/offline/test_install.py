"""Installable: Chromium itself judges the site installable, at the root and under a
sub-path (a GitHub Pages project site). The manifest and icons: scripts/site/app.py."""

from __future__ import annotations

import json
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CHROMIUM_ARGS

from .conftest import Served
from .helpers import wait_sw_ready
from .test_offline import deploy

pytestmark = pytest.mark.browser


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_manifest_and_icons(site_dir: Path) -> None:
    m = json.loads((site_dir / "manifest.webmanifest").read_text("utf-8"))
    # Relative start_url and scope: right under any sub-path.
    assert (m["start_url"], m["scope"], m["display"]) == ("./", "./", "standalone")
    assert m["name"] == "Tableside" and m["short_name"]
    assert m["theme_color"].startswith("#") and m["background_color"].startswith("#")
    got = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert got == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in m["icons"]:
        w, h = png_size(site_dir / icon["src"])
        assert f"{w}x{h}" == icon["sizes"], icon
    assert png_size(site_dir / "assets/icons/apple-touch-icon.png") == (180, 180)
    page = (site_dir / "horizon" / "index.html").read_text("utf-8")
    assert '<link rel="manifest" href="../manifest.webmanifest">' in page
    assert '<link rel="apple-touch-icon" href="../assets/icons/apple-touch-icon.png">' in page


@pytest.fixture
def profile(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A browser with a profile on disk: Chromium never offers to install from an
    incognito context (the error "in-incognito"), which is what new_context() gives."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        yield context
    finally:
        context.close()


def installability_errors(context: Any, url: str) -> tuple[list[Any], dict[str, Any]]:
    page = context.new_page()
    page.goto(url)
    wait_sw_ready(page)  # installable needs a worker that controls the page
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    manifest = cdp.send("Page.getAppManifest")
    page.close()
    return errors, manifest


def test_chromium_finds_the_site_installable(profile: Any, base_url: str) -> None:
    errors, manifest = installability_errors(profile, base_url + "horizon/")
    assert manifest["url"] == base_url + "manifest.webmanifest"
    assert manifest["errors"] == []
    assert errors == []


def test_installable_under_a_sub_path(profile: Any, site_dir: Path,
                                      subpath_server: Served) -> None:
    deploy(site_dir, subpath_server.root / "tableside")
    base = subpath_server.url + "tableside/"
    errors, manifest = installability_errors(profile, base + "d100/")
    assert manifest["url"] == base + "manifest.webmanifest"
    assert manifest["errors"] == [] and errors == []
    page = profile.new_page()
    page.goto(base)
    app = profile.new_cdp_session(page).send("Page.getAppId")
    # The app's id is its start_url, resolved under the sub-path, not the origin's root.
    assert app == {"appId": base, "recommendedId": "/tableside/"}
