"""The render stage's reading of the `<style>` texts a generator's script writes (Zensical's
search dialog): the finish stage's policy allows exactly these, by hash."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.render import injected_styles


def _bundle(tmp_path: Path, code: str) -> Path:
    js = tmp_path / "assets" / "javascripts"
    js.mkdir(parents=True)
    (js / "bundle.0123abcd.min.js").write_text(code, "utf-8")
    return tmp_path


def test_the_style_text_is_the_literal_the_bundle_writes(tmp_path: Path) -> None:
    # Minified as Zensical 0.0.73 ships it: a var list, the element built by C(tag, attrs, text).
    code = (r"""var a=1,Tc='.q:before{content:"\\201c"}\'x\'\n.y{\u00a0}',Uc="z";"""
            r"""function Sc(){o.appendChild(C("style",{},Tc.toString()))}""")
    site = _bundle(tmp_path, code)
    assert injected_styles("zensical", site) == ['.q:before{content:"\\201c"}\'x\'\n.y{\xa0}']


def test_a_literal_passed_by_name_without_toString(tmp_path: Path) -> None:
    site = _bundle(tmp_path, 'let s="a{b:c}";x.append(h("style",{},s))')
    assert injected_styles("zensical", site) == ["a{b:c}"]


@pytest.mark.parametrize("code", ['o.appendChild(C("style",{},css()))',  # not a literal
                                  'var s="\\101";o.append(C("style",{},s))',  # octal
                                  'o.appendChild(C("div",{},"x"))'])   # no style at all
def test_a_style_render_cannot_read_stops_the_build(tmp_path: Path, code: str) -> None:
    with pytest.raises(SystemExit, match="render: "):
        injected_styles("zensical", _bundle(tmp_path, code))


def test_material_writes_no_style(tmp_path: Path) -> None:
    assert injected_styles("mkdocs", tmp_path) == []
