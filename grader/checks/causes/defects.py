"""What a wrong lower-level function does, read from its answers.

The checks of a win test, a draw test, a successor function or an empty-cells function see
the student's answers on many boards. When those answers are wrong in a way that one simple
change explains (the win test misses the anti-diagonal, the draw test never fires, expand
places the other player's mark, the empty cells skip cell 8), that change is a
:class:`Defect`: a model of the student's function that can be plugged into a search
(``root_cause.py``) to see whether the failures of the checks above follow from it.

A defect is inferred only when it reproduces EVERY answer seen, like every explanation the
grader gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from reference import EMPTY, LINE_NAMES, LINES, Board, opponent

__all__ = [
    "LINE_WORDS",
    "Defect",
    "DrawObservation",
    "EmptyCellsObservation",
    "SuccessorObservation",
    "WinObservation",
    "draw_test_defect",
    "empty_cells_defect",
    "expand_hypotheses",
    "successor_defect",
    "win_test_defect",
]

Line = tuple[int, int, int]
DrawTest = Literal["full", "never", "no-line"]
Mark = Literal["mover", "other", "maximizer", "minimizer"]

LINE_WORDS: dict[Line, str] = LINE_NAMES
_GROUPS: tuple[tuple[str, tuple[Line, ...]], ...] = (
    ("the rows", LINES[0:3]),
    ("the columns", LINES[3:6]),
    ("the diagonals", LINES[6:8]),
)


@dataclass(frozen=True)
class Defect:
    """A student's lower-level function as its answers show it, in the terms a search uses.

    The defaults are the right behaviour; each field changes one thing.
    """

    function: str
    """The student's name for the function (``check_win``)."""
    description: str = "as the assignment asks"
    """What is wrong, to follow the function's name: ``missing the anti-diagonal``."""
    lines: tuple[Line, ...] = LINES
    """The lines the win test recognises."""
    any_player: bool = False
    """The win test answers yes for a line of either player."""
    draw: DrawTest = "full"
    """When the draw test fires once no win was found: ``full`` board (right), ``never``, or
    on every board without a line (``no-line``, empty cells or not)."""
    mark: Mark = "mover"
    """Whose mark a move places: the player to move (right), the ``other`` one, or always the
    ``maximizer``'s or the ``minimizer``'s."""
    skipped: frozenset[int] = frozenset()
    """Empty cells never offered as moves."""

    @property
    def sentence(self) -> str:
        return f"This follows from `{self.function}` {self.description}; fix that first."

    def correct(self) -> Defect:
        """The same function, right."""
        return Defect(self.function)

    @property
    def is_correct(self) -> bool:
        return self.behaviour() == self.correct().behaviour()

    def behaviour(self) -> tuple[object, ...]:
        """Everything but the words: two defects that behave alike are alike."""
        return (frozenset(self.lines), self.any_player, self.draw, self.mark, self.skipped)

    def wins(self, cells: Sequence[str], player: str) -> bool:
        """The student's win test: does ``player`` have a line?"""
        for a, b, c in self.lines:
            mark = cells[a]
            if mark != EMPTY and mark == cells[b] == cells[c] and (self.any_player or mark == player):
                return True
        return False

    def no_more_moves(self, cells: Sequence[str]) -> bool:
        """The draw test, once the win tests found no winner."""
        if self.draw == "never":
            return False
        if self.draw == "no-line":
            return True
        return EMPTY not in cells

    def is_draw(self, cells: Sequence[str], players: tuple[str, str]) -> bool:
        """The draw test asked on its own, written as the seeds write it: no win, no empty cell."""
        return not any(self.wins(cells, p) for p in players) and self.no_more_moves(cells)

    def placed(self, mover: str, maximizer: str) -> str:
        """The mark a move of ``mover`` puts on the board."""
        if self.mark == "other":
            return opponent(mover)
        if self.mark == "maximizer":
            return maximizer
        if self.mark == "minimizer":
            return opponent(maximizer)
        return mover


def _lines_words(lines: Sequence[Line]) -> str:
    left = list(lines)
    words = []
    if len(left) == len(LINES):
        return "every line"
    for name, group in _GROUPS:
        if all(line in left for line in group):
            words.append(name)
            left = [line for line in left if line not in group]
    words += [LINE_WORDS[line] for line in left]
    return " and ".join(words)


# -- the win test ---------------------------------------------------------------


@dataclass(frozen=True)
class WinObservation:
    """``check_win(board, player)`` answered ``answer`` (as the check read it: True or False)."""

    board: Board
    player: str
    answer: bool


def _complete(board: Board, player: str, any_player: bool) -> list[Line]:
    cells = board.cells
    return [
        (a, b, c)
        for a, b, c in LINES
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c] and (any_player or cells[a] == player)
    ]


def win_test_defect(function: str, observations: Sequence[WinObservation]) -> Defect | None:
    """The lines the win test misses (and whether it ignores whose line it is), when that
    reproduces every answer and the answers are not all right."""
    for any_player in (False, True):
        missed = {line for o in observations if not o.answer for line in _complete(o.board, o.player, any_player)}
        parts = [f"missing {_lines_words([line for line in LINES if line in missed])}"] if missed else []
        if any_player:
            parts.append("counting a line of either player as a win")
        candidate = Defect(
            function,
            " and ".join(parts),
            lines=tuple(line for line in LINES if line not in missed),
            any_player=any_player,
        )
        if candidate.is_correct:
            continue
        if all(candidate.wins(o.board.cells, o.player) == o.answer for o in observations):
            return candidate
    return None


# -- the draw test --------------------------------------------------------------


@dataclass(frozen=True)
class DrawObservation:
    """``check_draw(board)`` answered ``answer``."""

    board: Board
    answer: bool


_DRAW_WORDS: dict[DrawTest, str] = {
    "never": "never reporting a draw",
    "no-line": "reporting a draw on every board without a line, even with empty cells",
}


def draw_test_defect(
    function: str, observations: Sequence[DrawObservation], players: tuple[str, str] = ("X", "O")
) -> Defect | None:
    """A draw test that never fires, or fires without looking for empty cells, when that
    reproduces every answer. (A draw test that is wrong because the win test it calls is
    wrong is not a defect of its own: ``root_cause.follows_from`` tells that.)"""
    if all(Defect(function).is_draw(o.board.cells, players) == o.answer for o in observations):
        return None
    for draw, words in _DRAW_WORDS.items():
        candidate = Defect(function, words, draw=draw)
        if all(candidate.is_draw(o.board.cells, players) == o.answer for o in observations):
            return candidate
    return None


# -- successors and empty cells -------------------------------------------------


@dataclass(frozen=True)
class SuccessorObservation:
    """``expand(move)`` on ``board`` with ``mover`` to play gave ``result`` (None: refused)."""

    board: Board
    mover: str
    move: int
    result: Board | None


def _placed(board: Board, cell: int, mark: str) -> Board:
    """``mark`` on ``cell``, whoever's turn it is (Board.play refuses a mark out of turn)."""
    return Board(board.cells[:cell] + (mark,) + board.cells[cell + 1 :])


def successor_defect(function: str, observations: Sequence[SuccessorObservation]) -> Defect | None:
    """Expand placing the other player's mark, when every new board shows it."""
    played = [o for o in observations if o.result is not None and o.board.cells[o.move] == EMPTY]
    if not played or not all(o.result == _placed(o.board, o.move, opponent(o.mover)) for o in played):
        return None
    return Defect(function, "placing the other player's mark", mark="other")


def expand_hypotheses(function: str) -> tuple[Defect, ...]:
    """Successor mistakes a check of one expansion cannot see (at the root the player to move
    is the maximizer), to be tested against the searches built on it."""
    return (
        Defect(function, "placing the other player's mark", mark="other"),
        Defect(function, "placing the maximizing player's mark at every level", mark="maximizer"),
        Defect(function, "placing the minimizing player's mark at every level", mark="minimizer"),
    )


@dataclass(frozen=True)
class EmptyCellsObservation:
    """The empty cells (or legal moves) listed for ``board``, as cell indexes."""

    board: Board
    cells: tuple[int, ...]


def empty_cells_defect(function: str, observations: Sequence[EmptyCellsObservation]) -> Defect | None:
    """Cells that are never listed although empty, when that reproduces every list."""
    skipped = frozenset(c for o in observations for c in o.board.empty_cells() if c not in o.cells)
    if not skipped:
        return None
    if not all(set(o.cells) == set(o.board.empty_cells()) - skipped for o in observations):
        return None
    cells = sorted(skipped)
    named = f"cell {cells[0]}" if len(cells) == 1 else "cells " + ", ".join(map(str, cells[:-1])) + f" and {cells[-1]}"
    return Defect(function, f"never listing {named}", skipped=skipped)
