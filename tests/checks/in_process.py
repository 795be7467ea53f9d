"""The call channel's contract on student code in this process, for fast tests of check logic.

Calls run through the kernel's own :class:`CallExecutor` on a plain namespace, their values
encoded and decoded with the wire format as they are across the kernel boundary, so what the
checks see here is what they see from a kernel. It is not a sandbox: only the test suite's
own snippets run here.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat

from grader.execution.channel.calls import Call, CallOutcome, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.protocol import OutcomeData
from grader.execution.hangs import HangMemory
from grader.execution.sandbox import Limits
from grader.spec.model import Assignment

STUDENT_CELL = "<ipython-input-1-0>"
"""The file name IPython gives a cell's code."""


class InProcessRunner:
    def __init__(self, source: str) -> None:
        # Run as a notebook's cells are: as __main__, which is how the executor tells the
        # notebook's own functions and classes from imported ones, and under a cell's file
        # name, which is how the exploration recorder tells the notebook's code from the rest.
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        exec(compile(source, STUDENT_CELL, "exec"), self.namespace)
        self.executor = CallExecutor(self.namespace, output_chars=Limits().output_chars)
        self.calls_made = 0

    def references(self) -> dict[str, list[str]]:
        """Who names whom, as the kernel reads it from the code."""
        return self.executor.defined_names(hidden=("__name__", "__builtins__"))["references"]

    def hang_memory(self, assignment: Assignment) -> HangMemory:
        """What grading starts the checks with: no hangs yet, and who names whom."""
        return HangMemory(assignment.short_limit, self.references())

    def defined_names(self) -> list[str]:
        # What exec() adds, as IPython hides its own names from a notebook's.
        names = self.executor.defined_names(hidden=("__name__", "__builtins__"))
        return [*names["functions"], *names["classes"], *names["variables"]]

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.calls_made += len(calls)
        reported: list[OutcomeData] = []
        self.executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
        return [outcome_from(outcome) for outcome in reported]


def solution_definitions(assignment: Assignment) -> str:
    """The assignment's solution without the statements that play games: its imports,
    functions, classes and assignments, for running in this process."""
    notebook = nbformat.read(Path(assignment.solution_path), as_version=4)
    kept = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            kept += [
                ast.get_source_segment(cell.source, node) or ""
                for node in ast.parse(cell.source).body
                if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign))
            ]
    return "\n\n".join(kept)
