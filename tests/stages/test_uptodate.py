"""`make site` builds again exactly when the site would differ (scripts/uptodate.py): an
input's content, the URL, the generator, a TABLESIDE_* setting, or what is in site/ itself.
A checkout of its own (git init in a temporary folder) stands in for the repository."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from scripts import uptodate

URL = "http://127.0.0.1:8000/"


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / "sources").mkdir(parents=True)
    (root / "sources" / "game.md").write_text("| a | b |\n", "utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_x.py").write_text("x = 1\n", "utf-8")
    (root / "site").mkdir()
    (root / "site" / "index.html").write_text("<p>built</p>", "utf-8")
    (root / ".gitignore").write_text("/site/\n/build/\n", "utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    monkeypatch.setattr(uptodate, "ROOT", root)
    monkeypatch.setattr(uptodate, "KEY_FILE", root / "build" / "site.key")
    for k in [k for k in os.environ if k.startswith("TABLESIDE_")]:
        monkeypatch.delenv(k)
    return root


def _check(root: Path, generator: str = "mkdocs", url: str = URL) -> int:
    return uptodate.main(["check", str(root / "site"), generator, url])


def _mark(root: Path) -> None:
    assert uptodate.main(["mark", str(root / "site"), "mkdocs", URL]) == 0


def test_never_built_is_stale_and_a_marked_build_is_fresh(checkout: Path) -> None:
    assert _check(checkout) == 1
    _mark(checkout)
    assert _check(checkout) == 0


# An edit after a build, and whether the next `make site` builds again (1) or not (0).
EDITS: dict[str, tuple[Callable[[Path], object], int]] = {
    "an edited source": (lambda r: (r / "sources" / "game.md").write_text("| a | c |\n"), 1),
    "a source found online": (lambda r: (r / "sources" / "new.md").write_text("# new\n"), 1),
    "an edited test": (lambda r: (r / "tests" / "test_x.py").write_text("x = 2\n"), 0),
    "a stray file in site/": (lambda r: (r / "site" / "extra.html").write_text("stray"), 1),
    "site/ half gone": (lambda r: (r / "site" / "index.html").unlink(), 1),
}


@pytest.mark.parametrize("edit", EDITS)
def test_an_edit_builds_again_exactly_when_the_site_would_differ(checkout: Path,
                                                                 edit: str) -> None:
    _mark(checkout)
    change, builds = EDITS[edit]
    change(checkout)
    assert _check(checkout) == builds


def test_another_url_generator_or_setting_rebuilds(checkout: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _mark(checkout)
    assert _check(checkout, url="http://127.0.0.1:8001/") == 1
    assert _check(checkout, generator="zensical") == 1
    monkeypatch.setenv("TABLESIDE_SNAPSHOT", "0")
    assert _check(checkout) == 1
    monkeypatch.setenv("TABLESIDE_QUIET", "1")  # quiet output: the same site
    monkeypatch.delenv("TABLESIDE_SNAPSHOT")
    assert _check(checkout) == 0


def test_outside_a_git_checkout_it_always_builds(checkout: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _mark(checkout)
    monkeypatch.setattr(uptodate, "_inputs", lambda: None)
    assert _check(checkout) == 1
