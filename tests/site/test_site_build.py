"""The build itself: strict, reproducible, and nothing loaded from other hosts."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path
from typing import Any

import pytest

EPOCH = "1767225600"  # 2026-01-01: a fixed SOURCE_DATE_EPOCH for both builds


def _digest(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site.rglob("*")) if p.is_file()}


def test_strict_build_has_every_part(site_dir: Path) -> None:
    for part in ("index.html", "data/index.html", "sitemap.xml", "search/search_index.json",
                 "assets/stylesheets/tableside.css", "assets/stylesheets/print.css",
                 "assets/javascripts/glossary.js", "assets/javascripts/search-snippet.js"):
        assert (site_dir / part).is_file(), part


@pytest.mark.build
def test_two_builds_are_byte_identical(tmp_path: Path, build_site: Any) -> None:
    env = {"SOURCE_DATE_EPOCH": EPOCH}
    a = build_site(tmp_path / "a", env=env, site_url="http://127.0.0.1:8000/")
    b = build_site(tmp_path / "b", env=env, site_url="http://127.0.0.1:8000/")
    da, db = _digest(a), _digest(b)
    assert sorted(da) == sorted(db)
    differ = [f for f in da if da[f] != db[f]]
    assert differ == []
    # The sitemap's dates come from SOURCE_DATE_EPOCH, not the clock.
    assert "<lastmod>2026-01-01</lastmod>" in (a / "sitemap.xml").read_text("utf-8")
    assert gzip.decompress((a / "sitemap.xml.gz").read_bytes()) == (a / "sitemap.xml").read_bytes()


def test_no_google_fonts_or_cdn_in_pages(site_dir: Path) -> None:
    for page in site_dir.rglob("*.html"):
        text = page.read_text("utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
