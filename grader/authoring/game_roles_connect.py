"""The roles of a Connect-Four solution's functions, read from their answers on positions of the
game the board reading found (`grader.authoring.game_encoding`).

A function of the board alone is the winner test when it answers each finished game's winner (and
nobody elsewhere), the terminal test when it answers the game's end, the legal moves when it
answers the columns with room. A function of the board and a mark is the win test of a side when it
answers True exactly where that side has won, the heuristic when it answers numbers, the move
function when it answers a column with room everywhere; one of the board and a column answers
whether the column has room, or the row a piece dropped there lands in. A function of the
board, a depth and a mark (or a maximizing flag) is a search when what it answers has a search's
shape at depths 1 and 2: ``(column, value)``, ``(column, value, evaluations)``, a column, or, for
progressive deepening, a list of one such answer a depth. Which search it is, and how it counts, is left to
the checks themselves, run against the solution (`grader.authoring.game_inference`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any, Literal, get_args

from grader.authoring.discovery import Function
from grader.authoring.game_encoding import HINTS, LITERALS, SCREEN_SECONDS, SlottedCall, slot_orders
from grader.authoring.probe_screen import asked_in_turn
from grader.checks.context import CallRunner
from grader.checks.game_answers import SearchShape
from grader.checks.kinds.game_board import GameExpect
from grader.checks.kinds.game_heuristic import has_lines, swapped
from grader.execution.channel.call_data import Call, CallOutcome
from reference.connect4 import ConnectK, ConnectState
from reference.connect_endings import finished_games, play
from reference.grid_codec import GridEncoding
from reference.tictactoe import O, X

GAME_EXPECTS: tuple[GameExpect, ...] = get_args(GameExpect)
WinBonus = Literal["none", "plies-left"]
PROBE_SEED = 4
ONGOING = 12
"""Games in progress each function is asked about, beside the finished ones."""


@dataclass(frozen=True)
class Predicate(SlottedCall):
    expect: GameExpect
    ordered: bool
    asked: int


@dataclass(frozen=True)
class Heuristic(SlottedCall):
    zero_without_lines: bool
    antisymmetric: bool
    swap_symmetric: bool
    asked: int
    constant: bool
    """The same number on every position asked (a helper that scores something else)."""


@dataclass(frozen=True)
class Search(SlottedCall):
    returns: SearchShape
    """``move,value``, ``move,value,evaluations`` or ``move`` (`GameSearchParams.returns`)."""
    deepening: bool

    @property
    def flagged(self) -> bool:
        """It always plays one side and is told by a flag that this side is to move (a search
        told the side's mark as well plays either side, the flag True)."""
        return "maximizing" in self.slots and "to_move" not in self.slots


class MoveFunction(SlottedCall):
    """A function of the board and a mark that answers a column with room."""


def ongoing_positions(game: ConnectK, count: int = ONGOING) -> list[ConnectState]:
    """Games in progress of 0 to 12 random moves, the same on every run."""
    rng = random.Random(PROBE_SEED)
    states = [game.initial_state()]
    while len(states) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(1, 13)):
            moves = game.actions(state)
            after = game.result(state, rng.choice(moves))
            if game.is_terminal(after):
                break
            state = after
        states.append(state)
    return states


def finished_positions(game: ConnectK) -> list[ConnectState]:
    return [play(game, ending.moves) for ending in finished_games(game)]


def _mark_of(encoding: GridEncoding, value: Any) -> str | None | bool:
    """X or O for a mark, None for nobody (None, False, the empty cell), False for anything else."""
    if value is None or value is False or repr(value) == repr(encoding.empty):
        return None
    for player in (X, O):
        if repr(value) == repr(encoding.symbol(player)):
            return player
    return False


def _agrees(expect: str, game: ConnectK, encoding: GridEncoding, state: ConnectState, value: Any) -> bool:
    if expect == "winner":
        winners = game.winners(state)
        return _mark_of(encoding, value) == (next(iter(winners)) if len(winners) == 1 else None)
    if expect == "terminal":
        return isinstance(value, bool) and value == game.is_terminal(state)
    if expect == "full":
        return isinstance(value, bool) and value == all(state.height(c) >= game.rows for c in range(game.cols))
    if game.is_terminal(state):
        return True  # the legal moves of a finished game are not asked
    return isinstance(value, (list, tuple, set, frozenset)) and sorted(value) == list(game.actions(state))


def read_predicates(
    runner: CallRunner, functions: Sequence[Function], game: ConnectK, encoding: GridEncoding
) -> list[Predicate]:
    """The functions of the board alone that answer as a winner, terminal or legal-moves test."""
    states = finished_positions(game) + ongoing_positions(game)
    boards = [encoding.encode(state) for state in states]
    found = []
    for function in functions:
        if len(function.required) != 1 or function.owner is not None:
            continue
        calls = [Call(function.name, (board,), timeout=SCREEN_SECONDS) for board in boards]
        outcomes = runner.call_many(calls)
        if not all(outcome.ok and not outcome.mutated for outcome in outcomes):
            continue
        for expect in GAME_EXPECTS:
            if all(_agrees(expect, game, encoding, s, o.value) for s, o in zip(states, outcomes)):
                ordered = expect == "legal-moves" and all(
                    isinstance(o.value, (list, tuple)) and list(o.value) == list(game.actions(s))
                    for s, o in zip(states, outcomes)
                    if not game.is_terminal(s)
                )
                found.append(Predicate(function.name, ("board",), expect, ordered, len(states)))
                break
    return found


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_board_questions(
    runner: CallRunner, functions: Sequence[Function], game: ConnectK, encoding: GridEncoding
) -> list[Predicate]:
    """The functions of the board and a mark that answer whether that side has won (``wins``),
    and of the board and a column that answer whether it has room (``has-room``) or the row a
    piece dropped there lands in (``open-row``)."""
    states = finished_positions(game) + ongoing_positions(game)
    found = []
    for function in functions:
        read = _by_player(runner, function, game, encoding, states) or _by_column(
            runner, function, game, encoding, states
        )
        if read is not None:
            found.append(read)
    return found


def _by_player(
    runner: CallRunner, function: Function, game: ConnectK, encoding: GridEncoding, states: Sequence[ConnectState]
) -> Predicate | None:
    asked = [(s, p) for s in states for p in (X, O)]
    for slots in slot_orders(function, ("board", "player"), HINTS):
        calls = [
            Call(function.name, _args(slots, encoding.encode(s), encoding.symbol(p), 0), timeout=SCREEN_SECONDS)
            for s, p in asked
        ]

        def wins(outcomes: Sequence[CallOutcome]) -> bool:
            return all(o.ok and not o.mutated for o in outcomes) and all(
                (o.value if o.value is not None else False) is (p in game.winners(s))
                for (s, p), o in zip(asked, outcomes)
            )

        outcomes = asked_in_turn(runner, calls, wins)
        if outcomes is not None and wins(outcomes):
            return Predicate(function.name, slots, "wins", False, len(states))
    return None


def _by_column(
    runner: CallRunner, function: Function, game: ConnectK, encoding: GridEncoding, states: Sequence[ConnectState]
) -> Predicate | None:
    asked = [(s, c) for s in states for c in range(game.cols)]
    for slots in slot_orders(function, ("board", "move"), HINTS):
        calls = [
            Call(function.name, _args(slots, encoding.encode(s), None, 0, c), timeout=SCREEN_SECONDS) for s, c in asked
        ]

        def reading(outcomes: Sequence[CallOutcome]) -> GameExpect | None:
            if not all(o.ok and not o.mutated for o in outcomes):
                return None
            pairs = [(s, c, o.value) for (s, c), o in zip(asked, outcomes)]
            if all(v is (s.height(c) < game.rows) for s, c, v in pairs):
                return "has-room"
            room = [(s, c, v) for s, c, v in pairs if s.height(c) < game.rows]
            if all(_whole(v) == encoding.landing_row(s.height(c)) for s, c, v in room):
                return "open-row"
            return None

        outcomes = asked_in_turn(runner, calls, lambda head: reading(head) is not None)
        expect = reading(outcomes) if outcomes is not None else None
        if expect is not None:
            return Predicate(function.name, slots, expect, False, len(states))
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(float(value)):
        return None
    return float(value)


def read_two_slot(
    runner: CallRunner, functions: Sequence[Function], game: ConnectK, encoding: GridEncoding
) -> tuple[list[Heuristic], list[MoveFunction]]:
    """The functions of the board and a mark that answer numbers (heuristics) or a column with
    room (move functions), for either mark, on games in progress."""
    states = ongoing_positions(game, 6)
    heuristics: list[Heuristic] = []
    movers: list[MoveFunction] = []
    asked = [(s, p) for s in states for p in (X, O)]
    for function in functions:
        for slots in slot_orders(function, ("board", "player"), HINTS):
            calls = [
                Call(function.name, _args(slots, encoding.encode(s), encoding.symbol(p), 0), timeout=4 * SCREEN_SECONDS)
                for s, p in asked
            ]

            def moves(outcomes: Sequence[CallOutcome]) -> bool:
                return all(
                    isinstance(o.value, int) and not isinstance(o.value, bool) and o.value in game.actions(s)
                    for (s, _), o in zip(asked, outcomes)
                )

            def readable(head: Sequence[CallOutcome]) -> bool:
                return all(o.ok and not o.mutated for o in head) and (
                    moves(head) or all(_number(o.value) is not None for o in head)
                )

            outcomes = asked_in_turn(runner, calls, readable)
            if outcomes is None or not all(o.ok and not o.mutated for o in outcomes):
                continue
            values = [o.value for o in outcomes]
            if moves(outcomes):
                movers.append(MoveFunction(function.name, slots))
                break
            numbers = [_number(v) for v in values]
            if all(n is not None for n in numbers):
                zero = all(n == 0 for (s, _), n in zip(asked, numbers) if not has_lines(game, s))
                anti = all(numbers[i] == -(numbers[i + 1] or 0) for i in range(0, len(numbers), 2))
                constant = len(set(numbers)) == 1
                swap = _swap_symmetric(runner, function.name, slots, game, encoding, asked, numbers)
                heuristics.append(Heuristic(function.name, slots, zero, anti, swap, len(asked), constant))
                break
    return heuristics, movers


def _swap_symmetric(
    runner: CallRunner,
    function: str,
    slots: Sequence[str],
    game: ConnectK,
    encoding: GridEncoding,
    asked: Sequence[tuple[ConnectState, str]],
    numbers: Sequence[float | None],
) -> bool:
    """Whether each side's value is the other side's on the board with every piece swapped."""
    calls = [
        Call(
            function,
            _args(slots, encoding.encode(swapped(game, s)), encoding.symbol(O if p == X else X), 0),
            timeout=4 * SCREEN_SECONDS,
        )
        for s, p in asked
    ]
    outcomes = runner.call_many(calls)
    return all(o.ok and _number(o.value) == n for o, n in zip(outcomes, numbers))


def _args(slots: Sequence[str], board: Any, mark: Any, depth: int, move: Any = None) -> tuple[Any, ...]:
    values: dict[str, Any] = {"board": board, "player": mark, "to_move": mark, "depth_limit": depth, "move": move}
    values |= LITERALS
    return tuple(values[slot] for slot in slots)


def _shape(value: Any, game: ConnectK, state: ConnectState) -> SearchShape | None:
    """The search shape of one answer: ``move``, ``move,value`` or ``move,value,evaluations``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return "move" if value in game.actions(state) else None
    if not isinstance(value, (list, tuple)) or len(value) not in (2, 3):
        return None
    move, score, *count = value
    if not isinstance(move, int) or move not in game.actions(state) or _number(score) is None:
        return None
    if count and not (isinstance(count[0], int) and not isinstance(count[0], bool)):
        return None
    return "move,value,evaluations" if count else "move,value"


def _search_shape(
    outcomes: Sequence[CallOutcome], game: ConnectK, state: ConnectState
) -> tuple[SearchShape, bool] | None:
    """The shape the answers at depths 1 and 2 share, and whether they are progressive deepening's."""
    if not all(o.ok and not o.mutated for o in outcomes):
        return None
    plain = {_shape(o.value, game, state) for o in outcomes}
    if len(plain) == 1 and None not in plain:
        shape = plain.pop()
        return (shape, False) if shape is not None else None
    deep = [o.value for o in outcomes]
    lists = [v for depth, v in zip((1, 2), deep) if isinstance(v, (list, tuple)) and len(v) == depth]
    if len(lists) == 2:
        shapes = {_shape(answer, game, state) for v in lists for answer in v}
        if len(shapes) == 1 and None not in shapes:
            deep_shape = shapes.pop()
            return (deep_shape, True) if deep_shape is not None else None
    return None


def read_searches(
    runner: CallRunner, functions: Sequence[Function], game: ConnectK, encoding: GridEncoding
) -> list[Search]:
    """The functions of the board, a depth and a mark (and an alpha-beta window, called with the
    full one) that answer as a search at depths 1 and 2."""
    state = play(game, (2, 3, 3))
    board, mark = encoding.encode(state), encoding.symbol(game.to_move(state))
    found = []
    for function in functions:
        kinds = [("board", "depth_limit", "to_move"), ("board", "depth_limit", "alpha", "beta", "to_move")]
        flag = [tuple("maximizing" if slot == "to_move" else slot for slot in kind) for kind in kinds]
        both = [(*kind[:-1], "maximizing", "to_move") for kind in kinds]  # the flag True: the mark's side to move
        named = any(any(h in p.name.lower() for h in HINTS["maximizing"]) for p in function.required)
        kinds = flag + both + kinds if named else kinds + flag + both
        for slots in (order for kind in kinds for order in slot_orders(function, kind, HINTS)):
            calls = [Call(function.name, _args(slots, board, mark, d), timeout=4 * SCREEN_SECONDS) for d in (1, 2)]
            shape = _search_shape(runner.call_many(calls), game, state)
            if shape is not None:
                found.append(Search(function.name, slots, shape[0], shape[1]))
                break
    return found


def win_scoring(
    runner: CallRunner, search: Search, game: ConnectK, encoding: GridEncoding, side: str = X
) -> tuple[float, WinBonus] | None:
    """What the search says a win one move away for ``side`` is worth at depths 1 and 2: (win,
    win_bonus)."""
    if search.returns == "move":
        return None
    state = _one_move_win(game, side)
    board, mark = encoding.encode(state), encoding.symbol(game.to_move(state))
    calls = [Call(search.function, _args(search.slots, board, mark, d), timeout=4 * SCREEN_SECONDS) for d in (1, 2)]
    values = []
    for outcome in runner.call_many(calls):
        answer = outcome.value[-1] if search.deepening and isinstance(outcome.value, (list, tuple)) else outcome.value
        if not outcome.ok or not isinstance(answer, (list, tuple)) or _number(answer[1]) is None:
            return None
        values.append(float(answer[1]))
    if values[1] == values[0] + 1:
        return values[0], "plies-left"
    return (values[0], "none") if values[1] == values[0] else None


def _one_move_win(game: ConnectK, side: str) -> ConnectState:
    """A position where ``side``, to move, wins by its next move: X with k-1 in a row on the
    bottom, O with k-1 in a column while X's pieces alternate beside it."""
    if side == X:
        return play(game, tuple(col for pair in zip(range(game.k - 1), range(game.k - 1)) for col in pair))
    moves = [col for i in range(game.k - 1) for col in ((0, 2)[i % 2], 1)]
    return play(game, (*moves, (0, 2)[(game.k - 1) % 2]))
