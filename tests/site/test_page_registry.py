"""The registry entries a page carries (scripts/site/page_registry.py): exactly registry.json's,
and never markup, whatever text an entry holds."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scripts.site import page_registry
from scripts.site.runtime import registry_json


class _Attrs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def parse(markup: str) -> list[tuple[str, dict[str, str | None]]]:
    p = _Attrs()
    p.feed(markup)
    return p.tags


def test_entries_are_registry_json_s() -> None:
    every = {c["id"]: c for c in json.loads(registry_json())}
    ids = ["d100.test", "horizon.attack"]
    tags = parse(page_registry.block(ids))
    assert [t for t, _ in tags] == ["div"]
    attrs = tags[0][1]
    assert attrs["class"] == "ts-registry" and "hidden" in attrs
    assert json.loads(attrs["data-registry"] or "") == [every[i] for i in ids]


def test_hostile_text_stays_in_the_attribute(monkeypatch: pytest.MonkeyPatch) -> None:
    nasty = "</div><script>alert(1)</script>' onmouseover='x' & \"q\""
    entry = json.dumps({"id": "g.x", "title": nasty}, ensure_ascii=False)
    monkeypatch.setattr(page_registry, "_entries", lambda: {"g.x": entry})
    tags = parse(page_registry.block(["g.x", "g.missing"]))
    assert [t for t, _ in tags] == ["div"]  # no script, no second element
    assert set(tags[0][1]) == {"class", "hidden", "data-registry"}  # no injected attribute
    assert json.loads(tags[0][1]["data-registry"] or "") == [{"id": "g.x", "title": nasty}]


def test_a_page_lists_its_calculators_once_in_page_order() -> None:
    text = ('<div class="ts-calc" data-calc="b.y" data-preset=\'{}\'></div>\n'
            '<div class="ts-calc" data-calc="a.x" data-preset=\'{}\'></div>\n'
            '<div class="ts-calc" data-calc="b.y" data-preset=\'{"k": 1}\'></div>')
    assert page_registry.calculator_ids(text) == ["b.y", "a.x"]
    assert page_registry.with_registry("no calculators here\n") == "no calculators here\n"


def test_every_built_page_carries_the_entries_of_its_calculators(site_dir: Path) -> None:
    every = {c["id"]: c for c in json.loads(registry_json())}
    pages = 0
    for html in site_dir.rglob("index.html"):
        text = html.read_text("utf-8")
        hosts = [a["data-calc"] for t, a in parse(text) if "ts-calc" in (a.get("class") or "")]
        if not hosts:
            continue
        pages += 1
        blocks = [a for t, a in parse(text) if a.get("class") == "ts-registry"]
        assert len(blocks) == 1, html
        carried = json.loads(blocks[0]["data-registry"] or "")
        assert [c["id"] for c in carried] == list(dict.fromkeys(hosts)), html
        assert all(c == every[c["id"]] for c in carried), html
    assert pages >= 20
