"""sources/* -> rules_pkg/data/<game>.json, plus the lint report.

For each source (scripts/extract/files.py: regular files inside sources/ only): read its
hints (the scripts/hints/*.toml whose `source` is its exact file name), pick its dialect
(scripts/extract/dialects.py), extract a Document, add the generic table lint
(scripts/extract/lint.py) and serialise it (scripts/extract/serialize.py).
A dialect that is missing or crashes never stops the build: the source is read
as plain text and the report says so.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from . import inline_cap
from . import lint as generic_lint
from .clean import clean_text
from .dialects import DIALECTS, default_dialect
from .files import Hints, label, read_source, shown, source_files
from .lines import SourceError, check_text, decode_source
from .model import Document, Lint
from .serialize import to_json
from .util import game_slug, slugify

ROOT = Path(__file__).resolve().parents[2]
HINTS = ROOT / "scripts" / "hints"

Extractor = Callable[[str, str, Mapping[str, Any]], Document]


@dataclass
class Outcome:
    source: str
    doc: Document | None = None
    messages: list[str] = field(default_factory=list)  # warnings/errors, one line each
    failed: bool = False
    declared: bool = False  # its hints file names its game: it keeps that id and folder
    clash: bool = False  # refused for taking another file's hints: fails the build


def load_hints(stem: str, hints_dir: Path | None = None) -> dict[str, Any]:
    """The hints of the real source with this stem (tests read them)."""
    hints = Hints.load(hints_dir or HINTS)
    return next((dict(h) for src, (_, h) in hints.by_source.items()
                 if Path(src).stem == stem), {})


def dialect_extractor(name: str, source: str) -> tuple[Extractor, str]:
    """The dialect's extract(), or the plain-text one with a warning when it is not there yet."""
    fallback: Extractor = importlib.import_module("scripts.extract.plaintext").extract
    module = DIALECTS.get(name)
    if module is None:
        return fallback, f"{source}: unknown dialect {name!r}; read as plain text"
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        return fallback, (f"{source}: dialect {name!r} ({module}) is not written yet; "
                          "read as plain text")
    fn: Extractor | None = getattr(mod, "extract", None)
    if not callable(fn):
        return fallback, f"{source}: dialect {name!r} ({module}) has no extract(); plain text"
    return fn, ""


def extract_text(text: str, source: str, hints: Mapping[str, Any]) -> tuple[Document, list[str]]:
    """Extract one source's text with its dialect, and lint it; SourceError if it is unreadable.

    Control and invisible characters are removed first (scripts/extract/clean.py) and each
    removal is reported with its line: no dialect, and so no page, ever sees them."""
    check_text(text, source)
    text, removed = clean_text(text, source)
    name = hints.get("dialect") or default_dialect(source)
    fn, warning = dialect_extractor(str(name), source)
    messages = [warning] if warning else []
    try:
        doc = fn(text, source, hints)
    except SourceError:
        raise
    except Exception as e:  # a dialect bug must not stop the build: fall back, say so
        if DIALECTS.get(str(name)) == DIALECTS["plaintext"] or warning:
            raise  # the fallback itself failed: a bug to fix, not to hide
        messages.append(f"{source}: dialect {name!r} failed ({type(e).__name__}: {e}); "
                        "read as plain text")
        doc = dialect_extractor("plaintext", source)[0](text, source, hints)
    if not doc.sections:
        raise SourceError(source, "no text to show: the document is only markup (e.g. rules '***')")
    if isinstance(hints.get("game"), str) and doc.game != hints["game"]:
        doc = replace(doc, game=hints["game"])
    doc, capped = inline_cap.cap(doc)
    found = generic_lint.lint_document(doc)
    return replace(doc, lint=merge_lint(doc.lint, found, removed, capped)), messages


def extract_bytes(data: bytes, source: str, hints: Mapping[str, Any]) -> tuple[Document, list[str]]:
    return extract_text(decode_source(data, source), source, hints)


def merge_lint(*groups: tuple[Lint, ...] | list[Lint]) -> tuple[Lint, ...]:
    """Dialect and generic findings, without duplicates, in line order."""
    seen: dict[tuple[int, str, str, int, int], Lint] = {}
    for group in groups:
        for item in group:
            seen.setdefault((item.line, item.message, item.table, item.row, item.column), item)
    return tuple(sorted(seen.values(), key=lambda x: (x.line, x.table, x.row, x.column, x.message)))


def run_one(path: Path, hints: Hints | None = None) -> Outcome:
    # The name as text: no control character reaches the report, the data or the pages.
    source = label(path)
    out = Outcome(source)
    index = hints or Hints.load(HINTS)
    real = index.lookalike(path)
    if real:
        out.messages.append(f"{source}: looks like sources/{shown(real)}, whose hints "
                            f"({index.by_source[real][0]}) are for that file only; not "
                            "extracted: rename it")
        out.failed = out.clash = True
        return out
    own, problem = index.of(path)
    if problem:
        out.messages.append(f"{source}: {problem}")
    out.declared = isinstance(own.get("game"), str) and bool(own["game"])
    own.setdefault("game", slugify(path.stem, "document"))
    try:
        out.doc, msgs = extract_bytes(read_source(path), source, own)
        out.messages.extend(msgs)
    except SourceError as e:
        out.messages.append(f"{e}; skipped" if not str(e).endswith("refused") else str(e))
        out.failed = True
    except RecursionError:
        out.messages.append(f"{source}: structure nested too deeply to read; skipped")
        out.failed = True
    return out


def write_atomic(path: Path, text: str) -> bool:
    """Write only on change; tmp file + os.replace, so a reader never sees half a file."""
    if path.is_file() and path.read_text("utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m scripts.extract", description=__doc__)
    ap.add_argument("--check", action="store_true",
                    help="regenerate in memory; fail if rules_pkg/data differs (golden test)")
    ap.add_argument("--only", metavar="SOURCE", help="only this source (file name or stem)")
    ap.add_argument("--sources", type=Path, default=ROOT / "sources")
    ap.add_argument("--out", type=Path, default=ROOT / "rules_pkg" / "data")
    ap.add_argument("--hints", type=Path, default=HINTS)
    args = ap.parse_args(argv)

    def say(line: str) -> None:
        """One line of the report; no character in it can act on a terminal (a file name's
        ESC or newline, a cell's TAB) or forge a line: scripts/extract/files.py shown()."""
        print(shown(line), file=out)

    failed = differs = findings = clashes = 0
    games: dict[str, str] = {}  # game id -> source
    folders: dict[str, str] = {}  # the game's folder of pages -> source
    hints = Hints.load(args.hints)
    files, notes = source_files(args.sources, args.only)
    for note in notes:
        say(note)
    outcomes = [run_one(path, hints) for path in files]
    # Games named in a hints file go first: a new document can never take their id or folder.
    for res in sorted(outcomes, key=lambda o: not o.declared):
        for m in res.messages:
            say(m)
        if res.clash:
            clashes += 1
            continue
        if res.failed or res.doc is None:
            failed += 1  # reported above; the other sources still build
            continue
        doc = res.doc
        slug = game_slug(doc.game)
        owner = "" if res.declared else hints.owner(doc.game, slug)
        other = games.get(doc.game) or folders.get(slug) or (
            owner and f"sources/{shown(owner)} (its hints file)")
        if other:
            say(f"{res.source}: its game id {doc.game!r} (pages in {slug}/) is already taken "
                f"by {other}; not written: give it another `game` in a hints file "
                "(scripts/hints/) naming it as its `source`")
            clashes += 1
            continue
        games[doc.game] = folders[slug] = res.source
        for item in doc.lint:
            say(str(item))
        findings += len(doc.lint)
        target = args.out / f"{doc.game}.json"
        text = to_json(doc)
        if args.check:
            old = target.read_text("utf-8") if target.is_file() else ""
            if old != text:
                differs += 1
                diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(),
                                                 str(target), "regenerated", n=0, lineterm=""))
                say(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: "
                    f"differs from a fresh extraction ({len(diff)} diff lines):")
                for line in diff[:20]:
                    say("  " + line)
        elif write_atomic(target, text):
            say(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
    if args.check and not args.only and not failed and args.out.is_dir():
        for extra in sorted(set(p.stem for p in args.out.glob("*.json")) - set(games)):
            say(f"{extra}.json: no source extracts to it (stale data file?)")
            differs += 1
    print(f"{findings} lint finding(s), {failed} unreadable source(s)"
          + (f", {clashes} source(s) clashing with another" if clashes else "")
          + (f", {differs} data file(s) out of date (run `make data`)" if differs else ""),
          file=out)
    # An unreadable source is skipped (reported above); a clash or stale data fails the build.
    return 1 if clashes or differs else 0
