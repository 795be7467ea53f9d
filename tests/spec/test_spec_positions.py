"""A kind's positions are written as the assignment's game writes them, and read by that game."""

from __future__ import annotations

from typing import Any

from grader.checks.kinds.search import SearchParams
from grader.spec.tables import check_table, read_tables
from reference import ConnectK, TicTacToe

SIX_BY_SEVEN = "/".join(["......."] * 5 + ["...X..."])


def _raw(include: list[str], game: dict[str, Any] | None = None) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "assignment": {"id": "demo", "title": "Demo"},
        "checks": [
            {"id": "minimax", "kind": "search-value", "points": 1, "call": "minimax(board)", "include": include}
        ],
    }
    if game is not None:
        raw["game"] = game
    return raw


def test_tic_tac_toe_positions_are_its_boards_and_are_written_back_as_text() -> None:
    spec = read_tables(_raw(["X...O...."]))
    assert not isinstance(spec, list)
    (check,) = spec.checks
    assert isinstance(check.params, SearchParams)
    assert check.params.include == (TicTacToe().position("X...O...."),)
    assert check_table(check)["include"] == ["X...O...."]


def test_the_game_table_s_game_reads_the_positions() -> None:
    spec = read_tables(_raw([SIX_BY_SEVEN], {"name": "connect-four"}))
    assert not isinstance(spec, list)
    assert spec.checks[0].params.include == (ConnectK(6, 7, 4).position(SIX_BY_SEVEN),)
    problems = read_tables(_raw(["X...O...."], {"name": "connect-four"}))
    assert isinstance(problems, list)
    ((where, what),) = problems
    assert where == "checks[0] (minimax).include[0]" and what.startswith("bad board")


def test_a_file_read_after_another_game_s_reads_its_own_positions() -> None:
    read_tables(_raw([SIX_BY_SEVEN], {"name": "connect-four"}))
    spec = read_tables(_raw(["X........"]))
    assert not isinstance(spec, list)
    assert spec.checks[0].params.include == (TicTacToe().position("X........"),)
