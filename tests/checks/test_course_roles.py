"""The checks of a course's API roles (the side to move, the successor, the initial state) on
the two classes of `tests/classes`, run in this process: each hand-in fails a role's check
exactly when the classes' independent oracle finds that function defective."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.checks.in_process import InProcessRunner

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

CLASSES = Path(__file__).parents[1] / "classes"

CS50_TOML = """
[assignment]
id = "cs50-roles"
title = "CS50 roles"
maximizer = "X"
first_player = "X"
move = "rowcol"

[board]
layout = "rows"
container = "list"
empty = "None"
x = "X"
o = "O"

[[checks]]
id = "player"
kind = "predicate"
title = "player names the side to move"
points = 5
call = "player(board)"
expect = "to-move"
boards = "unfinished"

[[checks]]
id = "result"
kind = "successor"
title = "result plays a move and refuses the moves it may not play"
points = 10
call = "result(board, move)"
board_attribute = ""
invalid = "raise"

[[checks]]
id = "initial_state"
kind = "initial-state"
title = "initial_state gives the empty board"
points = 5
call = "initial_state()"
"""

CODECADEMY_TOML = """
[assignment]
id = "codecademy-roles"
title = "Codecademy roles"
encoding = "grid-digits"
maximizer = "X"
first_player = "X"
move = "position"

[[checks]]
id = "select_space"
kind = "successor"
title = "select_space plays a move and refuses the moves it may not play"
points = 10
call = "select_space(board, move, to_move)"
board_attribute = ""
returns = "played"
invalid = "false"
"""


def _assignment(tmp_path: Path, text: str) -> Assignment:
    (tmp_path / "assignment.toml").write_text(text, encoding="utf-8")
    return load_assignment(tmp_path)


def _handins(course: str) -> dict[str, dict[str, Any]]:
    """Each hand-in that imports, and the functions the oracle finds defective in it."""
    table = tomllib.loads((CLASSES / course / "expected.toml").read_text(encoding="utf-8"))["handins"]
    return {name: entry.get("defective", {}) for name, entry in table.items() if entry["imports"]}


def _grade(assignment: Assignment, course: str, name: str) -> dict[str, CheckResult]:
    runner = InProcessRunner((CLASSES / course / "handins" / f"{name}.py").read_text(encoding="utf-8"))
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return {check.id: run_check(check, ctx) for check in assignment.checks}


@pytest.fixture(scope="module")
def cs50(tmp_path_factory: pytest.TempPathFactory) -> Assignment:
    return _assignment(tmp_path_factory.mktemp("cs50"), CS50_TOML)


@pytest.fixture(scope="module")
def codecademy(tmp_path_factory: pytest.TempPathFactory) -> Assignment:
    return _assignment(tmp_path_factory.mktemp("codecademy"), CODECADEMY_TOML)


@pytest.mark.parametrize("name", sorted(_handins("cs50")))
def test_each_cs50_role_fails_exactly_where_the_oracle_does(cs50: Assignment, name: str) -> None:
    results = _grade(cs50, "cs50", name)
    for function, result in results.items():
        wrong = function in _handins("cs50")[name]
        assert result.status is (CheckStatus.FAILED if wrong else CheckStatus.PASSED), (function, result.message)
        if wrong:  # the smallest failing board, drawn, and what to look at
            assert result.counterexample is not None and result.counterexample.board is not None
            assert result.cause is not None


@pytest.mark.parametrize("name", sorted(_handins("codecademy")))
def test_select_space_fails_exactly_where_the_oracle_does(codecademy: Assignment, name: str) -> None:
    result = _grade(codecademy, "codecademy", name)["select_space"]
    wrong = "select_space" in _handins("codecademy")[name]
    assert result.status is (CheckStatus.FAILED if wrong else CheckStatus.PASSED), result.message


@pytest.mark.parametrize(
    ("name", "call", "words"),
    [
        ("felix", "player(board)", "it is X's turn"),
        ("victor", "result(board, (-1, 0))", "negative index"),
        ("esra", "result(board, (2, 2))", "taken cell"),
        ("zeynep", "result(board, (3, 3))", "off the board"),
        ("adele", "result(board, (0, 0))", "rows included"),
    ],
)
def test_a_wrong_role_is_shown_on_its_smallest_board_with_its_cause(
    cs50: Assignment, name: str, call: str, words: str
) -> None:
    results = _grade(cs50, "cs50", name)
    failed = next(r for r in results.values() if r.status is CheckStatus.FAILED)
    assert failed.counterexample is not None and failed.cause is not None
    assert failed.counterexample.call == call
    assert words in failed.cause.sentence


def test_select_space_writing_past_the_range_shows_the_board_it_changed(codecademy: Assignment) -> None:
    result = _grade(codecademy, "codecademy", "beatriz")["select_space"]
    assert result.counterexample is not None
    assert result.counterexample.call == "select_space(board, 0, 'X')"
    assert result.counterexample.actual == "True, the board it was given now ........X"


@pytest.mark.parametrize(
    ("returned", "headline"),
    [
        ("[[X, EMPTY, EMPTY], [EMPTY] * 3, [EMPTY] * 3]", "a board with marks on it: X........"),
        ("[['.'] * 3 for _ in range(3)]", "which is not a board written this way"),
        ("None", "returned None"),
    ],
)
def test_an_initial_state_other_than_the_empty_board_fails(cs50: Assignment, returned: str, headline: str) -> None:
    source = (CLASSES / "cs50" / "handins" / "abigail.py").read_text(encoding="utf-8")
    runner = InProcessRunner(source + f"\n\ndef initial_state():\n    return {returned}\n")
    ctx = CheckContext.of(cs50, runner, frozenset(runner.defined_names()))
    result = run_check(next(c for c in cs50.checks if c.id == "initial_state"), ctx)
    assert result.status is CheckStatus.FAILED
    assert headline in result.headline
