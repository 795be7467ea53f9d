"""Connect-K with gravity, on the :class:`~reference.game.BoardGame` protocol.

Any number of rows and columns and any ``k`` in a row; discs drop to the lowest free cell of
a column. :data:`CONNECT_FOUR` is the standard 6x7 game; seed 002 suggests "implement
Connect-4 with minimax (small board version)", and boards small enough to search fully (the
default 4x4 with k=3) keep grading fast. Search it with ``reference.game_search``.

A move can only complete runs through the cell it fills, so the game tests just those and
records the outcome in the state it makes: deep searches and counts of positions by play
(hundreds of thousands of positions) stay fast.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from operator import itemgetter

from reference.drawing import Drawing, cells_in_lines
from reference.errors import IllegalMove, MalformedBoard
from reference.position import Position
from reference.tictactoe import EMPTY, O, X, opponent

__all__ = ["CONNECT_FOUR", "ConnectK", "ConnectState"]

_SYMBOLS = frozenset((X, O, EMPTY))
_NOBODY: frozenset[str] = frozenset()
_ALONE = {X: frozenset((X,)), O: frozenset((O,))}


@dataclass(frozen=True, repr=False)
class ConnectState:
    """An immutable Connect-K position: ``rows x cols`` cells row-major, row 0 on top."""

    rows: int
    cols: int
    cells: tuple[str, ...]
    """``X``, ``O`` or ``EMPTY``; no disc may float above an empty cell. A list is frozen."""
    outcome: tuple[ConnectK, frozenset[str]] | None = field(default=None, init=False, compare=False)
    """``(the game that made this state by a move, the players it found with k in a row)``;
    ``None`` for a state built any other way. Another game looks at every run itself."""

    def __post_init__(self) -> None:
        if isinstance(self.cells, list):
            object.__setattr__(self, "cells", tuple(self.cells))
        size = f"{self.rows}x{self.cols}"
        if self.rows < 1 or self.cols < 1:
            raise MalformedBoard(f"a board needs at least one row and column, got {size}")
        if len(self.cells) != self.rows * self.cols:
            raise MalformedBoard(f"a {size} board has {self.rows * self.cols} cells, got {len(self.cells)}")
        for index, symbol in enumerate(self.cells):
            row, col = divmod(index, self.cols)
            if symbol not in _SYMBOLS:
                raise MalformedBoard(f"unknown symbol {symbol!r} at row {row}, col {col}")
            if symbol != EMPTY and row + 1 < self.rows and self.cell(row + 1, col) == EMPTY:
                raise MalformedBoard(f"the disc at row {row}, col {col} floats above an empty cell")

    @classmethod
    def empty(cls, rows: int, cols: int) -> ConnectState:
        return cls(rows, cols, (EMPTY,) * (rows * cols))

    @classmethod
    def from_rows(cls, *rows: str) -> ConnectState:
        """Build from row strings, top row first, e.g. ``from_rows("...", ".X.", "XO.")``."""
        if not rows or len({len(r) for r in rows}) != 1:
            raise MalformedBoard(f"rows must be non-empty strings of equal length, got {rows!r}")
        return cls(len(rows), len(rows[0]), tuple("".join(rows).upper()))

    @classmethod
    def _after_move(
        cls, rows: int, cols: int, cells: tuple[str, ...], outcome: tuple[ConnectK, frozenset[str]]
    ) -> ConnectState:
        """A state a legal move made: valid by construction, so not checked again."""
        state = object.__new__(cls)
        # One write of the frozen instance's fields instead of four setattr calls: the hot path.
        state.__dict__.update(rows=rows, cols=cols, cells=cells, outcome=outcome)
        return state

    def cell(self, row: int, col: int) -> str:
        return self.cells[row * self.cols + col]

    def height(self, col: int) -> int:
        """Discs already in column ``col``."""
        return sum(self.cell(row, col) != EMPTY for row in range(self.rows))

    def __str__(self) -> str:
        return "/".join("".join(self.cells[row * self.cols : (row + 1) * self.cols]) for row in range(self.rows))

    def __repr__(self) -> str:
        return f"ConnectState.from_rows{tuple(str(self).split('/'))!r}"


def _lines(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every run of ``k`` cells in a row, column or diagonal, as cell indices."""
    runs = []
    for row in range(rows):
        for col in range(cols):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + (k - 1) * d_row, col + (k - 1) * d_col
                if 0 <= end_row < rows and 0 <= end_col < cols:
                    runs.append(tuple((row + i * d_row) * cols + col + i * d_col for i in range(k)))
    return tuple(runs)


@dataclass(frozen=True)
class ConnectK:
    """Drop discs into columns; ``k`` in a line wins. Actions are column indices, left to right."""

    rows: int = 4
    cols: int = 4
    k: int = 3
    first_player: str = X
    lines: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """All winning runs, precomputed once per game."""
    _readers: tuple[Callable[[tuple[str, ...]], tuple[str, ...]], ...] = field(init=False, repr=False, compare=False)
    _readers_through: tuple[tuple[Callable[[tuple[str, ...]], tuple[str, ...]], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    """For each cell, the readers of the runs through it: all a move can complete."""

    def __post_init__(self) -> None:
        opponent(self.first_player)
        size, longest = f"{self.rows}x{self.cols}", max(self.rows, self.cols)
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a board needs at least one row and column, got {size}")
        if not 2 <= self.k <= longest:
            raise ValueError(f"k must be 2..{longest} on a {size} board, got {self.k}")
        lines = _lines(self.rows, self.cols, self.k)
        object.__setattr__(self, "lines", lines)
        # itemgetter reads a whole run in C; the win test is the search's hot spot.
        readers = tuple(itemgetter(*line) for line in lines)
        object.__setattr__(self, "_readers", readers)
        through = tuple(
            tuple(read for line, read in zip(lines, readers) if cell in line) for cell in range(self.rows * self.cols)
        )
        object.__setattr__(self, "_readers_through", through)

    def initial_state(self) -> ConnectState:
        return ConnectState.empty(self.rows, self.cols)

    def _own(self, state: Position) -> ConnectState:
        """``state`` as this game's: `MalformedBoard` for another game's position or size."""
        if type(state) is not ConnectState and not isinstance(state, ConnectState):
            raise MalformedBoard(f"not a Connect-K state: {state!r}")
        if state.rows != self.rows or state.cols != self.cols:
            raise MalformedBoard(f"a {state.rows}x{state.cols} state does not belong to a {self.rows}x{self.cols} game")
        return state

    def winners(self, state: Position) -> frozenset[str]:
        """Every player with ``k`` in a line; two players only on impossible boards."""
        state = self._own(state)
        outcome = state.outcome
        if outcome is not None and (outcome[0] is self or outcome[0] == self):
            return outcome[1]
        return self._completed(state.cells, self._readers)

    def _completed(
        self, cells: tuple[str, ...], readers: tuple[Callable[[tuple[str, ...]], tuple[str, ...]], ...]
    ) -> frozenset[str]:
        x_run, o_run = (X,) * self.k, (O,) * self.k
        found = set()
        for read in readers:
            run = read(cells)
            if run == x_run:
                found.add(X)
            elif run == o_run:
                found.add(O)
        return frozenset(found)

    def winning_cells(self, state: Position) -> tuple[int, ...]:
        """Every cell in a completed run, in increasing order."""
        if not self.winners(state):
            return ()
        return tuple(sorted(cells_in_lines(self._own(state).cells, self.lines, EMPTY)))

    def to_move(self, state: Position) -> str:
        state = self._own(state)
        second = opponent(self.first_player)
        lead = state.cells.count(self.first_player) - state.cells.count(second)
        if lead == 0:
            return self.first_player
        if lead == 1:
            return second
        raise MalformedBoard(
            f"{self.first_player} has {state.cells.count(self.first_player)} discs and {second} "
            f"{state.cells.count(second)}; with {self.first_player} first that cannot happen"
        )

    def is_terminal(self, state: Position) -> bool:
        state = self._own(state)
        if EMPTY not in state.cells:
            return True
        outcome = state.outcome
        if outcome is not None and outcome[0] is self:  # the searches' hot path: the move recorded it
            return bool(outcome[1])
        return bool(self.winners(state))

    def actions(self, state: Position) -> tuple[int, ...]:
        """Columns with room, left to right; none once the game is over."""
        if self.is_terminal(state):
            return ()
        cells = self._own(state).cells
        return tuple(col for col in range(self.cols) if cells[col] == EMPTY)

    def result(self, state: Position, action: int) -> ConnectState:
        state = self._own(state)
        # numbers.Integral admits numpy integers; plain ints skip its slow check.
        is_integer = type(action) is int or (isinstance(action, Integral) and not isinstance(action, bool))
        if not is_integer or not 0 <= action < self.cols:
            raise IllegalMove(f"a move is a column 0..{self.cols - 1}, got {action!r}")
        action = int(action)
        if self.is_terminal(state):
            raise IllegalMove(f"cannot drop into column {action}: the game is over")
        cells, outcome = state.cells, state.outcome
        made_here = outcome is not None and outcome[0] is self
        if cells[action] != EMPTY:
            raise IllegalMove(f"column {action} is full")
        index = action + (self.rows - 1) * self.cols
        while cells[index] != EMPTY:
            index -= self.cols
        if not made_here:
            mover = self.to_move(state)
        else:  # this game made it by a move, so its counts are right: their parity tells the mover
            mover = self.first_player if (len(cells) - cells.count(EMPTY)) % 2 == 0 else opponent(self.first_player)
        cells = cells[:index] + (mover,) + cells[index + 1 :]
        # The game was not over, so only the mover's runs through the new disc can be complete.
        run = (mover,) * self.k
        winners = _NOBODY
        for read in self._readers_through[index]:
            if read(cells) == run:
                winners = _ALONE[mover]
                break
        return ConnectState._after_move(self.rows, self.cols, cells, (self, winners))

    def utility(self, state: Position, player: str) -> float:
        """+1 if ``player`` has ``k`` in a line, -1 if the opponent has, 0 for a full board."""
        if not self.is_terminal(state):
            raise ValueError(f"utility is defined on finished games only, not {state}")
        winners = self.winners(state)
        if len(winners) == 2:
            raise MalformedBoard(f"both players have {self.k} in a line in {state}")
        if not winners:
            return 0
        return 1 if player in winners else -1

    # -- drawings ---------------------------------------------------------------------

    def pieces(self, state: Position) -> int:
        """The discs dropped."""
        cells = self._own(state).cells
        return len(cells) - cells.count(EMPTY)

    def drawing(self, state: Position, last: int | None = None) -> Drawing:
        """The board top row first; ``last`` is a column, and its top disc is the last move."""
        state = self._own(state)
        landed = None
        if last is not None:
            if state.height(last) == 0:
                raise IllegalMove(f"column {last} is empty: no move can have ended there")
            landed = (self.rows - state.height(last)) * self.cols + last
        return Drawing.of_cells(state.cells, self.cols, EMPTY, self.lines, landed)

    def text(self, state: Position) -> str:
        """The board, top row first, over the column numbers."""
        numbers = " ".join(str(col % 10) for col in range(self.cols))
        return f"{self.drawing(state).text()}\n{numbers}"

    # -- cells and lines (`reference.game.LineGame`) ------------------------------------

    def line_groups(self) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
        """The runs across, the runs down and the diagonal ones, each named together."""

        def along(line: tuple[int, ...]) -> str:
            (row, col), (next_row, next_col) = divmod(line[0], self.cols), divmod(line[1], self.cols)
            return "the rows" if row == next_row else "the columns" if col == next_col else "the diagonals"

        names = ("the rows", "the columns", "the diagonals")
        return tuple((name, tuple(line for line in self.lines if along(line) == name)) for name in names)

    def line_name(self, line: tuple[int, ...]) -> str:
        """``"the run from row 3, col 0 to row 3, col 2"``: a line as feedback names it."""
        if line not in self.lines:
            raise ValueError(f"{line!r} is no run of {self.k} on a {self.rows}x{self.cols} board")
        (row, col), (end_row, end_col) = divmod(line[0], self.cols), divmod(line[-1], self.cols)
        return f"the run from row {row}, col {col} to row {end_row}, col {end_col}"

    def cells(self, state: Position) -> tuple[str, ...]:
        """The marks, row-major, top row first."""
        return self._own(state).cells

    def position(self, text: str) -> ConnectState:
        """The state ``str`` wrote (rows top first, ``/`` between them)."""
        return self._own(ConnectState.from_rows(*text.split("/")))

    def spec_words(self) -> tuple[str, str]:
        """How a spec names a state, and shows one (its rows top first, ``/`` between them)."""
        empty = "/".join(["." * self.cols] * self.rows)
        return f"position, {self.rows} rows of {self.cols} cells joined by /", f'position such as "{empty}"'

    def with_cells(self, cells: Sequence[str]) -> ConnectState:
        """The state of these marks, row-major, whether or not a game reaches it."""
        return ConnectState(self.rows, self.cols, tuple(cells))


CONNECT_FOUR = ConnectK(rows=6, cols=7, k=4)
"""The standard game: six rows, seven columns, four in a row."""
