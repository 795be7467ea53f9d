"""What a board predicate's answers tell beyond one wrong board: the convention the student
followed (the winning mark for True/False), the defect of the function (the lines a win test
misses, a draw test that never fires, cells never listed) for the checks built on it, and
whether the failures follow from a lower-level function another check found wrong."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from grader.checks.answers import Answer, ShapeError
from grader.checks.context import CheckContext
from grader.checks.expectations import Expectation, Read
from reference import Board, O, X

__all__ = ["predicate_cause"]


def _marks(ctx: CheckContext, codes: dict) -> dict[str, Any]:
    return {p: codes.get(p, ctx.encode_player(p)) for p in (X, O)}


def predicate_cause(
    ctx: CheckContext,
    check_id: str,
    function: str,
    expectation: Expectation,
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
        defect = expectation.defect(function, readable)
        if defect is not None and stub:
            defect = replace(defect, description="not being implemented yet")
        ctx.findings.record(check_id, defect)
        observations = expectation.root_observations(readable) if readable else None
        cause = ctx.findings.root_cause(check_id, observations) if observations is not None else None
        if cause is not None:
            return cause.sentence
    if len(seen) == len(answers):
        return expectation.convention(function, seen, _marks(ctx, codes))
    return None
