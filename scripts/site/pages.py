"""One section of the site per extracted game, as Markdown (the generate stage's pages).

`plan_site` reads every rules_pkg/data/<game>.json (or $TABLESIDE_DATA_DIR), plans its
pages from the model alone (so a new source in sources/ becomes pages with no code
change), renders them as Markdown, adds the JSON as data/<game>.json, and returns the
navigation. `fill_markers` fills the markers of the two hand-written pages
(docs/index.md, docs/data.md) with the list of games. Nothing here knows the site
generator: scripts/generate writes the files, scripts/render hands them to MkDocs.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scripts.extract.files import shown
from scripts.extract.util import game_slug
from scripts.site import cheatsheet, encounter, players, render
from scripts.site.render import Json, PageCtx, Placement, nav_title

ROOT = Path(__file__).resolve().parents[2]

log = logging.getLogger("tableside.generate")
SPLIT_TABLES = 6  # a section with more tables than this (and subsections) gets a page per child
# Pages per game at most. Every page's menu lists every page, so the site grows with the
# square of the page count: past this, a game's sections are grouped into MAX_PAGES pages,
# each section an anchor inside its page (the five games have 2 to 18 pages).
MAX_PAGES = 40
GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
GAMES_MARKER = "<!-- tableside:games -->"
DATA_MARKER = "<!-- tableside:data-files -->"


# --- planning: model -> pages ----------------------------------------------------------
@dataclass(frozen=True)
class Page:
    path: str  # docs-relative, e.g. "horizon/pistols.md"
    title: str
    sections: tuple[Json, ...]  # the first is the page's own section (h1), the rest follow (h2)
    contents: tuple[Page | Group, ...] = ()  # a group's own page lists the group's pages
    grouped: bool = False  # a run of sections under the page's own title: all of them h2


@dataclass(frozen=True)
class Group:
    title: str
    items: tuple[Page | Group, ...]


@dataclass(frozen=True)
class Game:
    id: str
    slug: str  # URL folder
    doc: Json
    wrappers: tuple[Json, ...]  # title sections wrapping the document (own content only)
    lead: tuple[Json, ...]  # empty headings before the first topic
    items: tuple[Page | Group, ...]


def _tables(section: Json) -> int:
    own = sum(1 for b in section.get("blocks", []) if b.get("type") == "table")
    return own + sum(_tables(s) for s in section.get("sections", []))


def _splits(section: Json) -> bool:
    """Many tables, several per child (Horizon's weapon groups): a page per child.

    A section whose children hold one table each (a list of reference tables) stays
    one page: splitting it would only make many tiny pages.
    """
    total = _tables(section)
    with_tables = sum(1 for s in section.get("sections", []) if _tables(s))
    return total > SPLIT_TABLES and with_tables * 2 <= total


def _has_content(section: Json) -> bool:
    return bool(section.get("blocks")) or any(_has_content(s) for s in section.get("sections", []))


def _shell(section: Json) -> Json:
    """The section without its subsections (its own heading and blocks only)."""
    return {**section, "sections": [], "_inner": [s["lines"] for s in section.get("sections", [])]}


class _Stems:
    """File names of one game's pages, each handed out once: a section "Index" cannot take
    the overview's name, nor then a section "Section Index" the renamed one."""

    def __init__(self) -> None:
        self.given = {"index", "cheat-sheet"}  # the overview and the cheat sheet

    def __call__(self, section_id: str) -> str:
        stem = f"section-{section_id}" if section_id in {"index", "cheat-sheet"} else section_id
        cand, n = stem, 1
        while cand in self.given:
            n += 1
            cand = f"{stem}-{n}"
        self.given.add(cand)
        return cand


def plan_items(sections: Iterable[Json], folder: str,
               stems: _Stems | None = None) -> list[Page | Group]:
    """Each section becomes a page; a big one (many tables) becomes a group of its children.

    A section with no content at all (a heading the source repeats or left empty) joins the
    page before it, so every heading still appears, in document order.
    """
    stems = stems or _Stems()
    items: list[Page | Group] = []
    for sec in sections:
        subs = sec.get("sections", [])
        if not _has_content(sec) and items and isinstance(items[-1], Page):
            last = items[-1]
            items[-1] = Page(last.path, last.title, (*last.sections, sec))
        elif subs and _splits(sec):
            # The group's own page: its heading, its text, and links to its pages.
            own_path = f"{folder}/{stems(sec['id'])}.md"
            children = tuple(plan_items(subs, folder, stems))
            own = Page(own_path, sec["title"], (_shell(sec),), children)
            items.append(Group(sec["title"], (own, *children)))
        else:
            items.append(Page(f"{folder}/{stems(sec['id'])}.md", sec["title"], (sec,)))
    return items


def _size(section: Json) -> int:
    first, last = section["lines"]
    return max(1, last - first + 1)


def plan_grouped(sections: list[Json], folder: str, bound: int = MAX_PAGES) -> list[Page | Group]:
    """At most `bound` pages: runs of consecutive sections of about equal length (in source
    lines), each section (with its subsections) an anchor inside its page."""
    stems = _Stems()
    target = sum(_size(s) for s in sections) / bound
    runs: list[list[Json]] = [[]]
    done = 0
    for k, sec in enumerate(sections):
        left = len(sections) - k  # never more runs than `bound`, never an empty run
        if runs[-1] and (done >= target * len(runs) or left <= bound - len(runs)) \
                and len(runs) < bound:
            runs.append([])
        runs[-1].append(sec)
        done += _size(sec)
    items: list[Page | Group] = []
    for run in runs:
        first, last = run[0], run[-1]
        title = first["title"] if len(run) == 1 else f"{first['title']} \u2013 {last['title']}"
        items.append(Page(f"{folder}/{stems(first['id'])}.md", title, tuple(run),
                          grouped=len(run) > 1))
    return items


def plan_game(doc: Json) -> Game:
    game = str(doc["game"])
    slug = game_slug(game)  # a source called data.md must not take over the site's folders
    roots: list[Json] = list(doc["sections"])
    wrappers: list[Json] = []
    lead: list[Json] = []
    # A document wrapped in one title section: its children are the topics.
    while len(roots) == 1 and roots[0].get("sections"):
        wrappers.append(_shell(roots[0]))
        roots = list(roots[0]["sections"])
    # Empty headings before the first topic stay on the overview page.
    while len(roots) > 1 and not _has_content(roots[0]):
        lead.append(roots.pop(0))
    items = plan_items(roots, slug)
    if sum(1 for _ in pages_of(items)) > MAX_PAGES:
        items = plan_grouped(roots, slug)
    return Game(game, slug, doc, tuple(wrappers), tuple(lead), tuple(items))


def pages_of(items: Iterable[Page | Group]) -> Iterator[Page]:
    for it in items:
        if isinstance(it, Page):
            yield it
        else:
            yield from pages_of(it.items)


# --- rendering -------------------------------------------------------------------------
def _placement() -> tuple[Any, Any, Any]:
    """The placement functions (table, page, section). A game that fails to import fails
    the build here, loudly: a page never loses its calculators in silence."""
    from scripts.site import placement

    def for_table(game: str, table_id: str) -> list[Placement]:
        return list(placement.calculators_for_table(game, table_id))

    def for_page(game: str, ids: list[str]) -> list[Placement]:
        return list(placement.calculators_for_page(game, ids))

    def for_section(game: str, section_id: str) -> list[Placement]:
        return list(placement.calculators_for_section(game, section_id))

    for_table("", "")  # imports the game modules now, so a broken one fails here
    return for_table, for_page, for_section


def _section_ids(sections: Iterable[Json]) -> set[str]:
    ids: set[str] = set()
    for s in sections:
        ids.add(s["id"])
        ids |= _section_ids(s.get("sections", []))
    return ids


def new_ctx(game: Game, sections: Iterable[Json], placement: tuple[Any, Any, Any]) -> PageCtx:
    secs = list(sections)
    ctx = PageCtx(game.id, render.glossary(game.id), list(game.doc.get("lint", [])),
                  lambda tid: placement[0](game.id, tid),
                  lambda sid: placement[2](game.id, sid))
    ctx.used_ids |= _section_ids(secs)  # headings keep their ids; tables avoid them
    return ctx


def render_page(game: Game, page: Page, placement: tuple[Any, Any, Any]) -> str:
    ctx = new_ctx(game, page.sections, placement)
    parts: list[str] = []
    if page.grouped:
        parts.append(f"# {render.heading_text(page.title)} {{#{ctx.unique_id('page')}}}")
    for i, sec in enumerate(page.sections):
        parts.extend(render.render_section(sec, 1 if i == 0 and not page.grouped else 2, ctx))
    if page.contents:
        parts.append("\n".join(_nav_links(page.contents, page.path.rsplit("/", 1)[0])))
    parts.extend(render.page_calculators(ctx, lambda ids: placement[1](game.id, ids)))
    return _front_matter(page.title) + render.page_markdown(parts)


def _front_matter(title: str) -> str:
    return render.front_matter({"title": nav_title(title)})


def _nav_links(items: Iterable[Page | Group], folder: str, depth: int = 0) -> Iterator[str]:
    for it in items:
        pad = "    " * depth
        if isinstance(it, Page):
            yield f"{pad}- [{render.heading_text(it.title)}]({it.path[len(folder) + 1:]})"
        else:  # a group: its own page, then its other pages under it
            own = it.items[0]
            assert isinstance(own, Page)
            yield f"{pad}- [{render.heading_text(it.title)}]({own.path[len(folder) + 1:]})"
            yield from _nav_links(it.items[1:], folder, depth + 1)


def render_overview(game: Game, placement: tuple[Any, Any, Any]) -> str:
    doc = game.doc
    ctx = new_ctx(game, (*game.wrappers, *game.lead), placement)
    title = " ".join(str(doc.get("title") or game.id).split())
    same = [s for s in game.wrappers if " ".join(s["title"].split()) == title][:1]
    # The title section the document is wrapped in gives the page its heading (and id).
    h1_id = same[0]["id"] if same else ctx.unique_id("overview")
    parts = [f"# {render.heading_text(title)} {{#{h1_id}}}",
             f'<p class="ts-origin">Extracted from <code>{html.escape(str(doc["source"]))}</code>. '
             f'The model as JSON: <a href="../data/{html.escape(game.id)}.json">'
             f"data/{html.escape(game.id)}.json</a>.</p>"]
    for sec in game.wrappers:
        if sec in same:  # its heading is the page title: content only
            parts.extend(render.section_body(sec, ctx))
        else:
            parts.extend(render.render_section(sec, 2, ctx))
    for sec in game.lead:
        parts.extend(render.render_section(sec, 2, ctx))
    parts.append("## Pages {#pages}")
    parts.append("\n".join(["- [Cheat sheet](cheat-sheet.md)", *_nav_links(game.items, game.slug)]))
    lint = doc.get("lint", [])
    if lint:
        parts.append("## Source checks {#source-checks}")
        parts.append(f"The extraction flagged {len(lint)} value(s) that look wrong; they are shown "
                     "as the source has them, marked ⚑ on their page.")
        parts.append("\n".join(f"- line {i['line']}: {render.heading_text(i['message'])}"
                               for i in lint))
    parts.extend(render.page_calculators(ctx, lambda ids: placement[1](game.id, ids)))
    return _front_matter(title) + render.page_markdown(parts)


# --- the site's files ------------------------------------------------------------------
class SiteError(Exception):
    """A build failure with a message for the person running the build."""


def data_dir() -> Path:
    return Path(os.environ.get("TABLESIDE_DATA_DIR") or ROOT / "rules_pkg" / "data")


def load_games(folder: Path) -> list[tuple[Game, bytes]]:
    games = []
    for path in sorted(folder.glob("*.json")):
        raw = path.read_bytes()
        doc = json.loads(raw)
        if not isinstance(doc.get("game"), str) or not GAME_ID.fullmatch(doc["game"]) \
                or path.stem != doc["game"]:
            raise SiteError(f"{shown(str(path))}: game id {doc.get('game')!r} is not the "
                            "file's name in lower-case letters, digits, '-' and '_': "
                            "run `make data`")
        games.append((plan_game(doc), raw))
    return games


def _nav(items: Iterable[Page | Group], group: str = "") -> list[Any]:
    out: list[Any] = []
    for it in items:
        if isinstance(it, Page):
            # A group's own introduction would repeat the group's name in the menu.
            out.append({"Overview" if it.title == group else nav_title(it.title): it.path})
        else:
            out.append({nav_title(it.title): _nav(it.items, it.title)})
    return out


def dest_of(path: str) -> str:
    """The page a docs file becomes with directory URLs ("a/b.md" -> "a/b/index.html")."""
    if not path.endswith(".md"):
        return path
    stem = path[:-3]
    head, _, name = stem.rpartition("/")
    if name in {"index", "README"}:
        return f"{head}/index.html" if head else "index.html"
    return f"{stem}/index.html"


@dataclass
class Site:
    """The docs files of the site, each with the source it comes from: a second file for
    the same path (or the same built page) fails the build naming both, never replaces one."""

    files: dict[str, str | bytes]
    origin: dict[str, str]
    dest: dict[str, str]

    @classmethod
    def over(cls, hand_written: Iterable[str]) -> Site:
        paths = sorted(hand_written)
        return cls({}, {p: f"docs/{p}" for p in paths}, {dest_of(p): f"docs/{p}" for p in paths})

    def add(self, path: str, content: str | bytes, origin: str) -> None:
        for key, seen in ((path, self.origin), (dest_of(path), self.dest)):
            if key in seen:
                raise SiteError(f"{shown(origin)} and {shown(seen[key])} both map to {key}: "
                                "give one of them another `game` (scripts/hints/) or name")
            seen[key] = origin
        self.files[path] = content


def plan_site(hand_written: Iterable[str], folder: Path | None = None) -> tuple[Site, list[Any],
                                                                                list[Game]]:
    """Every generated docs file (over the hand-written ones, docs-relative paths), the
    navigation, and the games: pages, cheat sheet, Encounter page and data file per game."""
    hand_written = list(hand_written)
    folder = folder or data_dir()
    games = load_games(folder)
    if not games:
        log.warning("no extracted data in %s: run `make data`", folder)
    placement = _placement()
    nav: list[Any] = [{"Home": "index.md"}]
    site = Site.over(hand_written)
    for game, raw in games:
        src = f"{game.doc.get('source', '?')} (game {game.id!r})"
        site.add(f"data/{game.id}.json", raw, src)
        site.add(f"{game.slug}/index.md", render_overview(game, placement), src)
        sheet = cheatsheet.render_cheatsheet(game.id, game.doc, placement)
        site.add(f"{game.slug}/cheat-sheet.md", sheet, src)
        for page in pages_of(game.items):
            site.add(page.path, render_page(game, page, placement), src)
        title = " ".join(str(game.doc.get("title") or game.id).split())
        fight = encounter.add(site, game.id, game.slug, title, src)  # issue 12
        fight += players.add(site, game.id, game.slug, title, src)  # issue 27
        nav.append({nav_title(title): [{"Overview": f"{game.slug}/index.md"}, *fight,
                                       {"Cheat sheet": f"{game.slug}/cheat-sheet.md"},
                                       *_nav(game.items)]})
    nav.append({"Data export": "data.md"})
    # Hand-written pages added to docs/ later still get a place in the menu.
    listed = {"index.md", "data.md"}
    slugs = {g.slug for g, _ in games}
    nav.extend(p for p in sorted(hand_written) if p.endswith(".md") and p not in listed
               and p.split("/", 1)[0] not in slugs)
    return site, nav, [g for g, _ in games]


def _games_list(games: list[Game]) -> str:
    rows = []
    for g in games:
        title = render.heading_text(str(g.doc.get("title") or g.id))
        n_pages = sum(1 for _ in pages_of(g.items))
        tables = sum(_tables(sec) for sec in g.doc["sections"])
        rows.append(f"- **[{title}]({g.slug}/index.md)**: {n_pages} pages, {tables} tables "
                    f"· [cheat sheet]({g.slug}/cheat-sheet.md)")
    return "\n".join(rows) or "No game data extracted yet: run `make data`."


def _data_list(games: list[Game]) -> str:
    return "\n".join(f"- [`data/{g.id}.json`]({'data/' + g.id + '.json'}): "
                     f"{render.heading_text(str(g.doc.get('title') or g.id))}" for g in games)


def fill_markers(markdown: str, games: list[Game]) -> str:
    """A hand-written page with the list of games (docs/index.md) or data files (data.md)."""
    if GAMES_MARKER in markdown:
        markdown = markdown.replace(GAMES_MARKER, _games_list(games))
    if DATA_MARKER in markdown:
        markdown = markdown.replace(DATA_MARKER, _data_list(games))
    return markdown
