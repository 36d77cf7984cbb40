"""No silent overwrite: ids count the ids already handed out; two sources, pages or games
that map to one path fail naming both files; a new document never takes a game's folder."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from scripts.extract.pipeline import main
from scripts.extract.util import UniqueIds
from scripts.site import pages

from .corpus import ROOT

pytestmark = pytest.mark.hostile
REAL_DATA = ROOT / "rules_pkg" / "data"


def test_ids_count_the_ids_handed_out() -> None:
    ids = UniqueIds()
    assert [ids(t) for t in ["Attack", "Attack", "Attack 2", "Attack 2", "attack-3",
                             "Attack"]] == ["attack", "attack-2", "attack-2-2", "attack-2-3",
                                            "attack-3", "attack-4"]


def _extract(tmp_path: Path, files: dict[str, str], real: tuple[str, ...] = ()) -> tuple[int, str]:
    src = tmp_path / "sources"
    src.mkdir()
    for name in real:
        shutil.copyfile(ROOT / "sources" / name, src / name)
    for name, text in files.items():
        (src / name).write_text(text, "utf-8")
    out = io.StringIO()
    status = main(["--sources", str(src), "--out", str(tmp_path / "data")], out=out)
    return status, out.getvalue()


def test_two_sources_for_one_folder_fail_naming_both(tmp_path: Path) -> None:
    # data.md takes the folder game-data/ (data/ is the site's own): game-data.md cannot
    status, report = _extract(tmp_path, {"data.md": "# Data\n\nOne.\n",
                                         "game-data.md": "# Game data\n\nTwo.\n"})
    assert status == 1
    assert ("sources/game-data.md: its game id 'game-data' (pages in game-data/) is already "
            "taken by sources/data.md") in report
    assert json.loads((tmp_path / "data" / "data.json").read_text("utf-8"))["title"] == "Data"
    assert not (tmp_path / "data" / "game-data.json").exists()


@pytest.mark.parametrize("name", ["cyberpunk_red.md", "Cyberpunk-Red.md", "cyberpunk-red.txt"])
def test_a_new_document_never_takes_a_games_folder(tmp_path: Path, name: str) -> None:
    real = "cyberpunk-red-combat-cheat-sheet.txt"
    status, report = _extract(tmp_path, {name: "# Fake Cyberpunk\n\nReplaced.\n"}, (real,))
    assert status == 1
    assert f"sources/{name}: its game id 'cyberpunk-red' (pages in cyberpunk-red/) is already " \
        f"taken by sources/{real}" in report
    # the real game's data is the real one, byte for byte
    assert (tmp_path / "data" / "cyberpunk_red.json").read_bytes() == \
        (REAL_DATA / "cyberpunk_red.json").read_bytes()
    assert {p.name for p in (tmp_path / "data").iterdir()} == {"cyberpunk_red.json"}


def test_a_document_sorted_first_cannot_take_a_games_id(tmp_path: Path) -> None:
    # "Horizon.md" sorts before the real file and slugs to the real game's id "horizon"
    real = "horizon-out-of-the-ashes-combat.txt"
    status, report = _extract(tmp_path, {"Horizon.md": "# Fake\n\nReplaced.\n"}, (real,))
    assert status == 1 and f"already taken by sources/{real}" in report
    assert (tmp_path / "data" / "horizon.json").read_bytes() == \
        (REAL_DATA / "horizon.json").read_bytes()


def _doc(game: str, source: str, titles: list[str]) -> dict[str, object]:
    return {"source": source, "game": game, "title": game, "records": {}, "lint": [],
            "sections": [{"id": t.lower().replace(" ", "-"), "title": t, "level": 1,
                          "lines": [i + 1, i + 1], "sections": [],
                          "blocks": [{"type": "paragraph", "text": "x", "inline": "text",
                                      "lines": [i + 1, i + 1]}]}
                         for i, t in enumerate(titles)]}


def test_headings_index_and_section_index_get_two_pages() -> None:
    game = pages.plan_game(_doc("g", "sources/g.md", ["Index", "Section Index", "Cheat Sheet"]))
    assert [(p.path, p.title) for p in pages.pages_of(game.items)] == [
        ("g/section-index.md", "Index"), ("g/section-index-2.md", "Section Index"),
        ("g/section-cheat-sheet.md", "Cheat Sheet")]


def test_two_games_for_one_folder_fail_the_site_build_naming_both(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Data extracted before this check (or by hand) still cannot replace pages."""
    for game, source in (("data", "sources/data.md"), ("game-data", "sources/game-data.md")):
        (tmp_path / f"{game}.json").write_text(json.dumps(_doc(game, source, ["Rules"])))
    monkeypatch.setenv("TABLESIDE_DATA_DIR", str(tmp_path))
    with pytest.raises(pages.SiteError) as err:
        pages.plan_site([])
    message = str(err.value)
    assert "sources/game-data.md" in message and "sources/data.md" in message
    assert "game-data/index.md" in message


def test_a_data_file_with_a_bad_game_id_fails(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "x.json").write_text(json.dumps(_doc("../x", "sources/x.md", ["Rules"])))
    monkeypatch.setenv("TABLESIDE_DATA_DIR", str(tmp_path))
    with pytest.raises(pages.SiteError, match="is not the file's name"):
        pages.plan_site([])
