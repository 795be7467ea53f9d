"""The canonical tic-tac-toe board and the game built on it.

Every student encoding is decoded into :class:`Board` (see ``codecs.py``) so that the
rules live in exactly one place. Cells are numbered 0..8 row-major::

    0 1 2
    3 4 5
    6 7 8
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral

from reference.drawing import Drawing
from reference.errors import IllegalMove, MalformedBoard
from reference.position import Position

__all__ = [
    "EMPTY",
    "LINES",
    "LINES_THROUGH",
    "LINE_NAMES",
    "O",
    "PLAYERS",
    "SYMMETRIES",
    "X",
    "Board",
    "IllegalMove",
    "MalformedBoard",
    "TIC_TAC_TOE",
    "TicTacToe",
    "board_of",
    "opponent",
]

X = "X"
O = "O"  # noqa: E741 - the player, named as on the board
EMPTY = "."
PLAYERS = (X, O)
_SYMBOLS = frozenset((X, O, EMPTY))

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)  # fmt: skip

LINE_NAMES: dict[tuple[int, int, int], str] = {
    (0, 1, 2): "the top row",
    (3, 4, 5): "the middle row",
    (6, 7, 8): "the bottom row",
    (0, 3, 6): "the left column",
    (1, 4, 7): "the middle column",
    (2, 5, 8): "the right column",
    (0, 4, 8): "the main diagonal",
    (2, 4, 6): "the anti-diagonal",
}
"""Each line in words, as feedback names it."""

_LINE_WORDS: dict[tuple[int, ...], str] = {line: words for line, words in LINE_NAMES.items()}

# After a move only the lines through the moved cell can have been completed; the search
# uses this to test for a win in 2-4 line checks instead of 8.
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if cell in line) for cell in range(9)
)


def _dihedral_images() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square as cell permutations: image[i] = original[perm[i]]."""
    maps = (
        lambda r, c: (r, c),
        lambda r, c: (c, 2 - r),
        lambda r, c: (2 - r, 2 - c),
        lambda r, c: (2 - c, r),
        lambda r, c: (r, 2 - c),
        lambda r, c: (2 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (2 - c, 2 - r),
    )
    perms = []
    for source in maps:
        perm = []
        for cell in range(9):
            row, col = source(*divmod(cell, 3))
            perm.append(3 * row + col)
        perms.append(tuple(perm))
    return tuple(perms)


SYMMETRIES: tuple[tuple[int, ...], ...] = _dihedral_images()
"""Cell permutations of the dihedral group, identity first."""


def opponent(player: str) -> str:
    """The other player; raises ``ValueError`` for anything but ``X`` or ``O``."""
    if player == X:
        return O
    if player == O:
        return X
    raise ValueError(f"a player is {X!r} or {O!r}, got {player!r}")


def _describe_cell(cell: int) -> str:
    row, col = divmod(cell, 3)
    return f"cell {cell} (row {row}, col {col})"


def _marks(n: int) -> str:
    return f"{n} mark" if n == 1 else f"{n} marks"


def _parse_symbol(char: str, cell: int) -> str:
    upper = char.upper()
    if upper in (X, O):
        return upper
    if char == EMPTY or char in "123456789":
        return EMPTY
    hint = " (did you mean the letter 'O'?)" if char == "0" else ""
    raise MalformedBoard(
        f"unknown symbol {char!r} at {_describe_cell(cell)}{hint}; use X, O, '.' or a digit 1-9 for an empty cell"
    )


@dataclass(frozen=True, repr=False)
class Board:
    """An immutable 3x3 position: nine cells row-major, each ``X``, ``O`` or ``EMPTY``.

    A board records only the marks, not whose turn it is: the side to move follows from
    the counts once you know who moved first (``to_move(first)``), which is how every seed
    notebook derives it too.
    """

    cells: tuple[str, ...]
    """Nine symbols, row-major; a list is accepted and frozen into a tuple."""

    def __post_init__(self) -> None:
        cells = self.cells
        if isinstance(cells, str):
            raise MalformedBoard(f"Board() takes a tuple of 9 cells, not the string {cells!r}; use Board.from_string")
        if isinstance(cells, list):
            cells = tuple(cells)
            object.__setattr__(self, "cells", cells)
        if not isinstance(cells, tuple):
            raise MalformedBoard(f"cells must be a tuple of 9 symbols, got {type(cells).__name__}")
        if len(cells) != 9:
            raise MalformedBoard(f"a board has 9 cells, got {len(cells)}")
        for cell, symbol in enumerate(cells):
            if symbol not in _SYMBOLS:
                raise MalformedBoard(
                    f"unknown symbol {symbol!r} at {_describe_cell(cell)}; cells hold {X!r}, {O!r} or {EMPTY!r}"
                )

    # -- construction ---------------------------------------------------------------

    @classmethod
    def empty(cls) -> Board:
        """The starting position."""
        return cls((EMPTY,) * 9)

    @classmethod
    def from_string(cls, text: str) -> Board:
        """Parse ``"X.O/.X./..O"``-style text.

        Whitespace, ``|`` and ``/`` are ignored so that drawings paste in directly; ``x``
        and ``o`` may be lower case; ``.`` or any digit ``1``-``9`` (seed 003 writes the
        position number into empty cells) means empty.
        """
        if not isinstance(text, str):
            raise MalformedBoard(f"expected a string, got {type(text).__name__}")
        symbols = [ch for ch in text if not ch.isspace() and ch not in "|/"]
        if len(symbols) != 9:
            raise MalformedBoard(
                f"expected 9 cells, found {len(symbols)} in {text!r} (whitespace, '|' and '/' are ignored)"
            )
        return cls(tuple(_parse_symbol(ch, cell) for cell, ch in enumerate(symbols)))

    @classmethod
    def spec_words(cls) -> tuple[str, str]:
        """How a spec names a board, and shows one (`reference.position.WrittenPosition`)."""
        return "board, 9 characters", '9-character board such as "X.O......"'

    # -- display --------------------------------------------------------------------

    def __str__(self) -> str:
        return "".join(self.cells)

    def __repr__(self) -> str:
        # Short and round-trippable: hypothesis prints counterexamples with repr().
        return f"Board.from_string({str(self)!r})"

    def grid(self) -> str:
        """A three-line drawing for humans, e.g. ``"X . O\\n. X .\\n. . O"``."""
        return "\n".join(" ".join(self.cells[row * 3 : row * 3 + 3]) for row in range(3))

    # -- queries --------------------------------------------------------------------

    def empty_cells(self) -> tuple[int, ...]:
        """Indices of the empty cells in increasing order."""
        return tuple(cell for cell, symbol in enumerate(self.cells) if symbol == EMPTY)

    def count(self, symbol: str) -> int:
        """How many cells hold ``symbol`` (a player or ``EMPTY``)."""
        return self.cells.count(symbol)

    def winners(self) -> frozenset[str]:
        """Every player with a complete line; two players only on impossible boards."""
        cells = self.cells
        return frozenset(cells[a] for a, b, c in LINES if cells[a] != EMPTY and cells[a] == cells[b] == cells[c])

    def winner(self) -> str | None:
        """The player with a complete line, or ``None``.

        ``None`` also when *both* players have a line: such a board cannot arise in play
        and has no single winner; use :meth:`winners` to tell the cases apart.
        """
        winners = self.winners()
        return next(iter(winners)) if len(winners) == 1 else None

    def is_full(self) -> bool:
        return EMPTY not in self.cells

    def is_terminal(self) -> bool:
        """True when somebody has a line or no cell is empty."""
        return self.is_full() or bool(self.winners())

    def to_move(self, first: str = X) -> str:
        """The player whose turn it is, from the mark counts.

        On a finished board this is still the player who *would* move next. Raises
        :class:`MalformedBoard` when the counts cannot arise with ``first`` starting.
        """
        second = opponent(first)
        lead = self.count(first) - self.count(second)
        if lead == 0:
            return first
        if lead == 1:
            return second
        raise MalformedBoard(self._count_problem(first))

    def legality_problem(self, first: str = X) -> str | None:
        """Why this board cannot arise in a game ``first`` started, or ``None`` if it can.

        The three rules (counts, at most one winner, the winner moved last) are exactly
        the reachable positions: the tests check this against all 3^9 boards.
        """
        second = opponent(first)
        lead = self.count(first) - self.count(second)
        if lead not in (0, 1):
            return self._count_problem(first)
        winners = self.winners()
        if len(winners) == 2:
            return f"both {X} and {O} have three in a row"
        if first in winners and lead != 1:
            return (
                f"{first} has three in a row, so {first} moved last and must have one mark "
                f"more than {second} ({first} {self.count(first)}, {second} {self.count(second)})"
            )
        if second in winners and lead != 0:
            return (
                f"{second} has three in a row, so {second} moved last and must have as many "
                f"marks as {first} ({first} {self.count(first)}, {second} {self.count(second)})"
            )
        return None

    def is_legal_position(self, first: str = X) -> bool:
        """Whether this board is reachable in a game that ``first`` started."""
        return self.legality_problem(first) is None

    def _count_problem(self, first: str) -> str:
        second = opponent(first)
        return (
            f"{first} has {_marks(self.count(first))} and {second} has "
            f"{_marks(self.count(second))}; "
            f"with {first} moving first, {first} must have as many marks as {second} or one more"
        )

    # -- moves ----------------------------------------------------------------------

    def play(self, cell: int, player: str | None = None, first: str = X) -> Board:
        """The board after ``player`` (default: the side to move) marks ``cell``.

        Raises :class:`IllegalMove` for a cell outside 0..8, a finished game, an occupied
        cell, or a ``player`` whose turn it is not.
        """
        # numbers.Integral admits numpy integers, which decoded student moves often are.
        if isinstance(cell, bool) or not isinstance(cell, Integral) or not 0 <= cell <= 8:
            raise IllegalMove(f"a move is a cell index 0..8, got {cell!r}")
        cell = int(cell)
        if self.is_terminal():
            raise IllegalMove(f"cannot play {_describe_cell(cell)}: {self._end_description()}")
        if self.cells[cell] != EMPTY:
            raise IllegalMove(f"{_describe_cell(cell)} is already taken by {self.cells[cell]}")
        turn = self.to_move(first)
        if player is not None and player not in PLAYERS:
            raise IllegalMove(f"a player is {X!r} or {O!r}, got {player!r}")
        if player is not None and player != turn:
            raise IllegalMove(f"it is {turn}'s turn, not {player}'s")
        return Board(self.cells[:cell] + (turn,) + self.cells[cell + 1 :])

    def _end_description(self) -> str:
        winners = self.winners()
        if winners:
            return f"the game is over, {' and '.join(sorted(winners))} has three in a row"
        return "the game is over, the board is full"

    # -- symmetry -------------------------------------------------------------------

    def symmetries(self) -> tuple[Board, ...]:
        """The 8 rotations and reflections of this board, identity first (may repeat)."""
        return tuple(Board(tuple(self.cells[i] for i in perm)) for perm in SYMMETRIES)

    def canonical(self) -> Board:
        """One fixed representative of the symmetry class (the least by cell string)."""
        return min(self.symmetries(), key=str)


def board_of(state: Position) -> Board:
    """``state`` as tic-tac-toe's board; :class:`MalformedBoard` when it is another game's."""
    if isinstance(state, Board):
        return state
    raise MalformedBoard(f"not a tic-tac-toe board: {state!r}")


@dataclass(frozen=True)
class TicTacToe:
    """Tic-tac-toe on the :class:`~reference.game.BoardGame` protocol; actions are cells 0..8.

    It takes any :class:`~reference.position.Position` and refuses one that is not a
    :class:`Board`, so that the grader can ask it through the protocol alone."""

    first_player: str = X
    """Who moves on the empty board; seed 001 lets ``O`` start."""

    def __post_init__(self) -> None:
        opponent(self.first_player)  # validates

    def initial_state(self) -> Board:
        return Board.empty()

    def to_move(self, state: Position) -> str:
        return board_of(state).to_move(self.first_player)

    def actions(self, state: Position) -> tuple[int, ...]:
        """Empty cells in row-major order, none once the game is over."""
        board = board_of(state)
        return () if board.is_terminal() else board.empty_cells()

    def result(self, state: Position, action: int) -> Board:
        return board_of(state).play(action, first=self.first_player)

    def is_terminal(self, state: Position) -> bool:
        return board_of(state).is_terminal()

    def utility(self, state: Position, player: str) -> float:
        """+1 if ``player`` has won, -1 if the opponent has, 0 for a draw."""
        board = board_of(state)
        if not board.is_terminal():
            raise ValueError(f"utility is defined on finished games only, not {board}")
        winners = board.winners()
        if len(winners) == 2:
            raise MalformedBoard(f"both players have three in a row in {board}")
        if not winners:
            return 0
        return 1 if player in winners else -1

    def legality_problem(self, state: Position) -> str | None:
        """Why ``state`` cannot arise in a game ``first_player`` began, or ``None`` if it can."""
        return board_of(state).legality_problem(self.first_player)

    def pieces(self, state: Position) -> int:
        """The marks on the board."""
        return 9 - len(board_of(state).empty_cells())

    def drawing(self, state: Position, last: int | None = None) -> Drawing:
        """The board, with the cell of ``last`` and every completed line marked."""
        board = board_of(state)
        if last is not None and board.cells[last] == EMPTY:
            raise IllegalMove(f"{_describe_cell(last)} is empty: no move can have ended there")
        return Drawing.of_cells(board.cells, 3, EMPTY, LINES, last)

    def text(self, state: Position) -> str:
        """Three lines, e.g. ``"X . O\\n. X .\\n. . O"``."""
        return board_of(state).grid()

    # -- cells and lines (`reference.game.LineGame`) ------------------------------------

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The eight lines: rows, then columns, then diagonals."""
        return LINES

    def line_groups(self) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
        """The rows, the columns and the diagonals, each named as feedback names them together."""
        return ("the rows", LINES[0:3]), ("the columns", LINES[3:6]), ("the diagonals", LINES[6:8])

    def line_name(self, line: tuple[int, ...]) -> str:
        """``"the top row"``: a line as feedback names it."""
        try:
            return _LINE_WORDS[line]
        except KeyError:
            raise ValueError(f"{line!r} is no line of tic-tac-toe") from None

    def cells(self, state: Position) -> tuple[str, ...]:
        """The nine marks, row-major."""
        return board_of(state).cells

    def winners(self, state: Position) -> frozenset[str]:
        """Every player with three in a row; two players only on impossible boards."""
        return board_of(state).winners()

    def position(self, text: str) -> Board:
        """The board ``str`` wrote (``"X.O......"``)."""
        return Board.from_string(text)

    def spec_words(self) -> tuple[str, str]:
        """How a spec names a board, and shows one (`reference.position.WrittenPosition`)."""
        return Board.spec_words()

    def with_cells(self, cells: Sequence[str]) -> Board:
        """The board of these nine marks, whether or not a game reaches it."""
        return Board(tuple(cells))


TIC_TAC_TOE = TicTacToe()
"""Tic-tac-toe as X begins it: the game the grader asks when the assignment names none
(`TicTacToe(O)` for a game O begins)."""
