"""The finish stage: what a rendered site needs to run, written over it.

    python -m scripts.finish SITE_DIR [BUILD_DIR]   # BUILD_DIR: build/stage by default

Knows nothing about the site generator; works on any folder of rendered HTML:

1. the calculators' runtime (scripts/site/runtime.py): the pinned Pyodide and PyScript
   files, the UI modules, the rules bundle, the Pyodide snapshot and runtime.json, all as
   `BUILD_DIR/runtime-contract.json` (written by the generate stage) says, checked
   against it;
2. an `integrity` on every script and stylesheet tag of every page (the theme's bundle and
   stylesheets, extra_javascript and extra_css too: scripts/site/subresources.py);
3. the Content-Security-Policy meta on every page (scripts/site/csp.py), allowing the
   inline scripts of the theme templates `BUILD_DIR/rendered.json` names, and the
   `<style>` texts it lists (`inline_styles`: what the generator's own script writes);
4. last, the service worker (scripts/sw/offline.py), whose precache must see the
   final bytes of every file.

Each step writes its own files; none rewrites another's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from scripts.site import csp, runtime, subresources
from scripts.sw import offline

ROOT = Path(__file__).resolve().parents[1]
BUILD_DIR = ROOT / "build" / "stage"


class FinishError(Exception):
    """The finish stage cannot run (a message for the person running the build)."""


def finish(site_dir: Path, build_dir: Path = BUILD_DIR) -> dict[str, object]:
    """Finish site_dir; returns the service worker's summary."""
    contract_file = build_dir / "runtime-contract.json"
    rendered_file = build_dir / "rendered.json"
    for f in (contract_file, rendered_file):
        if not f.is_file():
            raise FinishError(f"{f} is missing: run the generate and render stages first "
                              "(`make site`)")
    if not any(site_dir.glob("*.html")):
        raise FinishError(f"{site_dir} holds no rendered page")
    contract = runtime.Contract.from_json(contract_file.read_text("utf-8"))
    runtime.finish_runtime(site_dir, contract)
    subresources.apply(site_dir)
    rendered = json.loads(rendered_file.read_text("utf-8"))
    csp.apply(site_dir, rendered["templates"], rendered.get("inline_styles", []))
    return offline.build_offline(site_dir)


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: python -m scripts.finish SITE_DIR [BUILD_DIR]", file=sys.stderr)
        return 2
    try:
        summary = finish(Path(argv[0]), Path(argv[1]) if len(argv) == 2 else BUILD_DIR)
    except (FinishError, runtime.RuntimeFileError, subresources.IntegrityError,
            csp.UnknownScriptError, offline.OfflineError) as e:
        print(f"finish: {e}", file=sys.stderr)
        return 1
    print(f"finish: service worker precaches {summary['files']} files, "
          f"{int(summary['bytes']) / 1e6:.1f} MB; runtime saved on demand: "
          f"{summary.get('runtime_files', 0)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
