"""What `make bench`'s Lighthouse step reads (scripts/bench/lighthouse.py, issue 26's
Targets): the pages it audits, and a report's figures and failing audits. Lighthouse itself
is not run here (make bench installs it); no score is asserted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scripts.bench import lighthouse


def _report(a11y: float, contrast: float | None) -> dict[str, Any]:
    """A Lighthouse JSON report (lhr) cut down to what the bench reads."""
    return {
        "categories": {
            "performance": {"score": 0.875, "auditRefs": []},
            "accessibility": {"score": a11y, "auditRefs": [
                {"id": "color-contrast", "weight": 7}, {"id": "manual-check", "weight": 0}]},
            "best-practices": {"score": 1, "auditRefs": [{"id": "deprecations", "weight": 5}]},
        },
        "audits": {
            "total-blocking-time": {"numericValue": 312.5},
            "cumulative-layout-shift": {"numericValue": 0.125},
            "color-contrast": {"score": contrast, "title": "Contrast is too low"},
            "manual-check": {"score": 0, "title": "Check it by hand"},
            "deprecations": {"score": 1, "title": "Avoids deprecated APIs"},
        },
    }


def test_a_report_s_figures_and_its_failing_audits() -> None:
    s = lighthouse.score(_report(0.93, 0))
    assert (s.performance, s.accessibility, s.best_practices) == (88, 93, 100)
    assert (s.tbt_ms, s.cls) == (312.5, 0.125)
    # a weighted audit that failed is named; a manual one (weight 0) and a pass are not
    assert s.failing == ("accessibility: color-contrast (Contrast is too low)",)
    assert lighthouse.score(_report(1, None)).failing == ()  # not applicable: not failed
    slow = _report(1, 1)
    slow["audits"]["total-blocking-time"]["numericValue"] = 1200.0
    slow["audits"]["long-tasks"] = {"details": {"items": [
        {"url": "a.js", "duration": 80}, {"url": "page/", "duration": 900.4},
        {"url": "b.js", "duration": 300}, {"url": "c.js", "duration": 60}]}}
    assert lighthouse.score(slow).failing == (
        "TBT: longest main-thread tasks page/ 900 ms, b.js 300 ms, a.js 80 ms",)


def test_the_table_marks_each_missed_target() -> None:
    s = lighthouse.score(_report(1, 1))
    lines = lighthouse.table({"home": ("", s)})
    row = lines[2]
    assert row.startswith("| home `/` | 88 ✗ | 100 | 100 | 312 ms ✗ | 0.125 ✗ |"), row
    assert lighthouse.median([s, s, lighthouse.score(_report(0.5, 0))]).accessibility == 100


def test_one_page_of_each_kind_is_audited(site_dir: Path) -> None:
    pages = lighthouse.pages(site_dir)
    assert list(pages) == ["home", "weapon page", "cheat sheet", "Encounter page"]
    for path in pages.values():
        assert (site_dir / path / "index.html").is_file()
    assert 'class="ts-encounter"' in (site_dir / pages["Encounter page"] / "index.html").read_text(
        "utf-8")
    assert 'data-calc="horizon.profile_row"' in (
        site_dir / pages["weapon page"] / "index.html").read_text("utf-8")
