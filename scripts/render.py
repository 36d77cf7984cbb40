"""The render stage: the site generator turns the generate stage's folder into HTML.

    python -m scripts.render GENERATOR BUILD_DIR SITE_DIR   # GENERATOR: mkdocs | zensical

The only stage that knows a site generator. It writes `BUILD_DIR/mkdocs.yml`, which
inherits the hand-written mkdocs.yml (theme, Markdown extensions, search) and adds what
the generate stage decided (site.json: navigation, favicon, template values), with the
paths that are relative to the config file pointed back at the repository. Both MkDocs
and Zensical read that file. Zensical writes only inside the config file's folder, so
its output is moved to SITE_DIR afterwards. `BUILD_DIR/rendered.json` then says which
generator rendered the site and where its theme's templates are (the finish stage's CSP
allows exactly the inline scripts those templates write).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
GENERATORS = ("mkdocs", "zensical")


def _rel(path: Path, start: Path) -> str:
    return os.path.relpath(path, start.resolve()).replace(os.sep, "/")


def config(build_dir: Path, generator: str = "mkdocs") -> dict[str, Any]:
    """The renderer's config: the hand-written one plus the generate stage's values."""
    values = json.loads((build_dir / "site.json").read_text("utf-8"))
    # Zensical joins the favicon to the base URL, so a data: URL becomes a broken path.
    favicon = values["favicon"] if generator == "mkdocs" else values["favicon_file"]
    return {"INHERIT": _rel(ROOT / "mkdocs.yml", build_dir), "docs_dir": "docs",
            "site_dir": "site",
            "theme": {"custom_dir": _rel(ROOT / "overrides", build_dir),
                      "favicon": favicon},
            "nav": values["nav"], "extra": values["extra"]}


def templates(generator: str) -> list[Path]:
    """The folders the theme's templates come from (the CSP allow-list reads them)."""
    if generator == "mkdocs":
        import material

        base = Path(material.__file__).parent / "templates"
    else:
        import zensical

        base = Path(zensical.__file__).parent / "templates"
    return [base, ROOT / "overrides"]


def render(generator: str, build_dir: Path, site_dir: Path) -> None:
    if generator not in GENERATORS:
        raise SystemExit(f"render: unknown generator {generator!r} (one of {GENERATORS})")
    _render(generator, build_dir, site_dir)
    (build_dir / "rendered.json").write_text(json.dumps(
        {"generator": generator, "site_dir": str(site_dir.resolve()),
         "templates": [str(p) for p in templates(generator)]}, indent=1), "utf-8")


def _render(generator: str, build_dir: Path, site_dir: Path) -> None:
    cfg = build_dir / "mkdocs.yml"
    text = yaml.safe_dump(config(build_dir, generator), sort_keys=False, allow_unicode=True)
    cfg.write_text("# Written by scripts/render.py from site.json: do not edit.\n" + text,
                   "utf-8")
    # The Markdown extension scripts.site.search_terms is imported by name, from the repo.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path,
           "NO_MKDOCS_2_WARNING": os.environ.get("NO_MKDOCS_2_WARNING", "1")}
    if generator == "mkdocs":
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(cfg),
               "-d", str(site_dir.resolve())]
        if os.environ.get("TABLESIDE_QUIET"):
            cmd.append("-q")
        proc = subprocess.run(cmd, cwd=ROOT, env=env, check=False)
        if proc.returncode:
            raise SystemExit(proc.returncode)
        return
    out = build_dir / "site"
    if out.exists():
        shutil.rmtree(out)
    zensical = shutil.which("zensical", path=str(Path(sys.executable).parent)) or "zensical"
    proc = subprocess.run([zensical, "build", "--strict", "--clean", "-f", str(cfg.resolve())],
                          cwd=build_dir, env=env, check=False)
    if proc.returncode:
        raise SystemExit(proc.returncode)
    if site_dir.exists():
        shutil.rmtree(site_dir)
    shutil.move(out, site_dir)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    render(argv[0], Path(argv[1]), Path(argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
