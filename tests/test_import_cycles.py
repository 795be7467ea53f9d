"""No module of the grader imports, through others, a module that imports it back: imports at
module level count, those made only for type checking included. (An import inside a function,
made late on purpose so that a light module loads nothing heavy, is not a circle.)"""

from __future__ import annotations

import ast
from pathlib import Path

import grader

ROOT = Path(grader.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_level_imports(path: Path, modules: set[str]) -> set[str]:
    """The grader modules ``path`` imports at module level or under ``if TYPE_CHECKING:``."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for statement in tree.body:
        for node in statement.body if isinstance(statement, ast.If) else [statement]:
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    found.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return found & modules


def _import_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in ROOT.rglob("*.py")}
    modules = set(paths)
    return {name: _module_level_imports(path, modules) - {name} for name, path in paths.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_the_finder_sees_a_circle_made_for_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_the_graph_reads_the_imports_this_package_is_known_to_make() -> None:
    graph = _import_graph()
    assert "grader.check_wording" in graph["grader.results"]
    assert "grader.batch.options" in graph["grader.batch.pool"]


def test_no_grader_modules_import_each_other_in_a_circle() -> None:
    assert _circles(_import_graph()) == []
