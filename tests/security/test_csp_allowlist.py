"""The policy's inline-script hashes come from an allow-list computed from the theme's
templates (Material's and overrides/), never from the output: an inline script no template
wrote fails the build, naming the page, and is never hashed."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import render
from scripts.site import csp

THEME_DIRS = render.templates("mkdocs")  # what the finish stage gets for a MkDocs render
BOOT = ('__md_scope=new URL("{base}",location),__md_hash=e=>[...e].reduce(((e,_)=>(e<<5)-e+'
        '_.charCodeAt(0)),0),__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse(_.getItem('
        't.pathname+"."+e)),__md_set=(e,_,t=localStorage,a=__md_scope)=>{{try{{t.setItem('
        'a.pathname+"."+e,JSON.stringify(_))}}catch(e){{}}}}')


def _site(tmp_path: Path, pages: dict[str, str]) -> Path:
    for rel, script in pages.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(f"<html><head><script>{script}</script></head>"
                                    "<body></body></html>", "utf-8")
    return tmp_path


@pytest.mark.parametrize("base", [".", "..", "../..", "../../../x-y_z"])
def test_materials_bootstrap_at_any_depth_is_allowed(base: str) -> None:
    assert csp.allowed(BOOT.format(base=base), THEME_DIRS)


@pytest.mark.parametrize("script", [
    "alert(1)",
    BOOT.format(base='",alert(1),"'),  # a template expression cannot leave its string
    BOOT.format(base=".") + ";alert(1)",  # nor can text be added to a template script
    "",
])
def test_anything_else_is_not(script: str) -> None:
    assert not csp.allowed(script, THEME_DIRS)


def test_an_unknown_inline_script_fails_naming_the_page(tmp_path: Path) -> None:
    site = _site(tmp_path, {"index.html": BOOT.format(base="."),
                            "rules/attack/index.html": "alert(document.domain)"})
    with pytest.raises(csp.UnknownScriptError) as err:
        csp.apply(site, THEME_DIRS)
    assert "rules/attack/index.html: 'alert(document.domain)'" in str(err.value)
    # nothing was written: no page got a policy that would allow it
    assert "Content-Security-Policy" not in (site / "index.html").read_text("utf-8")


def test_known_scripts_are_hashed_into_one_policy(tmp_path: Path) -> None:
    site = _site(tmp_path, {"index.html": BOOT.format(base="."),
                            "a/index.html": BOOT.format(base="..")})
    policy = csp.apply(site, THEME_DIRS)
    for base in (".", ".."):
        assert csp.script_hash(BOOT.format(base=base)) in policy
    assert csp.script_hash("alert(1)") not in policy
