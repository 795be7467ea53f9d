"""The node-reduction verdict where the assignment fixes no move order: a correct alpha-beta
in its own order passes and says what it saw; a wrong one is held to what a correct search
visits in that order, not to the row-major count."""

from __future__ import annotations

import math
from pathlib import Path

from grader.check_details import NodeCountRow
from grader.checks.causes.explorations import compare, explained
from grader.checks.kinds.node_count_verdicts import Measured, alphabeta_result, judge_alphabeta
from grader.execution.channel.calls import CallExploration
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Check
from reference import Board, SearchSpec
from reference.replay import replayed_trace
from reference.search import alphabeta, minimax_nodes
from tests.seed_sources import lab05_notebook_search

CENTRE_FIRST = Path(__file__).resolve().parent.parent / "submissions" / "lab05" / "alphabeta-centre-first.ipynb"
STRICT = [("if beta <= alpha:", "if beta < alpha:")]
BOARD = Board.from_string("X........")
SPEC = SearchSpec()
CHECK: Check[None] = Check("node-reduction", "node-counts", "alpha-beta visits fewer nodes", 10, None)


def _verdict(steps: list[str]) -> tuple[CheckResult, int]:
    """The verdict on one position's exploration, and the row-major reference's count there."""
    exploration = CallExploration(
        nodes=len(steps), search={"minimaxAB:1": len(steps)}, steps=tuple(steps), complete=True
    )
    comparison = compare(exploration, BOARD, SPEC, to_move="O", alpha=-math.inf, beta=math.inf, any_order=True)
    assert comparison is not None
    row_major = alphabeta(BOARD, SPEC).nodes
    minimax = minimax_nodes(BOARD, SPEC)
    row = NodeCountRow(
        board=str(BOARD),
        minimax=minimax,
        reference_minimax=minimax,
        minimax_call="minimax(board, 0, True)",
        alphabeta=comparison.nodes,
        reference_alphabeta=row_major,
        alphabeta_call="minimaxAB(board, 0, True, -inf, inf)",
    )
    measured = [Measured(row, comparison)]
    return alphabeta_result(CHECK, measured, judge_alphabeta(measured), None, 0.5, any_order=True), row_major


def test_a_correct_alphabeta_in_its_own_order_passes_and_says_what_it_saw() -> None:
    steps = lab05_notebook_search(CENTRE_FIRST)(BOARD)
    result, row_major = _verdict(steps)
    assert result.status == CheckStatus.PASSED
    assert (
        f"A correct alpha-beta; moves tried centre first, then corners, then edges: {len(steps):,} nodes from "
        f"X........ where row-major takes {row_major:,}" in result.message
    )
    assert "the same in any order" in result.message  # plain minimax's count does not depend on it


def test_a_wrong_alphabeta_in_its_own_order_is_held_to_what_a_correct_one_visits_in_that_order() -> None:
    steps = lab05_notebook_search(CENTRE_FIRST, STRICT)(BOARD)
    result, row_major = _verdict(steps)
    correct_in_its_order = len(replayed_trace(steps, BOARD, SPEC).steps)
    assert correct_in_its_order != row_major
    assert result.status == CheckStatus.PARTIAL
    assert "what a correct alpha-beta explores trying the moves in your search's order" in result.message
    assert result.counterexample is not None
    assert result.counterexample.expected == f"{correct_in_its_order:,} nodes"
    assert result.cause is not None and result.cause.source == "known-mistake"
    assert "only past the bound" in result.cause.sentence


def test_where_the_searches_part_is_known_before_why_and_why_is_the_same_found_later() -> None:
    """The verdict needs only where an exploration parts from the reference; why (the known
    mistakes, the tree there) is worked out for the position the words speak of, and is
    what a comparison worked out at once says."""
    steps = lab05_notebook_search(CENTRE_FIRST, STRICT)(BOARD)
    exploration = CallExploration(
        nodes=len(steps), search={"minimaxAB:1": len(steps)}, steps=tuple(steps), complete=True
    )
    options = {"to_move": "O", "alpha": -math.inf, "beta": math.inf}
    whole = compare(exploration, BOARD, SPEC, any_order=True, **options)  # type: ignore[arg-type]
    where = compare(exploration, BOARD, SPEC, any_order=True, explain=False, **options)  # type: ignore[arg-type]
    assert whole is not None and where is not None
    assert where.divergence == whole.divergence and where.nodes == whole.nodes
    assert not where.explained and where.readings == () and where.excerpt is None
    later = explained(where, BOARD, SPEC, **options)  # type: ignore[arg-type]
    assert later == whole and later.cause == whole.cause
    assert whole.readings  # a known mistake was named
    unnamed = explained(where, BOARD, SPEC, named=False, **options)  # type: ignore[arg-type]
    assert unnamed.readings == () and unnamed.excerpt == whole.excerpt
