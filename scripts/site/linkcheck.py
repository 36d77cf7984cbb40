"""Offline link check of a built site: `python -m scripts.site.linkcheck site/`.

Every internal href/src must name a file of the site (a folder means its
index.html) and every #fragment an id of the target page. Scripts, styles,
images and frames must come from the site itself: an http(s) URL to any other
host there is a CDN and is reported. Links (<a>) to other hosts are allowed, but
nothing may take the reader away by itself or post elsewhere: a `<meta http-equiv=
"refresh">`, a `<base>` and a form's `action` go through the same checks as a resource.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

RESOURCE_TAGS = {"script": "src", "img": "src", "source": "src", "iframe": "src",
                 "audio": "src", "video": "src", "embed": "src", "link": "href"}


@dataclass
class _Page(HTMLParser):
    ids: set[str] = field(default_factory=set)
    refs: list[tuple[str, str, str]] = field(default_factory=list)  # (tag, attr, url)
    base: str | None = None

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v for k, v in attrs if v is not None}
        if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.refs.append(("meta", "http-equiv", "refresh"))  # never on a page of ours
        if tag == "form" and "action" in a:
            self.refs.append(("form", "action", a["action"]))
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "name" in a:
            self.ids.add(a["name"])
        if tag == "base" and "href" in a:
            self.base = a["href"]
        if tag == "a" and "href" in a:
            self.refs.append((tag, "href", a["href"]))
        elif tag in RESOURCE_TAGS and RESOURCE_TAGS[tag] in a:
            rel = a.get("rel", "")
            if tag == "link" and rel in {"canonical", "alternate", "prev", "next"}:
                self.refs.append(("a", "href", a["href"]))  # navigational, not a resource
            else:
                self.refs.append((tag, RESOURCE_TAGS[tag], a[RESOURCE_TAGS[tag]]))
        if tag in {"img", "source"} and "srcset" in a:
            for part in a["srcset"].split(","):
                if part.strip():
                    self.refs.append((tag, "srcset", part.split()[0]))


@cache
def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text("utf-8", errors="replace"))
    page.close()
    return page


def _target(site: Path, path: str) -> Path | None:
    p = site / unquote(path).lstrip("/")
    if path.endswith("/") or p.is_dir():
        p = p / "index.html"
    return p if p.is_file() else None


def check_site(site: Path, site_url: str = "") -> Iterator[str]:
    """Every problem, one line each: `page: <tag attr="url">: what is wrong`."""
    site = site.resolve()
    _parse.cache_clear()
    home = urlsplit(site_url) if site_url else None
    for html_file in sorted(site.rglob("*.html")):
        rel = html_file.relative_to(site).as_posix()
        page = _parse(html_file)
        here = urljoin("http://site.invalid/", rel)
        if page.base:
            yield f'{rel}: <base href="{page.base}">: a base URL changes every link of the page'
            here = urljoin(here, page.base)
        for tag, attr, url in page.refs:
            where = f'{rel}: <{tag} {attr}="{url}">'
            if tag == "meta":
                yield f"{where}: a page that redirects itself"
                continue
            low = url.strip().lower()
            if low.startswith("javascript:"):
                yield f"{where}: javascript: URL"
                continue
            if low.startswith(("mailto:", "tel:", "data:")):
                continue
            parts = urlsplit(url)
            if parts.scheme in {"http", "https"} or url.startswith("//"):
                same = home is not None and parts.hostname == home.hostname \
                    and parts.port == home.port
                if not same:
                    if tag != "a":
                        yield f"{where}: " + ("a form posting to another host" if tag == "form"
                                              else "resource from another host (CDN)")
                    continue
                path = parts.path[len(home.path.rstrip("/")):] if home else parts.path
                absolute = urljoin("http://site.invalid/", path)
            elif parts.scheme:
                yield f"{where}: unexpected scheme {parts.scheme}:"
                continue
            else:
                absolute = urljoin(here, url)
            target_parts = urlsplit(absolute)
            target = _target(site, target_parts.path)
            if target is None:
                yield f"{where}: no such file"
                continue
            frag = unquote(target_parts.fragment)
            if frag and target.suffix == ".html" and frag not in _parse(target).ids:
                yield f"{where}: no id {frag!r} in {target.relative_to(site).as_posix()}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m scripts.site.linkcheck SITE_DIR [SITE_URL]", file=sys.stderr)
        return 2
    problems = list(check_site(Path(args[0]), args[1] if len(args) > 1 else ""))
    for p in problems:
        print(p)
    print(f"{len(problems)} broken link(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
