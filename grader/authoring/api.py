"""Which of the solution's functions are the course's API, the ones init writes checks for.

A solution holds the course's functions and its author's own helpers (a `max_value` behind
CS50's `minimax`); a check of a helper costs every student who wrote different ones. The
evidence, strongest first:

- a handout: the functions and methods it defines, and those its own top-level code names,
  are the API; every other function of the solution is a helper;
- no handout: the solution's own program. What its top-level code names (also under
  ``if __name__ == "__main__":`` or in a loop) runs, and so does what those functions name in
  turn: the API. So is a function nothing else in the solution names, written to be called
  on its own (a minimax beside the alpha-beta the demonstration plays). A function named
  only by functions the program never runs is a helper of them;
- no handout and top-level code that names none of the solution's functions: every
  function, as nothing tells a helper from the API.

A helper gets no check of its own: a search that only a helper does is judged through the
API function that calls it.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from nbformat import NotebookNode

from grader.authoring.draft import Draft, DraftCheck
from grader.checks.kinds.hygiene import NoMutationParams
from grader.spec.call_template import CallTemplate

ApiSource = Literal["handout", "program", "every function"]

_Definition = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Api:
    """The functions checks may call, and the evidence they were taken from."""

    functions: frozenset[str] | None
    """Functions (``minimax``), classes (``Game``) and methods (``Game.minimax``); None: all."""
    source: ApiSource
    why: str
    """Where the API was read, in words: ``defined in the handout template.py``."""
    methods: frozenset[str] = frozenset()
    """Method names of the API, of any class: a check calls them on an object it is given
    (``game.best_move()``), whose class the call does not name."""

    def admits(self, name: str) -> bool:
        """Whether ``name`` (a function, a class, or ``Class.method``) is part of the API."""
        if self.functions is None:
            return True
        owner, _, method = name.rpartition(".")
        return name in self.functions or (bool(owner) and method in self.methods)

    def admits_call(self, template: CallTemplate) -> bool:
        """Whether every function a check's call reaches is part of the API: its target, and
        each method called on what the target returns."""
        target = template.target.name
        return self.admits(target) and all(self.admits(f"{target}.{step.name}") for step in template.chain)

    def without_given(self, given: frozenset[str]) -> Api:
        """The API less the functions the handout gives whole (`given_whole`): their code is
        the answer key's, and a check of them would give every student its points."""
        if self.functions is None or not given & self.functions:
            return self
        methods = self.methods - {name.rpartition(".")[2] for name in given if "." in name}
        why = f"{self.why}, less what it gives as the solution has it: {', '.join(sorted(given & self.functions))}"
        return dataclasses.replace(self, functions=self.functions - given, why=why, methods=methods)

    def helpers(self, defined: Iterable[str]) -> list[str]:
        """The functions of ``defined`` that are not part of the API."""
        return [name for name in defined if not self.admits(name)]

    def comment(self, defined: Iterable[str]) -> list[str]:
        """What the TOML and the terminal say: which functions were taken as the API and why,
        and which were left as the solution's helpers."""
        names = list(defined)
        if self.functions is None:
            return [f"API: every function of the solution ({self.why})"]
        api = [n for n in names if self.admits(n)]
        lines = [f"API ({self.why}): {', '.join(api) or 'none of the solution'}"]
        helpers = self.helpers(names)
        if helpers:
            lines.append(f"Helpers of the solution, not graded: {', '.join(helpers)}")
        return lines


def _trees(notebook: NotebookNode) -> Iterator[ast.Module]:
    """The code cells that parse (a cell of shell or magic lines does not, and defines nothing)."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            try:
                yield ast.parse(cell.source)
            except (SyntaxError, ValueError):
                continue


@dataclass
class _Program:
    """What a notebook defines, what its top-level code names, and what each function names."""

    defined: dict[str, _Definition | None] = dataclasses.field(default_factory=dict)
    """Functions, ``Class.method`` and classes (None) in the order they are defined."""
    top_names: set[str] = dataclasses.field(default_factory=set)
    top_attributes: set[str] = dataclasses.field(default_factory=set)

    @classmethod
    def read(cls, notebook: NotebookNode) -> _Program:
        program = cls()
        for tree in _trees(notebook):
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    program.defined[node.name] = node
                elif isinstance(node, ast.ClassDef):
                    program.defined[node.name] = None
                    for item in node.body:
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("__"):
                            program.defined[f"{node.name}.{item.name}"] = item
                    program._name_in(node.decorator_list, node.bases)
                else:
                    program._name_in([node])
        return program

    def _name_in(self, *nodes: Iterable[ast.AST]) -> None:
        for group in nodes:
            for node in group:
                names, attributes = _named(node)
                self.top_names |= names
                self.top_attributes |= attributes

    def named_by(self, name: str) -> tuple[set[str], set[str]]:
        """The names and attribute names the function ``name`` reads (a class: its methods)."""
        node = self.defined.get(name)
        if node is None:
            methods = [m for m in self.defined if m.startswith(f"{name}.")]
            return set(methods), set()
        return _named(node)


def _named(node: ast.AST) -> tuple[set[str], set[str]]:
    """The plain names ``node`` reads and the attribute names it reads (``game.best_move``)."""
    names: set[str] = set()
    attributes: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            names.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            attributes.add(sub.attr)
    return names, attributes


def handout_api(handout: NotebookNode, name: str) -> Api:
    """The API a handout (file ``name``) gives: what it defines and what its top-level code names."""
    program = _Program.read(handout)
    functions = frozenset(program.defined) | frozenset(program.top_names)
    defined_methods = {m.rpartition(".")[2] for m in program.defined if "." in m}
    why = f"defined in the handout {name}, or called by its top-level code"
    return Api(functions, "handout", why, frozenset(program.top_attributes) | frozenset(defined_methods))


def given_whole(handout: NotebookNode, solution: NotebookNode) -> frozenset[str]:
    """The functions and methods (``Class.method``) the handout defines exactly as the solution does."""
    asked, answered = _Program.read(handout).defined, _Program.read(solution).defined
    return frozenset(
        name
        for name, node in asked.items()
        if node is not None and (other := answered.get(name)) is not None and ast.dump(node) == ast.dump(other)
    )


def program_api(solution: NotebookNode) -> Api:
    """The API the solution's own program shows, without a handout (the module's docstring)."""
    program = _Program.read(solution)
    defined = set(program.defined)

    def resolve(names: set[str], attributes: set[str]) -> set[str]:
        """The solution's functions among ``names``, and its methods named as ``attributes``."""
        return (names & defined) | {m for m in defined if "." in m and m.rpartition(".")[2] in attributes}

    entry = resolve(program.top_names, program.top_attributes)
    if not entry:
        return Api(None, "every function", "the solution's top-level code calls none of its functions")
    reached: set[str] = set()
    todo = list(entry)
    while todo:
        current = todo.pop()
        if current not in reached:
            reached.add(current)
            todo += resolve(*program.named_by(current)) - reached
    named_by_others: set[str] = set()
    for function in (n for n in defined if program.defined[n] is not None):
        named_by_others |= resolve(*program.named_by(function)) - {function}
    functions = frozenset(reached | (defined - named_by_others))
    why = "run by the solution's top-level code, or named by no other function of it"
    return Api(functions, "program", why, frozenset(m.rpartition(".")[2] for m in functions if "." in m))


def _calls(check: DraftCheck) -> list[CallTemplate]:
    """Every call a check makes (a node count's minimax and alpha-beta calls both)."""
    params = check.params
    if not dataclasses.is_dataclass(params):
        return []
    values = (getattr(params, f.name) for f in dataclasses.fields(params))
    return [value for value in values if isinstance(value, CallTemplate)]


SEARCH_ROLES = ("minimax", "best-move", "alpha-beta")


def keep_api_checks(draft: Draft, api: Api) -> list[DraftCheck]:
    """Leave out of ``draft`` the checks that call a function outside ``api``; returns them.
    A helper's board-left-alone check moves to the API's first search that takes the board
    (CS50's `max_value` -> `minimax`): the search would change the board through it."""
    dropped = [c for c in draft.checks if not all(api.admits_call(call) for call in _calls(c))]
    draft.checks = [c for c in draft.checks if c not in dropped]
    helper_checked = next((c for c in dropped if c.kind == "no-mutation"), None)
    if helper_checked is not None and not any(c.kind == "no-mutation" for c in draft.checks):
        searches = [c for c in draft.checks if c.role in SEARCH_ROLES and c.call and "board" in c.call.placeholders]
        if searches:
            draft.add_check(_no_mutation_of(searches[0], helper_checked))
    return dropped


def _no_mutation_of(search: DraftCheck, helper_checked: DraftCheck) -> DraftCheck:
    call = search.call
    assert call is not None, "only a search with a call is given the check"
    name = ".".join([call.target.name, *(step.name for step in call.chain)])
    helper = helper_checked.call.text if helper_checked.call else helper_checked.id
    why = f"{name} takes the board as an argument (in place of the same check of the helper {helper})"
    params = NoMutationParams(call, to_move=getattr(search.params, "to_move", None))
    title = f"{name} leaves the board as it found it"
    return DraftCheck(f"{search.id}-no-mutation", "no-mutation", title, "no-mutation", params, why)


def unchecked(draft: Draft, api: Api | None, functions: Iterable[str]) -> list[str]:
    """The API's functions of ``functions`` that no check of ``draft`` calls and no note names:
    roles init does not check (a move validator, a display), which the author may want to."""
    called: set[str] = set()
    for check in draft.checks:
        for template in _calls(check):
            called.add(template.target.name)
            called.update(step.name for step in template.chain)
    noted = " ".join(draft.notes)
    return [
        name
        for name in functions
        if (api is None or api.admits(name))
        and name not in called
        and name.rsplit(".", 1)[-1] not in called
        and f"`{name}" not in noted
    ]
