"""The rules of the state-objects games lab, written again for its oracle (`state_oracle.py`): Connect Four on
the course's arrays (six rows of seven, the top row first, 0 empty, 1 the first player's piece, 2 the
second's), its chains and values, and the lab's searches, each answering (path, score, evaluations) with the
lab's tie rule (of equally good moves the earliest) and count (every static evaluation is one: a finished
game's score or a heuristic's value).

Nothing here calls a hand-in or the course's methods to decide an answer: a position is an array and the
piece to move; an abstract tree is walked through its nodes' own `children` and `value`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

ROWS, COLS = 6, 7
WIN = 1000
Array = tuple[tuple[int, ...], ...]
Position = tuple[Array, int]
"""An array and the piece (1 or 2) of the side to move."""

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
EMPTY_ARRAY: Array = tuple((0,) * COLS for _ in range(ROWS))


def _windows() -> tuple[tuple[tuple[int, int], ...], ...]:
    found = []
    for row in range(ROWS):
        for col in range(COLS):
            for d_row, d_col in DIRECTIONS:
                cells = tuple((row + k * d_row, col + k * d_col) for k in range(4))
                if all(0 <= r < ROWS and 0 <= c < COLS for r, c in cells):
                    found.append(cells)
    return tuple(found)


WINDOWS = _windows()  # the 69 lines of four


def won(array: Array) -> bool:
    """Four of one piece in a line."""
    for window in WINDOWS:
        (r, c) = window[0]
        piece = array[r][c]
        if piece and all(array[r2][c2] == piece for r2, c2 in window[1:]):
            return True
    return False


def four_directions(array: Array) -> set[tuple[int, int]]:
    """The directions (row step, column step) of the fours on the board."""
    found = set()
    for window in WINDOWS:
        (r, c), (r2, c2) = window[0], window[1]
        piece = array[r][c]
        if piece and all(array[r3][c3] == piece for r3, c3 in window[1:]):
            found.add((r2 - r, c2 - c))
    return found


def full(array: Array) -> bool:
    return all(array[0][col] for col in range(COLS))


def over(array: Array) -> bool:
    return won(array) or full(array)


def drop(position: Position, col: int) -> Position:
    array, piece = position
    row = max(r for r in range(ROWS) if array[r][col] == 0)
    rows = [list(line) for line in array]
    rows[row][col] = piece
    return tuple(tuple(line) for line in rows), 3 - piece


def children(position: Position) -> list[Position]:
    """The positions one move away, column 0 first; none once the game is over."""
    array, _ = position
    if over(array):
        return []
    return [drop(position, col) for col in range(COLS) if array[0][col] == 0]


def chain_lengths(array: Array, piece: int) -> list[int]:
    """The lengths of the piece's chains: every maximal straight run of two or more, in the four
    directions, then one for each piece in no such run."""
    lengths = []
    in_a_run: set[tuple[int, int]] = set()
    for row in range(ROWS):
        for col in range(COLS):
            if array[row][col] != piece:
                continue
            for d_row, d_col in DIRECTIONS:
                before = (row - d_row, col - d_col)
                if 0 <= before[0] < ROWS and 0 <= before[1] < COLS and array[before[0]][before[1]] == piece:
                    continue
                run = []
                r, c = row, col
                while 0 <= r < ROWS and 0 <= c < COLS and array[r][c] == piece:
                    run.append((r, c))
                    r, c = r + d_row, c + d_col
                if len(run) > 1:
                    lengths.append(len(run))
                    in_a_run.update(run)
    singles = sum(1 for r in range(ROWS) for c in range(COLS) if array[r][c] == piece and (r, c) not in in_a_run)
    return lengths + [1] * singles


def heuristic_value(position: Position, is_max: bool) -> int:
    """The squares of the side to move's chains less the other side's, for the maximizer."""
    array, piece = position
    score = sum(n * n for n in chain_lengths(array, piece)) - sum(n * n for n in chain_lengths(array, 3 - piece))
    return score if is_max else -score


def endgame_value(array: Array, is_max: bool) -> int:
    """A finished game's value for the maximizer: the side that just moved won, if anyone did."""
    if won(array):
        return -WIN if is_max else WIN
    return 0


# -- positions reached by play -------------------------------------------------------------------------------


def playout(rng: random.Random, win_chance: float) -> list[Position]:
    """One game from the empty board: a random legal move, one that makes four only with ``win_chance`` (or
    when every move does), so that games run long and some end on the last cell. Every position on the way."""
    position: Position = (EMPTY_ARRAY, 1)
    seen = [position]
    while not over(position[0]):
        moves = [drop(position, col) for col in range(COLS) if position[0][0][col] == 0]
        quiet = [m for m in moves if not won(m[0])]
        pool = moves if not quiet or rng.random() < win_chance else quiet
        position = rng.choice(pool)
        seen.append(position)
    return seen


# -- the searches --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A game as the oracle walks it: its nodes, and what it knows of each."""

    is_over: Callable[[Any], bool]
    children: Callable[[Any], Sequence[Any]]
    endgame: Callable[[Any, bool], float]
    key: Callable[[Any], Any]
    """What a node is compared by: a Connect-Four position, or a tree's label."""


CONNECT_FOUR = Game(
    is_over=lambda p: over(p[0]),
    children=children,
    endgame=lambda p, is_max: endgame_value(p[0], is_max),
    key=lambda p: p,
)
TREES = Game(
    is_over=lambda node: not node.children,
    children=lambda node: list(node.children),
    endgame=lambda node, is_max: node.value,
    key=lambda node: node.label,
)

Answer = tuple[list[Any], float, int]
"""(the keys of the path, the score, the evaluations)."""


def best_leaf(game: Game, node: Any) -> Answer:
    """`dfs_maximizing`: the maximizer chooses every move; each finished game scored for the maximizer to move."""
    if game.is_over(node):
        return [game.key(node)], game.endgame(node, True), 1
    best: Answer | None = None
    evaluations = 0
    for child in game.children(node):
        path, score, count = best_leaf(game, child)
        evaluations += count
        if best is None or score > best[1]:
            best = ([game.key(node), *path], score, 0)
    assert best is not None
    return best[0], best[1], evaluations


def search(
    game: Game,
    node: Any,
    heuristic: Callable[[Any, bool], float],
    depth_limit: float = math.inf,
    maximize: bool = True,
    prune: bool = False,
    alpha: float = -math.inf,
    beta: float = math.inf,
) -> Answer:
    """Minimax to ``depth_limit`` (with ``prune``, alpha-beta: no more children once alpha >= beta)."""
    if game.is_over(node):
        return [game.key(node)], game.endgame(node, maximize), 1
    if depth_limit == 0:
        return [game.key(node)], heuristic(node, maximize), 1
    best_path: list[Any] = []
    best_score: float | None = None
    evaluations = 0
    for child in game.children(node):
        path, score, count = search(game, child, heuristic, depth_limit - 1, not maximize, prune, alpha, beta)
        evaluations += count
        if best_score is None or (score > best_score if maximize else score < best_score):
            best_path, best_score = [game.key(node), *path], score
        if prune:
            if maximize:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha >= beta:
                break
    assert best_score is not None
    return best_path, best_score, evaluations


def random_tree(rng: random.Random, make: Callable[..., Any], depth: int, label: str = "A") -> Any:
    """A tree of ``depth`` levels at most, two or three children a node (sometimes one), small integer values on
    every node (ties are common); the labels are unique."""
    value = rng.randint(-4, 4)
    if depth == 0 or (label != "A" and rng.random() < 0.2):
        return make(label, value)
    width = rng.choice((1, 2, 2, 3, 3))
    return make(label, value, [random_tree(rng, make, depth - 1, f"{label}{i}") for i in range(width)])
