"""What the per-dialect test files share: the real document, its tables, fixture checks."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from scripts.extract.build import walk_tables
from scripts.extract.model import Document, Table
from scripts.extract.pipeline import run_one
from scripts.extract.serialize import to_json

ROOT = Path(__file__).resolve().parents[2]
Extract = Callable[[str, str, Mapping[str, Any]], Document]


def source_doc(source: Path) -> Document:
    """The real source through the whole pipeline, its own dialect (no fallback) included."""
    res = run_one(source)
    assert not res.failed and res.doc is not None, res.messages
    assert not res.messages, res.messages  # the dialect ran (no plain-text fallback)
    return res.doc


def tables(doc: Document) -> dict[str, Table]:
    return {t.id: t for _, t in walk_tables(doc.sections)}


def extract_fixture(path: Path, extract: Extract) -> str:
    """The dialect's own output (no generic lint), so the expected JSON reviews this dialect."""
    hints = tomllib.loads(path.with_suffix(".toml").read_text("utf-8"))
    return to_json(extract(path.read_text("utf-8"), path.relative_to(ROOT).as_posix(), hints))


def check_fixture(path: Path, extract: Extract) -> None:
    """Expected JSON reviewed by eye; regenerate with UPDATE_FIXTURES=1 and review the diff."""
    got = extract_fixture(path, extract)
    expected = path.with_suffix(".json")
    if os.environ.get("UPDATE_FIXTURES"):
        expected.write_text(got, "utf-8")
    assert json.loads(got) == json.loads(expected.read_text("utf-8"))
