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

import hashlib
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
    "reproduces",
    "rules_trace",
    "steps_digest",
    "whole_exploration",
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
        self.left_at: str | None = None
        """The step the search took where it left ``expected`` (None: it did not)."""

    def __call__(self, cells: Cells, alpha: float, beta: float) -> None:
        step = "".join(cells)
        n = len(self.steps)
        if n >= self.cap:
            raise TraceEnds
        if self.expected is not None and (n >= len(self.expected) or self.expected[n] != step):
            self.left_at = step
            raise TraceEnds
        self.steps.append(step)

    def repeat(self, start: int, count: int) -> None:
        """The engine's ``on_repeat`` hook: the ``count`` steps from ``start`` on are entered
        again. They are taken as :meth:`__call__` would take them one by one: the search ends
        at the cap, or at the first one that leaves ``expected``."""
        steps = self.steps
        n = len(steps)
        again = steps[start : start + count]
        within = again[: max(self.cap - n, 0)]
        if self.expected is not None:
            theirs = self.expected[n : n + len(within)]
            if len(theirs) != len(within) or list(theirs) != within:
                for index, step in enumerate(within):
                    if index >= len(theirs) or theirs[index] != step:
                        steps.extend(within[:index])
                        self.left_at = step
                        raise TraceEnds
        steps.extend(within)
        if len(within) < count:
            raise TraceEnds


@dataclass(frozen=True)
class _RuleSearch:
    """One exploration of the alpha-beta loop ``rules`` describe: what decides it."""

    board: Board
    spec: SearchSpec
    rules: Rules
    alpha: float
    beta: float
    fail: FailMode
    to_move: str | None
    order: MoveOrder | None

    def run(self, recorder: StepRecorder) -> bool:
        """Run the search with ``recorder`` watching; False when the recorder ended it."""
        if not self.alpha < self.beta:
            raise ValueError(f"alpha-beta needs alpha < beta, got alpha={self.alpha}, beta={self.beta}")
        window = (self.alpha, self.beta)
        search = spec_search(
            self.spec,
            self.rules,
            fail=self.fail,
            order=self.order,
            window=window,
            on_enter=recorder,
            on_repeat=recorder.repeat,
        )
        mover = root_mover(self.board, self.spec, self.to_move)
        try:
            search.search(self.board.cells, mover, self.spec.start_depth, self.alpha, self.beta)
        except TraceEnds:
            return False
        return True

    def known_key(self, cap: int) -> tuple[object, ...] | None:
        """What it is remembered by (None: not remembered)."""
        if self.order is not None and not isinstance(self.order, tuple):
            return None  # an order read from one student's exploration is that student's only
        return (
            self.board.cells,
            self.spec,
            self.rules,
            self.alpha,
            self.beta,
            self.fail,
            self.to_move,
            cap,
            self.order,
        )


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
    recorder = StepRecorder(cap, expected)
    if not _RuleSearch(board, spec, rules, alpha, beta, fail, to_move, order).run(recorder):
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

    digest = steps_digest(student)

    def fits(rules: Rules) -> bool:
        return reproduces(
            student,
            digest,
            board,
            spec,
            rules,
            alpha=alpha,
            beta=beta,
            fail=fail,
            to_move=to_move,
            cap=cap,
            order=order,
        )

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


# -- what a rule set explores, remembered across a process -------------------------------

_KNOWN_LIMIT = 4096
"""Rule sets' explorations remembered (a few dozen bytes each); the oldest are forgotten first."""


@dataclass(frozen=True)
class _Known:
    """What is known of one rule set's exploration from one position: the whole of it (as a
    digest), or its first ``steps`` steps (as a digest) and the one it took next."""

    steps: int
    digest: bytes
    next_step: str | None = None
    """None: the exploration is whole, ``steps`` long."""
    complete: bool = True
    """False: the exploration goes on past the cap."""

    def fits(self, student: Sequence[str], digest: bytes) -> bool | None:
        """Whether the exploration is ``student``'s (``digest``: its :func:`steps_digest`);
        None when what is known cannot tell."""
        if self.next_step is None:
            return self.complete and self.digest == digest
        n = self.steps
        if len(student) <= n or student[n] != self.next_step:
            return False
        return None if steps_digest(student[:n]) == self.digest else False


_known: dict[tuple[object, ...], _Known] = {}
"""(position, spec, rules, window, fail mode, side, cap, order) -> what is known of that
exploration. It depends on none of the students: once known, another student's exploration
in the class is compared with it instead of searching again."""


def steps_digest(steps: Sequence[str]) -> bytes:
    """A digest of an exploration, to compare it with a remembered one without keeping it."""
    return hashlib.blake2b("\n".join(steps).encode(), digest_size=16).digest()


def _remember(key: tuple[object, ...] | None, known: _Known) -> None:
    if key is None:
        return
    _known.pop(key, None)
    if len(_known) >= _KNOWN_LIMIT:
        del _known[next(iter(_known))]
    _known[key] = known


def reproduces(
    student: Sequence[str],
    digest: bytes,
    board: Board,
    spec: SearchSpec,
    rules: Rules,
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
    order: MoveOrder | None = None,
) -> bool:
    """Whether the whole exploration of ``rules`` is ``student`` (``digest``: its
    :func:`steps_digest`). What is known of it from an earlier student usually answers;
    otherwise the search stops at its first step that is not the student's, and what it
    showed is remembered."""
    search = _RuleSearch(board, spec, rules, alpha, beta, fail, to_move, order)
    key = search.known_key(cap)
    known = None if key is None else _known.get(key)
    answer = None if known is None else known.fits(student, digest)
    if answer is not None:
        return answer
    recorder = StepRecorder(cap, student)
    finished = search.run(recorder)
    n = len(recorder.steps)
    if finished:
        _remember(key, _Known(n, digest if n == len(student) else steps_digest(recorder.steps)))
        return n == len(student)
    if recorder.left_at is None:  # past the cap
        _remember(key, _Known(n, b"", complete=False))
    else:
        _remember(key, _Known(n, steps_digest(student[:n]), recorder.left_at))
    return False


def whole_exploration(
    board: Board,
    spec: SearchSpec,
    rules: Rules,
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    to_move: str | None = None,
    order: MoveOrder | None = None,
) -> bytes | None:
    """The digest of the whole exploration of ``rules``, ``None`` past :data:`MAX_STEPS`."""
    key = _RuleSearch(board, spec, rules, alpha, beta, "soft", to_move, order).known_key(MAX_STEPS)
    known = None if key is None else _known.get(key)
    if known is None or known.next_step is not None:
        trace = rules_trace(board, spec, rules, alpha=alpha, beta=beta, to_move=to_move, order=order)
        assert trace is not None  # no expected trace, so never abandoned
        known = _Known(len(trace.steps), steps_digest(trace.steps), complete=trace.complete)
        _remember(key, known)
    return known.digest if known.complete else None


def cause_sentence(mistakes: Sequence[Mistake]) -> str | None:
    """The words naming the mistakes that reproduce an exploration (all of them, when several do)."""
    clauses = [m.clause for m in mistakes if m.clause is not None]
    if not clauses:
        return None
    return (
        "Your search explored exactly the positions of an alpha-beta in which " + "; or in which ".join(clauses) + "."
    )
