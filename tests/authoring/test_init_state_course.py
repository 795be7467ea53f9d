"""`grader init` on the course written on its own state objects (`tests/courses/support-state-objects`,
MIT 6.034's games lab): init reads the course's board class, its board functions, its state and
its game trees from what the solution answers, with no edit; the assignment it writes gives the
solution full marks, the handout at most a fifth, and each mutant fails its own function's checks
and no other. One init and one in-process grading of each hand-in serve every assert."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.checks.in_process import InProcessRunner
from tests.courses.state_course import HANDOUT, MUTANTS, SOLUTION, SUPPORT

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

OWN_CHECKS = {
    "dfs_maximizing": {"dfs-maximizing", "dfs-maximizing-trees"},
    "minimax_search": {"minimax-search", "minimax-search-trees"},
    "minimax_search_alphabeta": {"minimax-search-alphabeta", "minimax-search-alphabeta-trees"},
    "endgame_score_connectfour": {"endgame-score-connectfour"},
    "is_game_over_connectfour": {"is-game-over-connectfour"},
    "heuristic_connectfour": {"heuristic-connectfour"},
    "progressive_deepening": {"progressive-deepening"},
}
"""The checks init writes for each mutated function: on Connect Four, and on the course's trees
where the function is a search."""


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Assignment:
    out = tmp_path_factory.mktemp("state-course") / "assignment"
    modules = tuple(sorted(SUPPORT.glob("*.py")))
    report = create_assignment(InitRequest(SOLUTION, out, template=HANDOUT, support=modules))
    assert report.return_code == 0, str(report)
    return load_assignment(out)


@pytest.fixture(scope="module", autouse=True)
def _course_modules() -> Iterator[None]:
    """The course's modules importable in-process, as every kernel of the assignment has them."""
    sys.path.insert(0, str(SUPPORT))
    try:
        yield
    finally:
        sys.path.remove(str(SUPPORT))


@pytest.fixture(scope="module")
def graded(written: Assignment) -> dict[str, dict[str, CheckResult]]:
    """Each hand-in's results under the written assignment, in-process."""
    hand_ins = {"solution": SOLUTION.read_text(encoding="utf-8"), "handout": HANDOUT.read_text(encoding="utf-8")}
    hand_ins |= {m.name: m.source() for m in MUTANTS}
    return {name: _grade(written, source) for name, source in hand_ins.items()}


def _grade(assignment: Assignment, source: str) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    return {c.id: run_check(c, ctx) for c in assignment.checks}


def _failed(results: dict[str, CheckResult]) -> set[str]:
    return {check for check, result in results.items() if result.status is not CheckStatus.PASSED}


def test_init_reads_the_board_object_in_the_courses_orientation_and_pieces(written: Assignment) -> None:
    setup = written.game
    assert setup is not None and setup.board_object is not None
    assert setup.board_object.text == "ConnectFourBoard(board)" and setup.board_attribute == "board_array"
    encoding = setup.encoding
    assert (encoding.rows, encoding.cols, encoding.container, encoding.top_row_first) == (6, 7, "tuple", True)
    assert (encoding.empty, encoding.x, encoding.o) == (0, 1, 2)


def test_init_writes_every_board_function_and_every_search_with_its_call(written: Assignment) -> None:
    checks = {c.id: c for c in written.checks}
    expects = {c.params.call.text: c.params.expect for c in written.checks if c.kind == "game-predicate"}
    assert expects == {
        "is_game_over_connectfour(board)": "terminal",
        "next_boards_connectfour(board)": "next-boards",
        "endgame_score_connectfour(board, is_max)": "endgame-score",
    }
    assert checks["endgame-score-connectfour"].params.win == 1000
    heuristic = checks["heuristic-connectfour"].params
    assert heuristic.antisymmetric and heuristic.swap_symmetric
    searches = {c.id: (c.params.call.text, c.params.search) for c in written.checks if c.kind == "state-search"}
    assert searches == {
        "dfs-maximizing": ("dfs_maximizing(state)", "best-leaf"),
        "minimax-endgame-search": ("minimax_endgame_search(state, True)", "minimax"),
        "minimax-search": ("minimax_search(state, heuristic, depth_limit, True)", "minimax"),
        "minimax-search-alphabeta": (
            "minimax_search_alphabeta(state, -inf, inf, heuristic, depth_limit, True)",
            "alphabeta",
        ),
        "progressive-deepening": ("progressive_deepening(state, heuristic, depth_limit, False)", "alphabeta"),
    }
    deepening = checks["progressive-deepening"].params  # asked with the side to move minimizing
    assert (deepening.deepening, deepening.history, deepening.maximize) == (True, "history", False)
    state = "AbstractGameState(board, is_game_over_connectfour, next_boards_connectfour, endgame_score_connectfour)"
    for check in (c for c in written.checks if c.kind == "state-search"):
        assert check.params.state == state and check.params.tie == "first" and check.params.count_endgames
        assert check.params.path_board == "snapshot.board_array" and check.params.win == 1000
    answers = {c.params.name: c.params.expected for c in written.checks if c.kind == "answer"}
    assert answers == {"ANSWER_1": "B", "ANSWER_2": 4}
    trees = {c.id: c.params for c in written.checks if c.kind == "tree-search"}
    assert set(trees) == {f"{search}-trees" for search in searches if search != "progressive-deepening"}
    assert {p.node for p in trees.values()} == {"GameTree(label, value, children)"}
    assert trees["minimax-search-trees"].heuristic.text == "tree_heuristic(tree, is_max)"


def test_the_solution_scores_full_marks_and_the_handout_at_most_a_fifth(
    written: Assignment, graded: dict[str, dict[str, CheckResult]]
) -> None:
    total = sum(c.points for c in written.checks)
    solution = graded["solution"]
    assert _failed(solution) == set(), {k: r.message for k, r in solution.items() if k in _failed(solution)}
    assert sum(r.score for r in graded["handout"].values()) <= 0.2 * total
    assert graded["handout"]["answer-1"].message == "`ANSWER_1` is None: not answered yet"


@pytest.mark.parametrize(
    "answers, failing",
    [
        ('ANSWER_1 = " b "\nANSWER_2 = 4.0\n', set()),
        ('ANSWER_1 = "A"\nANSWER_2 = True\n', {"answer-1", "answer-2"}),
        ("del ANSWER_1\n", {"answer-1"}),
    ],
)
def test_an_answer_is_judged_by_its_value_never_shown(written: Assignment, answers: str, failing: set[str]) -> None:
    source = SOLUTION.read_text(encoding="utf-8") + "\n" + answers
    runner = InProcessRunner(source)
    ctx = CheckContext.of(written, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(written))
    results = {c.id: run_check(c, ctx) for c in written.checks if c.kind == "answer"}
    assert _failed(results) == failing
    for check in failing:
        shown = results[check].counterexample
        assert shown is not None and shown.expected == "the course's answer"


def test_an_answer_set_to_no_plain_value_is_told_so_not_called_unset(written: Assignment) -> None:
    runner = InProcessRunner(SOLUTION.read_text(encoding="utf-8") + "\nANSWER_1 = ...\nANSWER_2 = len\n")
    ctx = CheckContext.of(written, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(written))
    results = {c.id: run_check(c, ctx) for c in written.checks if c.kind == "answer"}
    assert {k: (r.status, r.message) for k, r in results.items()} == {
        "answer-1": (CheckStatus.FAILED, "`ANSWER_1` is not answered with a string, a number or a boolean"),
        "answer-2": (CheckStatus.FAILED, "`ANSWER_2` is not answered with a string, a number or a boolean"),
    }


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_each_mutant_fails_its_own_functions_checks_and_no_other(
    mutant: object, graded: dict[str, dict[str, CheckResult]]
) -> None:
    name, function = mutant.name, mutant.function  # type: ignore[attr-defined]
    results = graded[name]
    assert _failed(results) == OWN_CHECKS[function], {k: r.message for k, r in results.items()}
