"""The extracted model has one set of types (rules_pkg/model.py): the dataclasses
scripts/extract writes, and the TypedDicts of their JSON form that rules_pkg reads."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import get_type_hints

import pytest

import rules_pkg
from rules_pkg import model
from scripts.extract import model as extract_model
from scripts.extract.serialize import to_data

DATA = Path(rules_pkg.__file__).parent / "data"


@pytest.mark.parametrize("cls,form", model.JSON_FORMS,
                         ids=[c.__name__ for c, _ in model.JSON_FORMS])
def test_each_json_form_has_its_dataclass_fields(cls: type, form: type) -> None:
    fields = [f.name for f in dataclasses.fields(cls)]
    assert list(get_type_hints(form)) == fields


def test_the_extractor_writes_the_rules_packages_types() -> None:
    assert extract_model.Table is model.Table and extract_model.Document is model.Document


def _check(value: object, form: type) -> None:
    """`value` (JSON) has exactly the keys of the TypedDict `form`, recursively for blocks,
    rows, items and sections."""
    assert isinstance(value, dict) and list(value) == list(get_type_hints(form)), (form, value)
    nested = {"sections": model.SectionData, "rows": model.RowData, "items": model.ListItemData,
              "children": model.ListItemData, "lint": model.LintData}
    blocks = {"paragraph": model.ParagraphData, "list": model.ListBlockData,
              "table": model.TableData}
    for key, item in value.items():
        if key in nested:
            for x in item:
                _check(x, nested[key])
        elif key == "blocks":
            for b in item:
                _check(b, blocks[b["type"]])


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda p: p.stem)
def test_the_shipped_data_has_the_json_form(path: Path) -> None:
    doc = json.loads(path.read_text("utf-8"))
    _check(doc, model.DocumentData)
    assert to_data(model.Lint("x", 1, "m")) == {"file": "x", "line": 1, "message": "m",
                                                "table": "", "row": -1, "column": -1}
