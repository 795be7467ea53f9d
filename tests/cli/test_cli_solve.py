"""`grader solve` gives course authors the reference's answer for one board."""

from __future__ import annotations

import json

import pytest

from grader.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_empty_board_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ".........", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["to_move"] == "X"
    assert data["value"] == 0
    assert data["best_moves"] == list(range(9))
    assert data["minimax_nodes"] == 549_946
    assert data["alphabeta_nodes"] == 18_297


def test_text_output_names_everything(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "XX.OO....", "--maximizer", "O")
    assert code == 0
    assert "Side to move:  X" in out
    assert "Value:         -1" in out
    assert "Optimal moves: 2 (position 3)" in out


def test_digits_mean_empty_and_depth_scoring(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "XX3OO6789", "--maximizer", "X", "--scoring", "depth-adjusted", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == 9 and data["best_moves"] == [2]


def test_o_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "O........", "--first", "O", "--json")
    assert code == 0 and json.loads(out)["to_move"] == "X"


@pytest.mark.parametrize("board", ["XXXX.....", "XO", "XOQ......", "XXX.OO.OO"])
def test_bad_boards_get_one_line_and_status_2(capsys: pytest.CaptureFixture[str], board: str) -> None:
    code, out, err = run(capsys, board)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("grader solve:")
