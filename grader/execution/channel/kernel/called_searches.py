"""The reference's search of the course's state, standing in for a student's search that another
of the student's searches calls (a mistake in the one called costs once: ``minimax_endgame_search``
written as a call of a wrong ``minimax_search``, a progressive deepening that calls a wrong
alpha-beta, are graded with this in its place).

The search walks the state it is given as a right search of the course does, through the course's
interface the assignment names: the position the state holds (at ``position``, the attributes the
answer's path is read through), the lab's functions of a position the state is made with (whether
the game is over, the boards one move away, a finished game's endgame score, each a name of the
notebook, looked up when the call is made), the heuristic it is handed, and the course's state made
anew for each next position (``state``: the assignment's state expression, `BOARD_SLOT` where the
position goes). It answers ``(path, score, evaluations)``: the states from the one given to the end
of the line of play chosen (the one given first), the value, the static evaluations (a finished
game's endgame score counts as one where the course counts it). Minimax keeps the first (or last)
of equal moves; alpha-beta cuts off once alpha >= beta (past the bound, when the last of equal moves
is kept); the best-leaf search lets the side to move choose every move, every leaf valued for it.

Its arguments are read where the search's check passes them (by position or keyword, omitted
ones at the student's function's defaults): the state, the heuristic, the depth limit (none: to
the end), whether the side to move maximizes, the window.

Shipped into the kernel as source after `next_boards` (whose maker of the course's objects it
uses) and before the stand-ins (which call it): standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.kernel.built_values import read_value, realize
    from grader.execution.channel.kernel.names import named_argument_binder, resolve
    from grader.execution.channel.kernel.next_boards import with_board
    from grader.execution.channel.protocol import StandInRequest

SEARCH_ROLE = "state-search"

_NOT_GIVEN = object()


def search_stand_in(namespace: dict[str, Any], request: StandInRequest, original: Any) -> Callable[..., Any]:
    """A plain function answering as a right search of the course would, for the calls the
    student's code makes of ``original``."""
    walk = request.get("search") or {}
    kind, tie, counted = walk.get("kind", "minimax"), walk.get("tie", "first"), walk.get("count_endgames", True)
    over_at, next_at, score_at = walk["over"], walk["next"], walk["score"]
    heuristic_at = walk.get("heuristic_args") or [0, 1]
    made = read_value(walk["state"])
    position_at = [part for part in walk.get("position", "").split(".") if part]
    arguments = named_argument_binder(original)

    def position(state: Any) -> Any:
        value = state
        for part in position_at:
            value = getattr(value, part)
        return value

    def call(at: list[Any], board: Any, is_max: Any = None) -> Any:
        """One of the lab's functions, ``[name, board position, is_max position]``, on ``board``."""
        name, board_arg, is_max_arg = at
        args: list[Any] = [None] * (max(board_arg, -1 if is_max_arg is None else is_max_arg) + 1)
        args[board_arg] = board
        if is_max_arg is not None:
            args[is_max_arg] = is_max
        return resolve(namespace, name)(*args)

    def evaluate(heuristic: Any, board: Any, is_max: bool) -> Any:
        board_arg, is_max_arg = heuristic_at
        args: list[Any] = [None] * (max(board_arg, is_max_arg) + 1)
        args[board_arg], args[is_max_arg] = board, is_max
        return heuristic(*args)

    def better(score: Any, best: Any, maximize: bool) -> bool:
        if best is None:
            return True
        if tie == "last" and score == best:
            return True
        return score > best if maximize else score < best

    def search(state: Any, alpha: Any, beta: Any, heuristic: Any, depth: Any, maximize: bool) -> tuple[Any, Any, int]:
        board = position(state)
        if call(over_at, board):
            return [state], call(score_at, board, maximize), 1 if counted else 0
        if depth is not None and depth <= 0:
            return [state], evaluate(heuristic, board, maximize), 1
        best_path, best_score, evaluations = None, None, 0
        for child in call(next_at, board):
            child_state = realize(with_board(made, child), namespace)
            below = None if depth is None else depth - 1
            turn = maximize if kind == "best-leaf" else not maximize
            path, score, count = search(child_state, alpha, beta, heuristic, below, turn)
            evaluations += count
            if better(score, best_score, maximize):
                best_path, best_score = [state, *path], score
            if kind != "alphabeta":
                continue
            if maximize:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha > beta or (alpha == beta and tie != "last"):
                break
        return best_path, best_score, evaluations

    def argument(given: dict[str, Any], values: list[Any], at: Any, default: Any) -> Any:
        if at is None:
            return default
        found = given.get(at, _NOT_GIVEN) if isinstance(at, str) else (values[at] if at < len(values) else _NOT_GIVEN)
        return default if found is _NOT_GIVEN else found

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        given = arguments(args, kwargs)
        values = list(given.values())
        state = argument(given, values, walk.get("state_arg", 0), _NOT_GIVEN)
        if state is _NOT_GIVEN:
            raise TypeError("the reference's stand-in found no state in the arguments")
        maximize = bool(argument(given, values, walk.get("maximize_arg"), walk.get("maximize", True)))
        return search(
            state,
            argument(given, values, walk.get("alpha_arg"), float("-inf")),
            argument(given, values, walk.get("beta_arg"), float("inf")),
            argument(given, values, walk.get("heuristic_arg"), None),
            argument(given, values, walk.get("depth_arg"), None),
            True if kind == "best-leaf" else maximize,
        )

    stand_in.__name__ = stand_in.__qualname__ = getattr(original, "__name__", "stand_in")
    return stand_in
