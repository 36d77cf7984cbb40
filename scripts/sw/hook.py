"""MkDocs hook: make the built site work offline after one visit (service worker).

Runs after every other `on_post_build` (search index, calculators' runtime), so the
precache sees the finished site: it copies `calculators/offline.js` (registration, the
update prompt, the "needs one visit online" banner) to `assets/calculators/offline.js`,
then runs `node scripts/sw/build_sw.mjs <site_dir>` (Workbox injectManifest) to write
`<site_dir>/sw.js`. `mkdocs build`, `mkdocs serve` and `make site` all get it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger

ROOT = Path(__file__).resolve().parents[2]
BUILD_SW = ROOT / "scripts" / "sw" / "build_sw.mjs"
OFFLINE_JS = ROOT / "calculators" / "offline.js"
OFFLINE_DEST = Path("assets") / "calculators" / "offline.js"

log = get_plugin_logger(__name__)


def build_offline(site_dir: Path) -> dict[str, Any]:
    """Copy offline.js and write sw.js; returns build_sw.mjs's summary (files, bytes)."""
    dest = site_dir / OFFLINE_DEST
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(OFFLINE_JS, dest)
    node = shutil.which("node")
    if node is None:
        raise PluginError("node is not on PATH: the service worker (offline mode) needs it")
    proc = subprocess.run([node, str(BUILD_SW), str(site_dir)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise PluginError(f"service worker build failed:\n{proc.stdout}{proc.stderr}")
    summary: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return summary


# Lowest priority: the search plugin and the runtime hook must have written their files.
@event_priority(-100)
def on_post_build(config: Any, **kwargs: Any) -> None:
    summary = build_offline(Path(config["site_dir"]))
    log.info("service worker: %d files precached, %.1f MB (budget %.0f MB); runtime saved on "
             "demand: %d files, %.1f MB", summary["files"], summary["bytes"] / 1e6,
             summary.get("budget", 0) / 1e6, summary.get("runtime_files", 0),
             summary.get("runtime_bytes", 0) / 1e6)
