"""The course with a support module (`support-toygame/`): a tic-tac-toe lab whose solution and
handout import the course's ``toygame.py``, and a student's tampered copy of that module."""

from __future__ import annotations

from pathlib import Path

COURSE = Path(__file__).parent / "support-toygame"
MODULE = COURSE / "toygame.py"

_LINES_LOOP = "    for a, b, c in LINES:\n"


def tampered_module() -> str:
    """``toygame.py`` as a student edits it: its ``winner`` never sees a diagonal, so that a right
    minimax that imports it answers wrong wherever a diagonal decides the game."""
    source = MODULE.read_text(encoding="utf-8")
    assert source.count(_LINES_LOOP) == 1, "toygame.py changed: update the tampering"
    return source.replace(_LINES_LOOP, "    for a, b, c in LINES[:6]:  # the diagonals never win\n")
