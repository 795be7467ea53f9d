"""`grader init` on the built-in Connect-Four course: the game, its board and every role are read
from the solution's answers; the folder validates untouched, and each mutant of the course fails
a check of the function it breaks, as under the built-in assignment."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.grading import GradingOptions, grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, Check
from grader.validation import validate_assignment

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

ROOT = Path(__file__).parents[2]
COURSE = ROOT / "assignments" / "connect4"
MUTANTS = ROOT / "tests" / "submissions" / "connect4"
PINNED = tomllib.loads((ROOT / "tests" / "submissions" / "expected.toml").read_text(encoding="utf-8"))["connect4"]


def _function(check: Check[Any]) -> str:
    return str(check.params.call.function) if hasattr(check.params, "call") else ""


@pytest.fixture(scope="module")
def inferred(tmp_path_factory: pytest.TempPathFactory) -> Assignment:
    out = tmp_path_factory.mktemp("init") / "connect4"
    report = create_assignment(InitRequest(COURSE / "solution.ipynb", out, template=COURSE / "template.ipynb"))
    assert report.return_code == 0, str(report)
    return load_assignment(out)


@pytest.mark.kernel
@pytest.mark.slow
def test_the_game_and_the_roles_are_read_from_the_answers(inferred: Assignment) -> None:
    built_in = load_assignment(COURSE)
    assert inferred.game == built_in.game  # 5 x 6, four in a line, rows of ' '/'X'/'O', the top row first
    kinds = {_function(c): c for c in inferred.checks if c.kind != "game-opponent"}
    assert {name: c.kind for name, c in kinds.items()} == {
        "legal_moves": "game-predicate",
        "winner": "game-predicate",
        "is_terminal": "game-predicate",
        "drop_piece": "game-successor",
        "evaluate": "heuristic",
        "minimax": "game-search",
        "alphabeta": "game-search",
        "progressive_deepening": "game-search",
        "best_move": "game-search",
        "": "runs-cleanly",
    }
    built = {_function(c): c.params for c in built_in.checks if c.kind == "game-search"}
    fields = ("returns", "count", "win", "win_bonus", "deepening", "deepening_counts")
    for name in ("minimax", "alphabeta", "progressive_deepening", "best_move"):
        mine, theirs = kinds[name].params, built[name]
        assert {f: getattr(mine, f) for f in fields} == {f: getattr(theirs, f) for f in fields}, name
    assert [kinds[name].params.prune for name in ("minimax", "alphabeta", "progressive_deepening")] == [
        False,
        True,
        True,
    ]
    # best_move's evaluations are alpha-beta's at depth 4; with count = "none" pruning is not judged
    assert (kinds["best_move"].params.depth_limits, kinds["best_move"].params.prune) == ((4,), True)
    assert kinds["legal_moves"].params.ordered and kinds["evaluate"].params.antisymmetric


@pytest.mark.kernel
@pytest.mark.slow
def test_the_folder_validates_untouched(inferred: Assignment) -> None:
    validation = validate_assignment(inferred)
    assert validation.ok, str(validation)
    assert validation.solution is not None and validation.solution.score == validation.solution.max_score
    assert validation.template is not None and validation.template.fraction < 0.2


@pytest.mark.kernel
@pytest.mark.slow
@pytest.mark.parametrize("mutant", sorted(PINNED))
def test_each_mutant_fails_a_check_of_the_function_it_breaks(inferred: Assignment, mutant: str) -> None:
    built_in = {c.id: _function(c) for c in load_assignment(COURSE).checks}
    broken = built_in[PINNED[mutant]["failed"][0]]  # the check the built-in pins first is of that function
    result = grade_submission(MUTANTS / f"{mutant}.ipynb", inferred, GradingOptions())
    failed = {c.check_id for c in result.checks if c.status is not CheckStatus.PASSED}
    own = {c.id for c in inferred.checks if _function(c) == broken}
    assert failed & own, f"{mutant} breaks {broken}: none of {sorted(own)} fails; failed: {sorted(failed)}"


@pytest.mark.kernel
def test_connect_four_without_a_search_gets_one_message_and_no_folder(tmp_path: Path) -> None:
    out = tmp_path / "assignment"
    report = create_assignment(InitRequest(ROOT / "tests" / "authoring" / "bad" / "connect_no_search.py", out))
    assert report.return_code == 1
    message = str(report)
    assert message.startswith("grader init: this is Connect Four (create_board() gives a 6x7 numpy array, the bottom")
    assert "1 for X, 2 for O, 0 for an empty cell" in message
    assert "found winning_piece(board) (win-test), valid_columns(board) (moves)" in message  # the win test first
    assert message.endswith("but no function answers like a depth-limited search")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.kernel
@pytest.mark.slow
def test_another_board_is_asked_of_the_game_not_assumed(tmp_path: Path) -> None:
    """A flat list of 0/1/2 cells from the bottom row, moves played in place, a win worth 100
    without a bonus, an alpha-beta that takes its window, and no handout: the solution's own
    program tells its helpers."""
    out = tmp_path / "flat"
    report = create_assignment(InitRequest(ROOT / "tests" / "authoring" / "connect" / "flat_in_place.py", out))
    assert report.return_code == 0, str(report)
    assignment = load_assignment(out)
    assert assignment.game is not None
    assert (assignment.game.game.rows, assignment.game.game.cols, assignment.game.game.k) == (6, 7, 4)
    encoding = assignment.game.encoding
    assert (encoding.layout, encoding.empty, encoding.x, encoding.o, encoding.top_row_first) == ("flat", 0, 1, 2, False)
    checks = {_function(c): c for c in assignment.checks}
    assert set(checks) == {"open_columns", "who_won", "game_over", "play", "score", "search", "alpha_beta", ""}
    assert checks["play"].params.returns == "in-place"
    search = checks["search"].params
    assert (search.returns, search.prune, search.count) == ("move,value", False, "heuristic-calls")
    assert (search.win, search.win_bonus) == (100, "none")
    pruned = checks["alpha_beta"].params  # called with the full window, as literals
    assert pruned.call.text == "alpha_beta(board, depth_limit, -1000000000, 1000000000, to_move)"
    assert (pruned.returns, pruned.prune, pruned.count) == ("move,value", True, "heuristic-calls")
    validation = validate_assignment(assignment)
    assert validation.ok, str(validation)
