"""Student board and move encodings, to and from the canonical :class:`Board`.

Each seed stores the board its own way; a :class:`Codec` translates one of those ways.
Decoding is strict about shape and symbols, because a grader that silently repairs a
student's board would grade something the student did not return, and its
:class:`MalformedBoard` messages say where the problem is (they reach the student).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from reference.errors import IllegalMove, MalformedBoard
from reference.tictactoe import EMPTY, Board, O, X

__all__ = [
    "CODECS",
    "Codec",
    "cell_to_position",
    "cell_to_rowcol",
    "get_codec",
    "position_to_cell",
    "rowcol_to_cell",
]


@dataclass(frozen=True)
class Codec:
    """One student encoding of a board."""

    name: str
    """Registry key, e.g. ``"grid-space"``."""
    description: str
    """One line for reports: what the student's object looks like."""
    to_student: Callable[[Board], object]
    """Build a fresh student object (never shared, students mutate boards in place)."""
    to_cells: Callable[[object], tuple[str, ...]]
    """Read a student object into nine canonical symbols; raises MalformedBoard."""

    def encode(self, board: Board) -> object:
        """The student's representation of ``board``."""
        return self.to_student(board)

    def decode(self, obj: object, *, legal: bool = False, first: str = X) -> Board:
        """The board a student object stands for.

        With ``legal=True`` the board must also be reachable in a game ``first`` started
        (mark counts, at most one winner, the winner moved last).
        """
        board = Board(self.to_cells(obj))
        if legal:
            problem = board.legality_problem(first)
            if problem is not None:
                raise MalformedBoard(f"impossible position {board}: {problem}")
        return board


# -- shape checks shared by the codecs --------------------------------------------------


def _sequence(obj: object, what: str) -> Sequence[object]:
    """Accept lists, tuples and numpy arrays; reject strings, which are sequences too."""
    if isinstance(obj, (str, bytes)) or not isinstance(obj, (Sequence, np.ndarray)):
        raise MalformedBoard(f"{what} must be a list, got {type(obj).__name__}: {obj!r:.60}")
    return obj  # type: ignore[return-value]


def _rows(obj: object) -> list[Sequence[object]]:
    """A 3x3 nested sequence as three rows, with the shape error spelled out."""
    rows = _sequence(obj, "the board")
    if len(rows) != 3:
        raise MalformedBoard(f"the board must have 3 rows, got {len(rows)}")
    checked = []
    for r, row in enumerate(rows):
        row = _sequence(row, f"row {r}")
        if len(row) != 3:
            raise MalformedBoard(f"row {r} must have 3 cells, got {len(row)}")
        checked.append(row)
    return checked


def _grid_cells(obj: object, read: Callable[[object, int], str]) -> tuple[str, ...]:
    """Read a 3x3 nested sequence cell by cell, row-major."""
    return tuple(read(value, 3 * r + c) for r, row in enumerate(_rows(obj)) for c, value in enumerate(row))


def _where(cell: int) -> str:
    return f"row {cell // 3}, col {cell % 3}"


def _unknown(value: object, cell: int, expected: str) -> MalformedBoard:
    return MalformedBoard(f"unknown symbol {value!r} at {_where(cell)}; expected {expected}")


# -- numpy 0/1/2 (seed 000) ---------------------------------------------------------------

_NUMBER_TO_SYMBOL = {0: EMPTY, 1: X, 2: O}
_SYMBOL_TO_NUMBER = {symbol: number for number, symbol in _NUMBER_TO_SYMBOL.items()}


def _numpy_encode(board: Board) -> np.ndarray:
    return np.array([_SYMBOL_TO_NUMBER[s] for s in board.cells], dtype=int).reshape(3, 3)


def _number_symbol(value: object, cell: int) -> str:
    # Integral-valued floats pass (np.zeros gives 0.0); bools do not, True is not player 1.
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Integral, Real)):
        raise _unknown(value, cell, "the integer 0, 1 or 2")
    if value in _NUMBER_TO_SYMBOL:  # 1.0 hashes and compares equal to 1; 1.5 does not
        return _NUMBER_TO_SYMBOL[int(value)]  # type: ignore[call-overload]
    raise _unknown(value, cell, "the integer 0, 1 or 2")


def _numpy_decode(obj: object) -> tuple[str, ...]:
    if isinstance(obj, np.ndarray) and obj.shape != (3, 3):
        raise MalformedBoard(f"the board must be a 3x3 array, got shape {obj.shape}")
    return _grid_cells(obj, _number_symbol)


# -- list of lists with ' ' (seeds 001, 002) ----------------------------------------------

_SPACE_TO_SYMBOL = {" ": EMPTY, "X": X, "O": O}


def _space_symbol(value: object, cell: int) -> str:
    if isinstance(value, str) and value in _SPACE_TO_SYMBOL:
        return _SPACE_TO_SYMBOL[value]
    raise _unknown(value, cell, "'X', 'O' or ' '")


def _spaced(board: Board) -> list[str]:
    return [" " if s == EMPTY else s for s in board.cells]


def _three_rows(cells: list[str]) -> list[list[str]]:
    return [cells[r * 3 : r * 3 + 3] for r in range(3)]


def _grid_space_encode(board: Board) -> list[list[str]]:
    return _three_rows(_spaced(board))


def _grid_space_decode(obj: object) -> tuple[str, ...]:
    return _grid_cells(obj, _space_symbol)


# -- list of lists with the position digit in empty cells (seed 003) ----------------------


def _digit_symbol(value: object, cell: int) -> str:
    if not isinstance(value, str):
        raise _unknown(value, cell, f"'X', 'O' or the position digit {str(cell + 1)!r}")
    if value in (X, O):
        return value
    if value == str(cell + 1):
        return EMPTY
    if len(value) == 1 and value in "123456789":
        raise MalformedBoard(
            f"empty cell at {_where(cell)} holds {value!r}; an empty cell holds its own position {str(cell + 1)!r}"
        )
    raise _unknown(value, cell, f"'X', 'O' or the position digit {str(cell + 1)!r}")


def _grid_digits_encode(board: Board) -> list[list[str]]:
    return _three_rows([str(cell + 1) if s == EMPTY else s for cell, s in enumerate(board.cells)])


def _grid_digits_decode(obj: object) -> tuple[str, ...]:
    return _grid_cells(obj, _digit_symbol)


# -- flat list of nine with ' ' (seed 004) -------------------------------------------------


def _flat_space_decode(obj: object) -> tuple[str, ...]:
    cells = _sequence(obj, "the board")
    if len(cells) != 9:
        raise MalformedBoard(f"the board must be a flat list of 9 cells, got {len(cells)}")
    return tuple(_space_symbol(value, cell) for cell, value in enumerate(cells))


CODECS: dict[str, Codec] = {
    codec.name: codec
    for codec in (
        Codec(
            "numpy-012",
            "3x3 numpy int array: 0 empty, 1 X (player 1), 2 O (player 2); nested lists accepted",
            _numpy_encode,
            _numpy_decode,
        ),
        Codec(
            "grid-space",
            "3 lists of 3 strings 'X', 'O' or ' '",
            _grid_space_encode,
            _grid_space_decode,
        ),
        Codec(
            "grid-digits",
            "3 lists of 3 strings 'X', 'O' or, when empty, the cell's position '1'..'9'",
            _grid_digits_encode,
            _grid_digits_decode,
        ),
        Codec("flat-space", "flat list of 9 strings 'X', 'O' or ' '", _spaced, _flat_space_decode),
    )
}
"""Every known board encoding by name."""


def get_codec(name: str) -> Codec:
    """The codec called ``name``; ``KeyError`` lists the known names."""
    try:
        return CODECS[name]
    except KeyError:
        known = ", ".join(sorted(CODECS))
        raise KeyError(f"unknown board codec {name!r}; known codecs: {known}") from None


# -- move encodings ------------------------------------------------------------------------


def _check_range(value: object, low: int, high: int, what: str) -> int:
    if not isinstance(value, Integral) or isinstance(value, (bool, np.bool_)) or not low <= int(value) <= high:
        raise IllegalMove(f"{what} must be an integer {low}..{high}, got {value!r}")
    return int(value)


def cell_to_rowcol(cell: int) -> tuple[int, int]:
    """Cell index 0..8 to ``(row, col)``, row-major."""
    return divmod(_check_range(cell, 0, 8, "a cell index"), 3)


def rowcol_to_cell(row: int, col: int) -> int:
    """``(row, col)`` with both 0..2 to the cell index 0..8."""
    return 3 * _check_range(row, 0, 2, "a row") + _check_range(col, 0, 2, "a column")


def cell_to_position(cell: int) -> int:
    """Cell index 0..8 to the keypad-style position 1..9 that seeds 001/003 ask for."""
    return _check_range(cell, 0, 8, "a cell index") + 1


def position_to_cell(position: int) -> int:
    """Position 1..9 to the cell index 0..8."""
    return _check_range(position, 1, 9, "a position") - 1
