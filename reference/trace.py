"""The exploration of a search: the positions it entered, in call order, root first.

A node count says how much a search explored; the exploration says what. Two searches with
the same count can still differ, and a search whose count is off is told apart from the
reference at the first position where they part. The traced search is the engine's
(``reference.engine``) with a hook that records one step per call of the search, root
included, so ``len(trace) == alphabeta(...).nodes``.

Each known alpha-beta mistake (``reference.mistakes``) is a set of rules for the same loop.
A mistake is named only when its whole exploration equals the student's step for step: a
node count can be matched by coincidence, a sequence of thousands of positions practically
cannot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reference.engine import CORRECT, NO_PRUNING, Cells, FailMode, MoveOrder, Rules
from reference.mistakes import SCOPED, Mistake, explored_mistakes
from reference.search import SearchSpec, root_mover, spec_search
from reference.tictactoe import Board

__all__ = [
    "MAX_STEPS",
    "Divergence",
    "StepRecorder",
    "Trace",
    "TraceEnds",
    "alphabeta_trace",
    "cause_sentence",
    "first_divergence",
    "fitting_mistakes",
    "minimax_trace",
    "rules_trace",
]

MAX_STEPS = 200_000
"""Traces stop here; past it node counts are compared as numbers (minimax from the empty
board visits 549,946 positions)."""


@dataclass(frozen=True)
class Trace:
    """The positions a search entered, as 9-character boards (``X``, ``O``, ``.``)."""

    steps: tuple[str, ...]
    complete: bool
    """False when the search went on past the cap: ``steps`` is then only its beginning."""


@dataclass(frozen=True)
class Divergence:
    """Where a student's exploration first parts from the reference's."""

    position: str
    """The board the counted call started from."""
    step: int
    """Index of the first differing step (the root is step 0)."""
    student: str | None
    """The student's board at that step; ``None`` when their search had already ended."""
    reference: str | None

    def as_dict(self) -> dict[str, object]:
        return {"position": self.position, "step": self.step, "student": self.student, "reference": self.reference}


class TraceEnds(Exception):
    """Ends a traced search early: the cap is reached or the expected trace is left."""


class StepRecorder:
    """The engine's ``on_enter`` hook that keeps the position of each node entered.

    With ``expected``, the search ends (:class:`TraceEnds`) at the first position that differs
    from it: a wrong explanation fails at its first wrong step instead of after exploring a
    tree that may be a hundred times larger.
    """

    def __init__(self, cap: int = MAX_STEPS, expected: Sequence[str] | None = None) -> None:
        self.cap = cap
        self.expected = expected
        self.steps: list[str] = []

    def __call__(self, cells: Cells, alpha: float, beta: float) -> None:
        step = "".join(cells)
        n = len(self.steps)
        if n >= self.cap or (self.expected is not None and (n >= len(self.expected) or self.expected[n] != step)):
            raise TraceEnds
        self.steps.append(step)


def rules_trace(
    board: Board,
    spec: SearchSpec,
    rules: Rules = CORRECT,
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
    expected: Sequence[str] | None = None,
    order: MoveOrder | None = None,
) -> Trace | None:
    """The exploration of the alpha-beta loop ``rules`` describe, from ``board``, in the spec's
    move order unless ``order`` (a fixed order, or one per node) or the rules say otherwise.

    With ``expected``, the search stops at the first step that differs from it and the
    answer is ``None``; the answer is a trace only when the whole exploration equals it.
    """
    if not alpha < beta:
        raise ValueError(f"alpha-beta needs alpha < beta, got alpha={alpha}, beta={beta}")
    recorder = StepRecorder(cap, expected)
    search = spec_search(spec, rules, fail=fail, order=order, window=(alpha, beta), on_enter=recorder)
    try:
        search.search(board.cells, root_mover(board, spec, to_move), spec.start_depth, alpha, beta)
    except TraceEnds:
        if expected is not None:
            return None
        return Trace(tuple(recorder.steps), complete=False)
    if expected is not None and len(recorder.steps) != len(expected):
        return None
    return Trace(tuple(recorder.steps), complete=True)


def alphabeta_trace(
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
) -> Trace:
    """The positions :func:`reference.search.alphabeta` enters, root first, at most ``cap``."""
    trace = rules_trace(board, spec, alpha=alpha, beta=beta, fail=fail, to_move=to_move, cap=cap)
    assert trace is not None  # no expected trace, so never abandoned
    return trace


def minimax_trace(
    board: Board, spec: SearchSpec = SearchSpec(), *, to_move: str | None = None, cap: int = MAX_STEPS
) -> Trace:
    """The positions :func:`reference.search.minimax` enters, root first, at most ``cap``."""
    trace = rules_trace(board, spec, NO_PRUNING, to_move=to_move, cap=cap)
    assert trace is not None
    return trace


def first_divergence(student: Sequence[str], reference: Sequence[str]) -> Divergence | None:
    """The first step where the two explorations differ, or ``None`` if there is none.

    Both must start from the same position. A trace that stopped at the cap only shows its
    beginning: ``None`` then means "equal as far as the shorter one goes".
    """
    if not reference:
        raise ValueError("the reference trace holds at least the root")
    for step, (mine, theirs) in enumerate(zip(student, reference)):
        if mine != theirs:
            return Divergence(reference[0], step, mine, theirs)
    step = min(len(student), len(reference))
    if len(student) == len(reference):
        return None
    return Divergence(
        reference[0],
        step,
        student[step] if step < len(student) else None,
        reference[step] if step < len(reference) else None,
    )


def fitting_mistakes(
    student: Sequence[str],
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
    mistakes: Sequence[Mistake] | None = None,
    order: MoveOrder | None = None,
) -> tuple[Mistake, ...]:
    """The mistakes whose whole exploration is the student's, in catalogue order.

    Empty when the student's exploration is the correct one, reached the cap (so is not
    whole), or no mistake reproduces it. Without ``mistakes``: the catalogue's, or where none
    fits, each of them in a part of the tree only (``reference.mistakes.SCOPED``). With
    ``order`` (the student's own, read from the trace), every mistake is replayed in that
    order and the order variants of the catalogue are not tried: the order is then the
    student's to choose.
    """
    if not student or len(student) >= cap:
        return ()

    def fits(rules: Rules) -> bool:
        trace = rules_trace(
            board,
            spec,
            rules,
            alpha=alpha,
            beta=beta,
            fail=fail,
            to_move=to_move,
            cap=cap,
            expected=student,
            order=order,
        )
        return trace is not None

    def tried(rules: Rules) -> bool:
        # An order variant that is the assignment's own order would only repeat the correct search.
        return rules.order is None if order is not None else rules.order != spec.move_order

    if fits(CORRECT):
        return ()

    def fitting(candidates: Sequence[Mistake]) -> tuple[Mistake, ...]:
        return tuple(m for m in candidates if m.clause is not None and any(tried(r) and fits(r) for r in m.rules))

    if mistakes is not None:
        return fitting(mistakes)
    return fitting(explored_mistakes()) or fitting(SCOPED)


def cause_sentence(mistakes: Sequence[Mistake]) -> str | None:
    """The words naming the mistakes that reproduce an exploration (all of them, when several do)."""
    clauses = [m.clause for m in mistakes if m.clause is not None]
    if not clauses:
        return None
    return (
        "Your search explored exactly the positions of an alpha-beta in which " + "; or in which ".join(clauses) + "."
    )
