"""``%load_ext grader`` then ``%check lab05`` (or ``%check lab05 minimax-value``): the
in-notebook check as an IPython line magic."""

from __future__ import annotations

import shlex
from typing import Any

from grader.notebook.result_view import NotebookCheck
from grader.notebook.self_check import check

USAGE = "usage: %check ASSIGNMENT [CHECK_ID] (a built-in id such as lab05, a folder, or package.assignment)"


def check_magic(line: str) -> NotebookCheck:
    try:
        words = shlex.split(line)
    except ValueError as problem:
        return NotebookCheck.problem_only(line.strip(), f"{problem}; {USAGE}")
    if not 1 <= len(words) <= 2:
        return NotebookCheck.problem_only(line.strip() or "?", USAGE)
    return check(*words)


def load_ipython_extension(ipython: Any) -> None:
    ipython.register_magic_function(check_magic, magic_kind="line", magic_name="check")
