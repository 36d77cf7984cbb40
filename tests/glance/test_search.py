"""Search (issue #11): British and American spellings find each other, snippets show
words, and a result for a heading lands on that heading."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scripts.site.search_terms import add_synonyms, exclude_numeric_cells, load_groups

from .conftest import DESKTOP, PHONE, NewPage


def test_synonym_groups_are_added_to_the_sections_that_need_them() -> None:
    groups = load_groups()
    page = ('<h2 id="armor-save">Armor Save</h2><p>Roll armor.</p>'
            '<h2 id="defence">Defence</h2><p>Your defence.</p><h2 id="x">X</h2><p>none</p>')
    out = add_synonyms(page, groups)
    assert '<p>Roll armor.</p>\n<p class="ts-syn" hidden>armour</p>' in out
    assert '<p>Your defence.</p>\n<p class="ts-syn" hidden>defense</p>' in out
    assert out.count("ts-syn") == 2  # the third section uses none of them


def test_cells_without_words_are_left_out_of_the_index() -> None:
    out = exclude_numeric_cells('<tr><th scope="row">17</th><td>22</td><td>Base</td>'
                                '<td>-10 <span class="ts-flag">⚑</span></td></tr>')
    assert '<th scope="row" data-search-exclude>17</th>' in out
    assert "<td data-search-exclude>22</td>" in out
    assert "<td>Base</td>" in out


def test_the_built_index_has_both_spellings(site_dir: Path) -> None:
    docs = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))["docs"]
    armor = next(d for d in docs if d["location"].endswith("/#armor-save"))
    assert re.search(r"\barmour\b", armor["text"]) and armor["title"] == "Armor Save"
    # snippets: a weapon's section reads as words, not as its 30 rows of numbers
    cannon = next(d for d in docs if d["title"].startswith("Weapon Profile - Hand Cannon"))
    text = re.sub(r"<[^>]+>", " ", cannon["text"])
    assert len(re.findall(r"\b\d+\b", text)) < 15, text[:300]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_armour_save_finds_and_lands_on_armor_save(new_page: NewPage, base_url: str,
                                                   viewport: dict[str, int]) -> None:
    page = new_page(viewport)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)  # no Python needed
    page.goto(base_url, wait_until="domcontentloaded")
    page.keyboard.press("s")  # Material's shortcut to the search box
    page.locator("input.md-search__input").press_sequentially("armour save", delay=30)
    # Material searches on every key: wait for the whole query's results (the wanted
    # section among them), not for the first results of "armour" alone.
    page.locator(".md-search-result__item a[href$='#armor-save']").first.wait_for(
        timeout=30_000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all(
        "as => as.map(a => a.getAttribute('href'))")
    wanted = re.compile(r"forbidden-lands/combat-order/(\?h=[^#]*)?#armor-save$")
    assert any(wanted.search(h) for h in hrefs[:4]), hrefs[:5]  # among the first results
    target = page.locator(".md-search-result__item a[href$='#armor-save']").first
    snippet = target.inner_text()
    assert re.search(r"[A-Za-z]{4,}.*[A-Za-z]{4,}", snippet)  # words around the match
    target.click()
    page.wait_for_url(re.compile(r"#armor-save$"))
    page.wait_for_timeout(1500)
    top = page.locator("#armor-save").evaluate("e => e.getBoundingClientRect().top")
    header = page.locator(".md-header").evaluate("e => e.getBoundingClientRect().bottom")
    assert header - 2 <= top <= header + 40, (top, header)


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_snippet_shows_the_words_around_a_deep_match(new_page: NewPage, base_url: str,
                                                     site_dir: Path,
                                                     viewport: dict[str, int]) -> None:
    """'Scatter Diagram' is ~4,000 characters into d100's Combat Circumstances (one long
    table): its result shows the match on the first screen, with words either side."""
    docs = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))["docs"]
    doc = next(d for d in docs if d["location"] == "d100/combat-circumstances/")
    section = " ".join(re.sub(r"<[^>]+>", " ", doc["text"]).split())
    assert section.index("Scatter Diagram") > 3000  # deep inside a long section
    page = new_page(viewport)
    page.route(re.compile(r"/runtime\.json"), lambda route: None)
    page.goto(base_url, wait_until="domcontentloaded")
    page.keyboard.press("s")
    page.locator("input.md-search__input").press_sequentially("scatter diagram", delay=30)
    # Material renders the results again on every key: read the result's box, its mark and
    # its snippet from one render, in one call (read one by one, a re-render in between
    # once left the mark detached, with no box).
    seen = page.wait_for_function("""() => {
      const article = document.querySelector(
        ".md-search-result__item a[href*='d100/combat-circumstances/'] article");
      const mark = article && [...article.querySelectorAll("mark")]
        .find((m) => m.textContent.includes("Diagram"));
      const snippet = article?.querySelector(".ts-snippet");
      if (!mark || !snippet) return null;
      const box = (e) => { const r = e.getBoundingClientRect();
                           return {y: r.y, height: r.height}; };
      return {box: box(article), mark: box(mark), snippet: snippet.innerText};
    }""", timeout=30_000).json_value()
    box, mark, snippet = seen["box"], seen["mark"], seen["snippet"]
    assert box["height"] < 260, box  # a snippet, not the section
    assert mark["y"] >= 0 and mark["y"] + mark["height"] <= viewport["height"], mark
    before, _, after = snippet.partition("Diagram")
    assert len(re.findall(r"[A-Za-z]{3,}", before)) >= 5, snippet  # words either side
    assert len(re.findall(r"[A-Za-z]{3,}", after)) >= 3, snippet
    # the section's own words, in order, cut at word boundaries
    words = snippet.strip("\u2026 ").strip()
    assert words in section, (words, section[:200])
