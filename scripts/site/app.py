"""MkDocs hook: the site as an installable app (web app manifest, icons, inline favicon).

One source image, `docs/assets/images/icon.svg`, gives every icon:
* the favicon, inline as a `data:` URL, so a page's icon costs no request: Chromium
  fetches it itself, after load and not always through the service worker, so offline a
  file icon failed at random (issue #15). The policy's img-src already allows data:.
* the manifest's PNGs (192 and 512 px, a maskable 512 px) and the apple-touch-icon,
  drawn at build time by `scripts/site/icons.mjs` (resvg) into `assets/icons/`.

`manifest.webmanifest` sits at the site root with relative `start_url` and `scope`, so
the app is right under any sub-path (a GitHub Pages project site). Runs before the
service worker hook (-100), whose precache must list the icons and the manifest.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
ICON_SVG = Path("assets") / "images" / "icon.svg"  # under docs/
ICONS_DIR = Path("assets") / "icons"
MANIFEST = "manifest.webmanifest"
THEME_COLOUR = "#3f51b5"  # Material's indigo, the palette's primary colour
BACKGROUND = "#ffffff"
SHORT_NAME = "Tableside"


def favicon(svg: str) -> str:
    """The icon as a data: URL that needs no quoting inside an HTML attribute."""
    return "data:image/svg+xml," + quote(svg.strip(), safe="/:='")


def manifest(config: Any, icons: list[dict[str, Any]]) -> dict[str, Any]:
    listed = [{"src": f"{ICONS_DIR.as_posix()}/{i['file']}", "sizes": f"{i['size']}x{i['size']}",
               "type": "image/png", "purpose": i["purpose"]}
              for i in icons if i["purpose"] in ("any", "maskable")]
    return {"name": config["site_name"], "short_name": SHORT_NAME,
            "description": config.get("site_description") or "",
            "start_url": "./", "scope": "./", "display": "standalone",
            "theme_color": THEME_COLOUR, "background_color": BACKGROUND, "icons": listed}


def on_config(config: Any) -> Any:
    svg = (Path(config["docs_dir"]) / ICON_SVG).read_text("utf-8")
    config.theme["favicon"] = favicon(svg)
    # Read by overrides/main.html (manifest link, apple-touch-icon, theme-color).
    config.extra["app"] = {"manifest": MANIFEST, "theme_color": THEME_COLOUR,
                           "apple_touch_icon": f"{ICONS_DIR.as_posix()}/apple-touch-icon.png"}
    return config


def write_app_files(config: Any) -> list[dict[str, Any]]:
    site_dir = Path(config["site_dir"])
    node = shutil.which("node")
    if node is None:
        raise PluginError("node is not on PATH: the app icons need it")
    proc = subprocess.run([node, str(ROOT / "scripts" / "site" / "icons.mjs"),
                           str(Path(config["docs_dir"]) / ICON_SVG),
                           str(site_dir / ICONS_DIR), THEME_COLOUR],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise PluginError(f"app icons failed:\n{proc.stdout}{proc.stderr}")
    icons: list[dict[str, Any]] = json.loads(proc.stdout.strip().splitlines()[-1])
    (site_dir / MANIFEST).write_text(json.dumps(manifest(config, icons), indent=1), "utf-8")
    return icons


@event_priority(-50)  # before the service worker (-100), which precaches these files
def on_post_build(config: Any, **kwargs: Any) -> None:
    write_app_files(config)
