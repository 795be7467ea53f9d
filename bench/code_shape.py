"""The shape of the code, for a closing note's before/after: the largest modules, the longest
functions, the fields of `CheckResult`, the places that compare a predicate's expectation with
a string and the mentions of ``depends_on``, in the working tree and at any commit, side by side.

    .venv/bin/python bench/code_shape.py [REV ...] [--top 8]

Each column is one tree (the working tree first, then each REV as git stores it); only
``grader/`` and ``reference/`` are read. A function's length counts its lines from ``def`` to
its last line, docstring and comments included.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("grader", "reference")


@dataclass(frozen=True)
class Shape:
    name: str
    modules: list[tuple[int, str]]
    functions: list[tuple[int, str]]
    result_fields: int
    expect_compares: list[str]
    depends_on: int


def _names_expectation(node: ast.expr, module: str) -> bool:
    """A predicate's expectation as the checks name it (``expect``), and the kernel stand-in
    (``role``; elsewhere a role is init's name for what a function does)."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name == "expect" or (name == "role" and module.startswith("grader/execution/channel/"))


def _is_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_text(e) for e in node.elts)


def _expect_compares(name: str, tree: ast.AST) -> list[str]:
    """``expect == "wins"``, ``role in ("winner", "outcome")``: an expectation switched on by name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_expectation(s, name) for s in sides) and any(_is_text(s) for s in sides):
                found.append(f"{name}:{node.lineno}")
    return found


def _sources(rev: str | None) -> dict[str, str]:
    if rev is None:
        return {
            str(p.relative_to(REPO)): p.read_text()
            for package in PACKAGES
            for p in sorted((REPO / package).rglob("*.py"))
        }
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, *PACKAGES], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    return {
        name: subprocess.run(
            ["git", "show", f"{rev}:{name}"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout
        for name in names
        if name.endswith(".py")
    }


def measure(rev: str | None) -> Shape:
    modules, functions, fields, compares, depends_on = [], [], 0, [], 0
    for name, text in _sources(rev).items():
        modules.append((len(text.splitlines()), name))
        depends_on += text.count("depends_on")
        tree = ast.parse(text)
        compares += _expect_compares(name, tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append((node.end_lineno - node.lineno + 1, f"{name}:{node.lineno} {node.name}"))
            if name == "grader/results.py" and isinstance(node, ast.ClassDef) and node.name == "CheckResult":
                fields = sum(1 for item in node.body if isinstance(item, ast.AnnAssign))
    return Shape(
        rev or "working tree",
        sorted(modules, reverse=True),
        sorted(functions, reverse=True),
        fields,
        compares,
        depends_on,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="*", help="commits to measure beside the working tree")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    for shape in [measure(None), *(measure(rev) for rev in args.revs)]:
        lengths = [n for n, _ in shape.functions]
        print(f"== {shape.name}")
        print(
            f"modules {len(shape.modules)}, {sum(n for n, _ in shape.modules):,} lines; CheckResult fields {shape.result_fields}"
        )
        print(
            f"functions {len(lengths)}: over 60 lines {sum(n > 60 for n in lengths)}, over 80 {sum(n > 80 for n in lengths)}"
        )
        modules = sorted({c.split(":")[0] for c in shape.expect_compares})
        print(
            f"expectation compared with a string: {len(shape.expect_compares)} places in {len(modules)} modules"
            + (f" ({', '.join(modules)})" if modules else "")
        )
        print(f"depends_on mentioned: {shape.depends_on} times")
        print("largest modules:")
        for n, name in shape.modules[: args.top]:
            print(f"  {n:5} {name}")
        print("longest functions:")
        for n, name in shape.functions[: args.top]:
            print(f"  {n:5} {name}")


if __name__ == "__main__":
    main()
