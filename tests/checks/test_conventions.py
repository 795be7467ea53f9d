"""Convention mismatches, named from the answers of student-style searches run on random positions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from grader.checks.causes.conventions import (
    PredicateObservation,
    SearchObservation,
    explain_search_convention,
    explain_win_convention,
    explain_winner_convention,
)
from reference import EMPTY, LINES, Board, O, SearchSpec, X, minimax, opponent
from reference.strategies import arbitrary_boards, nonterminal_boards
from reference.tictactoe import board_of

POSITIONS = st.lists(nonterminal_boards(X, min_empty=2, max_empty=6), min_size=12, max_size=12, unique=True)
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNIT = SearchSpec(maximizer=O, first_player=X, scoring="unit")
ADJUSTED = SearchSpec(maximizer=O, first_player=X, scoring="depth-adjusted")


# -- a student's search, written the way the seed notebooks write it ----------


def winner(cells: list[str]) -> str | None:
    for a, b, c in LINES:
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def student_minimax(cells: list[str], mover: str, maximizer: str, scoring: str, depth: int = 0) -> float:
    won = winner(cells)
    if won is not None:
        score = 1 if scoring == "unit" else 10 - depth
        return score if won == maximizer else -score
    if EMPTY not in cells:
        return 0
    values = []
    for i in range(9):
        if cells[i] == EMPTY:
            cells[i] = mover
            values.append(student_minimax(cells, opponent(mover), maximizer, scoring, depth + 1))
            cells[i] = EMPTY
    return max(values) if mover == maximizer else min(values)


def student_best_move(
    cells: list[str], mover: str, maximizer: str, scoring: str, *, worst: bool = False
) -> tuple[float, int]:
    """(value, move): the first move with the best value for the mover (or, with ``worst``, for the opponent)."""
    maximizing = (mover == maximizer) != worst
    best_value, best_move = (-100.0 if maximizing else 100.0), -1
    for i in range(9):
        if cells[i] == EMPTY:
            cells[i] = mover
            value = student_minimax(cells, opponent(mover), maximizer, scoring, 1)
            cells[i] = EMPTY
            if (value > best_value) if maximizing else (value < best_value):
                best_value, best_move = value, i
    return best_value, best_move


def observe(boards: list[Board], spec: SearchSpec, answer: Callable[[list[str], str], Any]) -> list[SearchObservation]:
    observations = []
    for board in boards:
        mover = board.to_move(spec.first_player)
        observations.append(SearchObservation(board, spec, mover, answer(list(board.cells), mover)))
    return observations


def differs(boards: list[Board], spec: SearchSpec, other: SearchSpec) -> bool:
    return any(
        minimax(b, spec, to_move=b.to_move(X)).value != minimax(b, other, to_move=b.to_move(X)).value for b in boards
    )


# -- values ---------------------------------------------------------------------


@FEW
@given(POSITIONS)
def test_unit_scores_where_depth_adjusted_ones_are_asked(boards: list[Board]) -> None:
    observations = observe(boards, ADJUSTED, lambda cells, mover: student_minimax(cells, mover, O, "unit"))
    sentence = explain_search_convention(observations)
    if differs(boards, ADJUSTED, UNIT):
        assert sentence is not None and sentence.startswith("Your scores are +1 for a win and -1 for a loss")
    else:
        assert sentence is None


@FEW
@given(POSITIONS)
def test_depth_adjusted_scores_where_unit_ones_are_asked(boards: list[Board]) -> None:
    observations = observe(boards, UNIT, lambda cells, mover: student_minimax(cells, mover, O, "depth-adjusted"))
    sentence = explain_search_convention(observations)
    if differs(boards, UNIT, ADJUSTED):
        assert sentence is not None and sentence.startswith("Your scores are depth-adjusted")
    else:
        assert sentence is None


@FEW
@given(POSITIONS)
def test_the_other_player_maximizes(boards: list[Board]) -> None:
    observations = observe(boards, ADJUSTED, lambda cells, mover: student_minimax(cells, mover, X, "depth-adjusted"))
    sentence = explain_search_convention(observations)
    flipped = SearchSpec(maximizer=X, first_player=X, scoring="depth-adjusted")
    if differs(boards, ADJUSTED, flipped):
        assert (
            sentence
            == "Your values are scored for X, as if X maximized; in this assignment O maximizes (a win for O is positive)."
        )
    else:
        assert sentence is None


@FEW
@given(POSITIONS)
def test_a_correct_student_is_told_nothing(boards: list[Board]) -> None:
    for spec in (UNIT, ADJUSTED):

        def value(cells: list[str], mover: str, scoring: str = spec.scoring) -> float:
            return student_minimax(cells, mover, O, scoring)

        def pair(cells: list[str], mover: str, scoring: str = spec.scoring) -> tuple[float, int]:
            return student_best_move(cells, mover, O, scoring)

        assert explain_search_convention(observe(boards, spec, value)) is None
        assert explain_search_convention(observe(boards, spec, pair), returns=("value,move",)) is None


@FEW
@given(POSITIONS)
def test_a_convention_on_only_some_boards_is_not_named(boards: list[Board]) -> None:
    unit_half, right_half = boards[::2], boards[1::2]
    assume(differs(unit_half, ADJUSTED, UNIT) and differs(right_half, ADJUSTED, UNIT))
    observations = observe(
        unit_half, ADJUSTED, lambda cells, mover: student_minimax(cells, mover, O, "unit")
    ) + observe(right_half, ADJUSTED, lambda cells, mover: student_minimax(cells, mover, O, "depth-adjusted"))
    assert explain_search_convention(observations) is None


# -- moves ----------------------------------------------------------------------

# Boards where the side to move has a move that is not optimal, so a wrong numbering shows.
MOVE_POSITIONS = st.lists(nonterminal_boards(X, min_empty=3, max_empty=6), min_size=12, max_size=12, unique=True)


def best(cells: list[str], mover: str) -> tuple[float, int]:
    return student_best_move(cells, mover, O, "unit")


def optimal(o: SearchObservation, move: Any) -> bool:
    return isinstance(move, int) and move in minimax(board_of(o.board), UNIT, to_move=o.to_move).best_moves


@FEW
@given(MOVE_POSITIONS)
def test_moves_numbered_from_one(boards: list[Board]) -> None:
    observations = observe(boards, UNIT, lambda cells, mover: best(cells, mover)[1] + 1)
    sentence = explain_search_convention(observations, returns=("move",), move_format="index")
    wrong_somewhere = any(not optimal(o, o.answer) for o in observations)
    if wrong_somewhere:
        assert (
            sentence
            == "Your moves are cell numbers 1-9 (row by row); this assignment asks for cell indexes 0-8 (row by row)."
        )
    else:
        assert sentence is None


@FEW
@given(MOVE_POSITIONS)
def test_row_col_pairs_where_an_index_is_asked(boards: list[Board]) -> None:
    observations = observe(boards, UNIT, lambda cells, mover: divmod(best(cells, mover)[1], 3))
    assert explain_search_convention(observations, returns=("move",), move_format="index") == (
        "Your moves are (row, col) pairs counted from 0; this assignment asks for cell indexes 0-8 (row by row)."
    )
    indexes = observe(boards, UNIT, lambda cells, mover: best(cells, mover)[1])
    assert explain_search_convention(indexes, returns=("move",), move_format="rowcol") == (
        "Your moves are cell indexes 0-8 (row by row); this assignment asks for (row, col) pairs counted from 0."
    )


@FEW
@given(MOVE_POSITIONS)
def test_move_and_value_in_the_other_order(boards: list[Board]) -> None:
    observations = observe(boards, UNIT, lambda cells, mover: tuple(reversed(best(cells, mover))))
    sentence = explain_search_convention(observations, returns=("value,move",), move_format="index")
    read_as_asked = [
        o.answer[0] == minimax(board_of(o.board), UNIT, to_move=o.to_move).value and optimal(o, o.answer[1])
        for o in observations
    ]
    if not all(read_as_asked):
        assert sentence == "Your function returns (move, value); this assignment asks for (value, move)."
    else:
        assert sentence is None
    assert explain_search_convention(observations, returns=("value,move", "move,value")) is None


@FEW
@given(MOVE_POSITIONS)
def test_the_score_where_the_move_is_asked(boards: list[Board]) -> None:
    observations = observe(boards, UNIT, lambda cells, mover: best(cells, mover)[0])
    sentence = explain_search_convention(observations, returns=("move",), move_format="index")
    if not all(optimal(o, o.answer) for o in observations):
        assert sentence == "Your function returns the value of the position; this assignment asks for the move to play."
    else:
        assert sentence is None


@FEW
@given(MOVE_POSITIONS)
def test_moves_best_for_the_opponent(boards: list[Board]) -> None:
    observations = observe(boards, UNIT, lambda cells, mover: student_best_move(cells, mover, O, "unit", worst=True)[1])
    sentence = explain_search_convention(observations, returns=("move",), move_format="index")
    wrong_somewhere = any(not optimal(o, o.answer) for o in observations)
    if wrong_somewhere:
        assert sentence is not None and sentence.startswith("Your moves are the best ones for the opponent")
    else:
        assert sentence is None


# -- predicates -----------------------------------------------------------------

PREDICATE_CASES = st.lists(st.tuples(arbitrary_boards(), st.sampled_from([X, O])), min_size=20, max_size=20)


def has_lines_of_both(board: Board) -> bool:
    return len(board.winners()) == 2


@FEW
@given(PREDICATE_CASES)
def test_the_winning_mark_where_true_or_false_is_asked(cases: list[tuple[Board, str]]) -> None:
    cases = [(b, p) for b, p in cases if not has_lines_of_both(b)]
    observations = [PredicateObservation(b, winner(list(b.cells)), p) for b, p in cases]
    sentence = explain_win_convention("check_win", observations)
    if any(b.winners() for b, _ in cases):  # a mark where True or False is asked
        assert sentence == (
            "`check_win` returns the winning mark ('X' or 'O'); this assignment asks whether the given player has won: "
            "True or False."
        )
    else:
        assert sentence is None
    right = [PredicateObservation(b, p in b.winners(), p) for b, p in cases]
    assert explain_win_convention("check_win", right) is None


@FEW
@given(PREDICATE_CASES)
def test_true_or_false_where_the_winner_is_asked(cases: list[tuple[Board, str]]) -> None:
    boards = [b for b, _ in cases if not has_lines_of_both(b)]
    assume(any(b.winners() for b in boards))
    observations = [PredicateObservation(b, winner(list(b.cells)) is not None) for b in boards]
    assert explain_winner_convention("check_winner", observations) == (
        "`check_winner` returns True or False (whether someone has won); this assignment asks for the winner: "
        "'X', 'O' or None."
    )
    right = [PredicateObservation(b, winner(list(b.cells))) for b in boards]
    assert explain_winner_convention("check_winner", right) is None


def test_a_mark_on_only_some_boards_is_not_named() -> None:
    o_wins = Board.from_string("OOOXX.X..")
    x_wins = Board.from_string("XXXOO.O..")
    observations = [
        PredicateObservation(o_wins, "O", X),  # the mark
        PredicateObservation(x_wins, True, O),  # wrong, and not the mark either
    ]
    assert explain_win_convention("check_win", observations) is None


def test_numpy_marks() -> None:
    o_wins = Board.from_string("OOOXX.X..")
    observations = [PredicateObservation(o_wins, 2, X), PredicateObservation(o_wins, 2, O)]
    sentence = explain_win_convention("terminal", observations, marks={X: 1, O: 2})
    assert sentence is not None and sentence.startswith("`terminal` returns the winning mark (1 or 2)")
