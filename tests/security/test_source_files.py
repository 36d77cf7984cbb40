"""Sources are regular files inside sources/ (issue #24): a symbolic link, or anything that
resolves outside the folder, is refused with its name and reason and the rest builds; hints
belong to one exact file name, so a look-alike of a game's file fails the build naming both
files and writes no data; a file name with terminal escapes or a newline is printed escaped
in every message of `make data` (python -m scripts.extract)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.extract.files import shown
from scripts.extract.pipeline import main
from scripts.extract.util import slugify

from .corpus import ROOT

pytestmark = pytest.mark.hostile
REAL_DATA = ROOT / "rules_pkg" / "data"
D100 = "d100-combat-circumstances-and-status-effects.txt"
MECHA = "mecha-d10-non-mecha-combat.md"
SECRET = "root:x:0:0:SECRET-MARKER-do-not-publish:/root:/bin/bash\n"


def _sources(tmp_path: Path, real: tuple[str, ...] = (MECHA,)) -> Path:
    src = tmp_path / "sources"
    src.mkdir()
    for name in real:
        shutil.copyfile(ROOT / "sources" / name, src / name)
    return src


def _extract(tmp_path: Path, src: Path) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["--sources", str(src), "--out", str(tmp_path / "data")], out=out)
    return status, out.getvalue()


def _written(tmp_path: Path) -> set[str]:
    return {p.name for p in (tmp_path / "data").glob("*.json")}


# --- symbolic links and other files that are not sources -----------------------------------
def test_symlinks_and_paths_outside_sources_are_refused_and_the_rest_builds(
        tmp_path: Path) -> None:
    src = _sources(tmp_path)
    secret = tmp_path / "passwd"
    secret.write_text(SECRET, "utf-8")
    git = tmp_path / ".git"
    git.mkdir()
    (git / "config").write_text("[remote]\nurl = SECRET-MARKER\n", "utf-8")
    (src / "notes.txt").symlink_to(secret)  # ln -s /etc/passwd sources/notes.txt
    (src / "config.md").symlink_to("../.git/config")  # a relative link out of the folder
    (src / "mirror.md").symlink_to(MECHA)  # even a link to a real source is not one
    (src / "dangling.md").symlink_to(tmp_path / "missing.md")
    (src / "folder.md").symlink_to(tmp_path, target_is_directory=True)
    (src / "rules.md").mkdir()
    os.mkfifo(src / "pipe.md")  # reading it would block the build for ever
    status, report = _extract(tmp_path, src)
    assert status == 0, report
    link = "a symbolic link; refused: a source is a regular file inside sources/"
    for name in ("notes.txt", "config.md", "mirror.md", "dangling.md", "folder.md"):
        assert f"sources/{name}: {link}" in report.splitlines(), (name, report)
    assert "sources/rules.md: a folder; skipped" in report
    assert "sources/pipe.md: not a regular file; skipped" in report
    assert _written(tmp_path) == {"mecha.json"}  # the rest builds
    assert (tmp_path / "data" / "mecha.json").read_bytes() == \
        (REAL_DATA / "mecha.json").read_bytes()
    assert "SECRET-MARKER" not in report


def test_a_hard_link_is_refused_and_the_rest_builds(tmp_path: Path) -> None:
    """A hard link is a regular file to every check above, but its bytes are another file's
    (ln /etc/passwd sources/notes.txt, where the disk allows it): refused by its link count."""
    src = _sources(tmp_path)
    secret = tmp_path / "passwd"
    secret.write_text(SECRET, "utf-8")
    os.link(secret, src / "notes.txt")
    os.link(src / MECHA, src / "copy.md")  # two names of one source: neither is published
    status, report = _extract(tmp_path, src)
    assert status == 0, report
    why = ("a hard link (the file has other names, maybe outside sources/); refused: "
           "a source is a regular file of its own")
    for name in ("notes.txt", "copy.md", MECHA):
        assert f"sources/{name}: {why}" in report.splitlines(), (name, report)
    assert _written(tmp_path) == set()
    assert "SECRET-MARKER" not in report


def test_a_file_swapped_for_a_link_after_listing_is_not_followed(tmp_path: Path) -> None:
    """read_source opens without following links: a race after the listing gains nothing."""
    from scripts.extract.files import read_source
    from scripts.extract.lines import SourceError

    secret = tmp_path / "passwd"
    secret.write_text(SECRET, "utf-8")
    (tmp_path / "x.md").symlink_to(secret)
    with pytest.raises(SourceError, match=r"^sources/x\.md: cannot be opened .*; refused$"):
        read_source(tmp_path / "x.md")


# --- look-alikes: hints, id, folder and data belong to one exact file -----------------------
@pytest.mark.parametrize("fake", [
    "d100-combat-circumstances-and-status-effects.md",  # the case: sorts first
    "D100-Combat-Circumstances-and-Status-Effects.txt",
    "d100_combat_circumstances_and_status_effects.txt",
])
def test_a_look_alike_fails_the_build_naming_both_and_writes_nothing(
        tmp_path: Path, fake: str) -> None:
    src = _sources(tmp_path, (D100,))
    (src / fake).write_text("# Fake d100\n\nReplaced rules.\n", "utf-8")
    status, report = _extract(tmp_path, src)
    assert status == 1, report
    line = next(ln for ln in report.splitlines() if ln.startswith(f"sources/{fake}:"))
    assert line == (f"sources/{fake}: looks like sources/{D100}, whose hints (scripts/hints/"
                    "d100-combat-circumstances-and-status-effects.toml) are for that file "
                    "only; not extracted: rename it")
    assert "1 source(s) clashing with another" in report
    # the genuine file is not blamed, and keeps its data byte for byte
    assert not any(ln.startswith(f"sources/{D100}: its game id") for ln in report.splitlines())
    assert _written(tmp_path) == {"d100.json"}
    assert (tmp_path / "data" / "d100.json").read_bytes() == (REAL_DATA / "d100.json").read_bytes()


def test_a_look_alike_alone_never_writes_the_games_data(tmp_path: Path) -> None:
    src = _sources(tmp_path, ())
    (src / "d100-combat-circumstances-and-status-effects.md").write_text("# Fake\n\nx\n")
    status, report = _extract(tmp_path, src)
    assert status == 1 and f"looks like sources/{D100}" in report
    assert _written(tmp_path) == set()


@pytest.mark.parametrize("fake", ["d100.md", "cyberpunk_red.txt"])
def test_a_new_file_never_takes_a_declared_game_id_even_when_its_file_is_absent(
        tmp_path: Path, fake: str) -> None:
    src = _sources(tmp_path, ())
    (src / fake).write_text("# Fake\n\nReplaced.\n", "utf-8")
    status, report = _extract(tmp_path, src)
    assert status == 1
    assert re.search(rf"^sources/{re.escape(fake)}: its game id '[a-z0-9_-]+' \(pages in "
                     r"[a-z0-9-]+/\) is already taken by sources/\S+ \(its hints file\)",
                     report, re.M), report
    assert _written(tmp_path) == set()


def test_hints_without_their_file_name_are_not_used(tmp_path: Path) -> None:
    src = _sources(tmp_path, ())
    (src / "sheet.txt").write_text("Sheet\n\nMoves\n\n- walk\n", "utf-8")
    hints = tmp_path / "hints"
    hints.mkdir()
    (hints / "sheet.toml").write_text('game = "d100"\n', "utf-8")  # no `source`
    out = io.StringIO()
    status = main(["--sources", str(src), "--out", str(tmp_path / "data"), "--hints",
                   str(hints)], out=out)
    assert status == 0
    assert ("sources/sheet.txt: bad hints file scripts/hints/sheet.toml (it names no `source` "
            "(the exact file name it is for))") in out.getvalue()
    assert _written(tmp_path) == {"sheet.json"}


# --- terminal-safe output ----------------------------------------------------------------------
ESC_NAMES = {
    "clear-\x1b[2J\x1b]0;pwned\x07.md": b"# Colour\n\nText.\n",  # clears the screen, retitles
    "forged\nwrote d100.json\n.md": b"# Forged\n\nText.\n",  # forges lines
    "c1-\x9b31m-tab\tcr\r.txt": b"",  # an empty file: reported and skipped
    "bidi-\u202egnp.md": b"# Bidi\n\nText.\n",
    "link-\x1b[31m.md": None,  # a symbolic link
    "other-\x1b[5m.pdf": b"%PDF",  # not a source suffix
}


def test_file_names_are_escaped_in_every_message_of_make_data(tmp_path: Path) -> None:
    src = _sources(tmp_path, ())
    for name, data in ESC_NAMES.items():
        if data is None:
            (src / name).symlink_to(tmp_path)
        else:
            (src / name).write_bytes(data)
    # a lint message quoting a cell with a TAB in it (a TAB is kept in the text)
    (src / "tab-cell.md").write_text("# Tab\n\n| Name | Roll |\n|---|---|\n| a | 1 |\n"
                                     "| b | 2 |\n| c | 3 |\n| d | x\ty |\n", "utf-8")
    # the look-alike of a game's file, named with escapes too
    (src / "d100-combat-circumstances-and-status\u200b-effects.md").write_text("# x\n\ny\n")
    proc = subprocess.run([sys.executable, "-m", "scripts.extract", "--sources", str(src),
                           "--out", str(tmp_path / "data")], cwd=ROOT, capture_output=True,
                          timeout=120)
    out = proc.stdout.decode("utf-8")
    assert proc.stderr == b""
    # not one control, bidi or invisible character: only the report's own line ends
    bad = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
    assert bad.search(out) is None, repr(out)
    lines = out.splitlines()
    # no forged line: every line names a source (escaped), a written file or the summary
    written = [ln for ln in lines if ln.startswith("wrote ")]
    assert all(ln.startswith(("sources/", "wrote ")) for ln in lines[:-1]), lines
    assert not any("d100.json" in ln for ln in written)
    for name, data in ESC_NAMES.items():
        if data and b"# " in data:  # read: the data names it escaped
            doc = json.loads((tmp_path / "data" / f"{slugify(Path(name).stem)}.json").read_text())
            assert doc["source"] == f"sources/{shown(name)}"
        else:  # refused or skipped: the message names it escaped
            assert any(ln.startswith(f"sources/{shown(name)}: ") for ln in lines), (name, lines)
    assert 'sources/tab-cell.md:8: column "Roll" is "x\\x09y" where the column' in out
    assert re.search(r"^sources/d100-combat-circumstances-and-status\\u200b-effects\.md: "
                     rf"looks like sources/{D100}", out, re.M)
