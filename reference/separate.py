"""Telling apart mistakes that explore alike from one window, by a call with another.

From the full window, a search that hands every child the initial window and one that never
cuts off enter the same positions: every node's window is ``(-inf, inf)`` in both, so nothing
prunes. From a narrow root window they part: the first prunes against that window, the
second still prunes nothing. Asking the student's search for the same position with a
window under which the candidates' explorations differ, and keeping the candidates whose
exploration from that window is the student's, names the one the evidence confirms.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference.engine import MoveOrder
from reference.mistakes import Mistake
from reference.search import SearchSpec, minimax
from reference.tictactoe import Board
from reference.trace import MAX_STEPS, reproduces, steps_digest, whole_exploration

__all__ = ["confirmed", "separating_window"]

Window = tuple[float, float]


def _windows(board: Board, spec: SearchSpec, to_move: str | None) -> tuple[Window, ...]:
    """Narrow windows around the position's value: the value just above, just below, inside."""
    value = minimax(board, spec, to_move=to_move).value
    return ((value - 1, value + 1), (value - 1, value), (value, value + 1))


def _exploration(
    board: Board, spec: SearchSpec, mistake: Mistake, window: Window, to_move: str | None, order: MoveOrder | None
) -> bytes | None:
    """The first rule set's exploration (the others are the same mistake written another way),
    as a digest: only whether two are equal matters here; ``None`` past the cap."""
    return whole_exploration(
        board, spec, mistake.rules[0], alpha=window[0], beta=window[1], to_move=to_move, order=order
    )


def separating_window(
    board: Board,
    spec: SearchSpec,
    mistakes: Sequence[Mistake],
    *,
    to_move: str | None = None,
    order: MoveOrder | None = None,
) -> Window | None:
    """The narrow root window under which the mistakes' explorations from ``board`` fall into
    the most groups (all different, at best); ``None`` when no window tells any two apart."""
    best: tuple[int, Window] | None = None
    for window in _windows(board, spec, to_move):
        explorations = {_exploration(board, spec, m, window, to_move, order) for m in mistakes}
        explorations.discard(None)
        groups = len(explorations)
        if groups > 1 and (best is None or groups > best[0]):
            best = (groups, window)
        if groups == len(mistakes):
            break
    return None if best is None else best[1]


def confirmed(
    student: Sequence[str],
    board: Board,
    spec: SearchSpec,
    mistakes: Sequence[Mistake],
    window: Window,
    *,
    to_move: str | None = None,
    order: MoveOrder | None = None,
) -> tuple[Mistake, ...]:
    """The mistakes whose exploration from ``window`` is the student's (``student``: what the
    search entered when called with that window), fail-soft or fail-hard."""
    if not student or len(student) >= MAX_STEPS:
        return ()

    digest = steps_digest(student)

    def fits(mistake: Mistake) -> bool:
        return any(
            reproduces(
                student,
                digest,
                board,
                spec,
                rules,
                alpha=window[0],
                beta=window[1],
                fail=fail,
                to_move=to_move,
                order=order,
            )
            for rules in mistake.rules
            for fail in ("soft", "hard")
        )

    return tuple(m for m in mistakes if fits(m))
