"""Searches that take the course's own state object (`state-search`), on the course fixture in
MIT 6.034's style (`tests/courses/support-state-objects`): the kernel makes the course's board and state
from each position through the course's classes, the solution passes every check, the handout
none, and each mutant fails the check of its own function and no other (a search that calls a wrong one is
graded again with the reference's search in its place)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.check_details import SearchDivergence
from grader.check_notes import Regraded
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.feedback.gradescope import gradescope_results
from grader.feedback.html import render_student_report
from grader.feedback.text import format_submission
from grader.results import CheckResult, CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.model import AssignmentError
from tests.checks.in_process import InProcessRunner
from tests.courses.state_course import COURSE, HANDOUT, MUTANTS, NEXT_BOARDS_REVERSED, SOLUTION, SUPPORT, Mutant

ASSIGNMENT = load_assignment(COURSE)


@pytest.fixture(autouse=True)
def _course_modules() -> Iterator[None]:
    """The course's modules importable, as every kernel of the assignment has them."""
    sys.path.insert(0, str(SUPPORT))
    try:
        yield
    finally:
        sys.path.remove(str(SUPPORT))


def _graded(source: str, *only: str) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(ASSIGNMENT, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(ASSIGNMENT))
    return {c.id: run_check(c, ctx) for c in ASSIGNMENT.checks if not only or c.id in only}


GRADED_WHOLE = {SOLUTION.read_text(encoding="utf-8"), *(m.source() for m in MUTANTS)}
"""The sources a test below grades on every check: graded so once in the module, and a test that
asks only some of their checks reads those checks of that grading."""
_WHOLE: dict[str, dict[str, CheckResult]] = {}


def grade(source: str, *only: str) -> dict[str, CheckResult]:
    if source not in GRADED_WHOLE:
        return _graded(source, *only)
    if source not in _WHOLE:
        _WHOLE[source] = _graded(source)
    return {check: result for check, result in _WHOLE[source].items() if not only or check in only}


def failed(results: dict[str, CheckResult]) -> set[str]:
    return {check for check, result in results.items() if result.status is not CheckStatus.PASSED}


def test_the_solution_passes_every_check() -> None:
    results = grade(SOLUTION.read_text(encoding="utf-8"))
    assert failed(results) == set(), {k: r.message for k, r in results.items()}
    assert "paths, scores and static evaluations" in results["alphabeta"].message


def test_the_searches_are_also_judged_on_random_game_trees() -> None:
    results = grade(SOLUTION.read_text(encoding="utf-8"), "minimax-trees", "alphabeta-trees")
    assert "random game trees at depths 1, 2, 3" in results["alphabeta-trees"].message
    assert results["minimax-trees"].figures["examples"] == 90  # 30 trees at 3 depths


@pytest.mark.parametrize(
    "mutant, check, words",
    [
        ("ties-to-the-later-branch", "minimax-trees", "are equally good: keep the first"),
        ("alphabeta-never-prunes", "alphabeta-trees", "it never cuts off"),
        ("dfs-best-starts-at-zero", "dfs-maximizing-trees", "does the best score start above every leaf's"),
        ("terminal-leaves-not-counted", "minimax-trees", "a leaf's value is one static evaluation"),
    ],
)
def test_a_tree_shows_the_mistake_on_the_smallest_tree_drawn(mutant: str, check: str, words: str) -> None:
    (made,) = [m for m in MUTANTS if m.name == mutant]
    result = grade(made.source(), check)[check]
    assert result.status is CheckStatus.FAILED
    assert result.cause is not None and words in result.cause.sentence
    assert result.counterexample is not None and "on the tree (A" in result.counterexample.call
    assert result.message.endswith("nodes)") and int(result.message.split("(")[-1].split()[0]) <= 8


def test_a_failing_tree_and_a_failing_state_search_are_reported_in_every_format() -> None:
    (ties,) = [m for m in MUTANTS if m.name == "ties-to-the-later-branch"]
    results = grade(ties.source(), "minimax", "minimax-trees")
    submission = SubmissionResult("ties.py", "state-objects", tuple(results.values()), None)
    text = format_submission(submission)
    assert "on the tree (A" in text and "keep the first" in text
    page = render_student_report(submission)
    assert "keep the first" in page and "on the tree (A" in page
    shown = gradescope_results(submission)["tests"]
    assert all("keep the first" in test["output"] for test in shown)
    assert CheckResult.from_dict(results["minimax-trees"].to_dict()) == results["minimax-trees"]


def test_the_handout_scores_nothing_but_the_clean_run() -> None:
    results = grade(HANDOUT.read_text(encoding="utf-8"))
    earned = sum(r.score for r in results.values())
    assert earned == 0
    assert failed(results) == {c.id for c in ASSIGNMENT.checks} - {"runs-cleanly"}


PINNED_CAUSES = {
    "dfs-best-starts-at-zero": "does the best score start above every leaf's (at 0)",
    "ties-to-the-later-branch": "are equally good: keep the first",
    "won-on-the-last-cell-is-a-tie": "a full board with a line is a win, not a tie",
    "endgame-score-sign-flipped": "the side that just moved won",
    "a-full-board-is-not-over": "the board is full and nobody has a line: the game is over",
    "heuristic-not-negated": "the sign for the minimizing side is wrong",
    "alphabeta-never-prunes": "it never cuts off",
    "terminal-leaves-not-counted": "a finished game's endgame score is one static evaluation",
    "deepening-always-maximizes": "after depth 1: alpha-beta must give the minimax score",
}


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_each_mutant_fails_the_checks_of_its_own_function_alone_and_is_told_its_mistake(mutant: Mutant) -> None:
    results = grade(mutant.source())
    assert failed(results) == set(mutant.checks), {k: r.message for k, r in results.items() if k in failed(results)}
    result = results[mutant.checks[0]]
    assert result.cause is not None
    assert PINNED_CAUSES[mutant.name] in result.cause.sentence
    assert result.counterexample is not None and result.counterexample.drawing is not None
    if mutant.name == "alphabeta-never-prunes":  # the node where the reference cut off is shown
        assert isinstance(result.detail, SearchDivergence)
        assert "the reference cuts off here" in result.detail.expected
        # the deepening that calls it is graded with the reference's alpha-beta, and says so
        (note,) = [note for note in results["progressive-deepening"].notes if isinstance(note, Regraded)]
        assert note.helpers == ("minimax_search_alphabeta",) and note.passed
        assert "graded with the reference `minimax_search_alphabeta`" in results["progressive-deepening"].message


SEARCHES = ("dfs-maximizing", "minimax-endgame", "minimax", "alphabeta")


@pytest.mark.parametrize(
    "mutant, helper, regraded",
    [
        ("endgame-score-sign-flipped", "endgame_score_connectfour", SEARCHES),
        ("a-full-board-is-not-over", "is_game_over_connectfour", ("dfs-maximizing", "minimax-endgame")),
        ("next-boards-last-column-first", "next_boards_connectfour", SEARCHES),
    ],
)
def test_a_wrong_board_function_the_state_carries_costs_once(
    mutant: str, helper: str, regraded: tuple[str, ...]
) -> None:
    """The state made for the searches carries the student's board functions: with one wrong,
    every search that meets it fails too, and is graded again with the reference's version
    standing in, passing and saying so; only the function's own check loses points. The boards one
    move away stand in as the course's board objects: a search is not blamed for their order."""
    (made,) = [m for m in (*MUTANTS, NEXT_BOARDS_REVERSED) if m.name == mutant]
    results = grade(made.source(), made.checks[0], *SEARCHES)
    assert failed(results) == {made.checks[0]}
    for check in regraded:
        (note,) = [note for note in results[check].notes if isinstance(note, Regraded)]
        assert note.helpers == (helper,) and note.passed
        assert f"right once `{helper}` is: graded with the reference" in results[check].message
        assert results[check].cause is None  # no tie rule blamed
    points = {c.id: c.points for c in ASSIGNMENT.checks}
    assert sum(points[c] - r.score for c, r in results.items()) == points[made.checks[0]]


def test_a_search_wrong_on_its_own_still_fails_with_the_reference_standing_in() -> None:
    (flipped,) = [m for m in MUTANTS if m.name == "endgame-score-sign-flipped"]
    (ties,) = [m for m in MUTANTS if m.name == "ties-to-the-later-branch"]
    both = flipped.source().replace(ties.old, ties.new)
    results = grade(both, "endgame-score", "minimax", "alphabeta")
    assert failed(results) == {"endgame-score", "minimax"}
    assert results["minimax"].cause is not None and "keep the first" in results["minimax"].cause.sentence
    assert not any(isinstance(note, Regraded) and note.passed for note in results["minimax"].notes)


def test_a_search_wrong_on_its_own_still_fails_with_the_reference_s_search_it_calls_standing_in() -> None:
    """A deepening that drops `maximize`, calling an alpha-beta that never prunes: graded again with the
    reference's alpha-beta in its place, it is still wrong, and charged for its own mistake."""
    (never,) = [m for m in MUTANTS if m.name == "alphabeta-never-prunes"]
    (always,) = [m for m in MUTANTS if m.name == "deepening-always-maximizes"]
    both = never.source().replace(always.old, always.new)
    results = grade(both, "alphabeta", "progressive-deepening")
    assert failed(results) == {"alphabeta", "progressive-deepening"}
    cause = results["progressive-deepening"].cause
    assert cause is not None and PINNED_CAUSES["deepening-always-maximizes"] in cause.sentence
    assert not any(isinstance(note, Regraded) and note.passed for note in results["progressive-deepening"].notes)


def _spec(tmp_path: Path, old: str, new: str) -> Path:
    text = (COURSE / "assignment.toml").read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    (tmp_path / "assignment.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "support").mkdir()
    for module in SUPPORT.iterdir():
        (tmp_path / "support" / module.name).write_bytes(module.read_bytes())
    return tmp_path


@pytest.mark.parametrize(
    "old, new, words",
    [
        ('state = "AbstractGameState(board,', 'state = "AbstractGameState(board +', "must be a literal, a placeholder"),
        ('call = "dfs_maximizing(state)"', 'call = "dfs_maximizing(board)"', "is not given the state"),
        (
            'board_object = "ConnectFourBoard(board)"\nboard_attribute = "board_array"',
            'board_object = "ConnectFourBoard()"',
            "must name the object's attribute that holds the board",
        ),
        (
            'board_attribute = "board_array"',
            'board_attribute = "board_array"\nturn_attribute = "turn"',
            "only to an object",
        ),
        ('heuristic = "heuristic_connectfour(board, is_max)"\n', "", "say which with heuristic"),
        ("deepening = true\n", "", "history names where progressive deepening keeps its answers"),
    ],
)
def test_a_mistake_in_how_the_state_is_made_is_refused_when_the_assignment_loads(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    with pytest.raises(AssignmentError) as info:
        load_assignment(_spec(tmp_path, old, new))
    assert words in str(info.value)


def _graded_alone(folder: Path, check: str, source: str) -> CheckResult:
    """``check`` of the assignment loaded from ``folder``, run alone on ``source``."""
    assignment = load_assignment(folder)
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    (made,) = [c for c in assignment.checks if c.id == check]
    return run_check(made, ctx)


SWAPPED = ("antisymmetric = true\n", "antisymmetric = true\nswap_symmetric = true\n")
"""The heuristic check also asks for the same value for the other side with the pieces swapped."""


def test_the_heuristic_is_given_the_swapped_board_as_the_courses_board_object(tmp_path: Path) -> None:
    folder = _spec(tmp_path, *SWAPPED)
    result = _graded_alone(folder, "heuristic", SOLUTION.read_text(encoding="utf-8"))
    assert result.status is CheckStatus.PASSED, result.message
    assert "with the pieces swapped" in result.message


@pytest.mark.parametrize(
    "refusal, given",
    [
        ("raise ValueError('no game reaches this board')", "no answer: it raised ValueError"),
        ("return None", "None"),
    ],
)
def test_a_heuristic_that_gives_no_number_on_the_swapped_board_fails(tmp_path: Path, refusal: str, given: str) -> None:
    """A board with more of the second player's pieces than the first's is reached by no game:
    a heuristic that answers nothing there fails the check, it is not passed over."""
    old = "    mine = sum(len(chain) ** 2"
    source = SOLUTION.read_text(encoding="utf-8").replace(
        old,
        "    if board.count_pieces(board.players[1]) > board.count_pieces(board.players[0]):\n"
        f"        {refusal}\n{old}",
        1,
    )
    assert source.count("no game reaches") + source.count("return None\n    mine") == 1
    folder = _spec(tmp_path, *SWAPPED)
    result = _graded_alone(folder, "heuristic", source)
    assert result.status is CheckStatus.FAILED, result.message
    assert result.counterexample is not None
    assert given in result.counterexample.actual
    assert "every piece swapped" in result.counterexample.expected


DROP_CHECK = '''[[checks]]
id = "drop"
title = "drop: the board after a move"
kind = "game-successor"
points = 5
call = "drop(board, move)"
returns = "{returns}"

[[checks]]
id = "runs-cleanly"'''

DROPS = {
    "new-board": "def drop(board, col):\n    return board.add_piece(col)\n",
    "in-place": "def drop(board, col):\n    board.board_array = board.add_piece(col).board_array\n",
}


@pytest.mark.parametrize("returns", DROPS)
def test_dropping_a_piece_is_read_from_the_courses_board_object(tmp_path: Path, returns: str) -> None:
    folder = _spec(tmp_path, '[[checks]]\nid = "runs-cleanly"', DROP_CHECK.format(returns=returns))
    source = SOLUTION.read_text(encoding="utf-8") + "\n\n" + DROPS[returns]
    result = _graded_alone(folder, "drop", source)
    assert result.status is CheckStatus.PASSED, result.message
    wrong = source.replace("add_piece(col)", "add_piece(min(col + 1, 6))")
    result = _graded_alone(folder, "drop", wrong)
    assert result.status is CheckStatus.FAILED, result.message
    assert result.counterexample is not None and "into column" in result.counterexample.expected
    assert "not a board" not in result.counterexample.actual


@pytest.mark.parametrize(
    "heuristic, check, where",
    [("heuristic_connectfour", "minimax", "a position"), ("tree_heuristic", "minimax-trees", "a node")],
)
def test_a_search_handed_a_heuristic_that_gives_no_number_is_not_judged(heuristic: str, check: str, where: str) -> None:
    source = SOLUTION.read_text(encoding="utf-8") + f"\n\ndef {heuristic}(board, is_max):\n    return None\n"
    result = grade(source, check)[check]
    assert result.status is CheckStatus.FAILED
    assert result.message == f"The heuristic gives no number on {where} the search evaluates: None"
    assert result.cause is not None and "must answer a number for the search to be judged" in result.cause.sentence


def test_an_endgame_score_that_ignores_is_max_fails_its_own_check_and_costs_once() -> None:
    """Each finished game is asked with is_max True and False: a score that ignores the flag
    is caught in its own check, not only in the searches that ask with maximize False."""
    (flipped,) = [m for m in MUTANTS if m.name == "endgame-score-sign-flipped"]
    ignores = SOLUTION.read_text(encoding="utf-8").replace(flipped.old, "        return -1000")
    results = grade(ignores, "endgame-score", *SEARCHES)
    assert failed(results) == {"endgame-score"}, {k: r.message for k, r in results.items()}
    result = results["endgame-score"]
    assert result.cause is not None and "with is_max False the side that just moved is the maximizer" in (
        result.cause.sentence
    )
    assert result.counterexample is not None and result.counterexample.call.endswith("False)")
    (note,) = [note for note in results["minimax-endgame"].notes if isinstance(note, Regraded)]
    assert note.helpers == ("endgame_score_connectfour",) and note.passed


KEPT = "        anytime.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))\n"


@pytest.mark.parametrize(
    "old, new, words",
    [
        ("    return anytime\n", "    return anytime.history\n", "it must return an object whose `history` holds"),
        (
            KEPT,
            KEPT.replace("anytime.set_value(", "last = ("),
            "one for each depth 1 to 3, the first for depth 1, not 0",
        ),
    ],
    ids=["the-list-itself", "nothing-kept"],
)
def test_progressive_deepening_is_read_where_the_course_keeps_its_answers(old: str, new: str, words: str) -> None:
    """Each depth's answer is read from the `AnytimeValue`'s `history`, as the check says; an answer kept
    elsewhere, or none kept, is told where it must be."""
    source = SOLUTION.read_text(encoding="utf-8")
    assert source.count(old) == 1
    result = grade(source.replace(old, new), "progressive-deepening")["progressive-deepening"]
    assert result.status is CheckStatus.FAILED
    assert result.cause is not None and words in result.cause.sentence, result.cause
