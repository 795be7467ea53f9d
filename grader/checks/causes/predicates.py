"""What a board predicate's answers tell beyond one wrong board: the convention the student
followed (the winning mark for True/False), the defect of the function (the lines a win test
misses, a draw test that never fires, cells never listed) for the checks built on it, and
whether the failures follow from a lower-level function another check found wrong."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from grader.checks.answers import Answer, ShapeError
from grader.checks.causes.conventions import PredicateObservation, explain_predicate_convention
from grader.checks.causes.defects import (
    Defect,
    DrawObservation,
    EmptyCellsObservation,
    WinObservation,
    draw_test_defect,
    empty_cells_defect,
    win_test_defect,
)
from grader.checks.context import CheckContext
from reference import Board, O, X

__all__ = ["Read", "predicate_cause"]


@dataclass(frozen=True)
class Read:
    """One answer, the board and player it was asked about, and the answer as the check reads
    it (``None`` when it did not read)."""

    board: Board
    player: str | None
    answer: Answer
    read: Any
    readable: bool = True


def _marks(ctx: CheckContext, codes: dict) -> dict[str, Any]:
    return {p: codes.get(p, ctx.encode_player(p)) for p in (X, O)}


def _win_observations(expect: str, seen: Sequence[Read]) -> list[WinObservation]:
    """Win tests as the answers show them: ``wins`` asks one player; a winner function answers
    for both (reachable boards hold one winner at most)."""
    if expect == "wins":
        return [WinObservation(r.board, r.player, bool(r.read)) for r in seen if r.player is not None]
    return [WinObservation(r.board, p, r.read == p) for r in seen for p in (X, O)]


def _defect(function: str, expect: str, seen: Sequence[Read], stub: bool) -> Defect | None:
    """The defect the answers show, as a search built on the function would use it."""
    defect: Defect | None = None
    if expect in ("wins", "winner", "outcome"):
        defect = win_test_defect(function, _win_observations(expect, seen))
    elif expect == "draw":
        defect = draw_test_defect(function, [DrawObservation(r.board, bool(r.read)) for r in seen])
    elif expect == "legal-moves":
        defect = empty_cells_defect(
            function, [EmptyCellsObservation(r.board, tuple(r.read)) for r in seen if isinstance(r.read, list)]
        )
    if defect is not None and stub:
        defect = replace(defect, description="not being implemented yet")
    return defect


def predicate_cause(
    ctx: CheckContext,
    check_id: str,
    function: str,
    expect: str,
    answers: Sequence[tuple[Board, str | None, Answer]],
    read: Callable[[Any], Any],
    *,
    codes: dict,
    stub: bool,
) -> str | None:
    """The cause every answer shows, if any (a root cause in a lower-level function, then a
    convention), after recording the function's own defect for the checks that follow.

    ``read`` turns a raw answer into the check's reading (raising when it does not read);
    ``stub``: the shape headline already said the function is not implemented.
    """
    seen = []
    for board, player, answer in answers:
        if not answer.ok:
            continue
        try:
            seen.append(Read(board, player, answer, read(answer.value)))
        except ShapeError:  # read by the convention below, never evidence of a defect
            seen.append(Read(board, player, answer, None, readable=False))
    readable = [r for r in seen if r.readable]
    if len(readable) == len(answers):
        ctx.findings.record(check_id, _defect(function, expect, readable, stub))
    if expect == "draw" and readable and len(readable) == len(answers):
        cause = ctx.findings.root_cause(check_id, [DrawObservation(r.board, bool(r.read)) for r in readable])
        if cause is not None:
            return cause.sentence
    if expect in ("wins", "winner", "outcome") and len(seen) == len(answers):
        observations = [PredicateObservation(r.board, r.answer.value, r.player) for r in seen]
        return explain_predicate_convention(function, expect, observations, marks=_marks(ctx, codes))
    return None
