"""The import graphs of the project's own code, read from the files (never imported):
Python modules by `ast` (every import statement, at any depth: in a function, and under
`if TYPE_CHECKING:` too, as a type checker follows it), JavaScript modules by their import
and export-from statements and `import("…")` calls with a literal path. An edge points at
a module of the graph only: the standard library, packages and node_modules are left out."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
Graph = dict[str, set[str]]


def python_modules(*packages: str) -> dict[str, Path]:
    """Every module of these top-level packages: dotted name -> file."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def python_graph(*packages: str) -> Graph:
    modules = python_modules(*packages)
    graph: Graph = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = here.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    stem = node.module or ""
                # `from pkg import mod` names a module; `from mod import name` its module
                targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem
                           for a in node.names]
            for target in targets:
                while target and target not in modules:  # import a.b.c: the deepest known
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


_JS_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]"""  # import x from
    r"""|(?:^|[;\s])import\s*['"]([^'"]+)['"]"""  # import "./side-effect.mjs"
    r"""|\bimport\(\s*['"]([^'"]+)['"]\s*\)""",  # import("./lazy.mjs")
    re.M | re.S)


def js_graph(*folders: str) -> Graph:
    files = {p.resolve() for f in folders for ext in ("*.mjs", "*.js")
             for p in (ROOT / f).rglob(ext) if "node_modules" not in p.parts}
    graph: Graph = {}
    for path in sorted(files):
        name = path.relative_to(ROOT).as_posix()
        graph.setdefault(name, set())
        text = re.sub(r"/\*.*?\*/|(?<![:'\"\\])//[^\n]*", "", path.read_text("utf-8"), flags=re.S)
        for m in _JS_IMPORT.finditer(text):
            spec = next(g for g in m.groups() if g)
            if not spec.startswith("."):
                continue  # a package (node_modules) or a URL
            target = (path.parent / spec).resolve()
            if target in files:
                graph[name].add(target.relative_to(ROOT).as_posix())
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[tuple[str, ...]]:
    """Each strongly connected group of two or more modules (Tarjan), its members sorted:
    every import cycle lies within one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[tuple[str, ...]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(tuple(sorted(group)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)
