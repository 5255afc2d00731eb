"""The engine's modules import one another without a circle, and only at the top of a module."""

from __future__ import annotations

import ast
from pathlib import Path

import rules.engine

ENGINE = Path(rules.engine.__file__).parent


def _imports() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports (relative imports, any depth)."""
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        graph[path.stem] = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        }
    return graph


def test_no_import_circle():
    graph = _imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for imported in graph.get(module, ()):
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_imports_only_at_module_level():
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        top = {id(node) for node in tree.body}
        nested = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top
        ]
        assert not nested, f"{path.name}: imports inside a block at lines {nested}"
