"""Tic-tac-toe boards an assignment's adapter writes itself, read back by the marks it uses.

An adapter with an ``encode_board`` but no ``decode_board`` still writes boards as lists of
cells in most courses; asked to write a board with one mark of each player and the empty board,
it shows which value stands for X, for O and for an empty cell, and a board its student's code
makes is then read cell by cell with those marks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference.errors import MalformedBoard
from reference.tictactoe import EMPTY, Board, O, X

__all__ = ["AdapterMarks", "adapter_marks", "decode_by_marks"]

AdapterMarks = tuple[Any, Any, tuple[Any, ...]]
"""X's mark, O's mark and the values of an empty cell."""


def adapter_marks(encode: Callable[[Board], Any]) -> AdapterMarks | None:
    """X's, O's and the empty cells' values as ``encode`` (the adapter's ``encode_board``)
    writes them; None if its boards are not lists of cells."""
    try:
        marked = _flat_cells(encode(Board.from_string("XO.......")))
        empty = _flat_cells(encode(Board.empty()))
    except (TypeError, ValueError):
        return None
    if marked is None or empty is None:
        return None
    return marked[0], marked[1], tuple(dict.fromkeys(empty))


def decode_by_marks(raw: Any, marks: AdapterMarks) -> Board:
    """The board ``raw`` writes with ``marks``; `MalformedBoard` when it is no such board."""
    x_mark, o_mark, empty_marks = marks
    cells = _flat_cells(raw)
    if cells is None:
        raise MalformedBoard(f"not a board of 9 cells: {raw!r}")
    by_mark = {x_mark: X, o_mark: O, **{mark: EMPTY for mark in empty_marks}}
    unknown = [c for c in cells if c not in by_mark]
    if unknown:
        raise MalformedBoard(f"cell value {unknown[0]!r} is none of the encoding's marks")
    return Board(tuple(by_mark[c] for c in cells))


def _flat_cells(encoded: Any) -> list[Any] | None:
    """The nine cells of an encoded board, row by row, as plain values."""
    if hasattr(encoded, "tolist"):
        encoded = encoded.tolist()
    if not isinstance(encoded, (list, tuple)):
        return None
    if len(encoded) == 3 and all(isinstance(row, (list, tuple)) and len(row) == 3 for row in encoded):
        encoded = [cell for row in encoded for cell in row]
    if len(encoded) != 9 or not all(isinstance(c, (str, int)) for c in encoded):
        return None
    return list(encoded)
