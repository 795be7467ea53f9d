"""The handout's questions answered by a value, for `grader init`: each global the handout's
top-level code leaves as ``None`` for the student to set (``ANSWER_1 = None``) and the solution
writes as a literal (``ANSWER_1 = "B"``), checked against the value the solution's run gives it
(`answer` checks). A global the solution computes (``RESULT = minimax(board)``) is no question:
the checks of the functions that compute it judge them, and one mistake would cost twice."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterable

from nbformat import NotebookNode

from grader.authoring.discovery import code_cell_trees
from grader.authoring.draft import Draft, DraftCheck, slug
from grader.checks.context import CallRunner
from grader.checks.kinds.answer import AnswerParams, reading_global


def unanswered_globals(handout: NotebookNode) -> list[str]:
    """The globals the handout's top-level code sets to ``None`` (or to ``...``, what a master's
    ``ANSWER_1 = "B"  # SOLUTION`` becomes in the student's version) and never to anything else."""
    found: dict[str, bool] = {}
    for tree in code_cell_trees(handout):
        for node in tree.body:
            if not isinstance(node, ast.Assign):
                continue
            empty = isinstance(node.value, ast.Constant) and node.value.value in (None, ...)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = found.get(target.id, True) and empty
    return [name for name, empty in found.items() if empty]


def written_answers(solution: NotebookNode) -> set[str]:
    """The globals the solution's top-level code sets to a literal (a string, a number, a
    boolean), and only ever so."""
    found: dict[str, bool] = {}
    for tree in code_cell_trees(solution):
        for node in tree.body:
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            try:
                literal = isinstance(ast.literal_eval(node.value), (str, int, float, bool))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                literal = False
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = found.get(target.id, True) and literal
    return {name for name, literal in found.items() if literal}


def answer_checks(runner: CallRunner, names: Iterable[str]) -> tuple[list[DraftCheck], list[str]]:
    """An `answer` check for each global the solution sets to a string, a number or a boolean, and
    a note for each it sets to something else; one it leaves None is no question."""
    names = list(names)
    outcomes = runner.call_many([reading_global(name) for name in names])
    checks, notes = [], []
    for name, outcome in zip(names, outcomes):
        value = outcome.value if outcome.ok else None
        if value is None:  # the solution leaves it as the handout does (``EMPTY = None``): no question
            continue
        if not isinstance(value, (str, int, float, bool)):
            notes.append(
                f"the handout leaves `{name}` None for the student to set, but the solution sets it to {value!r}"
            )
            continue
        checks.append(
            DraftCheck(
                slug(name),
                "answer",
                f"{name}: the answer to the handout's question",
                "answer",
                AnswerParams(name, value),
                f"the handout sets {name} = None; the solution's run gives it {value!r}",
            )
        )
    return checks, notes


def add_answer_checks(draft: Draft, runner: CallRunner, handout: NotebookNode, solution: NotebookNode) -> None:
    """The `answer` checks of the handout's questions, before the clean run's, and the notes."""
    left, written = unanswered_globals(handout), written_answers(solution)
    computed = [name for name in left if name not in written]
    checks, notes = answer_checks(runner, [name for name in left if name in written])
    notes += [
        f"the handout leaves `{name}` None and the solution computes it: no answer check (the checks of "
        "the functions that compute it judge them)"
        for name in computed
    ]
    taken = {c.id for c in draft.checks}
    for check in checks:
        check = dataclasses.replace(check, id=_free_id(check.id, taken))
        taken.add(check.id)
        draft.add_check(check)
    draft.notes += notes
    draft.checks.sort(key=lambda c: c.kind == "runs-cleanly")


def _free_id(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-answer`` (then ``-answer-2``, ...) when a check of a function has that
    id: a question named like a function (``MINIMAX = None`` beside ``minimax``) is a check of its own."""
    if wanted not in taken:
        return wanted
    candidates = (f"{wanted}-answer", *(f"{wanted}-answer-{n}" for n in range(2, len(taken) + 3)))
    return next(c for c in candidates if c not in taken)
