"""The kernel-side recorder, in-process, on searches written in every style students use.

Student code is compiled with a notebook cell's file name, as ipykernel names cells; the
node counts must be the reference's whatever shape the recursion takes.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest

from grader.execution.channel.kernel.board_reading import pack_boards, unpack_boards
from grader.execution.channel.kernel.exploration import ExplorationRecorder, is_notebook_code
from reference.search import SearchSpec, alphabeta, minimax_nodes
from reference.tictactoe import Board, O
from reference.trace import alphabeta_trace, minimax_trace
from tests.seed_sources import SEED_003_ALPHABETA

CELL = "/tmp/ipykernel_1/abc.py"
SPEC = SearchSpec()  # O maximizes, X moves first

RULES = """
import math, functools, copy
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

def winner(board):
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None

def score(board):
    w = winner(board)
    if w is not None:
        return 1 if w == "O" else -1
    if " " not in board:
        return 0
    return None
"""

# Each style defines the search; the grader calls the object named "search" as (board, o_to_move).
STYLES: dict[str, str] = {
    "plain": """
def search(board, maximizing, alpha=-math.inf, beta=math.inf):
    s = score(board)
    if s is not None:
        return s
    best = -math.inf if maximizing else math.inf
    for i in range(9):
        if board[i] == " ":
            board[i] = "O" if maximizing else "X"
            v = search(board, not maximizing, alpha, beta)
            board[i] = " "
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if beta <= alpha:
                break
    return best
""",
    "helper": """
def _alphabeta(board, maximizing, alpha, beta):
    s = score(board)
    if s is not None:
        return s
    best = -math.inf if maximizing else math.inf
    for i in range(9):
        if board[i] == " ":
            child = board[:i] + ["O" if maximizing else "X"] + board[i + 1:]
            v = _alphabeta(child, not maximizing, alpha, beta)
            best = max(best, v) if maximizing else min(best, v)
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                return best
    return best

def search(board, maximizing):
    return _alphabeta(list(board), maximizing, -math.inf, math.inf)
""",
    "closure": """
def search(board, maximizing):
    def ab(board, maximizing, alpha, beta):
        s = score(board)
        if s is not None:
            return s
        best = -2 if maximizing else 2
        for i in range(9):
            if board[i] == " ":
                board[i] = "O" if maximizing else "X"
                v = ab(board, not maximizing, alpha, beta)
                board[i] = " "
                if maximizing and v > best:
                    best = v
                if not maximizing and v < best:
                    best = v
                if maximizing and best >= beta or not maximizing and best <= alpha:
                    return best
                if maximizing:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
        return best
    return ab(board, maximizing, -2, 2)
""",
    "mutual": """
def alphabeta_search(state, to_move):
    def max_value(state, alpha, beta):
        if score(state) is not None:
            return score(state)
        v = -math.inf
        for a in [i for i in range(9) if state[i] == " "]:
            v = max(v, min_value(state[:a] + ["O"] + state[a + 1:], alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if score(state) is not None:
            return score(state)
        v = math.inf
        for a in [i for i in range(9) if state[i] == " "]:
            v = min(v, max_value(state[:a] + ["X"] + state[a + 1:], alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return (max_value if to_move else min_value)(state, -math.inf, math.inf)

search = alphabeta_search
""",
    "method": """
class Engine:
    def __init__(self):
        self.marks = ("X", "O")

    def minimax_ab(self, board, maximizing, alpha=-math.inf, beta=math.inf):
        s = score(board)
        if s is not None:
            return s
        best = -math.inf if maximizing else math.inf
        for i in self.moves(board):
            board[i] = self.marks[maximizing]
            v = self.minimax_ab(board, not maximizing, alpha, beta)
            board[i] = " "
            if maximizing:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if beta <= alpha:
                break
        return best

    def moves(self, board):
        return [i for i in range(9) if board[i] == " "]

engine = Engine()
search = engine.minimax_ab
""",
    "callable-instance": """
class AlphaBeta:
    def __call__(self, board, maximizing, alpha=-math.inf, beta=math.inf):
        s = score(board)
        if s is not None:
            return s
        best = -math.inf if maximizing else math.inf
        for i in range(9):
            if board[i] == " ":
                v = self(board[:i] + ["O" if maximizing else "X"] + board[i + 1:], not maximizing, alpha, beta)
                best = max(best, v) if maximizing else min(best, v)
                alpha, beta = (max(alpha, v), beta) if maximizing else (alpha, min(beta, v))
                if beta <= alpha:
                    break
        return best

search = AlphaBeta()
""",
    "partial": """
def _ab(board, maximizing, alpha, beta, copy_board):
    board = copy_board(board)
    s = score(board)
    if s is not None:
        return s
    best = -math.inf if maximizing else math.inf
    for i in range(9):
        if board[i] == " ":
            board[i] = "O" if maximizing else "X"
            v = _ab(board, not maximizing, alpha, beta, copy_board)
            board[i] = " "
            best = max(best, v) if maximizing else min(best, v)
            alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
            if beta <= alpha:
                break
    return best

search = functools.partial(_ab, alpha=-math.inf, beta=math.inf, copy_board=copy.deepcopy)
""",
}

# Searches without pruning: their nodes are minimax's.
MINIMAX_STYLES: dict[str, str] = {
    "lambda": """
search = lambda board, maximizing: score(board) if score(board) is not None else (max if maximizing else min)(
    search(board[:i] + ["O" if maximizing else "X"] + board[i + 1:], not maximizing) for i in range(9) if board[i] == " ")
""",
    "key-lambda": """
def search(board, maximizing):
    s = score(board)
    if s is not None:
        return s
    moves = [i for i in range(9) if board[i] == " "]
    child = lambda i: board[:i] + ["O" if maximizing else "X"] + board[i + 1:]
    values = list(map(lambda i: search(child(i), not maximizing), moves))
    return max(values) if maximizing else min(values)
""",
}

POSITIONS = [Board.from_string(text) for text in ("XO..X....", "X...O....", "X.O.X..O.", ".........")]


def _student(source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(RULES + source, CELL, "exec"), namespace)
    return namespace


def _call(namespace: dict[str, Any], board: Board) -> Any:
    return namespace["search"]([" " if c == "." else c for c in board.cells], board.to_move() == O)


def _board_argument(frame: FrameType) -> str | None:
    """The grader's snapshot for these styles: the first argument, flattened."""
    board = frame.f_locals.get(frame.f_code.co_varnames[0]) if frame.f_code.co_argcount else None
    if frame.f_code.co_varnames[:1] == ("self",):
        board = frame.f_locals.get(frame.f_code.co_varnames[1])
    if not isinstance(board, list):
        return None
    return "".join("." if c == " " else c for c in board)


@pytest.mark.parametrize("style", STYLES)
def test_alphabeta_nodes_are_the_references_in_every_style(style: str) -> None:
    namespace = _student(STYLES[style])
    recorder = ExplorationRecorder()
    for board in POSITIONS:
        recorder.start()
        _call(namespace, board)
        exploration = recorder.stop()
        assert exploration.nodes == alphabeta(board, SPEC).nodes, (style, str(board), exploration.search)
        assert exploration.steps is None


@pytest.mark.parametrize("style", MINIMAX_STYLES)
def test_minimax_nodes_are_the_references_through_lambdas(style: str) -> None:
    namespace = _student(MINIMAX_STYLES[style])
    recorder = ExplorationRecorder()
    for board in POSITIONS[:3]:
        recorder.start()
        _call(namespace, board)
        exploration = recorder.stop()
        assert exploration.nodes == minimax_nodes(board, SPEC), (style, str(board), exploration.search)


@pytest.mark.parametrize("style", ["plain", "helper", "closure", "method", "callable-instance", "partial"])
def test_the_recorded_exploration_is_the_references(style: str) -> None:
    namespace = _student(STYLES[style])
    recorder = ExplorationRecorder()
    for board in POSITIONS[:3]:
        recorder.start(snapshot=_board_argument)
        _call(namespace, board)
        exploration = recorder.stop()
        assert exploration.complete and not exploration.retry
        assert exploration.steps == list(alphabeta_trace(board, SPEC).steps), style


def test_the_exploration_stops_at_the_cap() -> None:
    namespace = _student(MINIMAX_STYLES["key-lambda"])
    board = POSITIONS[1]
    recorder = ExplorationRecorder()
    recorder.start(snapshot=_board_argument, max_steps=500)
    _call(namespace, board)
    exploration = recorder.stop()
    assert exploration.nodes == minimax_nodes(board, SPEC)
    assert not exploration.complete
    assert exploration.steps == list(minimax_trace(board, SPEC, cap=500).steps)


def test_mutual_recursion_learned_on_a_larger_search_counts_a_small_one() -> None:
    # From one empty cell max_value calls min_value once and neither recurses: only what the
    # recorder learned from an earlier call identifies the search.
    namespace = _student(STYLES["mutual"])
    recorder = ExplorationRecorder()
    recorder.start()
    _call(namespace, POSITIONS[0])
    recorder.stop()
    last_cell = Board.from_string("XOXXOOOX.")
    recorder.start()
    _call(namespace, last_cell)
    assert recorder.stop().nodes == alphabeta(last_cell, SPEC).nodes == 2


def test_a_search_first_seen_as_a_helper_asks_for_the_call_again() -> None:
    namespace = _student(STYLES["mutual"])
    recorder = ExplorationRecorder()
    recorder.start(snapshot=_board_argument)
    _call(namespace, Board.from_string("XOXXOOOX."))
    recorder.stop()
    board = POSITIONS[0]
    recorder.start(snapshot=_board_argument)
    _call(namespace, board)
    first = recorder.stop()
    recorder.start(snapshot=_board_argument)
    _call(namespace, board)
    second = recorder.stop()
    assert first.retry and not first.complete
    assert second.complete and second.steps == list(alphabeta_trace(board, SPEC).steps)


def _current_state(frame: FrameType) -> str:
    return "".join(c if c in "XO" else "." for row in frame.f_globals["current_state"] for c in row)


def test_seed_003_global_state_explores_18297_positions_from_the_empty_board() -> None:
    namespace = _student(SEED_003_ALPHABETA)
    recorder = ExplorationRecorder()
    recorder.start(snapshot=_current_state)
    namespace["min_alpha_beta"](-2, 2)
    exploration = recorder.stop()
    assert exploration.nodes == 18_297
    assert sorted(name.split(":")[0] for name in exploration.search) == ["max_alpha_beta", "min_alpha_beta"]
    assert exploration.steps == list(alphabeta_trace(Board.empty(), SPEC, alpha=-2, beta=2).steps)


def test_library_and_other_files_are_not_counted() -> None:
    library: dict[str, Any] = {}
    exec(
        compile("def depth(x):\n    return 1 + depth(x[0]) if isinstance(x, list) and x else 0\n", "lib.py", "exec"),
        library,
    )
    namespace = _student(STYLES["partial"])  # copy.deepcopy recurses in the standard library
    namespace["depth"] = library["depth"]
    recorder = ExplorationRecorder()
    recorder.start()
    _call(namespace, POSITIONS[1])
    library["depth"]([[[[]]]])
    exploration = recorder.stop()
    assert exploration.nodes == alphabeta(POSITIONS[1], SPEC).nodes
    assert [name.split(":")[0] for name in exploration.search] == ["_ab"]


def test_the_predicate_decides_what_is_student_code() -> None:
    namespace = _student(STYLES["plain"])
    recorder = ExplorationRecorder(is_student=lambda code: code.co_filename == "elsewhere.py")
    recorder.start()
    _call(namespace, POSITIONS[0])
    assert recorder.stop().nodes == 0
    assert is_notebook_code(compile("1", "<ipython-input-3-0a1b2c3d4e5f>", "eval"))
    assert not is_notebook_code(compile("1", "/usr/lib/python3.11/copy.py", "eval"))


def test_the_previous_profiler_is_restored() -> None:
    seen: list[str] = []

    def previous(frame: FrameType, event: str, arg: Any) -> None:
        seen.append(event)

    namespace = _student(STYLES["plain"])
    recorder = ExplorationRecorder()
    sys.setprofile(previous)
    try:
        recorder.start()
        _call(namespace, POSITIONS[0])
        recorder.stop()
        restored = sys.getprofile()
    finally:
        sys.setprofile(None)
    assert restored is previous


def test_an_exception_in_the_search_leaves_the_recorder_usable() -> None:
    failing = "def failing(n):\n    if n == 0:\n        raise ValueError(n)\n    return failing(n - 1)\n"
    namespace = _student(STYLES["plain"] + failing)
    recorder = ExplorationRecorder()
    recorder.start()
    with pytest.raises(ValueError):
        namespace["failing"](3)
    assert recorder.stop().nodes == 4
    recorder.start()
    _call(namespace, POSITIONS[0])
    assert recorder.stop().nodes == alphabeta(POSITIONS[0], SPEC).nodes


def test_boards_cross_the_channel_in_two_bytes_each() -> None:
    boards: list[str | None] = [".........", "XOXOXOXOX", None, "X...O...."]
    packed = pack_boards(boards)
    assert unpack_boards(packed) == boards
    assert len(pack_boards(["........."] * 3000)) == 8000
