"""Root causes across checks, on lab05's own functions run in-process: a win test missing the
anti-diagonal explains the values, moves, node counts and draw answers of the functions built
on it; a correct notebook and an independent bug are not explained by it."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.checks.causes.defects import (
    Defect,
    DrawObservation,
    EmptyCellsObservation,
    SuccessorObservation,
    WinObservation,
    draw_test_defect,
    empty_cells_defect,
    expand_hypotheses,
    successor_defect,
    win_test_defect,
)
from grader.checks.causes.root_cause import (
    DefectiveSearch,
    MoveObservation,
    NodeCountObservation,
    Observation,
    ValueObservation,
    explain_root_cause,
    follows_from,
)
from grader.checks.kinds.predicates import line_boards
from reference import EMPTY, LINES, Board, O, SearchSpec, X, alphabeta, minimax, minimax_nodes
from reference.strategies import arbitrary_boards, nonterminal_boards
from reference.tictactoe import board_of
from tests.seed_sources import LAB05_SOLUTION, variant

LAB05 = SearchSpec(maximizer=O, first_player=X, scoring="unit")
NO_ANTI_DIAGONAL = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
FEW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POSITIONS = st.lists(nonterminal_boards(X, min_empty=3, max_empty=7), min_size=15, max_size=15, unique=True)


class Lab05:
    """A lab05 notebook's functions, called as the assignment calls them, with minimax's calls counted."""

    def __init__(self, source: str) -> None:
        self.ns: dict[str, Any] = {}
        exec(compile(source, "<student>", "exec"), self.ns)
        self.calls = 0

    def counted(self, name: str, *args: Any) -> tuple[Any, int]:
        original = self.ns[name]

        def counting(*a: Any) -> Any:
            self.calls += 1
            return original(*a)

        self.ns[name], self.calls = counting, 0
        try:
            return counting(*args), self.calls
        finally:
            self.ns[name] = original

    @staticmethod
    def flat(board: Board) -> list[str]:
        return [" " if c == EMPTY else c for c in board.cells]

    def wins(self, board: Board, player: str) -> WinObservation:
        return WinObservation(board, player, bool(self.ns["check_win"](self.flat(board), player)))

    def draw(self, board: Board) -> DrawObservation:
        return DrawObservation(board, bool(self.ns["check_draw"](self.flat(board))))

    def value(self, board: Board) -> ValueObservation:
        mover = board.to_move(X)
        value = self.ns["minimax"](self.flat(board), 0, mover == O)
        return ValueObservation(board, LAB05, mover, value)

    def alphabeta_value(self, board: Board, window: tuple[float, float]) -> ValueObservation:
        mover = board.to_move(X)
        value = self.ns["minimaxAB"](self.flat(board), 0, mover == O, *window)
        return ValueObservation(board, LAB05, mover, value, window)

    def best_move(self, board: Board) -> MoveObservation:
        return MoveObservation(board, LAB05, O, self.ns["best_move"](self.flat(board)))

    def node_counts(self, board: Board) -> list[NodeCountObservation]:
        mover = board.to_move(X)
        _, plain = self.counted("minimax", self.flat(board), 0, mover == O)
        window = (-math.inf, math.inf)
        _, pruned = self.counted("minimaxAB", self.flat(board), 0, mover == O, *window)
        return [
            NodeCountObservation(board, LAB05, mover, plain),
            NodeCountObservation(board, LAB05, mover, pruned, window),
        ]


def is_right(o: Observation) -> bool:
    """Whether an answer is the reference's: only wrong answers need explaining."""
    if isinstance(o, ValueObservation):
        if o.window is None:
            return o.value == minimax(board_of(o.board), o.spec).value
        return o.value == alphabeta(board_of(o.board), o.spec, alpha=o.window[0], beta=o.window[1]).value
    if isinstance(o, MoveObservation):
        return o.move in minimax(board_of(o.board), o.spec, to_move=o.to_move).best_moves
    raise AssertionError(o)


def win_defect_of(student: Lab05) -> Defect | None:
    boards = list(line_boards(False, X)) + list(line_boards(True, X))
    return win_test_defect("check_win", [student.wins(b, p) for b in boards for p in (X, O)])


ANTI_DIAGONAL = win_defect_of(Lab05(NO_ANTI_DIAGONAL))
SENTENCE = "This follows from `check_win` missing the anti-diagonal; fix that first."


def test_the_win_test_defect_is_read_from_its_answers() -> None:
    assert ANTI_DIAGONAL is not None and ANTI_DIAGONAL.sentence == SENTENCE
    assert win_defect_of(Lab05(LAB05_SOLUTION)) is None
    either = Lab05(variant("board[combo[2]] == player", "board[combo[2]] != ' '"))
    defect = win_defect_of(either)
    assert defect is not None and defect.description == "counting a line of either player as a win"
    diagonals = Lab05(variant("[0, 4, 8], [2, 4, 6]]", "]"))
    assert win_defect_of(diagonals).description == "missing the diagonals"  # type: ignore[union-attr]


def test_the_model_of_a_right_function_is_the_reference() -> None:
    search = DefectiveSearch(Defect("check_win"), LAB05)
    for text in ("X........", "X...O....", "XO..X...O"):
        board = Board.from_string(text)
        mover = board.to_move(X)
        assert search.value(board.cells, mover, 0) == minimax(board, LAB05).value
        assert search.best_moves(board.cells, mover, 0) == set(minimax(board, LAB05).best_moves)
        assert search.nodes(board.cells, mover, 0) == minimax_nodes(board, LAB05)
        window = (-math.inf, math.inf)
        assert search.alphabeta(board.cells, mover, 0, *window)[1] == alphabeta(board, LAB05).nodes


def test_node_counts_follow_from_the_missing_anti_diagonal() -> None:
    assert ANTI_DIAGONAL is not None
    student = Lab05(NO_ANTI_DIAGONAL)
    observations = [o for text in ("X........", "X...O....") for o in student.node_counts(Board.from_string(text))]
    assert follows_from(ANTI_DIAGONAL, observations)
    assert explain_root_cause([ANTI_DIAGONAL], observations) == SENTENCE
    # a correct notebook's counts are the reference's: nothing to explain
    right = [
        o for text in ("X........", "X...O....") for o in Lab05(LAB05_SOLUTION).node_counts(Board.from_string(text))
    ]
    assert not follows_from(ANTI_DIAGONAL, right)


@FEW
@given(POSITIONS)
def test_values_and_moves_follow_from_it(boards: list[Board]) -> None:
    assert ANTI_DIAGONAL is not None
    student = Lab05(NO_ANTI_DIAGONAL)
    values: list[Observation] = [student.value(b) for b in boards]
    pruned: list[Observation] = [student.alphabeta_value(b, w) for b in boards for w in ((-1, 0), (0, 1))]
    o_boards = [b for b in boards if b.to_move(X) == O]
    moves: list[Observation] = [student.best_move(b) for b in o_boards]
    for observations in (values, pruned, moves):
        differs = any(not is_right(o) for o in observations)
        assert follows_from(ANTI_DIAGONAL, observations) == differs
    right = Lab05(LAB05_SOLUTION)
    assert not follows_from(ANTI_DIAGONAL, [right.value(b) for b in boards] + [right.best_move(b) for b in o_boards])


def test_the_draw_tests_answers_follow_from_it() -> None:
    assert ANTI_DIAGONAL is not None
    student = Lab05(NO_ANTI_DIAGONAL)
    full_with_anti_diagonal = Board.from_string("XOOXOXOXX")  # O's only line is 2-4-6
    assert full_with_anti_diagonal.winners() == {O}
    boards = [full_with_anti_diagonal, Board.from_string("XOXXOOOXX"), Board.from_string("XXX.OO...")]
    observations: list[Observation] = [student.draw(b) for b in boards]
    assert [o.answer for o in observations] == [True, True, False]  # type: ignore[union-attr]
    assert draw_test_defect("check_draw", observations) is None  # type: ignore[arg-type]
    assert explain_root_cause([ANTI_DIAGONAL], observations) == SENTENCE


@pytest.mark.parametrize(
    "bug",
    [
        # a drawn game scored as a loss, in minimax only
        (
            "    if check_draw(board):\n        return 0\n    if depth >= max_depth:",
            "    if check_draw(board):\n        return -1\n    if depth >= max_depth:",
        ),
        # both branches place O
        ('board[i] = "X"\n                score = minimax', 'board[i] = "O"\n                score = minimax'),
    ],
)
def test_an_independent_bug_is_not_explained(bug: tuple[str, str]) -> None:
    assert ANTI_DIAGONAL is not None
    source = NO_ANTI_DIAGONAL.replace(*bug)
    assert source != NO_ANTI_DIAGONAL
    student = Lab05(source)
    boards = [
        Board.from_string(t) for t in ("XO..X...O", "X.O.X....", "XO.......", "X...O....", "XX.OO....", "X.XO.....")
    ]
    observations: list[Observation] = [student.value(b) for b in boards]
    assert any(not is_right(o) for o in observations)
    assert not follows_from(ANTI_DIAGONAL, observations)


def test_an_independent_pruning_bug_is_not_explained() -> None:
    assert ANTI_DIAGONAL is not None
    source = NO_ANTI_DIAGONAL.replace("if beta <= alpha:", "if beta < alpha:")
    student = Lab05(source)
    observations = [o for text in ("X........", "X...O....") for o in student.node_counts(Board.from_string(text))]
    assert not follows_from(ANTI_DIAGONAL, observations)


# -- other lower-level functions --------------------------------------------------


def flat_minimax(
    board: list[str], mover: str, maximizer: str, depth: int, limit: int, mark: Callable[[str], str], moves: range
) -> float:
    """A depth-limited minimax whose successor and empty-cell helpers are passed in."""
    for player in (maximizer, "X" if maximizer == "O" else "O"):
        if any(board[a] == board[b] == board[c] == player for a, b, c in LINES):
            return 1 if player == maximizer else -1
    if " " not in board:
        return 0
    if depth >= limit:
        return 0
    following = "X" if mover == "O" else "O"
    values = []
    for i in moves:
        if board[i] == " ":
            board[i] = mark(mover)
            values.append(flat_minimax(board, following, maximizer, depth + 1, limit, mark, moves))
            board[i] = " "
    if mover == maximizer:
        return max(values, default=-math.inf)
    return min(values, default=math.inf)


def test_depth_limited_values_follow_from_expand() -> None:
    """Expand places the root player's mark everywhere: a successor check at the root cannot
    see it, the depth-limited values can."""
    boards = [Board.from_string(t) for t in ("X...O....", "XO..X....", "X.O......", "XX.O.O...", "X.......O")]
    cases = [
        (board, SearchSpec(maximizer=board.to_move(X), first_player=X, depth_limit=limit), limit)
        for board in boards
        for limit in (1, 2, 3)
    ]

    def answers(mark: Callable[..., str]) -> list[ValueObservation]:
        """Values of the student's search; ``mark(mover, root=...)`` is the mark expand places."""
        observed = []
        for board, spec, limit in cases:
            root = spec.maximizer
            value = flat_minimax(Lab05.flat(board), root, root, 0, limit, functools.partial(mark, root=root), range(9))
            observed.append(ValueObservation(board, spec, root, value))
        return observed

    assert explain_root_cause(expand_hypotheses("expand"), answers(lambda mover, root: root)) == (
        "This follows from `expand` placing the maximizing player's mark at every level; fix that first."
    )
    assert explain_root_cause(expand_hypotheses("expand"), answers(lambda mover, root: mover)) is None


def test_a_successor_placing_the_other_mark() -> None:
    board = Board.from_string("X...O....")
    seen = [
        SuccessorObservation(board, X, m, Board(board.cells[:m] + (O,) + board.cells[m + 1 :]))
        for m in board.empty_cells()
    ]
    assert successor_defect("expand", seen).mark == "other"  # type: ignore[union-attr]
    right = [SuccessorObservation(board, X, m, board.play(m, X)) for m in board.empty_cells()]
    assert successor_defect("expand", right) is None


@FEW
@given(st.lists(arbitrary_boards(), min_size=10, max_size=10))
def test_empty_cells_that_skip_the_last_cell(boards: list[Board]) -> None:
    listed = [EmptyCellsObservation(b, tuple(c for c in b.empty_cells() if c < 8)) for b in boards]
    defect = empty_cells_defect("empty_cells", listed)
    if any(b.cells[8] == EMPTY for b in boards):
        assert (
            defect is not None
            and defect.sentence == "This follows from `empty_cells` never listing cell 8; fix that first."
        )
    else:
        assert defect is None
    assert empty_cells_defect("empty_cells", [EmptyCellsObservation(b, b.empty_cells()) for b in boards]) is None


def test_values_follow_from_skipped_cells() -> None:
    defect = Defect("empty_cells", "never listing cell 8", skipped=frozenset({8}))
    boards = [Board.from_string(t) for t in ("XO..X....", "X...O....", "XX.OO....", "X.O.X.O..")]
    observations: list[Observation] = []
    for board in boards:
        mover = board.to_move(X)
        value = flat_minimax(Lab05.flat(board), mover, O, 0, 99, lambda p: p, range(8))
        observations.append(ValueObservation(board, LAB05, mover, value))
    assert follows_from(defect, observations)
    assert not follows_from(Defect("empty_cells", "never listing cell 0", skipped=frozenset({0})), observations)
