"""A check's moves are read and shown through one codec, resolved once from the check's
``move`` format or the assignment's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from grader.checks.answers import MoveCodec, ShapeError, read_search_result
from grader.checks.context import CheckContext
from grader.spec.loader import load_assignment
from grader.spec.model import MoveFormat
from tests.checks.in_process import InProcessRunner

# How each format writes cell 5 (row 1, column 2), and how feedback shows it.
CELL_5: dict[MoveFormat, tuple[Any, str]] = {
    "index": (5, "5"),
    "position": (6, "6"),
    "rowcol": ((1, 2), "(1, 2)"),
    "rowcol1": ((2, 3), "(2, 3)"),
}


@pytest.mark.parametrize("fmt", list(CELL_5))
def test_every_cell_reads_back_as_it_is_shown(fmt: MoveFormat) -> None:
    codec = MoveCodec(fmt)
    raw, shown = CELL_5[fmt]
    assert codec.decode(raw) == 5
    assert codec.show(5) == shown
    written = {
        "index": lambda c: c,
        "position": lambda c: c + 1,
        "rowcol": lambda c: [c // 3, c % 3],
        "rowcol1": lambda c: [c // 3 + 1, c % 3 + 1],
    }[fmt]
    assert [codec.decode(written(cell)) for cell in range(9)] == list(range(9))
    assert codec.show(None) == "None"


@pytest.mark.parametrize(
    ("fmt", "raw", "words"),
    [
        ("index", 9, "outside 0-8"),
        ("index", True, "expected a cell index"),
        ("index", 2.5, "expected a cell index"),
        ("position", 0, "could not read 0 as a move"),
        ("rowcol", 4, "expected a move (row, col)"),
        ("rowcol", ("a", 1), "could not read"),
    ],
)
def test_a_move_that_names_no_cell_is_a_shape_error(fmt: MoveFormat, raw: Any, words: str) -> None:
    with pytest.raises(ShapeError, match=re.escape(words)):
        MoveCodec(fmt).decode(raw)


@pytest.mark.parametrize(("fmt", "pairs"), [("index", "rowcol"), ("position", "rowcol"), ("rowcol1", "rowcol1")])
def test_row_and_column_beside_a_value_count_as_the_moves_do(fmt: MoveFormat, pairs: MoveFormat) -> None:
    codec = MoveCodec(fmt)
    assert codec.pairs == MoveCodec(pairs)
    row, col = (2, 3) if pairs == "rowcol1" else (1, 2)
    assert read_search_result((1, row, col), ("value,row,col",), codec) == (1, 5)
    assert read_search_result([row, col, -1], ("row,col,value",), codec) == (-1, 5)


def test_a_check_format_wins_over_the_assignment() -> None:
    lab05 = load_assignment("lab05")  # moves are cell indices
    runner = InProcessRunner("")
    ctx = CheckContext.of(lab05, runner, frozenset())
    assert ctx.moves() == MoveCodec("index")
    assert ctx.moves("rowcol") == MoveCodec("rowcol")
    assert read_search_result((0, 6), ("value,move",), ctx.moves()) == (0, 6)
    assert read_search_result((0, 7), ("value,move",), ctx.moves("position")) == (0, 6)
