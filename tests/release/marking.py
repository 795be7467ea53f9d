"""Turning an answer key into a master notebook, as a course author would mark it: the body of
every function the handout asks students to write (after its docstring) between solution
markers, in nbgrader's or otter's spelling."""

from __future__ import annotations

import ast
import contextlib
import copy

import nbformat
from nbformat import NotebookNode

MARKERS = {"nbgrader": ("### BEGIN SOLUTION", "### END SOLUTION"), "otter": ("# BEGIN SOLUTION", "# END SOLUTION")}


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def defined_functions(notebook: NotebookNode) -> set[str]:
    """The names of every function and method the notebook's code cells define."""
    names: set[str] = set()
    for source in (cell.source for cell in notebook.cells if cell.cell_type == "code"):
        with contextlib.suppress(SyntaxError):
            names.update(node.name for node in _functions(ast.parse(source)))
    return names


def marked_source(source: str, names: set[str], style: str) -> str:
    """``source`` with the bodies of the functions in ``names`` between markers."""
    begin, end = MARKERS[style]
    tree = ast.parse(source)
    lines = source.splitlines()
    functions = [
        n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in names
    ]
    for node in sorted(functions, key=lambda n: n.lineno, reverse=True):
        body = node.body
        if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
            body = body[1:]
        first, last = body[0].lineno, node.end_lineno
        if first == node.lineno or last is None:
            continue
        indent = " " * body[0].col_offset
        lines[last:last] = [indent + end]
        lines[first - 1 : first - 1] = [indent + begin]
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def master_from(solution: NotebookNode, handout: NotebookNode, style: str = "nbgrader") -> NotebookNode:
    """The solution with the handout's functions marked; outputs dropped."""
    names = defined_functions(handout)
    master = copy.deepcopy(solution)
    for cell in master.cells:
        if cell.cell_type == "code":
            with contextlib.suppress(SyntaxError):
                cell.source = marked_source(cell.source, names, style)
            cell.outputs = []
            cell.execution_count = None
    return master


def write_master(solution_path: str, handout_path: str, out: str, style: str = "nbgrader") -> None:
    master = master_from(nbformat.read(solution_path, as_version=4), nbformat.read(handout_path, as_version=4), style)
    nbformat.write(master, out)
