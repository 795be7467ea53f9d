"""What a wrong lower-level function does, read from its answers.

The checks of a win test, a draw test, a successor function or an empty-cells function see
the student's answers on many boards. When those answers are wrong in a way that one simple
change explains (the win test misses the anti-diagonal, the draw test never fires, expand
places the other player's mark, the empty cells skip cell 8), that change is a
:class:`Defect`: a model of the student's function that can be plugged into a search
(``root_cause.py``) to see whether the failures of the checks above follow from it.

A defect is inferred only when it reproduces EVERY answer seen, like every explanation the
grader gives. The board is read through its game (`reference.game.LineGame`): its cells, the
lines that win it and their names; an observation without one is of tic-tac-toe.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Literal

from grader.checks.line_game import TIC_TAC_TOE
from reference import EMPTY, LineGame, O, Position, X, opponent

__all__ = [
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

Line = tuple[int, ...]
DrawTest = Literal["full", "never", "no-line"]
Mark = Literal["mover", "other", "maximizer", "minimizer"]


@dataclass(frozen=True)
class Defect:
    """A student's lower-level function as its answers show it, in the terms a search uses.

    The defaults are the right behaviour; each field changes one thing.
    """

    function: str
    """The student's name for the function (``check_win``)."""
    description: str = "as the assignment asks"
    """What is wrong, to follow the function's name: ``missing the anti-diagonal``."""
    lines: tuple[Line, ...] = TIC_TAC_TOE.lines
    """The lines the win test recognises: some of the game's."""
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
    game: LineGame[Position] = TIC_TAC_TOE
    """The game the function is of."""
    _runs: tuple[Callable[[Sequence[str]], tuple[str, ...]], ...] = field(init=False, repr=False, compare=False)
    """A reader of the marks on each of ``lines``: the win test runs at every node of a search."""
    _wins_for: dict[str, tuple[tuple[str, ...], ...]] = field(init=False, repr=False, compare=False)
    """For each player, the runs of marks the win test counts as that player's win."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_runs", tuple(itemgetter(*line) for line in self.lines))
        size = len(self.game.lines[0])
        full = {mark: (mark,) * size for mark in (X, O)}
        wins_for = {mark: (full[X], full[O]) if self.any_player else (run,) for mark, run in full.items()}
        object.__setattr__(self, "_wins_for", wins_for)

    @property
    def sentence(self) -> str:
        return f"This follows from `{self.function}` {self.description}; fix that first."

    def correct(self) -> Defect:
        """The same function, right."""
        return Defect(self.function, lines=self.game.lines, game=self.game)

    @property
    def is_correct(self) -> bool:
        return self.behaviour() == self.correct().behaviour()

    def behaviour(self) -> tuple[object, ...]:
        """Everything but the words: two defects that behave alike are alike."""
        return (frozenset(self.lines), self.any_player, self.draw, self.mark, self.skipped)

    def wins(self, cells: Sequence[str], player: str) -> bool:
        """The student's win test: does ``player`` have a line?"""
        wins = self._wins_for.get(player, ())
        for read in self._runs:
            if read(cells) in wins:
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


def _lines_words(game: LineGame[Position], lines: Sequence[Line]) -> str:
    left = list(lines)
    words = []
    if len(left) == len(game.lines):
        return "every line"
    for name, group in game.line_groups():
        if all(line in left for line in group):
            words.append(name)
            left = [line for line in left if line not in group]
    words += [game.line_name(line) for line in left]
    return " and ".join(words)


# -- the win test ---------------------------------------------------------------


@dataclass(frozen=True)
class WinObservation:
    """``check_win(board, player)`` answered ``answer`` (as the check read it: True or False)."""

    board: Position
    player: str
    answer: bool
    game: LineGame[Position] = TIC_TAC_TOE

    @property
    def cells(self) -> tuple[str, ...]:
        return self.game.cells(self.board)


def _complete(o: WinObservation, any_player: bool) -> list[Line]:
    cells = o.cells
    return [
        line
        for line in o.game.lines
        if cells[line[0]] != EMPTY and (any_player or cells[line[0]] == o.player) and len({cells[i] for i in line}) == 1
    ]


def win_test_defect(function: str, observations: Sequence[WinObservation]) -> Defect | None:
    """The lines the win test misses (and whether it ignores whose line it is), when that
    reproduces every answer and the answers are not all right."""
    game = _game_of(observations)
    for any_player in (False, True):
        missed = {line for o in observations if not o.answer for line in _complete(o, any_player)}
        parts = [f"missing {_lines_words(game, [line for line in game.lines if line in missed])}"] if missed else []
        if any_player:
            parts.append("counting a line of either player as a win")
        candidate = Defect(
            function,
            " and ".join(parts),
            lines=tuple(line for line in game.lines if line not in missed),
            any_player=any_player,
            game=game,
        )
        if candidate.is_correct:
            continue
        if all(candidate.wins(o.cells, o.player) == o.answer for o in observations):
            return candidate
    return None


# -- the draw test --------------------------------------------------------------


@dataclass(frozen=True)
class DrawObservation:
    """``check_draw(board)`` answered ``answer``."""

    board: Position
    answer: bool
    game: LineGame[Position] = TIC_TAC_TOE

    @property
    def cells(self) -> tuple[str, ...]:
        return self.game.cells(self.board)


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
    game = _game_of(observations)
    if all(Defect(function, lines=game.lines, game=game).is_draw(o.cells, players) == o.answer for o in observations):
        return None
    for draw, words in _DRAW_WORDS.items():
        candidate = Defect(function, words, lines=game.lines, draw=draw, game=game)
        if all(candidate.is_draw(o.cells, players) == o.answer for o in observations):
            return candidate
    return None


# -- successors and empty cells -------------------------------------------------


@dataclass(frozen=True)
class SuccessorObservation:
    """``expand(move)`` on ``board`` with ``mover`` to play gave ``result`` (None: refused)."""

    board: Position
    mover: str
    move: int
    result: Position | None
    game: LineGame[Position] = TIC_TAC_TOE

    def shows_the_other_mark(self) -> bool:
        """The new board is the old one with the other player's mark on the move's cell."""
        if self.result is None:
            return False
        before, after = self.game.cells(self.board), self.game.cells(self.result)
        return after == before[: self.move] + (opponent(self.mover),) + before[self.move + 1 :]


def successor_defect(function: str, observations: Sequence[SuccessorObservation]) -> Defect | None:
    """Expand placing the other player's mark, when every new board shows it."""
    played = [o for o in observations if o.result is not None and o.game.cells(o.board)[o.move] == EMPTY]
    if not played or not all(o.shows_the_other_mark() for o in played):
        return None
    game = _game_of(observations)
    return Defect(function, "placing the other player's mark", lines=game.lines, mark="other", game=game)


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

    board: Position
    cells: tuple[int, ...]
    game: LineGame[Position] = TIC_TAC_TOE

    def empty_cells(self) -> set[int]:
        return {cell for cell, mark in enumerate(self.game.cells(self.board)) if mark == EMPTY}


def empty_cells_defect(function: str, observations: Sequence[EmptyCellsObservation]) -> Defect | None:
    """Cells that are never listed although empty, when that reproduces every list."""
    skipped = frozenset(c for o in observations for c in o.empty_cells() if c not in o.cells)
    if not skipped:
        return None
    if not all(set(o.cells) == o.empty_cells() - skipped for o in observations):
        return None
    cells = sorted(skipped)
    named = f"cell {cells[0]}" if len(cells) == 1 else "cells " + ", ".join(map(str, cells[:-1])) + f" and {cells[-1]}"
    game = _game_of(observations)
    return Defect(function, f"never listing {named}", lines=game.lines, skipped=skipped, game=game)


def _game_of(
    observations: Sequence[WinObservation | DrawObservation | SuccessorObservation | EmptyCellsObservation],
) -> LineGame[Position]:
    """The game the observations are of (tic-tac-toe when there are none)."""
    return observations[0].game if observations else TIC_TAC_TOE
