"""Student board and move encodings, to and from the canonical :class:`Board`.

Courses store a board in many ways; a :class:`BoardEncoding` describes one of them: the
layout (nine cells in a row, or three rows of three), the container (list, tuple, string,
numpy array, or a dict keyed 1-9) and the symbol of an empty cell and of each player. The
four encodings of the seed notebooks are presets of that description (:data:`CODECS`).

Decoding is strict about shape and symbols, because a grader that silently repairs a
student's board would grade something the student did not return, and its
:class:`MalformedBoard` messages say where the problem is (they reach the student).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Literal, get_args

import numpy as np

from reference.errors import IllegalMove, MalformedBoard
from reference.position import Position
from reference.tictactoe import EMPTY, Board, O, X, board_of

__all__ = [
    "CODECS",
    "CONTAINERS",
    "LAYOUTS",
    "MOVE_FORMATS",
    "BoardEncoding",
    "CellName",
    "Container",
    "Layout",
    "Mark",
    "MoveFormat",
    "Symbol",
    "cell_to_position",
    "cell_to_rowcol",
    "get_codec",
    "position_to_cell",
    "rowcol_to_cell",
]

Layout = Literal["flat", "rows"]
"""Nine cells row by row, or three rows of three cells."""
Container = Literal["list", "tuple", "string", "numpy", "dict"]
"""What holds the cells: a ``dict`` is keyed 1-9 (row by row) and is always flat; a
``string`` is always flat and holds one-character symbols."""
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
CONTAINERS: tuple[Container, ...] = get_args(Container)

MoveFormat = Literal["index", "position", "rowcol", "rowcol1"]
"""A cell as 0-8, as 1-9, as (row, col) counted from 0, or as (row, col) counted from 1."""
MOVE_FORMATS: tuple[MoveFormat, ...] = get_args(MoveFormat)


class CellName(enum.Enum):
    """An empty cell that holds its own name instead of one shared symbol."""

    DIGIT = "digit"
    """The cell's number 1-9 as text, ``'1'``..``'9'`` (seed 003)."""
    NUMBER = "number"
    """The cell's number 1-9 as an integer."""
    INDEX = "index"
    """The cell's index 0-8 as an integer (``board = list(range(9))``)."""

    def of(self, cell: int) -> str | int:
        """What an empty ``cell`` (0-8) holds."""
        if self is CellName.DIGIT:
            return str(cell + 1)
        return cell + 1 if self is CellName.NUMBER else cell


Mark = str | int
"""A player's symbol: a string (``'X'``, ``'x'``) or an integer (``1``, ``-1``)."""
Symbol = str | int | None | CellName
"""An empty cell's symbol: a string, an integer, ``None``, or the cell's own name."""


@dataclass(frozen=True)
class BoardEncoding:
    """One way a student's code holds a board: its shape and its symbols.

    ``encode`` builds a fresh object each time (students mutate boards in place); ``decode``
    reads one back, strictly, and raises :class:`MalformedBoard` naming the cell at fault.
    """

    layout: Layout
    container: Container
    empty: Symbol
    x: Mark
    o: Mark
    name: str = field(default="", compare=False)
    """The preset's name (``"grid-space"``); empty for an encoding described field by field."""

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem is not None:
            raise ValueError(problem)

    def _problem(self) -> str | None:
        """What makes this description unusable, in the words of the spec's fields."""
        if self.layout not in LAYOUTS:
            return f"layout must be one of {', '.join(LAYOUTS)}, not {self.layout!r}"
        if self.container not in CONTAINERS:
            return f"container must be one of {', '.join(CONTAINERS)}, not {self.container!r}"
        for what, mark in (("x", self.x), ("o", self.o)):
            if isinstance(mark, bool) or not isinstance(mark, (str, int)):
                return f"{what} must be a string or an integer, not {mark!r}"
        if isinstance(self.empty, bool) or not isinstance(self.empty, (str, int, CellName, type(None))):
            return f"empty must be a string, an integer, None or a cell's own name, not {self.empty!r}"
        if _same(self.x, self.o):
            return f"x and o must differ, both are {self.x!r}"
        names = self.empty_symbols
        clash = next((mark for mark in (self.x, self.o) if any(_same(mark, name) for name in names)), None)
        if clash is not None:
            return f"an empty cell can hold {clash!r}, which is also a player's mark"
        if self.container in ("string", "dict") and self.layout != "flat":
            return f"a {self.container} board is flat: layout must be 'flat'"
        if self.container == "string":
            symbols = (self.x, self.o, *names)
            if not all(isinstance(s, str) and len(s) == 1 for s in symbols):
                return "a string board holds one character a cell: x, o and empty must be one-character strings"
        return None

    # -- symbols ---------------------------------------------------------------------------

    @property
    def empty_symbols(self) -> tuple[object, ...]:
        """Every value an empty cell may hold: one shared symbol, or each cell's own name."""
        if isinstance(self.empty, CellName):
            return tuple(self.empty.of(cell) for cell in range(9))
        return (self.empty,)

    @property
    def marks(self) -> tuple[Mark, Mark, tuple[object, ...]]:
        """X's symbol, O's, and the values of an empty cell: a table a reader looks cells up in."""
        return self.x, self.o, self.empty_symbols

    def symbol(self, player: str) -> Mark:
        """How the encoding writes ``player`` (``X`` or ``O``)."""
        return player_mark(player, self.x, self.o)

    def cell_value(self, cell: int, symbol: str) -> object:
        """What ``cell`` (0-8) holds when the canonical ``symbol`` is in it."""
        if symbol == EMPTY:
            return self.empty.of(cell) if isinstance(self.empty, CellName) else self.empty
        return self.symbol(symbol)

    @property
    def description(self) -> str:
        """One line for reports and specs: what the student's object looks like."""
        return f"{_SHAPE_WORDS[self.layout, self.container]}: {self._symbol_words()}"

    def _symbol_words(self) -> str:
        empty = _EMPTY_WORDS[self.empty] if isinstance(self.empty, CellName) else repr(self.empty)
        return f"{self.x!r} for X, {self.o!r} for O, {empty} for an empty cell"

    # -- encoding --------------------------------------------------------------------------

    def encode(self, board: Position) -> object:
        """The student's representation of ``board`` (tic-tac-toe's), a fresh object every time."""
        return self.pack([self.cell_value(cell, symbol) for cell, symbol in enumerate(board_of(board).cells)])

    def pack(self, cells: Sequence[object]) -> object:
        """Nine cell values, row by row, in this encoding's layout and container (whatever
        they hold: ``decode`` is the one that judges them)."""
        if self.container == "string":
            return "".join(str(c) for c in cells)
        if self.container == "dict":
            return {cell + 1: value for cell, value in enumerate(cells)}
        if self.container == "numpy":
            array: np.ndarray = np.array(cells, dtype=_dtype(cells))
            return array.reshape(3, 3) if self.layout == "rows" else array
        if self.layout == "flat":
            return tuple(cells) if self.container == "tuple" else list(cells)
        rows = [list(cells[r * 3 : r * 3 + 3]) for r in range(3)]
        return tuple(tuple(row) for row in rows) if self.container == "tuple" else rows

    def decode(self, obj: object, *, legal: bool = False, first: str = X) -> Board:
        """The board a student object stands for.

        With ``legal=True`` the board must also be reachable in a game ``first`` started
        (mark counts, at most one winner, the winner moved last).
        """
        board = Board(tuple(self.read_cell(value, cell) for cell, value in enumerate(self._cells(obj))))
        if legal:
            problem = board.legality_problem(first)
            if problem is not None:
                raise MalformedBoard(f"impossible position {board}: {problem}")
        return board

    def _cells(self, obj: object) -> Sequence[object]:
        """The nine cell values of a student object, row by row, once its shape is checked."""
        if self.container == "string":
            if not isinstance(obj, str):
                raise MalformedBoard(f"the board must be a string, got {type(obj).__name__}: {obj!r:.60}")
            if len(obj) != 9:
                raise MalformedBoard(f"the board must be a string of 9 cells, got {len(obj)}")
            return obj
        if self.container == "dict":
            return _dict_cells(obj)
        noun = _NOUNS[self.container]
        if self.container == "numpy" and isinstance(obj, np.ndarray):
            shape = (3, 3) if self.layout == "rows" else (9,)
            if obj.shape != shape:
                wanted = "a 3x3 array" if self.layout == "rows" else "an array of 9 cells"
                raise MalformedBoard(f"the board must be {wanted}, got shape {obj.shape}")
        if self.layout == "rows":
            return [value for row in _rows(obj, noun) for value in row]
        cells = _sequence(obj, "the board", noun)
        if len(cells) != 9:
            raise MalformedBoard(f"the board must be a flat {noun} of 9 cells, got {len(cells)}")
        return cells

    def read_cell(self, value: object, cell: int) -> str:
        """The canonical symbol of ``value`` found in ``cell`` (0-8); raises MalformedBoard."""
        if _same(value, self.x):
            return X
        if _same(value, self.o):
            return O
        if not isinstance(self.empty, CellName):
            if _same(value, self.empty):
                return EMPTY
            raise self._unknown(value, cell)
        own = self.empty.of(cell)
        if _same(value, own):
            return EMPTY
        if any(_same(value, name) for name in self.empty_symbols):
            noun = "index" if self.empty is CellName.INDEX else "position"
            raise MalformedBoard(
                f"empty cell at {_where(cell)} holds {value!r}; an empty cell holds its own {noun} {own!r}"
            )
        raise self._unknown(value, cell)

    def _unknown(self, value: object, cell: int) -> MalformedBoard:
        symbols = (self.x, self.o, self.empty)
        if all(isinstance(s, int) for s in symbols):
            low, middle, high = sorted(symbols)  # type: ignore[type-var]
            expected = f"the integer {low}, {middle} or {high}"
        elif isinstance(self.empty, CellName):
            own = self.empty.of(cell)
            expected = f"{self.x!r}, {self.o!r} or the {_OWN_NAME_WORDS[self.empty]} {own!r}"
        else:
            expected = f"{self.x!r}, {self.o!r} or {self.empty!r}"
        return MalformedBoard(f"unknown symbol {value!r} at {_where(cell)}; expected {expected}")


# -- shapes and symbols shared by every encoding ----------------------------------------------

_NOUNS: dict[str, str] = {"list": "list", "tuple": "tuple", "numpy": "array"}
_SHAPE_WORDS: dict[tuple[str, str], str] = {
    ("flat", "list"): "a flat list of 9 cells",
    ("rows", "list"): "3 lists of 3 cells",
    ("flat", "tuple"): "a flat tuple of 9 cells",
    ("rows", "tuple"): "3 tuples of 3 cells",
    ("flat", "numpy"): "a numpy array of 9 cells",
    ("rows", "numpy"): "a 3x3 numpy array",
    ("flat", "string"): "a string of 9 characters",
    ("flat", "dict"): "a dict keyed 1-9",
}
_EMPTY_WORDS = {
    CellName.DIGIT: "the cell's position '1'..'9'",
    CellName.NUMBER: "the cell's position 1..9",
    CellName.INDEX: "the cell's index 0..8",
}
_OWN_NAME_WORDS = {CellName.DIGIT: "position digit", CellName.NUMBER: "position", CellName.INDEX: "cell index"}


def player_mark(player: str, x: Mark, o: Mark) -> Mark:
    """``x`` for X, ``o`` for O: how an encoding writes ``player``; ValueError for anything else."""
    if player == X:
        return x
    if player == O:
        return o
    raise ValueError(f"{player!r} is not a player; expected {X!r} or {O!r}")


def _same(value: object, symbol: object) -> bool:
    """Whether a cell's ``value`` is ``symbol``: of the same kind, never a bool for a number.

    Integral-valued floats pass for an integer (``np.zeros`` gives 0.0); ``True`` is not
    player 1, and the string ``'1'`` is not the integer 1.
    """
    if symbol is None:
        return value is None
    if isinstance(symbol, str):
        return isinstance(value, str) and value == symbol
    if isinstance(symbol, CellName) or isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (Integral, Real)) and value == symbol


def _dtype(cells: Sequence[object]) -> type:
    """numpy's element type for these cells: integers, text, or Python objects when mixed."""
    if all(isinstance(c, int) for c in cells):
        return int
    return str if all(isinstance(c, str) for c in cells) else object


def _sequence(obj: object, what: str, noun: str) -> Sequence[object]:
    """Accept lists, tuples and numpy arrays; reject strings, which are sequences too."""
    if isinstance(obj, (str, bytes)) or not isinstance(obj, (Sequence, np.ndarray)):
        raise MalformedBoard(f"{what} must be a {noun}, got {type(obj).__name__}: {obj!r:.60}")
    return obj  # type: ignore[return-value]


def _rows(obj: object, noun: str) -> list[Sequence[object]]:
    """A 3x3 nested sequence as three rows, with the shape error spelled out."""
    rows = _sequence(obj, "the board", noun)
    if len(rows) != 3:
        raise MalformedBoard(f"the board must have 3 rows, got {len(rows)}")
    checked = []
    for r, row in enumerate(rows):
        row = _sequence(row, f"row {r}", noun)
        if len(row) != 3:
            raise MalformedBoard(f"row {r} must have 3 cells, got {len(row)}")
        checked.append(row)
    return checked


def _dict_cells(obj: object) -> list[object]:
    """The values of a dict keyed 1-9, in key order."""
    if not isinstance(obj, Mapping):
        raise MalformedBoard(f"the board must be a dict keyed 1 to 9, got {type(obj).__name__}: {obj!r:.60}")
    integers = all(isinstance(key, Integral) and not isinstance(key, (bool, np.bool_)) for key in obj)
    if not integers or set(obj) != set(range(1, 10)):
        raise MalformedBoard(f"the board must have the keys 1 to 9, got {sorted(obj, key=repr)!r:.80}")
    return [obj[cell + 1] for cell in range(9)]


def _where(cell: int) -> str:
    return f"row {cell // 3}, col {cell % 3}"


CODECS: dict[str, BoardEncoding] = {
    encoding.name: encoding
    for encoding in (
        BoardEncoding("rows", "numpy", 0, 1, 2, name="numpy-012"),
        BoardEncoding("rows", "list", " ", X, O, name="grid-space"),
        BoardEncoding("rows", "list", CellName.DIGIT, X, O, name="grid-digits"),
        BoardEncoding("flat", "list", " ", X, O, name="flat-space"),
    )
}
"""The seed notebooks' encodings by name: presets of :class:`BoardEncoding`."""


def get_codec(name: str) -> BoardEncoding:
    """The preset called ``name``; ``KeyError`` lists the known names."""
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
