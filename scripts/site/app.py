"""The site as an installable app (web app manifest, icons, inline favicon).

One source image, `docs/assets/images/icon.svg`, gives every icon:
* the favicon, inline as a `data:` URL, so a page's icon costs no request: Chromium
  fetches it itself, after load and not always through the service worker, so offline a
  file icon failed at random (issue #15). The policy's img-src already allows data:.
* the manifest's PNGs (192 and 512 px, a maskable 512 px) and the apple-touch-icon,
  drawn at build time by `scripts/site/icons.mjs` (resvg) into `assets/icons/`.

`manifest.webmanifest` sits at the site root with relative `start_url` and `scope`, so
the app is right under any sub-path (a GitHub Pages project site). The generate stage
writes them as docs files, so the finish stage's precache lists them like any asset.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

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


def manifest(name: str, description: str, icons: list[dict[str, Any]]) -> dict[str, Any]:
    listed = [{"src": f"{ICONS_DIR.as_posix()}/{i['file']}", "sizes": f"{i['size']}x{i['size']}",
               "type": "image/png", "purpose": i["purpose"]}
              for i in icons if i["purpose"] in ("any", "maskable")]
    return {"name": name, "short_name": SHORT_NAME, "description": description,
            "start_url": "./", "scope": "./", "display": "standalone",
            "theme_color": THEME_COLOUR, "background_color": BACKGROUND, "icons": listed}


def template_values() -> dict[str, str]:
    """What overrides/main.html reads as `config.extra.app` (manifest link, apple-touch-icon,
    theme-color)."""
    return {"manifest": MANIFEST, "theme_color": THEME_COLOUR,
            "apple_touch_icon": f"{ICONS_DIR.as_posix()}/apple-touch-icon.png"}


class AppError(Exception):
    """The app files could not be made (a message for the person running the build)."""


def write_app_files(docs_dir: Path, name: str, description: str) -> list[dict[str, Any]]:
    """Draw the icons from docs_dir's icon.svg and write the manifest, as docs files (the
    renderer copies them like any asset)."""
    node = shutil.which("node")
    if node is None:
        raise AppError("node is not on PATH: the app icons need it")
    proc = subprocess.run([node, str(ROOT / "scripts" / "site" / "icons.mjs"),
                           str(docs_dir / ICON_SVG), str(docs_dir / ICONS_DIR), THEME_COLOUR],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise AppError(f"app icons failed:\n{proc.stdout}{proc.stderr}")
    icons: list[dict[str, Any]] = json.loads(proc.stdout.strip().splitlines()[-1])
    (docs_dir / MANIFEST).write_text(json.dumps(manifest(name, description, icons), indent=1),
                                     "utf-8")
    return icons
