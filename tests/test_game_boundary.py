"""Only the modules about tic-tac-toe alone may name its board: the rest of the grader asks the
assignment's game (`reference.game`), so that nothing else assumes a board of nine cells.

A module names the board when it imports ``Board`` (or ``board_of``, which makes a position one)
from ``reference`` (any of its modules, any alias, inside a function too) or reaches either as
an attribute (``tictactoe.Board``). The list below is the modules that still do; it may only
shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grader

ROOT = Path(grader.__file__).parent

STILL_NAMING_THE_BOARD = {
    "checks/causes/explorations.py",  # tic-tac-toe alone: its alpha-beta traces, step by step
    "checks/causes/known_mistakes.py",  # tic-tac-toe alone: its named alpha-beta mistakes
    "checks/causes/root_cause.py",  # tic-tac-toe alone: a defect searched on its engine
}
"""The modules of ``grader/`` that still name tic-tac-toe's ``Board``."""


THE_BOARD = {"Board", "board_of"}


def _names_the_board(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "reference":
            if any(alias.name in THE_BOARD for alias in node.names):
                return True
        elif isinstance(node, ast.Attribute) and node.attr in THE_BOARD:
            return True
    return False


def _naming() -> set[str]:
    return {str(path.relative_to(ROOT)) for path in sorted(ROOT.rglob("*.py")) if _names_the_board(path)}


def test_only_the_listed_modules_name_the_board() -> None:
    assert _naming() - STILL_NAMING_THE_BOARD == set()


def test_the_list_is_no_longer_than_it_must_be() -> None:
    # A module that stopped naming the board leaves the list, so the count never rises again.
    assert STILL_NAMING_THE_BOARD - _naming() == set()
