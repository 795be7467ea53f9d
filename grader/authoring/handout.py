"""A handout made from the solution when the author gives none: every function and method
keeps its signature and docstring, and its body becomes `raise NotImplementedError`."""

from __future__ import annotations

import ast
import copy

from nbformat import NotebookNode

_TODO = 'raise NotImplementedError("write this function")'


def _function_nodes(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    nodes: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nodes.append(node)
        elif isinstance(node, ast.ClassDef):
            nodes.extend(n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return nodes


def _has_docstring(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    first = node.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def stub_source(source: str) -> str:
    """``source`` with each function's body replaced; unchanged when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    lines = source.splitlines()
    for node in sorted(_function_nodes(tree), key=lambda n: n.lineno, reverse=True):
        body = node.body[1:] if _has_docstring(node) else node.body
        # A docstring-only function stays; a body on the `def` line is left as written.
        if not body or body[0].lineno == node.lineno or node.end_lineno is None:
            continue
        start = body[0].lineno
        indent = " " * body[0].col_offset
        lines[start - 1 : node.end_lineno] = [indent + _TODO]
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def handout_from(solution: NotebookNode) -> NotebookNode:
    """The solution with its functions emptied and its outputs cleared."""
    handout = copy.deepcopy(solution)
    for cell in handout.cells:
        if cell.cell_type == "code":
            cell.source = stub_source(cell.source)
            cell.outputs = []
            cell.execution_count = None
    return handout
