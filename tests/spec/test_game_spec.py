"""The [game] table: tic-tac-toe when it is left out, Connect Four of any size with its board
encoding, every mistake named with its field, and only the kinds that ask the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.spec.loader import load_assignment
from grader.spec.model import AssignmentError
from reference.connect4 import ConnectK

GAME = """[assignment]
id = "c4"
title = "Connect"

[game]
name = "connect-four"
rows = 5
cols = 6
{extra}

[[checks]]
id = "winner"
kind = "{kind}"
points = 1
call = "winner(board)"
"""


def load(tmp_path: Path, extra: str = "", kind: str = "game-predicate") -> object:
    (tmp_path / "assignment.toml").write_text(GAME.format(extra=extra, kind=kind))
    return load_assignment(tmp_path)


def test_every_assignment_without_the_table_is_tic_tac_toe() -> None:
    assert load_assignment("lab05").game is None


def test_connect_four_resolves_to_the_reference_game_and_a_sized_encoding(tmp_path: Path) -> None:
    assignment = load(tmp_path, 'encoding = "numpy-012-bottom"\nx = 2\no = 1')
    setup = assignment.game  # type: ignore[attr-defined]
    assert setup.game == ConnectK(5, 6, 4)
    encoding = setup.encoding
    assert (encoding.rows, encoding.cols, encoding.container, encoding.top_row_first) == (5, 6, "numpy", False)
    assert (encoding.x, encoding.o, encoding.empty) == (2, 1, 0)


@pytest.mark.parametrize(
    ("extra", "field", "words"),
    [
        ("k = 2", "game.k", "from 3 to 10"),
        ('encoding = "hex"', "game.encoding", "must be one of grid-space"),
        ("gravity = false", "game.gravity", "unknown field"),
        ('layout = "spiral"', "game.layout", "must be one of rows, flat"),
        ('x = "X"\no = "X"', "game", "must differ"),
        ("k = 11", "game.k", "from 3 to 10"),
    ],
)
def test_a_mistake_in_the_table_is_named_with_its_field(tmp_path: Path, extra: str, field: str, words: str) -> None:
    with pytest.raises(AssignmentError) as raised:
        load(tmp_path, extra)
    assert raised.value.field == field and words in raised.value.problem


def test_a_kind_that_knows_tic_tac_toe_alone_is_refused_on_another_game(tmp_path: Path) -> None:
    with pytest.raises(AssignmentError) as raised:
        load(tmp_path, kind="predicate")
    assert raised.value.field == "checks[0] (winner).kind"
    assert "knows tic-tac-toe alone" in raised.value.problem and "game-predicate" in raised.value.problem


def test_a_search_check_names_a_position_by_its_column_digits(tmp_path: Path) -> None:
    spec = GAME.format(extra="", kind="game-search").replace(
        'call = "winner(board)"',
        'call = "minimax(board, depth_limit, to_move)"\nheuristic = "evaluate(board, player)"\ninclude = ["3a"]',
    )
    (tmp_path / "assignment.toml").write_text(spec)
    with pytest.raises(AssignmentError) as raised:
        load_assignment(tmp_path)
    assert "'3a' is not a string of column digits" in str(raised.value)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ('history = "history"', "history names where progressive deepening keeps its answers: set deepening = true"),
        ("deepening = true\ndepth_limits = [0, 2]", "deepening starts at depth 1: depth_limits must be 1 or more"),
        ('deepening = true\nhistory = "get value"', "history must be an attribute name, not 'get value'"),
        ('deepening = true\ndeepening_counts = "summed"', "deepening_counts"),
    ],
)
def test_a_progressive_deepening_check_is_refused_with_what_is_wrong(tmp_path: Path, extra: str, words: str) -> None:
    spec = GAME.format(extra="", kind="game-search").replace(
        'call = "winner(board)"',
        f'call = "deepen(board, depth_limit, to_move)"\nheuristic = "evaluate(board, player)"\n{extra}',
    )
    (tmp_path / "assignment.toml").write_text(spec)
    with pytest.raises(AssignmentError) as raised:
        load_assignment(tmp_path)
    assert words in str(raised.value)
