"""The state-objects class (`state_lab/`) against its oracle, and the oracle against hand-written cases.

`expected.toml` pins, per hand-in, whether it imports, which functions the oracle finds defective (the first
counterexample it names) and which of them are wrong only through others. The hand-written cases below do not
go through the oracle: each is one call on a board or a tree written out here, with its answer worked out by
hand; every planted mistake has one that its hand-in fails and every correct hand-in passes.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from tests.classes import state_rules as rules
from tests.classes.state_inputs import board, board_state, course_modules, labels, played, played_positions, tree_state
from tests.classes.state_oracle import FUNCTIONS, correct_handins, expected_verdicts, iter_handins, judge_handin, load

EXPECTED = expected_verdicts()
HANDINS = {path.stem: path for path in iter_handins()}
CORRECT = correct_handins()

game_api, toytree = course_modules()
tree = toytree.tree


def pieces(position: Any, is_max: bool) -> int:
    """A heuristic written for these cases: the pieces on the board, for the maximizer when it is to move."""
    return position.count_pieces() if is_max else -position.count_pieces()


# A: max; B and C: min. B = min(3, 5) = 3, C = min(2, 9) = 2, so A plays B: A-B-D, 3, four leaves. Alpha-beta:
# B's two leaves (beta 3 after D), alpha = 3, then F = 2 <= alpha cuts C: three leaves.
T1 = tree("A", 0, tree("B", 4, tree("D", 3), tree("E", 5)), tree("C", 6, tree("F", 2), tree("G", 9)))
# C's first leaf equals alpha: alpha >= beta cuts there, `>` does not.
T3 = tree("A", None, tree("B", None, tree("D", 3), tree("E", 5)), tree("C", None, tree("F", 3), tree("G", 9)))
T_NEGATIVE = tree("A", None, tree("B", -3), tree("C", -1))
T_TIE = tree("A", None, tree("B", 2), tree("C", 2))
# A drawn full board: no four anywhere.
DRAWN = "1122112/2211221/1122112/2211221/1122112/2211221"
# A full board with a four along the top row.
WON_FULL = "1111222/2211221/1122112/2211221/1122112/2211221"
DIAGONAL = "01122326333"  # the first player's four from (0, 5) up to (3, 2), its last piece at (3, 2)
THREE_LOW = "102132"  # the first player to move, with 1-1-1 on the bottom row: column 4 wins


def _alphabeta(node: Any) -> Callable[[ModuleType], Any]:
    return lambda m: labels(m.minimax_search_alphabeta(tree_state(node), -game_api.INF, game_api.INF))


CASES: dict[str, tuple[Callable[[ModuleType], Any], Any]] = {
    "dfs on T1: the best leaf, 9": (lambda m: labels(m.dfs_maximizing(tree_state(T1))), (["A", "C", "G"], 9, 4)),
    "dfs on negative leaves": (lambda m: labels(m.dfs_maximizing(tree_state(T_NEGATIVE))), (["A", "C"], -1, 2)),
    "endgame search on T1": (lambda m: labels(m.minimax_endgame_search(tree_state(T1))), (["A", "B", "D"], 3, 4)),
    "minimax on T1, depth 2": (
        lambda m: labels(m.minimax_search(tree_state(T1), toytree.tree_heuristic, 2, True)),
        (["A", "B", "D"], 3, 4),
    ),
    "minimax on T1, depth 1": (
        lambda m: labels(m.minimax_search(tree_state(T1), toytree.tree_heuristic, 1, True)),
        (["A", "C"], 6, 2),
    ),
    "minimax keeps the first of equal moves": (
        lambda m: labels(m.minimax_search(tree_state(T_TIE))),
        (["A", "B"], 2, 2),
    ),
    "alpha-beta on T1 cuts G": (_alphabeta(T1), (["A", "B", "D"], 3, 3)),
    "alpha-beta on T1, depth 1": (
        lambda m: labels(
            m.minimax_search_alphabeta(tree_state(T1), -game_api.INF, game_api.INF, toytree.tree_heuristic, 1)
        ),
        (["A", "C"], 6, 2),
    ),
    "alpha-beta cuts when alpha equals beta": (_alphabeta(T3), (["A", "B", "D"], 3, 3)),
    "progressive deepening minimizing at depth 1": (
        lambda m: [
            labels(answer)
            for answer in m.progressive_deepening(tree_state(T1), toytree.tree_heuristic, 1, False).history
        ],
        [(["A", "B"], 4, 2)],
    ),
    "minimax at depth 1 asks the heuristic for the side to move there": (
        lambda m: m.minimax_search(board_state(m, played("")), pieces, 1, True)[1:],
        (-1, 7),
    ),
    "minimax takes a win one move away": (
        lambda m: m.minimax_search(board_state(m, played(THREE_LOW)), pieces, 1, True)[1:],
        (1000, 7),
    ),
    "game over on a drawn full board": (lambda m: bool(m.is_game_over_connectfour(board(DRAWN))), True),
    "game over on a diagonal four": (lambda m: bool(m.is_game_over_connectfour(played(DIAGONAL))), True),
    "no boards after a win": (lambda m: list(m.next_boards_connectfour(played(DIAGONAL))), []),
    "the first next board has its piece in column 0": (
        lambda m: m.next_boards_connectfour(played(""))[0].board_array[5][0],
        1,
    ),
    "a full board with a four is a loss for the side to move": (
        lambda m: m.endgame_score_connectfour(board(WON_FULL), True),
        -1000,
    ),
    "a diagonal four, the maximizer not to move": (
        lambda m: m.endgame_score_connectfour(played(DIAGONAL), False),
        1000,
    ),
    "heuristic: one piece each": (lambda m: m.heuristic_connectfour(played("06"), True), 0),
    "heuristic for the minimizer after one piece": (lambda m: m.heuristic_connectfour(played("3"), False), 1),
}

# (hand-in, its defective function as planted, the hand-written case it fails).
PLANTED = [
    ("nadia", "dfs_maximizing", "dfs on T1: the best leaf, 9"),
    ("nadia", "minimax_endgame_search", "endgame search on T1"),
    ("oscar", "minimax_search", "minimax on T1, depth 2"),
    ("priya", "minimax_search", "minimax on T1, depth 1"),
    ("priya", "minimax_search_alphabeta", "alpha-beta on T1, depth 1"),
    ("quinn", "minimax_search_alphabeta", "alpha-beta cuts when alpha equals beta"),
    ("rosa", "minimax_endgame_search", "endgame search on T1"),
    ("sven", "heuristic_connectfour", "heuristic: one piece each"),
    ("tara", "heuristic_connectfour", "heuristic for the minimizer after one piece"),
    ("uma", "dfs_maximizing", "dfs on negative leaves"),
    ("vic", "minimax_search", "minimax keeps the first of equal moves"),
    ("wen", "endgame_score_connectfour", "a full board with a four is a loss for the side to move"),
    ("xiu", "progressive_deepening", "progressive deepening minimizing at depth 1"),
    ("yara", "is_game_over_connectfour", "game over on a diagonal four"),
    ("zeno", "endgame_score_connectfour", "a diagonal four, the maximizer not to move"),
    ("amara", "minimax_search_alphabeta", "alpha-beta on T1 cuts G"),
    ("bruno", "minimax_search", "minimax takes a win one move away"),
    ("cleo", "next_boards_connectfour", "no boards after a win"),
    ("dev", "is_game_over_connectfour", "game over on a drawn full board"),
    ("emil", "minimax_search_alphabeta", "alpha-beta on T1 cuts G"),
    ("farah", "minimax_search", "minimax at depth 1 asks the heuristic for the side to move there"),
    ("hiro", "next_boards_connectfour", "the first next board has its piece in column 0"),
]


def _answers(module: ModuleType, case: str) -> bool:
    call, expected = CASES[case]
    try:
        return bool(call(module) == expected)
    except Exception:
        return False


def test_the_class_is_large_enough_and_every_handin_has_an_expectation() -> None:
    assert set(HANDINS) == set(EXPECTED)
    assert len(HANDINS) >= 30
    assert len(CORRECT) >= 10


@pytest.mark.parametrize("stem", CORRECT)
def test_a_correct_handin_answers_every_hand_written_case(stem: str) -> None:
    module = load(HANDINS[stem])
    assert [case for case in CASES if not _answers(module, case)] == []


@pytest.mark.parametrize(("stem", "function", "case"), PLANTED, ids=[f"{s}-{f}" for s, f, _ in PLANTED])
def test_a_planted_mistake_fails_its_case_and_the_oracle_names_it(stem: str, function: str, case: str) -> None:
    assert not _answers(load(HANDINS[stem]), case)
    verdict = EXPECTED[stem]
    assert function in verdict["defective"]
    assert function not in verdict.get("through", {}), "a planted mistake is the function's own"


def test_every_defect_the_oracle_names_is_planted_or_through_a_planted_one() -> None:
    planted: dict[str, set[str]] = {}
    for stem, function, _case in PLANTED:
        planted.setdefault(stem, set()).add(function)
    for stem, verdict in EXPECTED.items():
        own = set(verdict.get("defective", {})) - set(verdict.get("through", {}))
        assert own == planted.get(stem, set()), stem
        for function, others in verdict.get("through", {}).items():
            assert set(others) <= set(verdict["defective"]), (stem, function)


def test_the_handin_that_imports_a_missing_module_does_not_import() -> None:
    assert [stem for stem, verdict in EXPECTED.items() if not verdict["imports"]] == ["gil"]
    with pytest.raises(ModuleNotFoundError):
        load(HANDINS["gil"])


def test_the_oracles_rules_on_hand_written_positions() -> None:
    assert len(rules.WINDOWS) == 69
    diagonal = played(DIAGONAL)
    assert rules.won(diagonal.board_array)
    assert not rules.won(board(DRAWN).board_array) and rules.full(board(DRAWN).board_array)
    # After 0, 1, 1 (the first player at (0, 5) and (1, 4): a diagonal run of two; the second alone).
    array = played("011").board_array
    assert sorted(rules.chain_lengths(array, 1)) == [2]
    assert rules.chain_lengths(array, 2) == [1]
    assert rules.heuristic_value((array, 2), True) == 1 - 4
    assert rules.endgame_value(diagonal.board_array, True) == -1000
    finished = [p for p in played_positions() if rules.over(p[0])]
    assert any(rules.full(p[0]) and rules.won(p[0]) for p in finished), "a game won on its last cell"
    assert any(rules.full(p[0]) and not rules.won(p[0]) for p in finished), "a drawn game"


@pytest.fixture(scope="module")
def verdicts() -> dict[str, Any]:
    return {stem: judge_handin(path) for stem, path in HANDINS.items()}


@pytest.mark.parametrize("stem", sorted(HANDINS))
def test_oracle_matches_expected(stem: str, verdicts: dict[str, Any]) -> None:
    verdict, expected = verdicts[stem], EXPECTED[stem]
    assert verdict.imports == expected["imports"], verdict.import_error
    assert verdict.defects == expected.get("defective", {})
    assert verdict.through == expected.get("through", {})
    assert set(verdict.defects) <= set(FUNCTIONS)
