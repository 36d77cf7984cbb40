"""Is site/ already the build of what is in the checkout now? `make site` asks before it builds.

    python -m scripts.uptodate check SITE GENERATOR SITE_URL   exit 0: up to date, 1: build
    python -m scripts.uptodate mark SITE GENERATOR SITE_URL    after a build that passed

The key is every input of the build (each file git would commit, outside the tests and CI
files, by content; the site URL, the generator, the TABLESIDE_* settings; the Python version)
and what the build left in SITE (each file's path, size and mtime), so an edit to either side
rebuilds. It is kept apart under build/, written by nothing but this: no stage's output is
touched. Outside a git checkout nothing is ever up to date.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEY_FILE = ROOT / "build" / "site.key"
# Not read by any stage: a change here cannot change the site.
NOT_INPUTS = ("tests/", ".github/", ".ci/", "README.md", ".gitignore", "tsconfig.json")
# Settings that do not change what is built.
NOT_SETTINGS = {"TABLESIDE_QUIET", "TABLESIDE_SITE_DIR"}


def _inputs() -> list[str] | None:
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    names = (n.decode() for n in out.split(b"\0") if n)
    return sorted(n for n in names if not n.startswith(NOT_INPUTS))


def key(site: Path, generator: str, site_url: str) -> str | None:
    names = _inputs()
    if names is None or not (site / "index.html").is_file():
        return None
    h = hashlib.sha256()
    settings = sorted((k, v) for k, v in os.environ.items()
                      if k.startswith("TABLESIDE_") and k not in NOT_SETTINGS)
    h.update(repr((generator, site_url, settings, sys.version)).encode())
    for name in names:
        path = ROOT / name
        if path.is_file():  # a file deleted but not yet staged is simply gone
            h.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        st = path.stat()
        h.update(f"{path.relative_to(site)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] not in {"check", "mark"}:
        print(__doc__, file=sys.stderr)
        return 2
    what, site, generator, site_url = argv[0], Path(argv[1]), argv[2], argv[3]
    now = key(site, generator, site_url)
    if what == "mark":
        KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
        KEY_FILE.write_text(now or "", "utf-8")
        return 0
    before = KEY_FILE.read_text("utf-8") if KEY_FILE.is_file() else ""
    return 0 if now is not None and now == before else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
