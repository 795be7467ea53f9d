"""toygame: the course's tic-tac-toe board and helpers. The lab imports it; do not edit it.

A board is a list of 9 cells, row by row: 'X', 'O' or ' ' (EMPTY). Moves are cells 0-8.
"""

EMPTY = " "
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)


class Board:
    """A board that remembers whose turn it is; `cells` is the plain list the searches take."""

    def __init__(self, cells=None, to_move="X"):
        self.cells = list(cells) if cells is not None else [EMPTY] * 9
        self.to_move = to_move

    def play(self, cell):
        return Board(play(self.cells, cell, self.to_move), other(self.to_move))

    def __str__(self):
        rows = ("|".join(self.cells[r:r + 3]) for r in (0, 3, 6))
        return "\n-+-+-\n".join(rows)


def other(mark):
    return "O" if mark == "X" else "X"


def winner(cells):
    """'X' or 'O' when that mark holds a line, else None."""
    for a, b, c in LINES:
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def moves(cells):
    return [i for i, mark in enumerate(cells) if mark == EMPTY]


def play(cells, cell, mark):
    """A new list with `mark` on the empty `cell`."""
    if cells[cell] != EMPTY:
        raise ValueError(f"cell {cell} is taken")
    return cells[:cell] + [mark] + cells[cell + 1:]
