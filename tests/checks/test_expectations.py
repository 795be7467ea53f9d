"""The predicate expectations: one class per name an assignment may write, each with the
truth the kernel's stand-in answers by, agreeing with the reference's board."""

from __future__ import annotations

from typing import get_args

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.expectations import EXPECTATIONS
from grader.checks.kinds.predicates import ExpectName
from grader.execution.channel.kernel.predicate_truths import PREDICATE_TRUTHS
from reference import EMPTY, Board, O, X
from reference.strategies import arbitrary_boards


def test_every_name_an_assignment_may_write_has_one_expectation_and_one_truth() -> None:
    assert set(get_args(ExpectName)) == set(EXPECTATIONS) == set(PREDICATE_TRUTHS)
    assert all(expectation.name == name for name, expectation in EXPECTATIONS.items())
    assert all(EXPECTATIONS[name].truth is PREDICATE_TRUTHS[name] for name in EXPECTATIONS)


@settings(max_examples=200, database=None, derandomize=True, deadline=None)
@given(arbitrary_boards(), st.sampled_from([X, O]), st.integers(0, 10))
def test_the_truths_agree_with_the_reference_board(board: Board, player: str, position: int) -> None:
    winners, full = board.winners(), board.is_full()

    def truth(name: str) -> object:
        return EXPECTATIONS[name].expected(board, player, position, player)

    assert truth("wins") is (player in winners)
    assert truth("full") is full
    assert truth("draw") is (full and not winners)
    assert truth("terminal") is (bool(winners) or full)
    assert truth("legal-moves") == sorted(board.empty_cells())
    assert truth("valid-move") is (1 <= position <= 9 and board.cells[position - 1] == EMPTY)
    xs, os = board.cells.count(X), board.cells.count(O)
    assert truth("to-move") == (player if xs == os else O if xs > os else X)  # ``player``: who began
    if len(winners) <= 1:  # a position a game can reach: the one winner, if any
        assert truth("winner") == next(iter(winners), None)
        assert truth("outcome") == next(iter(winners), "tie" if full else None)
        assert truth("score") == (0 if not winners else 1 if player in winners else -1)
    # the stand-in reads a board as text, the checks as cells: the same truth
    for name, expectation in PREDICATE_TRUTHS.items():
        assert expectation.truth(str(board), player, position, player) == truth(name)
