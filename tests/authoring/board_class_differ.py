"""Which functions of a mutant of the board-class course answer otherwise than the solution's,
on the same positions, called outside the grader: what each mistake reaches, the evidence
`connect/board_class/expected.toml`'s `breaks` is checked against (its `failed` and `regraded`
pin what the grading of init's assignment says). Every call is made on a fresh object set to
the position, and a search's answer is its (column, value) and the calls of `evaluate` it made."""

from __future__ import annotations

import functools
import math
import random
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "connect" / "board_class"
PLAYOUTS = 60
SEED = 7


def load(path: Path) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "course", "print": lambda *a, **k: None}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


def _positions() -> list[tuple[int, ...]]:
    """Seeded playouts of 0 to 30 moves, each stopped once a side has won."""
    rng = random.Random(SEED)
    reference = load(HERE / "solution.py")["ConnectFour"]
    found = []
    for _ in range(PLAYOUTS):
        game, moves = reference(), []
        for _ in range(rng.randrange(31)):
            col = rng.choice(game.get_valid_moves())
            game.make_move(col)
            moves.append(col)
            if game.is_game_over():
                break
        found.append(tuple(moves))
    return found


def _game(course: dict[str, Any], moves: tuple[int, ...]) -> Any:
    """A fresh object set to the position directly (not through the course's own make_move)."""
    game = course["ConnectFour"]()
    for n, col in enumerate(moves):
        row = max(r for r in range(game.rows) if game.board[r][col] == course["EMPTY"])
        game.board[row][col] = "XO"[n % 2]
    game.current_player = "XO"[len(moves) % 2]
    return game


def _searched(course: dict[str, Any], moves: tuple[int, ...], name: str, depth: int) -> Any:
    game = _game(course, moves)
    cls = course["ConnectFour"]
    calls = []
    evaluate = cls.evaluate

    def counted(self: Any, piece: str) -> Any:
        calls.append(piece)
        return evaluate(self, piece)

    cls.evaluate = counted
    try:
        piece = game.current_player
        if name == "minimax":
            answer = course["minimax"](game, depth, True, piece)
        else:
            answer = course["alphabeta"](game, depth, -math.inf, math.inf, True, piece)
    finally:
        cls.evaluate = evaluate
    return answer, len(calls)


def _answers(course: dict[str, Any], moves: tuple[int, ...], known: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Each function's answers on the position, but those of the functions ``known`` to differ."""
    answers: dict[str, Any] = {}

    def ask(name: str, call: Any) -> None:  # each call made at once
        if name in known:
            return
        try:
            answers.setdefault(name, []).append(call())
        except Exception as error:  # noqa: BLE001 - a course's exception is an answer here
            answers.setdefault(name, []).append(type(error).__name__)

    for piece in "XO":
        ask("ConnectFour.check_win", lambda piece=piece: _game(course, moves).check_win(piece))
        ask("ConnectFour.evaluate", lambda piece=piece: _game(course, moves).evaluate(piece))
    ask("ConnectFour.is_full", lambda: _game(course, moves).is_full())
    ask("ConnectFour.is_game_over", lambda: _game(course, moves).is_game_over())
    ask("ConnectFour.get_valid_moves", lambda: _game(course, moves).get_valid_moves())
    for col in _game(course, moves).get_valid_moves():
        ask("ConnectFour.make_move", lambda col=col: _made(course, moves, col))
        ask("ConnectFour.undo_move", lambda col=col: _undone(course, moves, col))
    for depth in (1, 2, 3):
        ask("minimax", lambda depth=depth: _searched(course, moves, "minimax", depth))
        ask("alphabeta", lambda depth=depth: _searched(course, moves, "alphabeta", depth))
    return answers


def _made(course: dict[str, Any], moves: tuple[int, ...], col: int) -> Any:
    game = _game(course, moves)
    game.make_move(col)
    return [row[:] for row in game.board], game.current_player


def _undone(course: dict[str, Any], moves: tuple[int, ...], col: int) -> Any:
    """The position after the move is made on a fresh object set to it, then taken back."""
    game = _game(course, (*moves, col))
    game.undo_move(col)
    return [row[:] for row in game.board], game.current_player


@functools.cache
def _solution_answers() -> tuple[tuple[tuple[int, ...], dict[str, Any]], ...]:
    """The solution's answers on each position, worked out once for every mutant."""
    solution = load(HERE / "solution.py")
    return tuple((moves, _answers(solution, moves)) for moves in _positions())


def differing(mutant: Path) -> set[str]:
    """The functions whose answers differ from the solution's on some position (a function
    found to differ is not asked again)."""
    wrong = load(mutant)
    found: set[str] = set()
    for moves, right in _solution_answers():
        given = _answers(wrong, moves, frozenset(found))
        found |= {name for name in right if name not in found and right[name] != given.get(name)}
    return found
