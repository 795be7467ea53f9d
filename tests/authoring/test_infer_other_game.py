"""Tic-tac-toe's encodings are searched under only while the solution may play tic-tac-toe: once
no function answers like a board test under any of them, a solution whose answers show another
game's board (Connect Four's) is not asked its searches under each."""

from __future__ import annotations

from tests.authoring.test_inference import FLAT_UNDERSCORE, in_process_inference

ONLY_A_SEARCH = """
import math

def minimax(board, is_max):
    for a, b, c in [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]:
        if board[a] != "_" and board[a] == board[b] == board[c]:
            return 1 if board[a] == "X" else -1
    free = [i for i in range(9) if board[i] == "_"]
    if not free:
        return 0
    mark = "X" if is_max else "O"
    values = [minimax(board[:i] + [mark] + board[i + 1 :], not is_max) for i in free]
    return max(values) if is_max else min(values)
"""


def _choice_and_asked(source: str, plays_another: bool) -> tuple[bool, int]:
    """Whether inference on ``source`` chose an encoding, and how often it asked about another game."""
    asked: list[bool] = []

    def other_game() -> bool:
        asked.append(plays_another)
        return plays_another

    _, choice, _, _ = in_process_inference(source, other_game)
    return choice is not None, len(asked)


def test_a_search_with_no_board_test_is_read_unless_another_game_is_played() -> None:
    assert _choice_and_asked(ONLY_A_SEARCH, plays_another=False) == (True, 1)
    assert _choice_and_asked(ONLY_A_SEARCH, plays_another=True) == (False, 1)


def test_a_solution_with_a_tic_tac_toe_board_test_is_never_asked_about_another_game() -> None:
    assert _choice_and_asked("import math\n" + FLAT_UNDERSCORE, plays_another=True) == (True, 0)
