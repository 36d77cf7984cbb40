"""Extraction of sources/* into the structured model (rules_pkg/model.py).

Entry point: `python -m scripts.extract` (scripts/extract/pipeline.py).
Shared helpers for dialects: lines.py (line utilities, RuleChain), build.py (DocBuilder).
"""
