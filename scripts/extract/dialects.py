"""Which extraction dialect reads which layout.

Each dialect module exposes
    extract(text: str, source: str, hints: Mapping[str, Any]) -> model.Document
where `source` is the path relative to the repo (e.g. "sources/x.md") and
`hints` is the per-source config (the scripts/hints/*.toml naming it, may be {}).
A source picks its dialect with `dialect = "..."` in its hints file; without
one, `.md` files are read as Markdown and anything else as plain text.
"""

DIALECTS: dict[str, str] = {
    "markdown": "scripts.extract.markdown",  # markdown-it-py, js-default, tables on
    "plaintext": "scripts.extract.plaintext",  # generic headings / paragraphs / lists / tab tables
    "horizon-wiki": "scripts.extract.horizon",  # wiki export with weapon combat profiles
    "cheatsheet-prose": "scripts.extract.cyberpunk",  # run-on cheat-sheet prose
    "space-table": "scripts.extract.d100",  # tables flattened to space-separated text
}


def default_dialect(source: str) -> str:
    return "markdown" if source.lower().endswith((".md", ".markdown")) else "plaintext"
