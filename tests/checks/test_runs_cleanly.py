"""The runs-cleanly check names what went wrong in each cell in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.execution.channel.calls import Call, CallOutcome
from grader.execution.result import ExecutionResult
from grader.results import CheckStatus
from grader.spec.loader import load_assignment


class NoCalls:
    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        raise AssertionError("runs-cleanly reads the execution record only")


def _cell(index: int, status: str, error_name: str | None = None) -> dict[str, Any]:
    return {"index": index, "source": "pass", "status": status, "error_name": error_name}


def test_troubled_cells_are_described_in_words() -> None:
    lab05 = load_assignment("lab05")
    check = next(c for c in lab05.checks if c.kind == "runs-cleanly")
    record = ExecutionResult.from_dict(
        {
            "cells": [
                _cell(0, "ok"),
                _cell(1, "error", "ValueError"),
                _cell(2, "timeout", "Timeout"),
                _cell(3, "killed", "DeadKernelError"),
            ]
        }
    )
    result = run_check(check, CheckContext.of(lab05, NoCalls(), frozenset(), execution=record))
    assert result.status == CheckStatus.FAILED
    assert result.message == (
        "3 cell(s) did not run cleanly: cell 2 raised ValueError; cell 3 ran out of time; cell 4 crashed the kernel."
    )
    assert result.figures["bad_cells"] == [1, 2, 3]


def test_troubled_cells_are_named_by_the_number_jupyter_shows() -> None:
    lab05 = load_assignment("lab05")
    check = next(c for c in lab05.checks if c.kind == "runs-cleanly")
    record = ExecutionResult.from_dict(
        {"cells": [{**_cell(2, "ok"), "number": 1}, {**_cell(4, "error", "ValueError"), "number": 2}]}
    )
    result = run_check(check, CheckContext.of(lab05, NoCalls(), frozenset(), execution=record))
    assert result.message == "1 cell(s) did not run cleanly: cell 2 raised ValueError."
