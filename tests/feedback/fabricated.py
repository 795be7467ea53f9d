"""Hand-made results for the rendering tests: every field a report shows, no kernel needed."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from grader.check_notes import Cause
from grader.execution.result import ExecutionResult
from grader.results import CheckResult, CheckStatus, Counterexample, SubmissionResult

HOSTILE_OUTPUT = "<script>alert(1)</script>"
HOSTILE_SOURCE = 'print("<img src=x onerror=alert(2)>")'
SECRETS = ("SECRET_BOARD_CALL", "SECRET_EXPECTED", "SECRET_ACTUAL", "SECRET_CAUSE", "SECRET_MESSAGE")
NODE_ROWS = [
    {
        "board": "X........",
        "minimax": 59705,
        "alphabeta": 2316,
        "reference_minimax": 59705,
        "reference_alphabeta": 2316,
        "minimax_call": "minimax(board, 0, True)",
        "alphabeta_call": "minimaxAB(board, 0, True, -inf, inf)",
    },
    {
        "board": "X...O....",
        "minimax": 7331,
        "alphabeta": 903,
        "reference_minimax": 7331,
        "reference_alphabeta": 787,
        "minimax_call": "minimax(board, 0, False)",
        "alphabeta_call": "minimaxAB(board, 0, False, -inf, inf)",
    },
]


def check(
    check_id: str, status: CheckStatus, score: float, max_score: float, message: str = "", **extra: Any
) -> CheckResult:
    """A result as a stored one reads: ``figures`` in their JSON form (node-count rows under
    "positions", a manual item's points under "points")."""
    counterexample = extra.pop("counterexample", None)
    cause = extra.pop("cause", None)
    if cause is not None:
        extra["cause"] = {"source": cause.source, "sentence": cause.sentence}
    return CheckResult.from_dict(
        {
            "id": check_id,
            "kind": extra.pop("kind", "search-value"),
            "title": f"title of {check_id}",
            "status": status.value,
            "score": score,
            "max_score": max_score,
            "message": message or f"message of {check_id}",
            "counterexample": asdict(counterexample) if counterexample else None,
            **extra,
        }
    )


def public_failure() -> CheckResult:
    return check(
        "minimax-value",
        CheckStatus.FAILED,
        0,
        20,
        "Wrong answer on a position with 3 pieces",
        counterexample=Counterexample("XO.X.....", "minimax(board, 0, True)", "1", "-1"),
        cause=Cause("known-mistake", "The score is seen from the wrong player's side."),
        duration=0.25,
    )


def hidden_failure() -> CheckResult:
    return check(
        "secret-search",
        CheckStatus.FAILED,
        0,
        10,
        "SECRET_MESSAGE on the position OOX",
        visibility="hidden",
        counterexample=Counterexample("OOX......", "SECRET_BOARD_CALL(board)", "SECRET_EXPECTED", "SECRET_ACTUAL"),
        cause=Cause("local", "SECRET_CAUSE"),
    )


def hidden_node_counts() -> CheckResult:
    return check(
        "secret-nodes",
        CheckStatus.PASSED,
        10,
        10,
        "SECRET_MESSAGE",
        kind="node-counts",
        visibility="hidden",
        figures={"positions": [dict(NODE_ROWS[0], board="SECRETBRD")]},
    )


def node_counts(status: CheckStatus = CheckStatus.PARTIAL) -> CheckResult:
    return check(
        "node-reduction", status, 5, 10, "Alpha-beta prunes", kind="node-counts", figures={"positions": NODE_ROWS}
    )


def execution_record() -> dict:
    return {
        "cells": [
            {
                "index": 0,
                "number": 1,
                "source": HOSTILE_SOURCE,
                "status": "ok",
                "error_name": None,
                "error_message": None,
                "output": HOSTILE_OUTPUT + "\n",
                "output_truncated": False,
                "duration": 0.01,
                "traceback": "",
            },
            {
                "index": 2,
                "number": 2,
                "source": "move = input('Your move? ')",
                "status": "error",
                "error_name": "ValueError",
                "error_message": "invalid literal",
                "output": "",
                "output_truncated": False,
                "duration": 0.02,
                "traceback": "\x1b[31mValueError\x1b[0m: invalid literal",
            },
            {
                "index": 3,
                "number": 3,
                "source": "while True: pass",
                "status": "timeout",
                "error_name": "CellTimeout",
                "error_message": "the cell ran longer than 60 s",
                "output": "",
                "duration": 60.0,
                "traceback": "",
            },
        ],
        "stdin_transcript": [{"cell_index": 2, "prompt": "Your move? ", "answer": "five"}],
        "sandbox_mode": "limits",
        "isolation_note": "Isolation is reduced: NOTE_FOR_FOOTER",
        "kernel_restarts": 0,
        "total_duration": 61.5,
        "kernel_start_seconds": 0.6,
        "notebook_timed_out": False,
    }


def submission(*checks: CheckResult, execution: dict | None = None, problems: tuple[str, ...] = ()) -> SubmissionResult:
    record: ExecutionResult = ExecutionResult.from_dict(execution_record() if execution is None else execution)
    return SubmissionResult(
        submission=str(Path("/instructor/private/alice.ipynb")),
        assignment_id="lab05",
        checks=checks,
        execution=record,
        problems=problems,
        timings={"read": 0.01, "execute": 61.5, "checks": 2.0, "total": 63.6},
    )


def all_passed(*, with_hidden: bool) -> SubmissionResult:
    checks = [check("check-win", CheckStatus.PASSED, 10, 10), check("check-draw", CheckStatus.PASSED, 10, 10)]
    if with_hidden:
        checks.append(check("secret-search", CheckStatus.PASSED, 10, 10, visibility="hidden"))
    return submission(*checks)
