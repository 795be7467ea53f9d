"""An adapter's own board encoding holds both ways: checks give boards in it, and read the
boards the student's code makes in it too."""

from __future__ import annotations

import types
from dataclasses import replace

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from reference import Board, MalformedBoard, X
from tests.checks.in_process import InProcessRunner

_SYMBOLS = {"X": "x", "O": "o", ".": "_"}


def _encode_board(board: Board) -> list[list[str]]:
    """Rows of "x", "o" and "_": no built-in codec reads these."""
    cells = [_SYMBOLS[c] for c in str(board)]
    return [cells[0:3], cells[3:6], cells[6:9]]


ADAPTER = types.ModuleType("adapter")
ADAPTER.encode_board = _encode_board  # type: ignore[attr-defined]
BASE = load_assignment("depth-limits")
EXPAND = next(c for c in BASE.checks if c.id == "expand")
ASSIGNMENT = replace(BASE, adapter=ADAPTER, checks=(EXPAND,))

STATE = """
class State:
    def __init__(self, gameplan, player):
        self.gameplan = [list(row) for row in gameplan]
        self.player = player

    def expand(self, move):
        row, col = move
        if not (0 <= row < 3 and 0 <= col < 3) or self.gameplan[row][col] != "_":
            return None
        marks = sum(cell != "_" for r in self.gameplan for cell in r)
        child = State(self.gameplan, self.player)
        child.gameplan[row][col] = MARKS[marks % 2]
        return child
"""
RIGHT = STATE + 'MARKS = ("x", "o")\n'
MARKS_SWAPPED = STATE + 'MARKS = ("o", "x")\n'


def _expand(source: str):
    runner = InProcessRunner(source)
    ctx = CheckContext.of(ASSIGNMENT, runner, frozenset(runner.defined_names()))
    return run_check(EXPAND, ctx)


def test_the_successor_is_read_in_the_adapters_encoding() -> None:
    result = _expand(RIGHT)
    assert result.status == CheckStatus.PASSED, result.message


def test_a_wrong_successor_is_shown_as_a_board() -> None:
    result = _expand(MARKS_SWAPPED)
    assert result.status == CheckStatus.FAILED
    assert result.counterexample is not None
    assert result.counterexample.actual.startswith("a state whose board is ")
    assert "wrong cell" in (result.cause.sentence if result.cause else "")


def test_decoding_inverts_the_adapters_encoding_and_refuses_other_marks() -> None:
    ctx = CheckContext.of(ASSIGNMENT, InProcessRunner(""), frozenset())
    board = Board.from_string("XO..X...O")
    assert ctx.decode_board(_encode_board(board)) == board
    try:
        ctx.decode_board([["X", "_", "_"], ["_"] * 3, ["_"] * 3])
    except MalformedBoard as exc:
        assert "'X'" in str(exc)
    else:
        raise AssertionError("a cell in another encoding was read")


def test_an_adapter_that_decodes_is_asked_to() -> None:
    decoding = types.ModuleType("decoding_adapter")
    decoding.encode_board = _encode_board  # type: ignore[attr-defined]
    decoding.decode_board = lambda raw: Board.empty().play(4, X)  # type: ignore[attr-defined]
    ctx = CheckContext.of(replace(ASSIGNMENT, adapter=decoding), InProcessRunner(""), frozenset())
    assert ctx.decode_board("anything") == Board.empty().play(4, X)
