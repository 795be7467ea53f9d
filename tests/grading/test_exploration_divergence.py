"""Where a student's alpha-beta parts from the reference's, checked against an independent
explorer written here from scratch (it shares no code with ``reference/``): the step the
grader reports is the first index at which the two lists of positions differ."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.checks.causes.explorations import Comparison, compare, separate
from grader.execution.channel.calls import CallExploration
from grader.grading import grade_submission
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from reference import Board, SearchSpec
from tests.grading.outcomes import EXPECTED, assert_outcome
from tests.seed_sources import lab05_notebook_search

SUBMISSIONS = Path(__file__).resolve().parent.parent / "submissions"
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

Cut = Callable[[float, float, float], bool]
"""(best so far, alpha, beta) -> stop trying this node's moves."""


def _outcome(cells: list[str]) -> int | None:
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return 1 if cells[a] == "O" else -1
    return 0 if "." not in cells else None


def explore(board: str, alpha: float, beta: float, max_cut: Cut, min_cut: Cut) -> list[str]:
    """Seed 003's loop (O maximizes, X moves first): keep the best, test the cut-off, then
    move the bound. Returns the board each call was entered with, in call order."""
    steps: list[str] = []
    cells = list(board)

    def node(alpha: float, beta: float) -> float:
        steps.append("".join(cells))
        result = _outcome(cells)
        if result is not None:
            return result
        maximizing = cells.count("X") > cells.count("O")
        best = -2.0 if maximizing else 2.0
        for i in range(9):
            if cells[i] != ".":
                continue
            cells[i] = "O" if maximizing else "X"
            value = node(alpha, beta)
            cells[i] = "."
            if maximizing:
                best = max(best, value)
                if max_cut(best, alpha, beta):
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                if min_cut(best, alpha, beta):
                    return best
                beta = min(beta, best)
        return best

    node(alpha, beta)
    return steps


def correct_max(best: float, alpha: float, beta: float) -> bool:
    return best >= beta


def correct_min(best: float, alpha: float, beta: float) -> bool:
    return best <= alpha


def first_difference(student: list[str], reference: list[str]) -> int:
    return next((i for i, (a, b) in enumerate(zip(student, reference)) if a != b), min(len(student), len(reference)))


MISTAKES: dict[str, tuple[Cut, Cut]] = {
    "ab-cut-strict": (lambda b, a, B: b > B, correct_min),
    "ab-cut-strict-both": (lambda b, a, B: b > B, lambda b, a, B: b < a),
    "ab-min-tests-beta": (correct_max, lambda b, a, B: b <= B),
}
POSITIONS = ["X........", "X...O...X"]  # the alphabeta-challenges check's positions


def _exploration(steps: list[str]) -> CallExploration:
    return CallExploration(nodes=len(steps), search={"max_alpha_beta:1": len(steps)}, steps=tuple(steps), complete=True)


@pytest.mark.parametrize("name", sorted(MISTAKES))
@pytest.mark.parametrize("position", POSITIONS)
def test_the_divergence_is_the_first_differing_step_of_an_independent_explorer(name: str, position: str) -> None:
    max_cut, min_cut = MISTAKES[name]
    student = explore(position, -2, 2, max_cut, min_cut)
    reference = explore(position, -2, 2, correct_max, correct_min)
    board = Board.from_string(position)
    comparison = compare(_exploration(student), board, SearchSpec(), to_move="O", alpha=-2, beta=2)
    assert comparison is not None and comparison.divergence is not None
    step = first_difference(student, reference)
    assert comparison.divergence.as_dict() == {
        "position": position,
        "step": step,
        "student": student[step] if step < len(student) else None,
        "reference": reference[step] if step < len(reference) else None,
    }
    excerpt = comparison.excerpt
    assert excerpt is not None and excerpt.path[0].board == position
    # the excerpt's last node is where the searches part: a parent of the step shown under it
    child = excerpt.student or excerpt.reference
    assert child is not None
    assert sum(a != b for a, b in zip(excerpt.path[-1].board, child)) == 1


def test_a_correct_exploration_is_the_same_and_a_wrapper_that_skips_the_root_is_too() -> None:
    board = Board.from_string(POSITIONS[0])
    steps = explore(POSITIONS[0], -2, 2, correct_max, correct_min)
    whole = compare(_exploration(steps), board, SearchSpec(), to_move="O", alpha=-2, beta=2)
    assert whole is not None and whole.same and whole.nodes == len(steps)
    # AIMA's alpha_beta_search loops over the root's moves itself: its search never enters the root
    rootless = compare(_exploration(steps[1:]), board, SearchSpec(), to_move="O", alpha=-2, beta=2)
    assert rootless is not None and rootless.same and rootless.nodes == len(steps)


def test_the_strict_cut_off_is_named_and_its_tree_shows_where_the_reference_cut_off() -> None:
    max_cut, min_cut = MISTAKES["ab-cut-strict-both"]
    student = explore(POSITIONS[0], -2, 2, max_cut, min_cut)
    comparison = compare(
        _exploration(student), Board.from_string(POSITIONS[0]), SearchSpec(), to_move="O", alpha=-2, beta=2
    )
    assert comparison is not None and comparison.cause is not None and "(`>` and `<`)" in comparison.cause.sentence
    excerpt = comparison.excerpt
    assert excerpt is not None and excerpt.reference_cut_off
    cut = excerpt.path[-1]
    assert cut.value is not None and (cut.value >= cut.beta or cut.value <= cut.alpha)


def test_an_exploration_past_the_cap_or_with_unreadable_boards_is_left_to_the_counts() -> None:
    board = Board.from_string(POSITIONS[0])
    steps = explore(POSITIONS[0], -2, 2, correct_max, correct_min)
    unreadable = dataclasses.replace(_exploration(steps), steps=(*steps[:3], None, *steps[4:]))
    cut_short = dataclasses.replace(_exploration(steps), complete=False)
    for exploration in (unreadable, cut_short, None):
        assert compare(exploration, board, SearchSpec(), to_move="O", alpha=-2, beta=2) is None


def _node_reduction(name: str) -> CheckResult:
    """The fixture graded on every check, its outcome as `expected.toml` pins it (`graded_by` names
    this module, so `test_wrong_submissions.py` does not grade it again), and its node-reduction."""
    assignment = load_assignment("alphabeta-challenges")
    result = grade_submission(SUBMISSIONS / "alphabeta-challenges" / f"{name}.ipynb", assignment)
    entry = EXPECTED["alphabeta-challenges"][name]
    assert entry["graded_by"] == "tests/grading/test_exploration_divergence.py"
    assert_outcome(result, assignment, entry)
    return result.check("node-reduction")


@pytest.mark.slow
@pytest.mark.kernel
@pytest.mark.parametrize("name", ["ab-cut-strict-both", "ab-min-tests-beta"])
def test_graded_fixtures_report_the_exact_step_of_the_first_divergence(name: str) -> None:
    result = _node_reduction(name)
    max_cut, min_cut = MISTAKES[name]
    position = POSITIONS[0]  # the first position where the exploration differs
    student = explore(position, -2, 2, max_cut, min_cut)
    reference = explore(position, -2, 2, correct_max, correct_min)
    step = first_difference(student, reference)
    figures = result.to_dict()["figures"]
    assert figures["divergence"] == {
        "position": position,
        "step": step,
        "student": student[step],
        "reference": reference[step],
    }
    assert f"at step {step:,}" in result.message
    assert CheckResult.from_dict(result.to_dict()) == result
    # values right: half the points for pruning; wrong values (the wrong bound): none
    assert result.status == (CheckStatus.PARTIAL if name == "ab-cut-strict-both" else CheckStatus.FAILED)


# -- lab05: any move order, the rule at the divergence ------------------------------------------

LAB05 = SUBMISSIONS / "lab05"
FROM_ONE_MARK = Board.from_string("X........")


def _lab05(name: str, any_order: bool = True, keep: slice = slice(None)) -> Comparison:
    """The comparison of a lab05 fixture's exploration from X........ (``keep``: of a part of it)."""
    steps = lab05_notebook_search(LAB05 / f"{name}.ipynb")(FROM_ONE_MARK)[keep]
    comparison = compare(
        _exploration(steps),
        FROM_ONE_MARK,
        SearchSpec(),
        to_move="O",
        alpha=-math.inf,
        beta=math.inf,
        any_order=any_order,
    )
    assert comparison is not None
    return comparison


def test_a_correct_alphabeta_in_its_own_move_order_explores_as_the_reference_replayed_in_it() -> None:
    centre = _lab05("alphabeta-centre-first")
    assert centre.same and centre.nodes == 1_521
    assert centre.order == "centre first, then corners, then edges"
    assert not _lab05("alphabeta-centre-first", any_order=False).same  # row-major parts from it
    sorted_moves = _lab05("alphabeta-sorted-moves")
    assert (
        sorted_moves.same
        and sorted_moves.order is not None
        and "changes from position to position" in sorted_moves.order
    )


@pytest.mark.parametrize(
    ("name", "reading"),
    [
        ("alphabeta-only-max-prunes", "only-max-prunes"),
        ("alphabeta-only-min-prunes", "only-min-prunes"),
        ("alphabeta-window-swapped", "swapped-window-from-max"),
    ],
)
def test_the_rule_that_reproduces_the_whole_exploration_is_named_with_its_step(name: str, reading: str) -> None:
    comparison = _lab05(name)
    assert [m.name for m in comparison.readings] == [reading]
    assert comparison.divergence is not None and comparison.cause is not None
    assert comparison.cause.source == "known-mistake"
    assert "; or in which" not in comparison.cause.sentence
    assert f"It first shows at step {comparison.divergence.step:,}: the reference's" in comparison.cause.sentence
    # the local fact is the reference's own state at the node the excerpt draws
    excerpt = comparison.excerpt
    assert excerpt is not None
    node = excerpt.path[-1]
    window = ", ".join(
        "inf" if v == math.inf else "-inf" if v == -math.inf else str(int(v)) for v in (node.alpha, node.beta)
    )
    assert f"node `{node.board}` was entered with the window ({window})" in comparison.cause.sentence


def test_a_local_fact_stands_alone_where_no_rule_reproduces_the_exploration() -> None:
    # no rule explores this: the search stops 40 positions early
    comparison = _lab05("alphabeta-only-max-prunes", keep=slice(None, -40))
    assert comparison is not None and comparison.readings == ()
    assert comparison.cause is not None and comparison.cause.sentence.startswith("At step 29: the reference's MIN node")
    assert comparison.cause.source == "local"


def test_readings_one_window_cannot_tell_apart_are_settled_by_a_call_with_a_narrow_one() -> None:
    search = lab05_notebook_search(LAB05 / "alphabeta-children-full-window.ipynb")
    comparison = _lab05("alphabeta-children-full-window")
    assert (
        len(comparison.readings) > 1 and comparison.cause is not None and "; or in which" in comparison.cause.sentence
    )
    asked: list[tuple[float, float]] = []

    def ask(window: tuple[float, float]) -> list[str]:
        asked.append(window)
        return search(FROM_ONE_MARK, *window)

    settled = separate(comparison, FROM_ONE_MARK, SearchSpec(), to_move="O", ask=ask)
    assert [m.name for m in settled.readings] == ["children-full-window"]
    assert len(asked) == 1 and asked[0][0] > -math.inf and asked[0][1] < math.inf
    assert settled.cause is not None and "; or in which" not in settled.cause.sentence
    alpha, beta = (int(v) for v in asked[0])
    assert f"called again on X........ with the window ({alpha}, {beta})" in settled.cause.sentence
    # an answer the grader cannot read leaves the alternatives standing
    assert separate(comparison, FROM_ONE_MARK, SearchSpec(), to_move="O", ask=lambda window: None) == comparison
