"""Any title a source can give survives the trip into MkDocs as text: the YAML front matter
reads back to the escaped title, and the escaped title, put into HTML the way Material's
templates put it (unescaped), shows exactly the source's text."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.utils.meta import get_data

from scripts.extract.clean import clean_line
from scripts.site.render import front_matter, heading_text, nav_title

NASTY = st.sampled_from(["<script>alert(1)</script>", "---", ": x", "# y", "\x80", "\x85",
                         "'", '"', "&amp;", "{{ x }}", "\u2028", "\ufeff", "\t", "|", "*", "- "])
TITLES = st.lists(NASTY | st.text(max_size=20), max_size=6).map("".join)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self.tags = "", 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags += 1

    def handle_data(self, data: str) -> None:
        self.text += data


@settings(max_examples=300, deadline=None)
@given(title=TITLES)
def test_a_title_is_text_in_front_matter_and_in_html(title: str) -> None:
    clean = clean_line(title)  # what the extraction leaves of it
    shown = nav_title(clean)
    _, meta = get_data(front_matter({"title": shown}) + "# Body\n")
    assert meta == {"title": shown}
    parser = _Text()
    parser.feed(f"<span>{shown}</span>")
    parser.close()
    assert parser.tags == 1  # no element of its own
    assert parser.text == (" ".join(clean.split()) or "Untitled")


MD_TITLES = st.lists(NASTY | st.sampled_from(["|", "~", "++ctrl+a++", "`c`", "[a](b)", "\\",
                                              "{#id}", "{: .x}", "![i](j)", "_u_", "&#124;"])
                     | st.text(max_size=20), max_size=6).map("".join)


@settings(max_examples=300, deadline=None)
@given(title=MD_TITLES)
def test_a_heading_shows_its_title_as_text(title: str) -> None:
    """Through Python-Markdown with the site's extensions, as the pages' headings go."""
    clean = clean_line(title)
    md = markdown.Markdown(extensions=["attr_list", "def_list", "pymdownx.keys", "toc"])
    out = md.convert(f"# {heading_text(clean)} {{#here}}")
    parser = _Text()
    parser.feed(out)
    parser.close()
    assert out.startswith('<h1 id="here">') and parser.tags == 1, out
    assert parser.text == (" ".join(clean.split()) or "Untitled")
