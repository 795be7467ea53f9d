"""The docstrings of a dataclass and of its fields, read from its source.

Python keeps no docstring for a field at run time: the string literal right after a field in
the class body is read with `ast`. The format page (`grader.spec.format_doc`) writes each check
kind's fields and the ``[game]`` table's from them.
"""

from __future__ import annotations

import ast
import inspect
import sys
import types
from functools import cache

__all__ = ["class_doc", "field_docs", "one_paragraph"]


def field_docs(cls: type) -> dict[str, str]:
    """Each field's docstring, from ``cls`` and the classes it extends (the nearest wins)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        node = _class_node(klass)
        if node is None:
            continue
        for statement, following in zip(node.body, [*node.body[1:], None]):
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                text = _string(following)
                if text is not None:
                    docs[statement.target.id] = one_paragraph(text)
    return docs


def class_doc(cls: type) -> str:
    node = _class_node(cls)
    text = ast.get_docstring(node) if node is not None else None
    return one_paragraph(text) if text else ""


def _class_node(cls: type) -> ast.ClassDef | None:
    module = sys.modules.get(cls.__module__)
    if module is None or cls.__module__ == "builtins":
        return None
    tree = _module_tree(module)
    return next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__),
        None,
    )


@cache
def _module_tree(module: types.ModuleType) -> ast.Module:
    return ast.parse(inspect.getsource(module))


def _string(node: ast.stmt | None) -> str | None:
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        return node.value.value
    return None


def one_paragraph(text: str) -> str:
    """A docstring as one line of text: its paragraphs joined (a list item holds one)."""
    return " ".join(inspect.cleandoc(text).split())
