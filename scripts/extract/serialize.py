"""Document -> JSON, byte-for-byte deterministic (the committed golden files depend on it)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .model import Document


def to_data(obj: Any) -> Any:
    """Dataclasses -> dicts in field order (every block keeps its "type"); tuples -> lists."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_data(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    return obj


def to_json(doc: Document) -> str:
    return json.dumps(to_data(doc), ensure_ascii=False, indent=1) + "\n"
