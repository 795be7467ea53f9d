"""Student encodings of a board of any size, to and from a :class:`~reference.connect4.ConnectState`.

A :class:`GridEncoding` is :class:`~reference.codecs.BoardEncoding` for a game whose board has
``rows x cols`` cells: rows of cells (a list of lists, a numpy array) or one flat row-major
list; the symbol of an empty cell and of each player; which row the student's code keeps
first (the top, as drawn, or the bottom, where a dropped piece lands first); and the game's
gravity, which decoding checks (a piece above an empty cell is named).

Decoding is strict, as for tic-tac-toe: a wrong shape or symbol is a :class:`MalformedBoard`
naming the cell in the student's own indexing (``board[4][2]``), because a grader that
repaired a student's board would grade something the student did not return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

import numpy as np

from reference.codecs import Mark, _same, player_mark
from reference.connect4 import ConnectState
from reference.errors import MalformedBoard
from reference.tictactoe import EMPTY, O, X

__all__ = ["GRID_CONTAINERS", "GRID_LAYOUTS", "GRID_PRESETS", "GridContainer", "GridEncoding", "GridLayout"]

GridLayout = Literal["rows", "flat"]
"""A list of rows (``board[row][col]``), or the cells row by row in one sequence."""
GridContainer = Literal["list", "tuple", "numpy"]
GRID_LAYOUTS: tuple[GridLayout, ...] = get_args(GridLayout)
GRID_CONTAINERS: tuple[GridContainer, ...] = get_args(GridContainer)


@dataclass(frozen=True)
class GridEncoding:
    """One way a student's code holds a ``rows x cols`` board."""

    rows: int
    cols: int
    layout: GridLayout = "rows"
    container: GridContainer = "list"
    empty: Mark = " "
    x: Mark = "X"
    o: Mark = "O"
    top_row_first: bool = True
    """True: the student's row 0 is the top row, as drawn; False: it is the bottom row, the
    first a dropped piece fills (``np.flip`` to print it)."""
    gravity: bool = True
    """A piece rests on the bottom or on another piece: decoding refuses one above an empty cell."""
    name: str = field(default="", compare=False)
    """The preset's name; empty for an encoding described field by field."""

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a board has at least one row and one column, not {self.rows}x{self.cols}")
        if self.layout not in GRID_LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(GRID_LAYOUTS)}, not {self.layout!r}")
        if self.container not in GRID_CONTAINERS:
            raise ValueError(f"container must be one of {', '.join(GRID_CONTAINERS)}, not {self.container!r}")
        for what, mark in (("x", self.x), ("o", self.o), ("empty", self.empty)):
            if isinstance(mark, bool) or not isinstance(mark, (str, int)):
                raise ValueError(f"{what} must be a string or an integer, not {mark!r}")
        if len({repr(self.x), repr(self.o), repr(self.empty)}) != 3:
            raise ValueError(f"x, o and empty must differ, got {self.x!r}, {self.o!r}, {self.empty!r}")

    def landing_row(self, height: int) -> int:
        """The row, as this encoding indexes rows, a piece dropped into a column already holding
        ``height`` pieces lands in."""
        return self.rows - 1 - height if self.top_row_first else height

    def sized(self, rows: int, cols: int) -> GridEncoding:
        """The same encoding for a board of another size."""
        return replace(self, rows=rows, cols=cols)

    @property
    def marks(self) -> tuple[Mark, Mark, tuple[object, ...]]:
        """X's symbol, O's, and the values of an empty cell."""
        return self.x, self.o, (self.empty,)

    def symbol(self, player: str) -> Mark:
        """How the encoding writes ``player`` (``X`` or ``O``)."""
        return player_mark(player, self.x, self.o)

    @property
    def description(self) -> str:
        """One line for reports and specs: what the student's object looks like."""
        shape = (
            f"{self.rows} {self.container}s of {self.cols} cells"
            if self.layout == "rows"
            else f"a flat {self.container} of {self.rows * self.cols} cells"
        )
        if self.container == "numpy":
            shape = f"a {self.rows}x{self.cols} numpy array" if self.layout == "rows" else "a flat numpy array"
        first = "the top row first" if self.top_row_first else "the bottom row first"
        return f"{shape}, {first}: {self.x!r} for X, {self.o!r} for O, {self.empty!r} for an empty cell"

    # -- encoding ----------------------------------------------------------------------------

    def _student_row(self, row: int) -> int:
        """The student's index of the game's ``row`` (0 is the top row in the game)."""
        return row if self.top_row_first else self.rows - 1 - row

    def encode(self, state: ConnectState) -> object:
        """The student's representation of ``state``, a fresh object every time."""
        self._fits(state.rows, state.cols)
        value = {X: self.x, O: self.o, EMPTY: self.empty}
        marks, cols = [value[cell] for cell in state.cells], self.cols
        rows = [marks[r * cols : (r + 1) * cols] for r in range(self.rows)]  # the game's rows, top first
        if not self.top_row_first:
            rows.reverse()
        if self.container == "numpy":
            cells = [v for row in rows for v in row]
            dtype: type = int if all(isinstance(v, int) for v in cells) else str
            array: np.ndarray = np.array(rows, dtype=dtype)
            return array if self.layout == "rows" else array.reshape(-1)
        if self.layout == "flat":
            flat = [v for row in rows for v in row]
            return tuple(flat) if self.container == "tuple" else flat
        return tuple(tuple(row) for row in rows) if self.container == "tuple" else rows

    def _fits(self, rows: int, cols: int) -> None:
        if (rows, cols) != (self.rows, self.cols):
            raise MalformedBoard(f"a {rows}x{cols} position given to a {self.rows}x{self.cols} encoding")

    # -- decoding ----------------------------------------------------------------------------

    def decode(self, obj: object) -> ConnectState:
        """The position a student object stands for; :class:`MalformedBoard` names the cell at fault."""
        student_rows = self._rows(obj)
        cells: list[str] = []
        for row in range(self.rows):
            mine = self._student_row(row)
            cells += [self._read(student_rows[mine][col], mine, col) for col in range(self.cols)]
        if self.gravity:
            for index, symbol in enumerate(cells):
                row, col = divmod(index, self.cols)
                if symbol != EMPTY and row + 1 < self.rows and cells[index + self.cols] == EMPTY:
                    raise MalformedBoard(
                        f"the piece at {self._where(self._student_row(row), col)} floats above an empty cell"
                    )
        return ConnectState(self.rows, self.cols, tuple(cells))

    def _rows(self, obj: object) -> list[Sequence[object]]:
        """The student's rows, once the shape is checked."""
        noun = "array" if self.container == "numpy" else self.container
        if isinstance(obj, np.ndarray):
            obj = obj.tolist()
        if isinstance(obj, (str, bytes)) or not isinstance(obj, (list, tuple)):
            raise MalformedBoard(f"the board must be a {noun}, got {type(obj).__name__}: {obj!r:.60}")
        if self.layout == "flat":
            size = self.rows * self.cols
            if len(obj) != size:
                raise MalformedBoard(f"the board must be a flat {noun} of {size} cells, got {len(obj)}")
            return [obj[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]
        if len(obj) != self.rows:
            raise MalformedBoard(f"the board must have {self.rows} rows, got {len(obj)}")
        for index, row in enumerate(obj):
            if isinstance(row, (str, bytes)) or not isinstance(row, (list, tuple)):
                raise MalformedBoard(f"row {index} must be a {noun} of {self.cols} cells, got {type(row).__name__}")
            if len(row) != self.cols:
                raise MalformedBoard(f"row {index} must have {self.cols} cells, got {len(row)}")
        return list(obj)

    def _read(self, value: object, row: int, col: int) -> str:
        if _same(value, self.x):
            return X
        if _same(value, self.o):
            return O
        if _same(value, self.empty):
            return EMPTY
        raise MalformedBoard(
            f"unknown symbol {value!r} at {self._where(row, col)}; expected {self.x!r}, {self.o!r} or {self.empty!r}"
        )

    def _where(self, row: int, col: int) -> str:
        """A cell named as the student's code indexes it."""
        if self.layout == "flat":
            return f"board[{row * self.cols + col}]"
        return f"board[{row}][{col}]"


GRID_PRESETS: dict[str, GridEncoding] = {
    "grid-space": GridEncoding(1, 1, "rows", "list", " ", "X", "O", name="grid-space"),
    "numpy-012": GridEncoding(1, 1, "rows", "numpy", 0, 1, 2, name="numpy-012"),
    "numpy-012-bottom": GridEncoding(1, 1, "rows", "numpy", 0, 1, 2, top_row_first=False, name="numpy-012-bottom"),
    "flat-space": GridEncoding(1, 1, "flat", "list", " ", "X", "O", name="flat-space"),
}
"""The encodings courses use, sized by the game that reads them (:meth:`GridEncoding.sized`):
rows of ``" "``/``"X"``/``"O"``; a numpy array of 0/1/2, top row first or bottom row first;
one flat list."""
