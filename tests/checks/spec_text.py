"""The head of a small ``assignment.toml`` that tests write out: the ``[assignment]`` table and a
board of a flat list of ``" "``/``"X"``/``"O"`` cells, moves named by their index."""

from __future__ import annotations


def flat_list_assignment(assignment_id: str, title: str, *, maximizer: str) -> str:
    """``[assignment]`` and ``[board]`` for a unit-scored tic-tac-toe course that X opens."""
    return f"""
[assignment]
id = "{assignment_id}"
title = "{title}"
maximizer = "{maximizer}"
first_player = "X"
scoring = "unit"
move = "index"

[board]
layout = "flat"
container = "list"
empty = " "
x = "X"
o = "O"
"""
