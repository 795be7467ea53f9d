"""The call channel's contract on student code in this process, for fast tests of check logic.

Calls run through the kernel's own :class:`CallExecutor` on a plain namespace, their values
encoded and decoded with the wire format as they are across the kernel boundary, so what the
checks see here is what they see from a kernel. It is not a sandbox: only the test suite's
own snippets run here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.execution.channel.calls import Call, CallOutcome, outcome_from
from grader.execution.channel.executor import CallExecutor
from grader.execution.channel.protocol import OutcomeData
from grader.execution.sandbox import Limits

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

    def defined_names(self) -> list[str]:
        # What exec() adds, as IPython hides its own names from a notebook's.
        names = self.executor.defined_names(hidden=("__name__", "__builtins__"))
        return [*names["functions"], *names["classes"], *names["variables"]]

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.calls_made += len(calls)
        reported: list[OutcomeData] = []
        self.executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
        return [outcome_from(outcome) for outcome in reported]
