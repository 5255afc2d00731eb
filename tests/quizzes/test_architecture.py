"""The plan of the house, read from the code's own imports: `rules` is the game alone and imports
nothing of `quizzes`; only the rulings door (`quizzes/rulings/`) and content loading
(`quizzes/loading/`) import the engine; no modules import each other in a loop."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "quizzes", "rules")
ENGINE_CALLERS = ("quizzes/rulings/", "quizzes/loading/")


def _sources() -> dict[str, Path]:
    """Every module of the apps by dotted name (a package by its own name), migrations aside."""
    modules = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


MODULES = _sources()


def _package_of(path: Path) -> list[str]:
    return list(path.relative_to(ROOT).parent.parts)


def _imported(path: Path) -> set[str]:
    """The project's modules `path` imports anywhere in it (in functions too): `from a.b import
    c` names a.b.c when that is a module, else a.b; `from .c import d` is read from its package."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            package = _package_of(path)
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
                for alias in node.names
            ]
        else:
            continue
        found.update(name for name in names if name.split(".")[0] in APPS)
    return found


GRAPH = {name: _imported(path) & MODULES.keys() for name, path in MODULES.items()}
ALL_IMPORTS = {name: _imported(path) for name, path in MODULES.items()}


def _where(name: str) -> str:
    return str(MODULES[name].relative_to(ROOT))


def test_only_the_rulings_door_and_loading_import_the_engine():
    callers = {
        _where(name)
        for name, imported in ALL_IMPORTS.items()
        if not name.startswith("rules.")
        and any(target.startswith("rules.engine") for target in imported)
    }
    assert callers, "the engine has no callers: the test reads nothing"
    assert {path for path in callers if not path.startswith(ENGINE_CALLERS)} == set()


def test_the_game_imports_nothing_of_the_quizzes():
    wrong_way = {
        (_where(name), target)
        for name, imported in ALL_IMPORTS.items()
        if name.startswith("rules")
        for target in imported
        if target.startswith("quizzes")
    }
    assert wrong_way == set()


def test_config_is_beneath_the_apps_but_for_routing_urls():
    reaching = {
        _where(name)
        for name, imported in ALL_IMPORTS.items()
        if name.startswith("config") and any(t.startswith(("quizzes", "rules")) for t in imported)
    }
    assert reaching <= {"config/urls.py"}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), or a module importing
    itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_sees_a_loop():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_modules_import_each_other_in_a_loop():
    # a package's __init__ importing its own modules is how a package says what it offers; a
    # loop is one through other modules too
    graph = {
        name: {
            t
            for t in targets
            if not (t.startswith(name + ".") and MODULES[name].name == "__init__.py")
        }
        for name, targets in GRAPH.items()
    }
    assert _cycles(graph) == []
