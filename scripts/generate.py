"""The generate stage: extracted data -> Markdown pages, navigation and template values.

    python -m scripts.generate BUILD_DIR

writes, knowing nothing about the site generator:

* `BUILD_DIR/docs/`: the hand-written `docs/` (its marker lines filled with the games),
  every game's pages, cheat sheet, Encounter page and data file (scripts/site/pages.py),
  and the app's manifest and icons (scripts/site/app.py);
* `BUILD_DIR/site.json`: the navigation, the favicon (inline, and as a file for a
  renderer that takes no `data:` URL) and the values the templates read
  (`extra.app`, `extra.tableside`: integrity hashes and preloads), plain data;
* `BUILD_DIR/runtime-contract.json`: the runtime the pages were generated for, which the
  finish stage ships (scripts/site/runtime.py's `Contract`).

`BUILD_DIR/docs` belongs to this stage: it is emptied first, so a page removed from the
data leaves no stale file behind.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

from scripts.site import app, pages, runtime

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"  # the hand-written site settings (name, description)
SITE_JSON = "site.json"
CONTRACT = "runtime-contract.json"


class _Settings(yaml.SafeLoader):
    """Reads the hand-written mkdocs.yml's plain settings; its tags (`!ENV`) read as null."""


_Settings.add_multi_constructor("!", lambda loader, suffix, node: None)


def site_settings(path: Path = CONFIG) -> dict[str, Any]:
    data: dict[str, Any] = yaml.load(path.read_text("utf-8"), Loader=_Settings)
    return data


def generate(build_dir: Path, data_dir: Path | None = None) -> dict[str, Any]:
    """Write the build folder; returns the content of site.json."""
    out = build_dir / "docs"
    if out.exists():
        shutil.rmtree(out)
    hand_written = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*") if p.is_file())
    site, nav, games = pages.plan_site(hand_written, data_dir)
    for rel in hand_written:
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".md"):
            dest.write_text(pages.fill_markers((DOCS / rel).read_text("utf-8"), games), "utf-8")
        else:
            shutil.copyfile(DOCS / rel, dest)
    for rel, content in site.files.items():
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            dest.write_bytes(content)
        else:
            dest.write_text(content, "utf-8")
    settings = site_settings()
    app.write_app_files(out, str(settings["site_name"]),
                        str(settings.get("site_description") or ""))
    contract = runtime.Contract.of(runtime.plan())
    (build_dir / CONTRACT).write_text(contract.to_json(), "utf-8")
    values = {"nav": nav, "favicon": app.favicon((DOCS / app.ICON_SVG).read_text("utf-8")),
              "favicon_file": app.ICON_SVG.as_posix(),
              "extra": {"app": app.template_values(), "tableside": contract.template_values()}}
    (build_dir / SITE_JSON).write_text(json.dumps(values, indent=1, ensure_ascii=False), "utf-8")
    return values


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m scripts.generate BUILD_DIR", file=sys.stderr)
        return 2
    try:
        generate(Path(argv[0]))
    except (pages.SiteError, app.AppError, runtime.RuntimeFileError) as e:
        print(f"generate: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
