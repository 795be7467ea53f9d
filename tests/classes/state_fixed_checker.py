"""A fixed-assert checker of the state-objects games lab, shaped like MIT 6.034's own tester: each check one call
on a board or a toy tree written out here, its answer written out too (the boards, trees and code are this
project's own). Searches on Connect Four are given the state the lab's program makes, from the hand-in's own
board functions, as the course's tests do.

It is the yardstick the grader is measured against on the `state_lab/` class: which defects fixed asserts
catch, which correct functions they fail, and how long the class takes, each hand-in in a fresh interpreter.

    .venv/bin/python -m tests.classes.state_fixed_checker            # figures for the class
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.classes.fixed_checker import FixedCheck, in_fresh_interpreter, run_fixed_checks
from tests.classes.state_inputs import board, board_state, course_modules, labels, played, tree_state
from tests.classes.state_oracle import CLASS_DIR, expected_verdicts, iter_handins, load

game_api, toytree = course_modules()
tree, INF = toytree.tree, game_api.INF


EMPTY = "......./......./......./......./......./......."
DRAWN = "1122112/2211221/1122112/2211221/1122112/2211221"
ACROSS = "......./......./......./......./2222.../1111..1"  # the first player's four along the bottom
DOWN = "......./......./..1..../..1.2../..1.2../..1.2.."  # the first player's four up column 2
DIAGONAL = "01122326333"  # moves: the first player's four from (0, 5) up to (3, 2)
MIDDLE = "3342"  # moves: a game under way
NEARLY_OVER = "11..1.2/2211221/1122112/2211221/1122112/2211221"  # three cells left, the second player to move
COLUMN_3_FULL = "333333"

GAME1 = tree("A", 0, tree("B", 4, tree("D", 3), tree("E", 5)), tree("C", 6, tree("F", 2), tree("G", 9)))
GAME_EQUAL = tree("A", None, tree("B", None, tree("D", 3), tree("E", 5)), tree("C", None, tree("F", 3), tree("G", 9)))
GAME_NEGATIVE = tree("A", None, tree("B", -3), tree("C", -1))
GAME_DEEP = tree(
    "A",
    1,
    tree("B", 2, tree("E", 0, tree("K", 4), tree("L", -2)), tree("F", 5, tree("M", 1), tree("N", 7))),
    tree("C", -1, tree("G", 3, tree("O", 6), tree("P", 0)), tree("H", 2, tree("Q", -5))),
    tree("D", 0, tree("I", 8), tree("J", 4, tree("R", 2), tree("S", 3))),
)


def outline(answer: Any) -> tuple[int, Any, Any]:
    """A search on Connect Four as the course's tests compare it: the path's length, the score, the evaluations."""
    path, score, evaluations = answer
    return len(path), score, evaluations


def _pieces_at(boards: Any, col: int, row: int) -> bool:
    return boards[0].get_piece(col, row) is not None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _antisymmetric(m: ModuleType, position: Any) -> bool:
    return bool(m.heuristic_connectfour(position, True) == -m.heuristic_connectfour(position, False))


def _history(m: ModuleType, node: Any, depth: int, maximize: bool) -> list[Any]:
    anytime = m.progressive_deepening(tree_state(node), toytree.tree_heuristic, depth, maximize)
    return [labels(answer) for answer in anytime.history]


# (function, what is checked, the check): each returns True when the hand-in passes.
CHECKS: tuple[FixedCheck, ...] = (
    ("is_game_over_connectfour", "the empty board", lambda m: not m.is_game_over_connectfour(board(EMPTY))),
    ("is_game_over_connectfour", "a game under way", lambda m: not m.is_game_over_connectfour(played(MIDDLE))),
    ("is_game_over_connectfour", "a drawn full board", lambda m: bool(m.is_game_over_connectfour(board(DRAWN)))),
    ("is_game_over_connectfour", "four across", lambda m: bool(m.is_game_over_connectfour(board(ACROSS)))),
    ("is_game_over_connectfour", "four down", lambda m: bool(m.is_game_over_connectfour(board(DOWN)))),
    ("is_game_over_connectfour", "four diagonally", lambda m: bool(m.is_game_over_connectfour(played(DIAGONAL)))),
    (
        "next_boards_connectfour",
        "seven from the empty board",
        lambda m: len(m.next_boards_connectfour(board(EMPTY))) == 7,
    ),
    (
        "next_boards_connectfour",
        "column 0 first",
        lambda m: _pieces_at(m.next_boards_connectfour(board(EMPTY)), 0, 5),
    ),
    (
        "next_boards_connectfour",
        "none into a full column",
        lambda m: len(m.next_boards_connectfour(played(COLUMN_3_FULL))) == 6,
    ),
    ("next_boards_connectfour", "none after a win", lambda m: list(m.next_boards_connectfour(board(ACROSS))) == []),
    (
        "endgame_score_connectfour",
        "a loss for the side to move",
        lambda m: m.endgame_score_connectfour(board(ACROSS), True) == -1000,
    ),
    (
        "endgame_score_connectfour",
        "a win for the maximizer",
        lambda m: m.endgame_score_connectfour(board(ACROSS), False) == 1000,
    ),
    ("endgame_score_connectfour", "0 for a draw", lambda m: m.endgame_score_connectfour(board(DRAWN), True) == 0),
    (
        "endgame_score_connectfour",
        "a diagonal win",
        lambda m: m.endgame_score_connectfour(played(DIAGONAL), True) == -1000,
    ),
    ("heuristic_connectfour", "a number", lambda m: _number(m.heuristic_connectfour(played(MIDDLE), True))),
    ("heuristic_connectfour", "minus itself for the other side", lambda m: _antisymmetric(m, played(MIDDLE))),
    ("heuristic_connectfour", "minus itself after one move", lambda m: _antisymmetric(m, played("3"))),
    ("dfs_maximizing", "GAME1", lambda m: labels(m.dfs_maximizing(tree_state(GAME1))) == (["A", "C", "G"], 9, 4)),
    (
        "dfs_maximizing",
        "leaves all below zero",
        lambda m: labels(m.dfs_maximizing(tree_state(GAME_NEGATIVE))) == (["A", "C"], -1, 2),
    ),
    (
        "dfs_maximizing",
        "a board nearly over",
        lambda m: outline(m.dfs_maximizing(board_state(m, board(NEARLY_OVER)))) == (4, 0, 6),
    ),
    (
        "minimax_endgame_search",
        "GAME1, maximizing",
        lambda m: labels(m.minimax_endgame_search(tree_state(GAME1), True)) == (["A", "B", "D"], 3, 4),
    ),
    (
        "minimax_endgame_search",
        "GAME1, minimizing",
        lambda m: labels(m.minimax_endgame_search(tree_state(GAME1), False)) == (["A", "B", "E"], 5, 4),
    ),
    (
        "minimax_endgame_search",
        "a board nearly over",
        lambda m: outline(m.minimax_endgame_search(board_state(m, board(NEARLY_OVER)), False)) == (4, 0, 6),
    ),
    (
        "minimax_search",
        "GAME1 at depth 1",
        lambda m: labels(m.minimax_search(tree_state(GAME1), toytree.tree_heuristic, 1, True)) == (["A", "C"], 6, 2),
    ),
    (
        "minimax_search",
        "GAME_DEEP at depth 2",
        lambda m: (
            labels(m.minimax_search(tree_state(GAME_DEEP), toytree.tree_heuristic, 2, True)) == (["A", "D", "J"], 4, 6)
        ),
    ),
    (
        "minimax_search",
        "GAME_DEEP to the end",
        lambda m: labels(m.minimax_search(tree_state(GAME_DEEP))) == (["A", "B", "E", "K"], 4, 10),
    ),
    (
        "minimax_search",
        "a board nearly over at depth 1",
        lambda m: (
            outline(m.minimax_search(board_state(m, board(NEARLY_OVER)), game_api.always_zero, 1, False)) == (2, 0, 3)
        ),
    ),
    (
        "minimax_search_alphabeta",
        "GAME1",
        lambda m: labels(m.minimax_search_alphabeta(tree_state(GAME1))) == (["A", "B", "D"], 3, 3),
    ),
    (
        "minimax_search_alphabeta",
        "a cut-off where alpha equals beta",
        lambda m: labels(m.minimax_search_alphabeta(tree_state(GAME_EQUAL))) == (["A", "B", "D"], 3, 3),
    ),
    (
        "minimax_search_alphabeta",
        "GAME_DEEP to the end",
        lambda m: labels(m.minimax_search_alphabeta(tree_state(GAME_DEEP))) == (["A", "B", "E", "K"], 4, 10),
    ),
    (
        "minimax_search_alphabeta",
        "GAME_DEEP at depth 2",
        lambda m: (
            labels(m.minimax_search_alphabeta(tree_state(GAME_DEEP), -INF, INF, toytree.tree_heuristic, 2))
            == (["A", "D", "J"], 4, 6)
        ),
    ),
    (
        "progressive_deepening",
        "GAME_DEEP to depth 2",
        lambda m: _history(m, GAME_DEEP, 2, True) == [(["A", "B"], 2, 3), (["A", "D", "J"], 4, 6)],
    ),
    (
        "progressive_deepening",
        "GAME1 minimizing at depth 1",
        lambda m: _history(m, GAME1, 1, False) == [(["A", "B"], 4, 2)],
    ),
)


def _load_quietly(path: Path) -> ModuleType:
    with contextlib.redirect_stdout(io.StringIO()):
        return load(path)


def run_checks(path: Path) -> dict[str, Any]:
    """Every check on one hand-in, in this process: file (1), import (1) and the calls."""
    quiet = [(f, w, (lambda m, c=c: _quietly(c, m))) for f, w, c in CHECKS]
    return run_fixed_checks(path, quiet, _load_quietly)


def _quietly(check: Callable[[ModuleType], bool], module: ModuleType) -> bool:
    with contextlib.redirect_stdout(io.StringIO()):
        return check(module)


def check_handin(path: Path) -> list[tuple[str, str, bool]]:
    """The checks on one hand-in in a fresh interpreter, as a course's tester runs them."""
    return in_fresh_interpreter("tests.classes.state_fixed_checker", path)


def class_figures(stems: list[str] | None = None, jobs: int = 2) -> str:
    expected = expected_verdicts()
    paths = [p for p in iter_handins() if stems is None or p.stem in stems]
    started = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        results = dict(zip((p.stem for p in paths), pool.map(check_handin, paths)))
    seconds = time.monotonic() - started
    caught = defects = full = correct = 0
    lines: list[str] = []
    for stem, outcomes in results.items():
        verdict = expected[stem]
        if not verdict["imports"]:
            continue
        failed = {function for function, _what, passed in outcomes if not passed}
        defective = set(verdict.get("defective", {}))
        through = set(verdict.get("through", {}))
        own = defective - through
        defects += len(own)
        caught += len(own & failed)
        lines += [f"    missed {stem}: {f}" for f in sorted(own - failed)]
        lines += [f"    charged twice {stem}: {f}" for f in sorted(through & failed)]
        lines += [f"    correct function failed {stem}: {f}" for f in sorted(failed - defective - {"file"})]
        if not defective:
            correct += 1
            full += not failed
    return "\n".join(
        [
            f"fixed-assert checker ({len(CHECKS) + 2} checks), {len(paths)} hand-ins of {CLASS_DIR.name}:",
            f"  own defects caught: {caught} of {defects}",
            f"  correct hand-ins at full marks: {full} of {correct}",
            f"  correct functions failed: {sum('correct function failed' in line for line in lines)}",
            f"  inherited mistakes charged twice: {sum('charged twice' in line for line in lines)}",
            *lines,
            f"  whole class in {seconds:.1f} s ({jobs} at a time, a fresh interpreter each)",
        ]
    )


def main(argv: list[str]) -> int:
    if argv[:1] == ["one"]:
        print(json.dumps(run_checks(Path(argv[1]))))
        return 0
    print(class_figures(argv or None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
