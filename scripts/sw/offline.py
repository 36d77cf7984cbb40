"""The service worker: the finished site works offline after one visit (finish stage).

Runs after every other finish step (runtime files, CSP), so the precache sees the final
bytes of the site: it copies `calculators/offline.js` (registration, the update prompt,
the "needs one visit online" banner) to `assets/calculators/offline.js`, then runs
`node scripts/sw/build_sw.mjs <site_dir>` (Workbox injectManifest) to write
`<site_dir>/sw.js`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BUILD_SW = ROOT / "scripts" / "sw" / "build_sw.mjs"
OFFLINE_JS = ROOT / "calculators" / "offline.js"
OFFLINE_DEST = Path("assets") / "calculators" / "offline.js"


class OfflineError(Exception):
    """The service worker could not be built (a message for the person running the build)."""


def build_offline(site_dir: Path) -> dict[str, Any]:
    """Copy offline.js and write sw.js; returns build_sw.mjs's summary (files, bytes)."""
    dest = site_dir / OFFLINE_DEST
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(OFFLINE_JS, dest)
    node = shutil.which("node")
    if node is None:
        raise OfflineError("node is not on PATH: the service worker (offline mode) needs it")
    proc = subprocess.run([node, str(BUILD_SW), str(site_dir)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise OfflineError(f"service worker build failed:\n{proc.stdout}{proc.stderr}")
    summary: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return summary
