"""Courses whose boards only the open encodings describe (`tests.checks.open_courses`),
graded in-process: each solution passes every check, and a mutant loses the check of the
function it breaks."""

from __future__ import annotations

import dataclasses
import re
import types
from pathlib import Path

import pytest

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from reference import EMPTY, Board, MalformedBoard
from tests.checks.in_process import InProcessRunner
from tests.checks.open_courses import (
    BOARD_ARGUMENT,
    BOARD_ARGUMENT_SPEC,
    COURSES,
    GAME_CLASS,
    GAME_CLASS_SPEC,
    MUTANTS,
    STRING_DOTS_SPEC,
)


def assignment(tmp_path: Path, spec: str) -> Assignment:
    (tmp_path / "assignment.toml").write_text(spec)
    return load_assignment(tmp_path)


def grade(assignment: Assignment, source: str, check_ids: list[str] | None = None) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return {c.id: run_check(c, ctx) for c in assignment.checks if check_ids is None or c.id in check_ids}


@pytest.mark.parametrize("course", sorted(COURSES))
def test_each_solution_passes_every_check(tmp_path: Path, course: str) -> None:
    source, spec = COURSES[course]
    results = grade(assignment(tmp_path, spec), source)
    assert {k: (r.status, r.message) for k, r in results.items() if r.status != CheckStatus.PASSED} == {}


@pytest.mark.parametrize(("course", "old", "new", "check_id"), MUTANTS)
def test_a_mutant_loses_the_check_of_the_function_it_breaks(
    tmp_path: Path, course: str, old: str, new: str, check_id: str
) -> None:
    source, spec = COURSES[course]
    assert source.count(old) == 1
    result = grade(assignment(tmp_path, spec), source.replace(old, new), [check_id])[check_id]
    assert result.status == CheckStatus.FAILED, result.message


def test_a_counterexample_shows_the_call_on_a_fresh_object(tmp_path: Path) -> None:
    source = GAME_CLASS.replace('(score > best if player == "x"', '(score < best if player == "x"')
    result = grade(assignment(tmp_path, GAME_CLASS_SPEC), source, ["best-move"])["best-move"]
    assert result.counterexample is not None
    assert result.counterexample.call.startswith("Game().best_move(")
    # Moves are shown as the course writes them, (row, col) counted from 1.
    expected = re.fullmatch(r"move \(([1-3]), ([1-3])\)", result.counterexample.expected)
    assert expected is not None and re.fullmatch(r"move \([1-3], [1-3]\)", result.counterexample.actual)
    row, col = int(expected[1]) - 1, int(expected[2]) - 1
    assert result.counterexample.board is not None
    assert Board.from_string(result.counterexample.board).cells[3 * row + col] == EMPTY


def test_the_search_of_a_method_is_read_from_its_objects_board(tmp_path: Path) -> None:
    result = grade(assignment(tmp_path, GAME_CLASS_SPEC), GAME_CLASS, ["nodes"])["nodes"]
    assert result.status == CheckStatus.PASSED
    assert result.figures.get("divergence") in (None, {}), result.figures


def test_an_adapters_decode_board_reads_what_its_encode_board_wrote(tmp_path: Path) -> None:
    adapter = types.ModuleType("adapter")
    adapter.encode_board = lambda board: str(board).lower()  # type: ignore[attr-defined]
    adapter.decode_board = lambda value: Board.from_string(value)  # type: ignore[attr-defined]
    spec = dataclasses.replace(assignment(tmp_path, STRING_DOTS_SPEC), adapter=adapter)
    ctx = CheckContext.of(spec, InProcessRunner(""), frozenset())
    board = Board.from_string("X.O......")
    assert ctx.decode_board(ctx.encode_board(board)) == board
    adapter.decode_board = lambda value: value  # type: ignore[attr-defined]
    with pytest.raises(MalformedBoard, match="the adapter's decode_board gave str, not a Board"):
        ctx.decode_board("x.o......")


def test_an_object_passed_as_an_argument_is_shown_by_its_name(tmp_path: Path) -> None:
    source = BOARD_ARGUMENT.replace("    for i, j, k in LINES:", "    for i, j, k in LINES[:7]:")
    result = grade(assignment(tmp_path, BOARD_ARGUMENT_SPEC), source, ["winner"])["winner"]
    assert result.counterexample is not None and result.counterexample.call == "winner(game)"
    assert "anti-diagonal" in (result.cause.sentence if result.cause else "")
