"""The render stage: the site generator turns the generate stage's folder into HTML.

    python -m scripts.render GENERATOR BUILD_DIR SITE_DIR   # GENERATOR: mkdocs | zensical

The only stage that knows a site generator. It writes `BUILD_DIR/mkdocs.yml`, which
inherits the hand-written mkdocs.yml (theme, Markdown extensions, search) and adds what
the generate stage decided (site.json: navigation, favicon, template values), with the
paths that are relative to the config file pointed back at the repository. Both MkDocs
and Zensical read that file. Zensical writes only inside the config file's folder, so
its output is moved to SITE_DIR afterwards. `BUILD_DIR/rendered.json` then says which
generator rendered the site, where its theme's templates are (the finish stage's CSP
allows exactly the inline scripts those templates write) and the exact texts of the
`<style>` elements the theme's own script writes (the CSP allows each by its hash).
Every page loses the theme's indentation between tags (scripts/site/compact.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from scripts.site import compact

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


# Zensical's search dialog lives in a shadow root, so no site stylesheet reaches it: the
# theme's bundle writes the dialog's stylesheet into a <style> element there (zensical/ui,
# components/search/_/index.ts: `shadow.appendChild(h("style", {}, css.toString()))`),
# which `style-src 'self'` refuses. Its text is a string literal of the minified bundle:
# `C("style",{},Tc.toString())` with `var Tc='…'` elsewhere. Material writes none.
_STYLE_CALL = re.compile(r"""\(\s*"style"\s*,\s*\{\s*\}\s*,\s*([\w$]+)(?:\.toString\(\))?\s*\)""")
_JS_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[^ux])")
_JS_CHARS = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _js_string(literal: str) -> str:
    """The value of a JavaScript string literal's body (without its quotes)."""
    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e in "123456789":  # legacy octal: no minifier writes it, so refuse to guess
            raise SystemExit(f"render: a legacy octal escape \\{e} in a style text")
        if e[0] in "ux":
            return chr(int(e[1:].strip("{}"), 16))
        return _JS_CHARS.get(e, "" if e == "\n" else e)
    return _JS_ESCAPE.sub(one, literal)


def injected_styles(generator: str, site_dir: Path) -> list[str]:
    """The text of each <style> element the theme's script writes into the page."""
    if generator == "mkdocs":
        return []
    bundles = sorted((site_dir / "assets" / "javascripts").glob("bundle.*.min.js"))
    if len(bundles) != 1:
        raise SystemExit(f"render: expected one Zensical bundle in {site_dir}, found {bundles}")
    code = bundles[0].read_text("utf-8")
    styles = []
    for name in _STYLE_CALL.findall(code):
        value = re.search(rf"""(?<![\w$.]){re.escape(name)}\s*=\s*(?:'((?:[^'\\\n]|\\.)*)'"""
                          rf"""|"((?:[^"\\\n]|\\.)*)")""", code)
        if value is None:
            raise SystemExit(f"render: {bundles[0].name} writes a <style> from {name}, whose "
                             "text render cannot find: the CSP would refuse it")
        styles.append(_js_string(value.group(1) if value.group(1) is not None
                                 else value.group(2)))
    if not styles:  # zensical==0.0.73 writes its search dialog's: a change shows up here
        raise SystemExit(f"render: no <style> text found in {bundles[0].name}: has Zensical's "
                         "search dialog changed how it is styled?")
    return styles


def render(generator: str, build_dir: Path, site_dir: Path) -> None:
    if generator not in GENERATORS:
        raise SystemExit(f"render: unknown generator {generator!r} (one of {GENERATORS})")
    _render(generator, build_dir, site_dir)
    compact.compact_site(site_dir)  # the theme's indentation out of every page
    (build_dir / "rendered.json").write_text(json.dumps(
        {"generator": generator, "site_dir": str(site_dir.resolve()),
         "templates": [str(p) for p in templates(generator)],
         "inline_styles": injected_styles(generator, site_dir)}, indent=1), "utf-8")


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
