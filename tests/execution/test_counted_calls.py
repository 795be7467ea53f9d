"""Counted calls through the call executor: the search's nodes and positions come back with
the call's outcome, whichever way the search is written, and any callable name can be called."""

from __future__ import annotations

import ast
import math
from typing import Any

import pytest

from grader.execution.channel import link
from grader.execution.channel.calls import Call, CallOutcome, Explore, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.protocol import OutcomeData
from reference.search import SearchSpec, alphabeta, minimax_nodes
from reference.tictactoe import Board
from reference.trace import alphabeta_trace

CELL = "<ipython-input-3-0>"
RULES = """
import math, functools

def score(board):
    for a, b, c in [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return 1 if board[a] == "O" else -1
    return 0 if " " not in board else None
"""

# Each defines ``ab(board, maximizing, alpha, beta)`` as the rubric would call it.
STYLES = {
    "helper": """
def _search(board, maximizing, alpha, beta):
    s = score(board)
    if s is not None:
        return s
    best = -math.inf if maximizing else math.inf
    for i in range(9):
        if board[i] == " ":
            v = _search(board[:i] + ["O" if maximizing else "X"] + board[i + 1:], not maximizing, alpha, beta)
            best = max(best, v) if maximizing else min(best, v)
            alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
            if alpha >= beta:
                break
    return best

def ab(board, maximizing, alpha, beta):
    return _search(list(board), maximizing, alpha, beta)
""",
    "closure": """
def ab(board, maximizing, alpha, beta):
    def go(maximizing, alpha, beta):
        s = score(board)
        if s is not None:
            return s
        best = -math.inf if maximizing else math.inf
        for i in range(9):
            if board[i] == " ":
                board[i] = "O" if maximizing else "X"
                v = go(not maximizing, alpha, beta)
                board[i] = " "
                best = max(best, v) if maximizing else min(best, v)
                alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
                if alpha >= beta:
                    break
        return best
    return go(maximizing, alpha, beta)
""",
    "aima": """
def max_value(board, alpha, beta):
    s = score(board)
    if s is not None:
        return s
    v = -math.inf
    for i in [c for c in range(9) if board[c] == " "]:
        board[i] = "O"
        v = max(v, min_value(board, alpha, beta))
        board[i] = " "
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v

def min_value(board, alpha, beta):
    s = score(board)
    if s is not None:
        return s
    v = math.inf
    for i in [c for c in range(9) if board[c] == " "]:
        board[i] = "X"
        v = min(v, max_value(board, alpha, beta))
        board[i] = " "
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v

def ab(board, maximizing, alpha, beta):
    return max_value(board, alpha, beta) if maximizing else min_value(board, alpha, beta)
""",
    "method": """
class Engine:
    def search(self, board, maximizing, alpha, beta):
        s = score(board)
        if s is not None:
            return s
        best = -math.inf if maximizing else math.inf
        for i in range(9):
            if board[i] == " ":
                board[i] = "O" if maximizing else "X"
                v = self.search(board, not maximizing, alpha, beta)
                board[i] = " "
                best = max(best, v) if maximizing else min(best, v)
                alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
                if alpha >= beta:
                    break
        return best

ab = Engine().search
""",
    "partial": """
class Engine:
    def search(self, board, maximizing, alpha, beta):
        s = score(board)
        if s is not None:
            return s
        best = -math.inf if maximizing else math.inf
        for i in range(9):
            if board[i] == " ":
                board[i] = "O" if maximizing else "X"
                v = self.search(board, not maximizing, alpha, beta)
                board[i] = " "
                best = max(best, v) if maximizing else min(best, v)
                alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
                if alpha >= beta:
                    break
        return best

def _with_engine(engine, board, maximizing, alpha, beta):
    return engine.search(board, maximizing, alpha, beta)

ab = functools.partial(_with_engine, Engine())
""",
}

SPEC = SearchSpec()  # O maximizes, X moves first
POSITIONS = [Board.from_string("X........"), Board.from_string("X...O...."), Board.from_string("XOXXOOOX.")]


def _executor(source: str) -> CallExecutor:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(RULES + source, CELL, "exec"), namespace)
    return CallExecutor(namespace, output_chars=1000)


def _run(executor: CallExecutor, *calls: Call) -> list[CallOutcome]:
    reported: list[OutcomeData] = []
    executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
    return [outcome_from(outcome) for outcome in reported]


def _call(board: Board, trace: bool) -> Call:
    encoded = [" " if c == "." else c for c in board.cells]
    maximizing = board.to_move("X") == "O"
    return Call("ab", (encoded, maximizing, -math.inf, math.inf), explore=Explore(trace=trace))


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_counted_call_reports_the_references_nodes_and_positions_in_every_style(style: str) -> None:
    executor = _executor(STYLES[style])
    outcomes = _run(executor, *(_call(board, trace=True) for board in POSITIONS))
    for board, outcome in zip(POSITIONS, outcomes):
        assert outcome.ok, outcome.error
        assert outcome.value == alphabeta(board, SPEC).value
        exploration = outcome.exploration
        assert exploration is not None and exploration.complete
        assert exploration.nodes == alphabeta(board, SPEC).nodes
        assert exploration.steps == alphabeta_trace(board, SPEC).steps


def test_counting_without_a_trace_sends_no_positions_and_the_plain_search_is_counted_too() -> None:
    source = (
        STYLES["method"]
        + "\nminimax = lambda board, maximizing: _mm(list(board), maximizing)\n"
        + (
            "def _mm(board, maximizing):\n"
            "    s = score(board)\n"
            "    if s is not None:\n"
            "        return s\n"
            "    values = [_mm(board[:i] + ['O' if maximizing else 'X'] + board[i + 1:], not maximizing)"
            " for i in range(9) if board[i] == ' ']\n"
            "    return max(values) if maximizing else min(values)\n"
        )
    )
    executor = _executor(source)
    board = POSITIONS[1]
    encoded = [" " if c == "." else c for c in board.cells]
    (outcome,) = _run(executor, Call("minimax", (encoded, False), explore=Explore()))
    assert outcome.exploration is not None and outcome.exploration.steps is None
    assert outcome.exploration.nodes == minimax_nodes(board, SPEC)


def test_the_board_is_read_from_a_global_when_the_assignment_keeps_it_there() -> None:
    source = """
current_state = None

def search(alpha, beta):
    board = current_state
    s = score(board)
    if s is not None:
        return s
    maximizing = board.count("X") > board.count("O")
    best = -2 if maximizing else 2
    for i in range(9):
        if board[i] == " ":
            board[i] = "O" if maximizing else "X"
            v = search(alpha, beta)
            board[i] = " "
            best = max(best, v) if maximizing else min(best, v)
            alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
            if alpha >= beta:
                break
    return best
"""
    board = POSITIONS[0]
    encoded = [" " if c == "." else c for c in board.cells]
    explore = Explore(trace=True, board_global="current_state")
    (outcome,) = _run(
        _executor(source), Call("search", (-2, 2), set_globals={"current_state": encoded}, explore=explore)
    )
    assert outcome.exploration is not None
    assert outcome.exploration.steps == alphabeta_trace(board, SPEC, alpha=-2, beta=2).steps


def test_a_search_learned_during_the_call_is_recorded_whole_by_calling_again() -> None:
    # From one empty cell max_value calls min_value once and neither recurses: the first
    # call teaches the recorder nothing, so the larger call after it learns the search while
    # it runs, and the executor makes that call again to record it whole.
    executor = _executor(STYLES["aima"])
    last_cell, board = POSITIONS[2], POSITIONS[0]
    small, large = _run(executor, _call(last_cell, trace=True), _call(board, trace=True))
    assert small.ok and large.ok
    assert large.exploration is not None and large.exploration.complete
    assert large.exploration.steps == alphabeta_trace(board, SPEC).steps


def test_any_callable_name_counts_as_defined() -> None:
    executor = _executor(
        STYLES["partial"]
        + "\nclass Scorer:\n    def __call__(self, board):\n        return score(board)\n\n"
        + "scorer = Scorer()\nbound = Engine().search\nstatic = staticmethod(score)\nlimit = 3\n"
    )
    names = executor.defined_names(hidden={"__name__", "__builtins__"})
    assert {"ab", "scorer", "bound", "static", "score"} <= set(names["functions"])
    assert "Engine" in names["classes"] and "Scorer" in names["classes"]
    assert names["variables"] == ["limit"]


def test_no_kernel_source_redefines_a_name_an_earlier_one_defined() -> None:
    """They run in one namespace: a later module's private name would replace an earlier one's."""
    seen: dict[str, int] = {}
    shared_on_purpose = {"__all__", "_MISSING"}  # sentinels that mean the same thing in each
    for index, source in enumerate(link.KERNEL_SOURCES):
        for node in ast.parse(source).body:
            targets: list[str] = []
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                targets = [node.name]
            elif isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            for name in targets:
                if name in shared_on_purpose:
                    continue
                assert seen.setdefault(name, index) == index, f"{name} is defined by two kernel sources"


LOGGED = """
def evaluate(board, piece):
    return sum(row.count(piece) for row in board)

def search(board, piece):
    total = 0
    for col in range(2):
        board[0][col] = piece  # played in place, then taken back: the log keeps what was evaluated
        total += evaluate(board, piece)
        board[0][col] = " "
    return total
"""


def test_a_logged_function_reports_the_board_of_each_call_in_order_as_it_was_then() -> None:
    executor = _executor(LOGGED)
    board = [[" ", " "], ["X", "O"]]
    call = Call("search", (board, "X"), count=("evaluate",), log=("evaluate",))
    first, second = _run(executor, call, Call("search", ([["O", " "], ["X", "O"]], "O"), count=("evaluate",)))
    assert first.counts == {"evaluate": 2}
    assert first.logged == {"evaluate": ([["X", " "], ["X", "O"]], [[" ", "X"], ["X", "O"]])}
    assert second.logged == {}  # logged only where the call asks
    (again,) = _run(executor, call)
    assert again.logged == first.logged  # each call's log starts empty


def test_a_function_logged_but_not_counted_does_not_refuse_the_call() -> None:
    executor = _executor(LOGGED + "\nclass Board:\n    pass\n")
    board = [[" ", " "], ["X", "O"]]
    (logged,) = _run(executor, Call("search", (board, "X"), log=("evaluate",)))
    assert logged.counts == {} and len(logged.logged["evaluate"]) == 2
    # a class cannot be wrapped: counting it refuses the call, logging it leaves its log empty
    (refused,) = _run(executor, Call("search", (board, "X"), count=("Board",)))
    (unlogged,) = _run(executor, Call("search", (board, "X"), log=("Board",)))
    assert refused.status.value == "missing" and unlogged.ok and unlogged.logged == {"Board": ()}


def test_a_call_that_only_watches_reports_the_same_boards_and_runs_no_recorder() -> None:
    executor = _executor(STYLES["helper"])
    encoded = [" " if c == "." else c for c in POSITIONS[1].cells]
    marks = ("X", "O", (" ",))
    recorded, watched = (
        Call("ab", (encoded, False, -math.inf, math.inf), explore=Explore(marks=marks, watch=("score",), record=record))
        for record in (True, False)
    )
    (with_recorder,) = _run(executor, recorded)
    hooks: list[object] = []
    original_start = executor.recorder.start
    executor.recorder.start = lambda *args, **kwargs: hooks.append(args)  # type: ignore[method-assign]
    try:
        (alone,) = _run(executor, watched)
    finally:
        executor.recorder.start = original_start  # type: ignore[method-assign]
    assert hooks == []
    assert with_recorder.exploration is not None and alone.exploration is not None
    assert with_recorder.exploration.nodes > 0 and alone.exploration.nodes == 0
    assert alone.value == with_recorder.value
    assert alone.exploration.uses == with_recorder.exploration.uses
    assert sum(alone.exploration.uses["score"].values()) > 100
