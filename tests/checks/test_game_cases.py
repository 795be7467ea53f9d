"""The first cases of a check on another game: the empty board, then a finished game of every
outcome, whatever the sample draws after them."""

from __future__ import annotations

import pytest

from grader.checks.game_cases import GameView
from grader.spec.game import GameSetup, read_game
from reference.connect_endings import DIRECTIONS


@pytest.mark.parametrize(("rows", "cols", "k"), [(5, 6, 4), (6, 7, 4), (4, 4, 3)])
def test_the_first_cases_are_the_empty_board_then_every_outcome(rows: int, cols: int, k: int) -> None:
    setup = read_game({"name": "connect-four", "rows": rows, "cols": cols, "k": k})
    assert isinstance(setup, GameSetup)
    view = GameView(setup)
    empty, *finished = view.first_cases()
    assert empty.moves == () and not view.game.is_terminal(empty.state)
    winners = {(case.label.split()[0], case.label.split()[2]) for case in finished if " wins " in case.label}
    assert winners == {(side, direction) for side in "XO" for direction in DIRECTIONS}
    ties = [case for case in finished if case.label == "full board"]
    assert len(ties) == 1 and not view.game.winners(ties[0].state)
    for case in finished:
        assert view.game.is_terminal(case.state), case.label
    assert view.first_cases(finished=False) == [empty]
