"""Results stored by earlier versions (a batch resumes from them) load, typed, and are written
back unchanged. The stored documents are JSON, hence ``dict[str, Any]``."""

from __future__ import annotations

import copy
import json
from typing import Any

from grader.check_details import ManualMarking, NodeCountRow, NodeCounts, PlayedGame, SelfPlayRow, SelfPlayTable
from grader.check_notes import Cause, RanOutOfTime
from grader.check_wording import cause_line
from grader.execution.channel.stop_clock import StopClock
from grader.execution.result import CellStatus
from grader.results import CheckResult, CheckStatus, Counterexample, SubmissionResult

NODE_ROW: dict[str, Any] = {
    "board": "X........",
    "minimax": 59705,
    "reference_minimax": 59705,
    "minimax_call": "minimax(board, 0, True)",
    "alphabeta": 2316,
    "reference_alphabeta": 2316,
    "alphabeta_call": "minimaxAB(board, 0, True, -inf, inf)",
}
SELFPLAY_ROW: dict[str, Any] = {
    "depth": 2,
    "reference_winner": "Player 1 Wins",
    "reference_generated": 89,
    "call": "run_game(2)",
    "winner": "Player 1 Wins",
    "generated": 89,
    "channel_generated": 89,
}


GAME_MOVES = ["X 0", "O 4", "X 1", "O 2", "X 8", "O 6"]
GAME_BOARDS = ["X........", "X...O....", "XX..O....", "XXO.O....", "XXO.O...X", "XXO.O.O.X"]


def _check(check_id: str, kind: str, status: str, figures: dict, **extra: object) -> dict:
    return {
        "id": check_id,
        "kind": kind,
        "title": check_id,
        "status": status,
        "score": 0.0,
        "max_score": 10.0,
        "message": f"Not run: `{check_id}` is not defined in the notebook." if status == "not run" else "m",
        "visibility": "public",
        "counterexample": None,
        "figures": figures,
        "duration": 0.5,
        **extra,
    }


STORED: dict[str, Any] = {
    "submission": "alice.ipynb",
    "assignment": "lab05",
    "score": 0.0,
    "max_score": 50.0,
    "checks": [
        _check("nodes", "node-counts", "passed", {"source": "calls counted by the grader", "positions": [NODE_ROW]}),
        _check("table", "selfplay-table", "failed", {"rows": [SELFPLAY_ROW]}),
        _check("search", "search-value", "not run", {"missing": "minimax"}),
        _check("style", "manual", "manual", {"points": 5}, instructor_notes="how to mark it"),
        _check("games", "random-opponent", "failed", {"played": 1, "moves": GAME_MOVES, "boards": GAME_BOARDS}),
    ],
    "problems": ["`minimax` is not defined in the notebook."],
    "timings": {"read": 0.01, "total": 2.0},
    "execution": {
        "cells": [
            {
                "index": 0,
                "number": 1,
                "source": "x = input()",
                "status": "error",
                "error_name": "ValueError",
                "error_message": "bad",
                "output": "",
                "output_truncated": False,
                "duration": 0.1,
                "traceback": "",
            }
        ],
        "stdin_transcript": [{"cell_index": 0, "prompt": "? ", "answer": None}],
        "sandbox_mode": "limits",
        "isolation_note": "reduced",
        "kernel_restarts": 0,
        "total_duration": 1.5,
        "kernel_start_seconds": 0.5,
        "notebook_timed_out": False,
    },
}


def test_a_stored_result_loads_typed() -> None:
    result = SubmissionResult.from_dict(copy.deepcopy(STORED))
    nodes, table, search, style, game = result.checks
    assert nodes.detail == NodeCounts((NodeCountRow(**NODE_ROW),))
    assert nodes.figures == {"source": "calls counted by the grader"}
    assert table.detail == SelfPlayTable((SelfPlayRow(**SELFPLAY_ROW),))
    assert search.status == CheckStatus.NOT_RUN and search.missing_function == "minimax" and search.detail is None
    assert style.detail == ManualMarking(5, "how to mark it") and style.manual_points == 5
    assert game.detail == PlayedGame(tuple(GAME_MOVES), tuple(GAME_BOARDS)) and game.figures == {"played": 1}
    assert result.execution is not None and result.execution.cells[0].status == CellStatus.ERROR
    assert result.execution.stdin_transcript[0].answer is None


def test_a_stored_result_is_written_back_unchanged() -> None:
    assert SubmissionResult.from_dict(copy.deepcopy(STORED)).to_dict() == STORED


def test_a_record_from_before_cell_numbers_numbers_its_cells_in_order() -> None:
    old = copy.deepcopy(STORED)
    cell = old["execution"]["cells"][0]
    del cell["number"]
    old["execution"]["cells"] = [cell, {**cell, "index": 3}]
    result = SubmissionResult.from_dict(old)
    assert result.execution is not None
    assert [(c.index, c.number) for c in result.execution.cells] == [(0, 1), (3, 2)]


CALL = "minimax(board, 0, True)"


def _failed(cause: Cause) -> CheckResult:
    return CheckResult(
        "search",
        "search-value",
        "search",
        CheckStatus.FAILED,
        0.0,
        10.0,
        "Wrong answer",
        counterexample=Counterexample("XO.X.....", CALL, "1", "-1"),
        cause=cause,
    )


def test_a_cause_is_stored_with_its_source_and_as_the_counterexample_s_for_old_readers() -> None:
    result = _failed(Cause("known-mistake", "Each final score favours the wrong player."))
    stored = result.to_dict()
    assert stored["cause"] == {"source": "known-mistake", "sentence": "Each final score favours the wrong player."}
    assert stored["counterexample"]["cause"] == "Each final score favours the wrong player."
    read = CheckResult.from_dict(stored)
    assert read == result and read.cause is not None and read.cause.source == "known-mistake"
    assert read.counterexample is not None and read.counterexample.cause is None  # held once: in ``cause``


def test_a_cause_of_shape_is_the_headline_and_not_the_counterexample_s() -> None:
    stored = _failed(Cause("shape", "`minimax` is not implemented yet.")).to_dict()
    assert stored["counterexample"]["cause"] is None
    assert CheckResult.from_dict(stored).cause == Cause("shape", "`minimax` is not implemented yet.")


def test_an_old_record_s_counterexample_cause_reads_back_as_a_local_cause_and_is_written_back() -> None:
    old = _check("search", "search-value", "failed", {})
    old["counterexample"] = {"board": "XO.X.....", "call": CALL, "expected": "1", "actual": "-1", "cause": "Why."}
    read = CheckResult.from_dict(copy.deepcopy(old))
    assert read.cause == Cause("local", "Why.") and cause_line(read) == "Why."
    assert read.counterexample is not None and read.counterexample.cause is None
    written = read.to_dict()
    assert written["counterexample"] == old["counterexample"]
    assert CheckResult.from_dict(written) == read


def test_the_clock_that_stopped_a_call_is_stored_by_name_and_read_back_typed() -> None:
    result = CheckResult(
        "best-move",
        "search-value",
        "best move",
        CheckStatus.FAILED,
        0.0,
        10.0,
        headline="`best_move` gave no answer.",
        notes=(RanOutOfTime(35.0, StopClock.WALL),),
    )
    stored = result.to_dict()
    assert stored["notes"] == [{"note": "ran-out-of-time", "limit": 35.0, "clock": "wall"}]
    read = CheckResult.from_dict(json.loads(json.dumps(stored)))
    assert read == result and read.notes[0] == RanOutOfTime(35.0, StopClock.WALL)
    assert "still running after 35 s of wall time" in read.message
    assert (
        "at 35 s of CPU time"
        in CheckResult.from_dict({**stored, "notes": [{**stored["notes"][0], "clock": "cpu"}]}).message
    )
