"""What a drawing of a position says: plain data that an autoescaped template renders.

A :class:`Drawing` holds rows of :class:`Square`: each square's mark, whether the last move
landed there and whether it is part of a completed line. No markup is built here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Drawing", "Square", "cells_in_lines"]


@dataclass(frozen=True)
class Square:
    """One square of a drawing."""

    mark: str
    """``"X"``, ``"O"`` or ``""`` for an empty square."""
    last: bool = False
    """The last move landed here."""
    winning: bool = False
    """Part of a completed line."""


@dataclass(frozen=True)
class Drawing:
    """A position as a grid of squares, top row first: what a template needs and nothing else."""

    squares: tuple[tuple[Square, ...], ...]

    @classmethod
    def of_cells(
        cls, cells: Sequence[str], cols: int, empty: str, lines: Iterable[Sequence[int]], last: int | None = None
    ) -> Drawing:
        """From the cells row-major (``empty`` for an empty one), ``cols`` to a row, the game's
        winning lines as cell indices, and the cell the last move filled."""
        winning = cells_in_lines(cells, lines, empty)
        return cls(
            tuple(
                tuple(
                    Square("" if cells[cell] == empty else cells[cell], cell == last, cell in winning)
                    for cell in range(row, row + cols)
                )
                for row in range(0, len(cells), cols)
            )
        )

    @property
    def rows(self) -> int:
        return len(self.squares)

    @property
    def cols(self) -> int:
        return len(self.squares[0]) if self.squares else 0

    @property
    def last(self) -> tuple[int, int] | None:
        """``(row, column)`` of the last move, if the drawing was told it."""
        return next(((r, c) for r, row in enumerate(self.squares) for c, square in enumerate(row) if square.last), None)

    @property
    def line(self) -> tuple[tuple[int, int], ...]:
        """``(row, column)`` of every square in a completed line, row-major."""
        return tuple((r, c) for r, row in enumerate(self.squares) for c, square in enumerate(row) if square.winning)

    def text(self) -> str:
        """One line per row, squares separated by spaces, ``.`` for an empty square."""
        return "\n".join(" ".join(square.mark or "." for square in row) for row in self.squares)


def cells_in_lines(cells: Sequence[str], lines: Iterable[Sequence[int]], empty: str) -> frozenset[int]:
    """Every cell of a line that one player fills completely."""
    return frozenset(
        cell for line in lines if cells[line[0]] != empty and len({cells[i] for i in line}) == 1 for cell in line
    )
