"""Integrity on every script and stylesheet a page loads (finish stage, issue #24).

The runtime's tags get theirs from the templates (scripts/site/runtime.py plans them before
rendering); the theme's bundle and stylesheets, `extra_javascript` (glossary.js,
search-snippet.js) and `extra_css` are written by the generator with none. Here every
`<script src>`, `<link rel=stylesheet>` and `<link rel=modulepreload>` of every page gets
the SHA-256 of the file it names, as the file is in the finished site. A tag that already
has an integrity must match its file, if the file is there yet (the runtime's are planned
by runtime.py, and the service worker step writes offline.js last); a tag without one
naming a file the site does not have (another origin, a missing file) fails the build,
naming the page: nothing may come from elsewhere.
"""

from __future__ import annotations

import html
import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from scripts.site.runtime import sri

_TAG = re.compile(r"<(script|link)\b([^>]*)>", re.I)
_ATTR = re.compile(r"""([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_LOADS = {"stylesheet", "modulepreload"}


class IntegrityError(Exception):
    """A page loads a script or stylesheet the build cannot vouch for."""


def _attrs(text: str) -> dict[str, str]:
    return {m.group(1).lower(): html.unescape(m.group(2) or m.group(3) or m.group(4) or "")
            for m in _ATTR.finditer(text)}


def _target(site: Path, page: Path, url: str) -> Path | None:
    """The site file `url` (on `page`) names, or None when it is not one."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = unquote(parts.path)
    if path.startswith("/"):
        # an absolute path starts with the site's base path ("/" or "/repo/" on GitHub
        # Pages): the file is the longest tail of it that the site has
        segments = PurePosixPath(path).parts[1:]
        tails = (site.joinpath(*segments[i:]) for i in range(len(segments)))
    else:
        tails = iter([page.parent / path])
    root = site.resolve()
    for cand in tails:
        real = cand.resolve()
        if real.is_file() and real.is_relative_to(root):
            return real
    return None


class Hashes:
    """The SRI of each site file, read once."""

    def __init__(self) -> None:
        self._known: dict[Path, str] = {}

    def __call__(self, file: Path) -> str:
        if file not in self._known:
            self._known[file] = sri(file.read_bytes())
        return self._known[file]


def with_integrity(site: Path, page: Path, text: str, hashes: Hashes) -> str:
    """The page's text with an integrity on each script and stylesheet tag it lacks one on."""
    where = page.relative_to(site).as_posix()

    def one(m: re.Match[str]) -> str:
        tag, body = m.group(1).lower(), m.group(2)
        attrs = _attrs(body)
        url = attrs.get("src") if tag == "script" else attrs.get("href")
        if url is None or (tag == "link" and not _LOADS & set(attrs.get("rel", "").split())):
            return m.group(0)
        file = _target(site, page, url)
        if "integrity" in attrs:  # the runtime's (runtime.py; offline.js is written last)
            if file is not None and attrs["integrity"] != hashes(file):
                raise IntegrityError(f"{where}: <{tag}> {url!r} has integrity "
                                     f"{attrs['integrity']!r}, but the file is {hashes(file)}")
            return m.group(0)
        if file is None:
            raise IntegrityError(f"{where}: <{tag}> loads {url!r}, which is not a file of "
                                 "the site: nothing may come from elsewhere")
        want = hashes(file)
        close = "/>" if body.rstrip().endswith("/") else ">"
        body = body.rstrip().removesuffix("/").rstrip()
        return f'<{m.group(1)}{body} integrity="{want}"{close}'

    return _TAG.sub(one, text)


def apply(site: Path) -> int:
    """Add the integrity to every page of `site`; how many pages changed."""
    hashes = Hashes()
    changed = 0
    for page in sorted(site.rglob("*.html")):
        text = page.read_text("utf-8")
        new = with_integrity(site, page, text, hashes)
        if new != text:
            page.write_text(new, "utf-8")
            changed += 1
    return changed
