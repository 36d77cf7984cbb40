"""A pathological line is capped (issue #24): each '[' that opens no link costs
markdown-it-py ~55 µs, so a 1 MB line of '[' held the build for about a minute. A
document's Markdown blocks keep their Markdown while their '[' stay within
inline_cap.BRACKETS; past it a block is shown as plain text and the lint says so."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest

from scripts.extract import inline_cap
from scripts.extract.pipeline import main
from scripts.site import pages

pytestmark = pytest.mark.hostile
LIMIT = inline_cap.BRACKETS


def _extract(tmp_path: Path, text: str) -> tuple[str, dict[str, Any]]:
    src = tmp_path / "sources"
    src.mkdir()
    (src / "brackets.md").write_text(text, "utf-8")
    out = io.StringIO()
    assert main(["--sources", str(src), "--out", str(tmp_path / "data")], out=out) == 0
    doc = json.loads((tmp_path / "data" / "brackets.json").read_text("utf-8"))
    return out.getvalue(), doc


def _blocks(doc: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def walk(sections: list[dict[str, Any]]) -> None:
        for s in sections:
            found.extend(s["blocks"])
            walk(s["sections"])
    walk(doc["sections"])
    return found


def test_a_1_mb_line_of_brackets_is_plain_text_with_a_lint_message(tmp_path: Path) -> None:
    text = ("# Brackets\n\nA [real link](#brackets) stays a link.\n\n" + "[" * 1_000_000
            + "\n\n- an item with [a link](#brackets)\n")
    report, doc = _extract(tmp_path, text)
    assert (f"sources/brackets.md:5: 1,000,000 '[' in one paragraph, past the {LIMIT:,} a "
            "document may have as Markdown: shown as plain text") in report.splitlines()
    first, big, items = _blocks(doc)
    assert (first["inline"], big["inline"], items["inline"]) == ("markdown", "text", "markdown")
    assert big["text"] == "[" * 1_000_000  # the text itself is kept, as the source has it
    assert next(i for i in doc["lint"] if "'['" in i["message"])["line"] == 5
    # the pages of the document render in well under a second of CPU, links still links
    start = time.process_time()
    game = pages.plan_game(doc)
    placement: Any = (lambda g, t: [], lambda g, ids: [], lambda g, s: [])
    rendered = [pages.render_page(game, p, placement) for p in pages.pages_of(game.items)]
    cpu = time.process_time() - start
    print(f"\n1 MB line of '[': pages rendered in {cpu:.2f} s CPU")
    assert cpu < 5, cpu
    html = "".join(rendered)
    assert html.count('<a href="#brackets">') == 2 and "[" * 1000 in html


def test_the_budget_is_per_document_and_blocks_within_it_stay_markdown(tmp_path: Path) -> None:
    half = LIMIT // 2
    blocks = ["[" * half + " [ok](#a)", "[" * (half - 2) + " [ok](#b)", "[x](#c) " + "[" * 10]
    report, doc = _extract(tmp_path, "# Budget\n\n" + "\n\n".join(blocks) + "\n")
    found = _blocks(doc)
    # 10,001 + 9,999 = exactly the budget: both Markdown; the third is past it
    assert [b["inline"] for b in found] == ["markdown", "markdown", "text"]
    assert "sources/brackets.md:7: 11 '[' in one paragraph" in report
