"""The shape of the code, for a closing note's before/after: the largest modules, the longest
functions, the fields of `CheckResult`, the places that switch on a predicate's `expect` string,
`depends_on`, the exception classes and their common base, the README's length and the most
complex blocks, in the working tree and at any commit, side by side.

    .venv/bin/python bench/code_shape.py [REV ...] [--top 8]

Each column is one tree (the working tree first, then each REV as git stores it); only
``grader/`` and ``reference/`` are read, and only ``grader/`` for the `expect`, `depends_on`
and exception figures. A function's length counts its lines from ``def`` to its last line,
docstring and comments included.

The cyclomatic complexity follows radon's rules (``radon cc``), so that the figures can be set
beside a review that used it: a function starts at 1 and gains 1 for each ``if``/``elif``,
conditional expression, ``with``, loop (and its ``else``), ``except`` handler, ``try``'s
``else``, ``assert``, comprehension clause and ``if`` inside one, each extra operand of
``and``/``or``, and each ``case`` of a ``match``. A nested function is a block of its own and
does not add to the one around it; a lambda does.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("grader", "reference")
BASE_ERROR = "GraderException"


@dataclass(frozen=True)
class Shape:
    name: str
    modules: list[tuple[int, str]]
    functions: list[tuple[int, str]]
    result_fields: int
    expect_switches: list[str]
    depends_on: int
    exceptions: dict[str, str]  # class name -> "module:line"
    under_base: set[str]
    readme_lines: int | None
    complexity: list[tuple[int, str]]


def _git(rev: str, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout


def _sources(rev: str | None) -> dict[str, str]:
    if rev is None:
        return {
            str(p.relative_to(REPO)): p.read_text()
            for package in PACKAGES
            for p in sorted((REPO / package).rglob("*.py"))
        }
    names = _git(rev, "ls-tree", "-r", "--name-only", rev, *PACKAGES).split()
    return {name: _git(rev, "show", f"{rev}:{name}") for name in names if name.endswith(".py")}


def _readme_lines(rev: str | None) -> int | None:
    if rev is None:
        readme = REPO / "README.md"
        return len(readme.read_text().splitlines()) if readme.exists() else None
    try:
        return len(_git(rev, "show", f"{rev}:README.md").splitlines())
    except subprocess.CalledProcessError:
        return None


def _is_expect(node: ast.expr, names: tuple[str, ...] = ("expect",)) -> bool:
    """`expect`, `x.expect`, `x["expect"]` or `x.get("expect")` (or another of ``names``)."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr in names
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "expect"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "expect"
    return False


def _is_strings(node: ast.expr) -> bool:
    """A str constant, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    return False


def _switches_on_expect(node: ast.AST, module: str) -> bool:
    """A predicate's expectation switched on by name: ``expect`` in the checks, and the kernel
    stand-in's ``role`` in the channel (elsewhere a role is init's name for what a function does)."""
    names = ("expect", "role") if module.startswith("grader/execution/channel/") else ("expect",)
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        return any(
            (_is_expect(a, names) and _is_strings(b)) or (_is_strings(a) and _is_expect(b, names))
            for a, b in zip(operands, operands[1:])
        )
    if isinstance(node, ast.Match) and _is_expect(node.subject, names):
        return any(
            isinstance(p, ast.MatchValue) and isinstance(p.value, ast.Constant) and isinstance(p.value.value, str)
            for case in node.cases
            for p in ast.walk(case.pattern)
        )
    return False


class _Complexity(ast.NodeVisitor):
    """radon's cyclomatic complexity of one block's body, nested functions left out."""

    def __init__(self) -> None:
        self.value = 0

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # a block of its own
        pass

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.Try | getattr(ast, "TryStar", ast.Try)):
            self.value += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            self.value += len(node.values) - 1
        elif isinstance(node, (ast.If, ast.IfExp, ast.With, ast.AsyncWith, ast.Assert)):
            self.value += 1
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            self.value += 1 + bool(node.orelse)
        elif isinstance(node, ast.comprehension):
            self.value += 1 + len(node.ifs)
        elif isinstance(node, ast.Match):
            self.value += len(node.cases)
        super().generic_visit(node)


def _complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    visitor = _Complexity()
    for statement in function.body:
        visitor.visit(statement)
    return 1 + visitor.value


def _exception_classes(classes: dict[str, tuple[str, list[str]]]) -> tuple[dict[str, str], set[str]]:
    """The classes that derive (through the classes seen) from a builtin exception, and those
    of them that derive from `BASE_ERROR`. Classes are matched by name: the grader does not
    reuse an exception's name in two modules."""
    builtin_errors = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}

    def ancestors(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        if name in seen or name not in classes:
            return set()
        found: set[str] = set()
        for base in classes[name][1]:
            found |= {base} | ancestors(base, seen | {name})
        return found

    exceptions, under_base = {}, set()
    for name, (where, _) in classes.items():
        lineage = ancestors(name)
        if lineage & builtin_errors:
            exceptions[name] = where
            if BASE_ERROR in lineage:
                under_base.add(name)
    return exceptions, under_base


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def measure(rev: str | None) -> Shape:
    modules, functions, complexity, fields = [], [], [], 0
    switches, depends_on = [], 0
    classes: dict[str, tuple[str, list[str]]] = {}
    for name, text in _sources(rev).items():
        modules.append((len(text.splitlines()), name))
        in_grader = name.startswith("grader/")
        if in_grader:
            depends_on += text.count("depends_on")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                where = f"{name}:{node.lineno} {node.name}"
                functions.append((node.end_lineno - node.lineno + 1, where))
                complexity.append((_complexity(node), where))
            if name == "grader/results.py" and isinstance(node, ast.ClassDef) and node.name == "CheckResult":
                fields = sum(1 for item in node.body if isinstance(item, ast.AnnAssign))
            if in_grader and isinstance(node, ast.ClassDef):
                classes[node.name] = (f"{name}:{node.lineno}", [_base_name(b) for b in node.bases])
            if in_grader and _switches_on_expect(node, name):
                switches.append(f"{name}:{node.lineno}")
    exceptions, under_base = _exception_classes(classes)
    bases = {name for name, where in exceptions.items() if where.startswith("grader/errors.py:")}
    exceptions = {name: where for name, where in exceptions.items() if name not in bases}
    under_base -= bases
    return Shape(
        rev or "working tree",
        sorted(modules, reverse=True),
        sorted(functions, reverse=True),
        fields,
        switches,
        depends_on,
        exceptions,
        under_base,
        _readme_lines(rev),
        sorted(complexity, key=lambda c: (-c[0], c[1])),
    )


def report(shape: Shape, top: int) -> None:
    lengths = [n for n, _ in shape.functions]
    print(f"== {shape.name}")
    print(
        f"modules {len(shape.modules)}, {sum(n for n, _ in shape.modules):,} lines; CheckResult fields {shape.result_fields}"
    )
    print(
        f"functions {len(lengths)}: over 60 lines {sum(n > 60 for n in lengths)}, over 80 {sum(n > 80 for n in lengths)}"
    )
    print(f"README.md lines: {shape.readme_lines if shape.readme_lines is not None else 'no README'}")
    modules = {where.split(":")[0] for where in shape.expect_switches}
    print(f"`expect` compared with a string literal: {len(shape.expect_switches)} places in {len(modules)} modules")
    for module in sorted(modules):
        print(f"  {sum(w.split(':')[0] == module for w in shape.expect_switches):5} {module}")
    print(f"`depends_on` in grader/: {shape.depends_on}")
    modules = {where.split(":")[0] for where in shape.exceptions.values()}
    outside = sorted(set(shape.exceptions) - shape.under_base)
    print(
        f"exception classes in grader/ (besides the bases in grader/errors.py): {len(shape.exceptions)} "
        f"in {len(modules)} modules; deriving from {BASE_ERROR}: {len(shape.under_base)}; not: {len(outside)}"
    )
    for name in outside:
        print(f"  {name} ({shape.exceptions[name]})")
    complexity = [c for c, _ in shape.complexity]
    print(
        f"cyclomatic complexity over {len(complexity)} blocks: mean {sum(complexity) / max(len(complexity), 1):.1f}; "
        f"11 or more (C and worse): {sum(c > 10 for c in complexity)}; the worst {top}:"
    )
    for n, name in shape.complexity[:top]:
        print(f"  {n:5} {name}")
    print("largest modules:")
    for n, name in shape.modules[:top]:
        print(f"  {n:5} {name}")
    print("longest functions:")
    for n, name in shape.functions[:top]:
        print(f"  {n:5} {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="*", help="commits to measure beside the working tree")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    for shape in [measure(None), *(measure(rev) for rev in args.revs)]:
        report(shape, args.top)


if __name__ == "__main__":
    main()
