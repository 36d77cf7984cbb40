"""Which files are sources, which hints each one has, and their names as a report shows them.

A source is a regular file directly inside sources/: a symbolic link (to /etc/passwd, to
../.git/config), a hard link (a second name of a file that may live anywhere on the disk:
a checkout or a copy never makes one), anything else that resolves outside the folder, a
folder, a pipe or a device is refused with its name and the reason, and the rest builds.
The file is opened without following links and checked again once open, so it cannot be
swapped in between.

A hints file (scripts/hints/*.toml) belongs to the one file its `source` names, exactly. A
file that only looks like it (another suffix, case or separator: the same slug) is refused
naming both files, and no game id a hints file declares can go to another file.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from .clean import _REMOVE
from .lines import SourceError
from .util import game_slug, slugify

SUFFIXES = (".md", ".markdown", ".txt")
MAX_BYTES = 64_000_000  # far past any rules document; a bigger file is refused unread

# Every character a terminal may act on or a reader cannot see: C0 (TAB, LF and CR too: a
# newline in a name would forge a line of the report), DEL, C1, bidi, zero-width, tags.
_UNSAFE = re.compile(f"[\t\n\r{_REMOVE}\u2028\u2029]")


def shown(name: str) -> str:
    """A file name as printed: unsafe characters as escapes (ESC -> \\x1b), never raw."""
    def esc(m: re.Match[str]) -> str:
        n = ord(m.group(0))
        return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"
    return _UNSAFE.sub(esc, name)


_ESCAPE = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")


def unshown(name: str) -> str:
    """A name `shown` wrote, without its escapes (for a title made from a file name)."""
    return _ESCAPE.sub("", name)


def label(path: Path) -> str:
    """`sources/<name>` as every message, the data and the pages name a source."""
    return f"sources/{shown(path.name)}"


HARD_LINK = ("a hard link (the file has other names, maybe outside sources/); refused: "
             "a source is a regular file of its own")


def _refusal(path: Path, folder: Path) -> str:
    """Why this entry of sources/ is not a source, or "" if it is one."""
    if path.is_symlink():
        return "a symbolic link; refused: a source is a regular file inside sources/"
    try:
        inside = path.resolve(strict=True).parent == folder
    except OSError as e:
        return f"cannot be read ({e.strerror}); refused"
    if not inside:
        return "resolves outside sources/; refused"
    mode = path.lstat().st_mode
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        return f"{kind}; skipped"
    if path.lstat().st_nlink > 1:
        return HARD_LINK
    return ""


def source_files(folder: Path, only: str | None) -> tuple[list[Path], list[str]]:
    """The sources in `folder` (name order), and one message per entry refused or skipped."""
    real = folder.resolve()
    files: list[Path] = []
    notes: list[str] = []
    for p in sorted(folder.iterdir()):
        if only and p.name != only and p.stem != only:
            continue
        why = _refusal(p, real)
        if not why and p.suffix.lower() not in SUFFIXES:
            why = "skipped (not .md, .markdown or .txt)"
        if why:
            notes.append(f"{label(p)}: {why}")
        else:
            files.append(p)
    return files, notes


def read_source(path: Path) -> bytes:
    """The bytes of a regular file, opened without following a link (SourceError if not)."""
    name = label(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        raise SourceError(name, f"cannot be opened ({e.strerror}); refused") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise SourceError(name, "not a regular file; refused")
        if st.st_nlink > 1:
            raise SourceError(name, HARD_LINK)
        if st.st_size > MAX_BYTES:
            raise SourceError(name, f"{st.st_size:,} bytes, over the {MAX_BYTES:,} a source "
                                    "may have; refused")
        return f.read(MAX_BYTES + 1)


# --- hints ------------------------------------------------------------------------------
def _key(name: str) -> str:
    return slugify(PurePosixPath(name).stem, "document")


@dataclass
class Hints:
    """Every hints file of a folder, by the exact source file name each one names."""

    folder: Path
    by_source: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)  # toml stem -> what is wrong

    @classmethod
    def load(cls, folder: Path) -> Hints:
        index = cls(folder)
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
            try:
                with path.open("rb") as f:
                    data = tomllib.load(f)
            except (OSError, tomllib.TOMLDecodeError) as e:
                index.errors[path.stem] = str(e)
                continue
            source = data.pop("source", None)
            if not isinstance(source, str) or not source:
                index.errors[path.stem] = "it names no `source` (the exact file name it is for)"
            elif source in index.by_source:
                index.errors[path.stem] = (f"`source` {source!r} is named by "
                                           f"{index.by_source[source][0]} too")
            else:
                index.by_source[source] = (f"scripts/hints/{path.name}", data)
        return index

    def of(self, path: Path) -> tuple[dict[str, Any], str]:
        """(a copy of) this exact file's hints, and a message if its hints file is bad."""
        found = self.by_source.get(path.name)
        if found:
            return dict(found[1]), ""
        error = self.errors.get(path.stem)
        if error:
            return {}, f"bad hints file scripts/hints/{shown(path.stem)}.toml ({error})"
        return {}, ""

    def lookalike(self, path: Path) -> str:
        """The file whose hints this one's name imitates (same slug, other name), or ""."""
        if path.name in self.by_source:
            return ""
        key = _key(path.name)
        return next((src for src in self.by_source if _key(src) == key), "")

    def owner(self, game: str, folder: str) -> str:
        """The file a hints file declares this game id (or its folder) for, or ""."""
        for src, (_, data) in self.by_source.items():
            declared = data.get("game")
            if isinstance(declared, str) and (declared == game or game_slug(declared) == folder):
                return src
        return ""
