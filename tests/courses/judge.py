"""Each role's check of a course function against the reference engine.

A check calls the function on many positions in the course's own conventions and returns the
first disagreement with the reference in words, or ``None`` when it agrees on every position.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from reference.search import SearchSpec, alphabeta, minimax, minimax_nodes
from reference.solved import reachable_positions, solve_all
from reference.tictactoe import EMPTY, Board
from tests.courses.manifest import Course, Function, Role
from tests.courses.student import StudentCode, StudentRaised, cell_of_move

VALUE_POSITIONS = 32
"""How many positions the search checks use (spread evenly over the sorted candidates)."""
LATE_MARKS = 7
"""Search checks also use every position with this many marks or more."""
NODE_POSITIONS = 6
"""How many of the spread positions the node checks use."""
RULE_STEP = 3
"""The rule checks take every this-many-th unfinished position."""
DEPTH_LIMITS = (1, 2, 3)
WINDOWS = {
    "unit": ((-2, 2), (-1, 0), (0, 1), (-1, 1)),
    "depth-adjusted": ((-100, 100), (-5, 5), (0, 8), (-9, -2), (3, 9)),
}
"""Alpha-beta windows per scoring; the first is wide enough to give every exact value."""

Check = Callable[[StudentCode, Function], "str | None"]


def spec_of(course: Course, depth_limit: int | None = None) -> SearchSpec:
    return SearchSpec(
        maximizer=course.maximizer,
        first_player=course.first_player,
        scoring=course.scoring,
        depth_limit=depth_limit,
    )


@functools.cache
def _positions(first: str) -> tuple[Board, ...]:
    return tuple(sorted(reachable_positions(first), key=str))


@functools.cache
def rule_positions(first: str) -> tuple[Board, ...]:
    """Positions for the rule checks (win, draw, moves): every finished one, where those tests
    matter most, and every third of the others (2,465 of the 5,478)."""
    unfinished = [board for board in _positions(first) if not board.is_terminal()]
    return tuple(board for board in _positions(first) if board.is_terminal()) + tuple(unfinished[::RULE_STEP])


def search_positions(course: Course, function: Function, count: int = VALUE_POSITIONS) -> tuple[Board, ...]:
    """Unfinished positions for a search check, the side to move fixed where the function needs it:
    ``count`` spread evenly over those with at least ``course.min_marks`` marks (their searches are
    the expensive ones), then every position with ``LATE_MARKS`` or more (cheap, and where
    mistakes about the last squares show)."""
    spread, late = search_split(course, function, count)
    return spread + late


def search_split(
    course: Course, function: Function, count: int = VALUE_POSITIONS
) -> tuple[tuple[Board, ...], tuple[Board, ...]]:
    """:func:`search_positions` as its two parts: the spread sample and the late positions."""
    return _search_candidates(course.first_player, course.min_marks, function.to_move, count)


@functools.cache
def _search_candidates(
    first: str, min_marks: int, to_move: str | None, count: int
) -> tuple[tuple[Board, ...], tuple[Board, ...]]:
    candidates = [
        board
        for board in _positions(first)
        if not board.is_terminal()
        and _marks(board) >= min_marks
        and (to_move is None or board.to_move(first) == to_move)
    ]
    spread = tuple(candidates[:: max(1, len(candidates) // count)][:count])
    late = tuple(board for board in candidates if _marks(board) >= LATE_MARKS and board not in spread)
    return spread, late


def _marks(board: Board) -> int:
    return 9 - len(board.empty_cells())


def _side(course: Course, board: Board) -> dict[str, object]:
    to_move = board.to_move(course.first_player)
    return {"player": course.symbol(to_move), "is_max": to_move == course.maximizer}


def _parts(result: object, returns: str) -> dict[str, object]:
    names = returns.split(",")
    if len(names) == 1:
        return {names[0]: result}
    if not isinstance(result, Sequence) or len(result) != len(names):
        raise ValueError(f"expected {len(names)} values ({returns}), got {result!r}")
    parts = dict(zip(names, result))
    if "row" in parts:
        parts["move"] = (parts.pop("row"), parts.pop("col"))
    return parts


def _call(code: StudentCode, function: Function, board: Board, part: str, **values: object) -> object:
    names = {**_side(code.course, board), **values}
    return _parts(code.call(function, board, **names), function.returns)[part]


def _disagreement(function: Function, board: Board, detail: str) -> str:
    return f"{function.call} on {board}: {detail}"


def check_win_test(code: StudentCode, function: Function) -> str | None:
    course = code.course
    for board in rule_positions(course.first_player):
        winners = board.winners()
        if function.returns == "bool" and "player" not in function.call:
            got = bool(code.call(function, board))
            if got != bool(winners):
                return _disagreement(function, board, f"gives {got}")
        elif function.returns == "bool":
            for player in ("X", "O"):
                got = bool(code.call(function, board, player=course.symbol(player)))
                if got != (player in winners):
                    return _disagreement(function, board, f"gives {got} for {player}")
        else:
            expected = course.symbol(next(iter(winners))) if winners else course.no_winner
            if function.returns == "outcome" and not winners and board.is_full():
                expected = course.tie
            answer = code.call(function, board)
            if answer is not expected and answer != expected:
                return _disagreement(function, board, f"gives {answer!r}, the reference {expected!r}")
    return None


def check_draw_test(code: StudentCode, function: Function) -> str | None:
    means = {
        "full": Board.is_full,
        "draw": lambda board: board.is_full() and not board.winners(),
        "over": Board.is_terminal,
    }[str(function.means)]
    for board in rule_positions(code.course.first_player):
        got = bool(code.call(function, board))
        if got != means(board):
            return _disagreement(function, board, f"gives {got}")
    return None


def check_moves(code: StudentCode, function: Function) -> str | None:
    for board in rule_positions(code.course.first_player):
        if board.is_terminal():
            continue
        moves = code.call(function, board)
        if not isinstance(moves, Iterable):
            return _disagreement(function, board, f"gives {moves!r}, not a collection of moves")
        cells = sorted(cell_of_move(move, code.course.move) for move in moves)
        if cells != list(board.empty_cells()):
            return _disagreement(function, board, f"lists {moves!r}")
    return None


def check_minimax(code: StudentCode, function: Function) -> str | None:
    table = solve_all(spec_of(code.course))
    for board in search_positions(code.course, function):
        value = _call(code, function, board, "value")
        if value != table[board].value:
            return _disagreement(function, board, f"gives {value}, the reference {table[board].value}")
    return None


def check_alphabeta(code: StudentCode, function: Function) -> str | None:
    table = solve_all(spec_of(code.course))
    windows = WINDOWS[code.course.scoring]
    spread, late = search_split(code.course, function)
    # Every window on the spread sample; the wide one alone on the many cheap late positions.
    trials = [(board, window) for board in spread for window in windows] + [(board, windows[0]) for board in late]
    for board, (alpha, beta) in trials:
        true = table[board].value
        # The value is compared with the window's bounds as the number it should be.
        value = cast("float", _call(code, function, board, "value", alpha=alpha, beta=beta))
        exact = alpha < true < beta
        if (exact and value != true) or (true <= alpha and value > alpha) or (true >= beta and value < beta):
            return _disagreement(function, board, f"gives {value} in window ({alpha}, {beta}), the value is {true}")
    alpha, beta = windows[0]
    nodes = minimax_visits = 0
    for board in spread[:NODE_POSITIONS]:
        with code.counting(function.name) as calls:
            _call(code, function, board, "value", alpha=alpha, beta=beta)
        nodes += calls[function.name]
        minimax_visits += minimax_nodes(board, spec_of(code.course))
    if nodes >= minimax_visits:
        return f"{function.call} visits {nodes} nodes on {NODE_POSITIONS} positions, plain minimax {minimax_visits}"
    return None


def check_best_move(code: StudentCode, function: Function) -> str | None:
    table = solve_all(spec_of(code.course))
    for board in search_positions(code.course, function):
        if function.returns == "in-place":
            cell = played_cell(code, function, board)
            move: object = cell
        else:
            move = _call(code, function, board, "move")
            try:
                cell = cell_of_move(move, code.course.move)
            except ValueError as error:
                return _disagreement(function, board, str(error))
        if cell not in table[board].optimal_moves:
            return _disagreement(function, board, f"plays {move!r}, optimal are cells {table[board].optimal_moves}")
    return None


def played_cell(code: StudentCode, function: Function, board: Board) -> int:
    """The cell a function that plays in place put the side to move's mark on; ValueError when
    it did not play exactly that one move."""
    after = code.board_after(function, board, **_side(code.course, board))
    changed = [cell for cell in range(9) if after.cells[cell] != board.cells[cell]]
    side = board.to_move(code.course.first_player)
    if len(changed) != 1 or board.cells[changed[0]] != EMPTY or after.cells[changed[0]] != side:
        raise ValueError(f"{function.call} on {board} leaves {after}, not one {side} more")
    return changed[0]


def check_depth_limited(code: StudentCode, function: Function) -> str | None:
    for limit in DEPTH_LIMITS:
        spec = spec_of(code.course, depth_limit=limit)
        for board in search_positions(code.course, function, VALUE_POSITIONS // 2):
            expected = minimax(board, spec).value
            value = _call(code, function, board, "value", limit=limit)
            if value != expected:
                return _disagreement(function, board, f"gives {value} at depth limit {limit}, the reference {expected}")
    return None


def _reference_nodes(course: Course, counted: str, board: Board) -> int:
    """What the reference counts for the search the counter counts: alpha-beta's nodes (with a
    window wider than every value) when the course uses that function as its alpha-beta."""
    if any(function.key == f"{counted}:alphabeta" for function in course.functions):
        return alphabeta(board, spec_of(course)).nodes
    return minimax(board, spec_of(course)).nodes


def check_node_counter(code: StudentCode, function: Function) -> str | None:
    counted = str(function.counts)
    for board in search_positions(code.course, function, NODE_POSITIONS):
        code.set_global(function.name, 0)
        with code.counting(counted) as calls:
            code.call(function, board, **_side(code.course, board))
        got = code.global_value(function.name)
        if got != calls[counted]:
            return _disagreement(function, board, f"{function.name} is {got} after {calls[counted]} calls of {counted}")
        expected = _reference_nodes(code.course, counted, board)
        if calls[counted] != expected:
            return _disagreement(
                function, board, f"{counted} is called {calls[counted]} times, the reference {expected}"
            )
    return None


CHECKS: dict[Role, Check] = {
    "win-test": check_win_test,
    "draw-test": check_draw_test,
    "moves": check_moves,
    "minimax": check_minimax,
    "alphabeta": check_alphabeta,
    "best-move": check_best_move,
    "depth-limited": check_depth_limited,
    "node-counter": check_node_counter,
}


def judge(code: StudentCode, function: Function) -> str | None:
    """The first disagreement of ``function`` with the reference in its role, or ``None``.

    A function that raises disagrees, and so does an answer of the wrong shape (``ValueError``
    from reading it); any other exception is a fault of the checks and propagates.
    """
    try:
        return CHECKS[function.role](code, function)
    except (StudentRaised, ValueError) as error:
        return str(error)
