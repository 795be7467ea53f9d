"""The spec's [board] table: a preset, a description, where the board lives; what init writes
reads back to the same board; every mistake names its field."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tomlkit
from hypothesis import given
from hypothesis import strategies as st

from grader.checks.params import PLACEHOLDERS
from grader.spec.board import BoardLocation, board_fields, preset_name, read_board
from grader.spec.call_template import parse_call
from grader.spec.loader import load_assignment
from grader.spec.model import AssignmentError
from reference.codecs import CODECS, BoardEncoding, CellName
from reference.strategies import board_encodings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

OBJECT_BOARD = '[board]\nlocation = "attribute"\nfactory = "Game()"\nattribute = "board"\n'

HEAD = """
[assignment]
id = "demo"
title = "Demo"
{encoding}
{board}
[[checks]]
id = "win"
kind = "predicate"
points = 10
call = "{call}"
expect = "winner"
"""


def load(tmp_path: Path, board: str, *, encoding: str = "", call: str = "winner(board)") -> object:
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    (folder / "assignment.toml").write_text(HEAD.format(encoding=encoding, board=board, call=call))
    return load_assignment(folder)


def test_a_preset_alone_is_the_shorthand(tmp_path: Path) -> None:
    assignment = load(tmp_path, "", encoding='encoding = "grid-digits"')
    assert assignment.encoding is CODECS["grid-digits"]  # type: ignore[attr-defined]
    assert assignment.board == BoardLocation()  # type: ignore[attr-defined]


def test_board_fields_override_the_preset(tmp_path: Path) -> None:
    assignment = load(tmp_path, '[board]\nempty = "_"\n', encoding='encoding = "flat-space"')
    assert assignment.encoding == BoardEncoding("flat", "list", "_", "X", "O")  # type: ignore[attr-defined]
    assert assignment.encoding.name == ""  # type: ignore[attr-defined]


def test_a_whole_description_needs_no_preset(tmp_path: Path) -> None:
    board = """[board]
layout = "rows"
container = "list"
empty = "-"
x = "x"
o = "o"
location = "attribute"
factory = "Game()"
attribute = "board"
"""
    assignment = load(tmp_path, board, call="game.winner()")
    assert assignment.encoding == BoardEncoding("rows", "list", "-", "x", "o")  # type: ignore[attr-defined]
    location = assignment.board  # type: ignore[attr-defined]
    assert (location.where, location.name, location.factory.text) == ("attribute", "board", "Game()")
    call = location.on_object(assignment.checks[0].params.call)  # type: ignore[attr-defined]
    assert (call.function, [step.name for step in call.chain]) == ("Game", ["winner"])


@pytest.mark.parametrize(
    ("word", "symbol"),
    [("None", None), ("digit", CellName.DIGIT), ("number", CellName.NUMBER), ("index", CellName.INDEX)],
)
def test_four_words_of_empty_are_not_taken_literally(tmp_path: Path, word: str, symbol: object) -> None:
    assignment = load(tmp_path, f'[board]\nempty = "{word}"\n', encoding='encoding = "flat-space"')
    assert assignment.encoding.empty == symbol  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("encoding", "board", "call", "field", "words"),
    [
        ("", "", "winner(board)", "assignment.encoding", "is required without a [board] table"),
        ('encoding = "hexagonal"', "", "winner(board)", "assignment.encoding", "unknown encoding 'hexagonal'"),
        ("", '[board]\nlayout = "flat"\n', "winner(board)", "board.container", "is required without a preset"),
        ('encoding = "flat-space"', '[board]\nempty = "X"\n', "winner(board)", "board", "also a player's mark"),
        ('encoding = "flat-space"', "[board]\nx = true\n", "winner(board)", "board.x", "a string or an integer"),
        ('encoding = "flat-space"', '[board]\ncolour = "red"\n', "winner(board)", "board.colour", "unknown field"),
        ('encoding = "flat-space"', '[board]\nlocation = "cloud"\n', "winner(board)", "board.location", "one of"),
        (
            'encoding = "flat-space"',
            '[board]\nlocation = "attribute"\nattribute = "board"\n',
            "winner(board)",
            "board.location",
            "needs factory",
        ),
        (
            'encoding = "flat-space"',
            '[board]\nlocation = "attribute"\nfactory = "Game("\nattribute = "board"\n',
            "winner(board)",
            "board.factory",
            "not a Python call",
        ),
        ('encoding = "flat-space"', '[board]\nlocation = "global"\n', "winner(board)", "board.location", "global ="),
        ('encoding = "flat-space"', "", "game.winner()", "checks[0] (win).call", 'location = "attribute"'),
        ('encoding = "flat-space"', "", "winner(game)", "checks[0] (win).call", "uses 'game'"),
        ('encoding = "flat-space"', OBJECT_BOARD, "game.rules.winner()", "checks[0] (win).call", "call one method"),
        (
            'encoding = "flat-space"',
            '[board]\nlocation = "global"\nglobal = "b"\nattribute = "board"\n',
            "winner(board)",
            "board.attribute",
            'does not go with location = "global"',
        ),
        ('encoding = "flat-space"', '[board]\nglobal = "b"\n', "winner(board)", "board.location", "takes no"),
    ],
)
def test_board_mistakes_are_located(
    tmp_path: Path, encoding: str, board: str, call: str, field: str, words: str
) -> None:
    with pytest.raises(AssignmentError) as info:
        load(tmp_path, board, encoding=encoding, call=call)
    assert info.value.field == field
    assert words in info.value.problem


LOCATIONS = st.sampled_from(
    [
        BoardLocation(),
        BoardLocation("global", "current_state"),
        BoardLocation("attribute", "cells", parse_call("TicTacToe(3)")),
    ]
)


@given(encoding=board_encodings(), location=LOCATIONS)
def test_the_written_table_reads_back_to_the_same_board(encoding: BoardEncoding, location: BoardLocation) -> None:
    text = tomlkit.dumps({"board": board_fields(encoding, location)})
    table = tomllib.loads(text)["board"]
    assert read_board(None, table, placeholders=PLACEHOLDERS) == (encoding, location)


def test_a_preset_is_recognised_whatever_its_name() -> None:
    assert preset_name(BoardEncoding("rows", "numpy", 0, 1, 2)) == "numpy-012"
    assert preset_name(BoardEncoding("rows", "numpy", 0, 1, -1)) is None
