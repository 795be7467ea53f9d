"""Answers for a solution's `input()` game loop, found by running it.

Each run's scripted-input transcript says what was asked; the next run answers each prompt by
what it asks: a yes/no question (play again?) gets "n", a choice of mark gets "X", a row or a
column gets the next cell's, anything else the next cell in the move format being tried.
Cells are tried in order, so a program that re-asks after an occupied cell still finishes.
It stops when a run completes with every cell clean, or after a few runs, saying why.

This is the first run of the solution, before anything is known of its game. A prompt that
states the range of its answer (``Choose a column (0-6):``, ``Your square (1-9):``) is answered
within it, in turn, whatever the game; the move styles, tic-tac-toe's nine cells, answer the
prompts that do not. A program on another game whose prompts give no range is given its
answers with ``--stdin``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from nbformat import NotebookNode

from grader.execution.result import ExecutionResult
from grader.execution.session import ExecutionOptions, NotebookSession

MAX_RUNS = 6
RUNS_PER_STYLE = 2
SPARE_ANSWERS = 9
"""Answers written beyond those the solution's run used: a submission that misses a win plays on."""
_PADDING_GAMES = 4
"""Moves offered past the last prompt seen: this many passes over the nine cells."""

_YES_NO = re.compile(r"\b(again|y/n|yes|\(y|continue|replay|another)\b", re.I)
_MARK = re.compile(r"\b(x\s*(or|/)\s*o|o\s*(or|/)\s*x|symbol|marker|which mark)\b", re.I)
_ROW = re.compile(r"\brow\b", re.I)
_COL = re.compile(r"\bcol(umn)?\b", re.I)
_RANGE = re.compile(r"(?<![\d.])(\d{1,2})\s*(?:-|–|to|\.\.)\s*(\d{1,2})(?![\d.])")
"""A stated range of answers, ``0-6``, ``(1 - 7)``, ``1 to 9``."""
_RANGE_MOST = 50

MOVE_STYLES: dict[str, tuple[str, ...]] = {
    "cells 1-9": tuple(str(c + 1) for c in range(9)),
    "cells 0-8": tuple(str(c) for c in range(9)),
    "row col from 0": tuple(f"{c // 3} {c % 3}" for c in range(9)),
    "row,col from 0": tuple(f"{c // 3},{c % 3}" for c in range(9)),
    "row col from 1": tuple(f"{c // 3 + 1} {c % 3 + 1}" for c in range(9)),
    "row,col from 1": tuple(f"{c // 3 + 1},{c % 3 + 1}" for c in range(9)),
}


@dataclass(frozen=True)
class StdinSearch:
    """How the answers were found (or why none were)."""

    answers: tuple[str, ...] | None
    """The answers the successful run consumed and one more pass over the cells, for a
    submission whose game lasts longer (empty: the notebook asks nothing); None when
    no run completed."""
    explanation: str
    runs: int


class PromptAnswerer:
    """The answer to each prompt in turn, for one move style."""

    def __init__(self, style: str) -> None:
        self.moves = _cycle(MOVE_STYLES[style])
        self.cells = _cycle(tuple(str(c) for c in range(9)))
        self.base = 1 if style.endswith("from 1") else 0
        self.pending_col: str | None = None
        self.ranges: dict[tuple[int, int], Iterator[str]] = {}

    def answer(self, prompt: str) -> str:
        if _YES_NO.search(prompt):
            return "n"
        if _MARK.search(prompt):
            return "X"
        if _ROW.search(prompt) and not _COL.search(prompt):
            cell = int(next(self.cells))
            self.pending_col = str(cell % 3 + self.base)
            return str(cell // 3 + self.base)
        if _COL.search(prompt) and not _ROW.search(prompt) and self.pending_col is not None:
            col, self.pending_col = self.pending_col, None
            return col
        stated = _stated_range(prompt)
        if stated is not None:
            if stated not in self.ranges:
                self.ranges[stated] = _cycle(tuple(str(n) for n in range(stated[0], stated[1] + 1)))
            return next(self.ranges[stated])
        return next(self.moves)

    def padding(self) -> list[str]:
        return [next(self.moves) for _ in range(9 * _PADDING_GAMES)]


def _stated_range(prompt: str) -> tuple[int, int] | None:
    """The range of answers a prompt states (``(0-6)`` -> 0, 6); None when it states none, or
    one that is no choice of a move (backwards, or wider than any board's)."""
    found = _RANGE.search(prompt)
    if found is None:
        return None
    low, high = int(found[1]), int(found[2])
    return (low, high) if low < high and high - low < _RANGE_MOST else None


def _cycle(items: Sequence[str]) -> Iterator[str]:
    while True:
        yield from items


def _needs_input(execution: ExecutionResult) -> bool:
    return any(e.answer is None for e in execution.stdin_transcript)


def _input_trouble(execution: ExecutionResult) -> bool:
    """Whether what went wrong is about the answers: input ran out, or a cell that asked for
    input failed (an answer it could not read)."""
    asked = {e.cell_index for e in execution.stdin_transcript}
    return _needs_input(execution) or any(c.index in asked for c in execution.failed_cells)


@contextmanager
def run_with_answers(
    notebook: NotebookNode, options: ExecutionOptions
) -> Iterator[tuple[NotebookSession, ExecutionResult, StdinSearch]]:
    """Run the notebook with answers for its input() calls until a run completes, and yield
    that run's session (open until the block ends), its execution and how the answers were
    found. A run whose trouble is not about input (or the last run) is handed over as it is,
    with ``answers`` None if it needed more."""
    runs = 0
    last_problem = ""
    for style in MOVE_STYLES:
        prompts: list[str] = []
        for _ in range(RUNS_PER_STYLE):
            answerer = PromptAnswerer(style)
            answers = [answerer.answer(p) for p in prompts] + answerer.padding()
            runs += 1
            with NotebookSession(notebook, dataclasses.replace(options, stdin=tuple(answers))) as session:
                execution = session.execute()
                transcript = execution.stdin_transcript
                consumed = tuple(e.answer for e in transcript if e.answer is not None)
                if not _input_trouble(execution):
                    words = f"{len(consumed)} answers ({style}) complete the run" if consumed else "no input asked"
                    kept = tuple(answers[: len(consumed) + SPARE_ANSWERS]) if consumed else ()
                    yield session, execution, StdinSearch(kept, words, runs)
                    return
                failed = [c for c in execution.failed_cells if c.index in {e.cell_index for e in transcript}]
                if failed and not _needs_input(execution):
                    cell = failed[0]
                    last_problem = (
                        f"with moves as {style}, cell {cell.number} stopped: {cell.error_name}: {cell.error_message}"
                    )
                else:
                    last_problem = f"with moves as {style}, the game asked for more than {len(answers)} answers"
                if runs >= MAX_RUNS:
                    why = f"no answers completed the run ({runs} tries); last: {last_problem}"
                    yield session, execution, StdinSearch(None, why, runs)
                    return
            seen = [e.prompt for e in transcript]
            if seen == prompts:
                break
            prompts = seen
    raise AssertionError("unreachable: the last run returns")
