"""What a solution notebook defines: its functions, its classes' methods and their parameters.

Read from the source (the last definition of a name wins, as it does when the notebook runs),
then kept only where the executed kernel really holds the name, so a function defined in a
cell that failed is not offered as part of the assignment.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from nbformat import NotebookNode

from grader.execution.channel.calls import DefinedNames


@dataclass(frozen=True)
class Parameter:
    name: str
    has_default: bool
    default: str | None = None
    """The default's source text, when it has one."""
    compared_with: tuple[str, ...] = ()
    """The strings the function's body compares it with (``strategy == "max"``)."""


@dataclass(frozen=True)
class Function:
    """A function the notebook defines, or a method of one of its classes."""

    name: str
    """As the call channel names it: ``minimax``, or ``Game.minimax`` for a method."""
    parameters: tuple[Parameter, ...]
    """Without ``self``/``cls`` for methods."""
    owner: str | None = None
    """The class of a method."""
    free_names: frozenset[str] = frozenset()
    """The names its body reads and does not bind itself: globals, other functions, builtins."""

    @property
    def required(self) -> tuple[Parameter, ...]:
        return tuple(p for p in self.parameters if not p.has_default)

    @property
    def short_name(self) -> str:
        return self.name.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Discovered:
    functions: tuple[Function, ...]
    classes: dict[str, tuple[Parameter, ...]]
    """Class name -> its constructor's parameters (without ``self``)."""
    global_names: tuple[str, ...]
    """Names a top-level statement assigns (candidates for a global board or counter)."""
    attributes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Class name -> the attributes its constructor sets on ``self``, itself or through the
    methods it calls."""

    def function(self, name: str) -> Function | None:
        return next((f for f in self.functions if f.name == name), None)

    def may_read(self, function: Function, global_name: str) -> bool:
        """Whether ``function`` may read the global ``global_name``: its code names it,
        directly or through the notebook functions it calls. Code that names a class or
        ``globals`` may reach anything."""
        plain = {f.name: f for f in self.functions if f.owner is None}
        seen: set[str] = set()
        todo = [function]
        while todo:
            current = todo.pop()
            names = current.free_names
            if global_name in names or names & set(self.classes) or "globals" in names:
                return True
            for name in names - seen:
                seen.add(name)
                if name in plain:
                    todo.append(plain[name])
        return False


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> tuple[Parameter, ...]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    compared = _compared_strings(node)
    params = [
        Parameter(a.arg, d is not None, _source(d), compared.get(a.arg, ())) for a, d in zip(positional, defaults)
    ]
    params += [
        Parameter(a.arg, d is not None, _source(d), compared.get(a.arg, ()))
        for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    is_static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if method and not is_static and params:
        params = params[1:]
    return tuple(params)


def _source(node: ast.expr | None) -> str | None:
    return None if node is None else ast.unparse(node)


def _compared_strings(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, tuple[str, ...]]:
    """Name -> the string constants it is compared with (``==``, ``!=``, ``in``) in the body."""
    found: dict[str, dict[str, None]] = {}
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Compare):
            continue
        operands = [sub.left, *sub.comparators]
        names = [o.id for o in operands if isinstance(o, ast.Name)]
        strings: list[str] = []
        for operand in operands:
            items = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
            strings += [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
        for name in names:
            found.setdefault(name, {}).update(dict.fromkeys(strings))
    return {name: tuple(strings) for name, strings in found.items() if strings}


def _free_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """Names read in the function (nested scopes included) that it neither takes nor binds,
    and those it declares ``global``."""
    args = node.args
    bound = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
    declared: set[str] = set()
    loaded: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Global):
            declared.update(sub.names)
        elif isinstance(sub, ast.Name):
            (loaded if isinstance(sub.ctx, ast.Load) else bound).add(sub.id)
    return frozenset((loaded - bound) | declared)


def _assigned_names(node: ast.stmt) -> Iterable[str]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                yield sub.id


def code_cell_trees(notebook: NotebookNode) -> Iterator[ast.Module]:
    """The parsed code cells, in order; a cell that does not parse is left out."""
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        try:
            yield ast.parse(cell.source)
        except (SyntaxError, ValueError):
            continue


def discover(notebook: NotebookNode, defined: DefinedNames) -> Discovered:
    """The notebook's functions, methods and global names that the kernel holds after running it."""
    functions: dict[str, Function] = {}
    classes: dict[str, tuple[Parameter, ...]] = {}
    attributes: dict[str, tuple[str, ...]] = {}
    globals_: dict[str, None] = {}
    for tree in code_cell_trees(notebook):
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions[node.name] = Function(
                    node.name, _parameters(node, method=False), free_names=_free_names(node)
                )
            elif isinstance(node, ast.ClassDef):
                classes[node.name] = ()
                methods = {i.name: i for i in node.body if isinstance(i, (ast.FunctionDef, ast.AsyncFunctionDef))}
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        if item.name == "__init__":
                            classes[node.name] = _parameters(item, method=True)
                            attributes[node.name] = _constructor_attributes(item, methods)
                        elif not item.name.startswith("__"):
                            qualified = f"{node.name}.{item.name}"
                            functions[qualified] = Function(
                                qualified, _parameters(item, method=True), node.name, _free_names(item)
                            )
            else:
                globals_.update(dict.fromkeys(_assigned_names(node)))
    alive = set(defined.functions) | set(defined.classes)
    kept = tuple(f for f in functions.values() if (f.owner or f.name) in alive)
    return Discovered(
        functions=kept,
        classes={name: params for name, params in classes.items() if name in alive},
        global_names=tuple(name for name in globals_ if name in defined.variables),
        attributes={name: attrs for name, attrs in attributes.items() if name in alive},
    )


Method = ast.FunctionDef | ast.AsyncFunctionDef


def _constructor_attributes(init: Method, methods: dict[str, Method]) -> tuple[str, ...]:
    """The attributes the constructor sets on ``self``, itself or through the methods it calls
    on ``self`` (``self.initialize_game()`` setting ``self.current_state``)."""
    names: dict[str, None] = {}
    seen: set[str] = set()
    todo = [init]
    while todo:
        method = todo.pop()
        for node in ast.walk(method):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"):
                continue
            if isinstance(node.ctx, ast.Store):
                names[node.attr] = None
            elif node.attr in methods and node.attr not in seen:
                seen.add(node.attr)
                todo.append(methods[node.attr])
    return tuple(names)
