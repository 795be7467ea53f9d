"""Node reduction: alpha-beta visits fewer nodes than minimax, by the reference's count.

Counting goes through the call channel (every call of the named functions during the call,
recursion included), or through a counter the student keeps themselves (a global such as
``node_count`` or ``State.generated``), as the assignment asks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from grader.checks.context import Answer, CheckContext
from grader.checks.kind import CheckKind
from grader.checks.params import boards_field, call_field
from grader.checks.reference_answers import reference_alphabeta, reference_minimax_nodes
from grader.checks.root_cause import NodeCountObservation
from grader.results import CheckResult, CheckStatus, Counterexample, NodeCountRow
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference import Board


@dataclass(frozen=True)
class Params:
    minimax_call: CallTemplate = call_field()
    alphabeta_call: CallTemplate | None = call_field(default=None)
    """Without it, the check compares one search's node count with the reference's."""
    window: tuple[float, float] = (-math.inf, math.inf)
    """The window the alpha-beta call starts with (for the reference count)."""
    minimax_count: tuple[str, ...] = ()
    """Functions whose calls are minimax's nodes (default: the called function)."""
    alphabeta_count: tuple[str, ...] = ()
    counter: str | None = None
    """Read this student global (reset to 0 first) instead of counting calls."""
    convention: Literal["calls", "children"] = "calls"
    """calls: every call counts, root included; children: created states (calls - 1)."""
    globals: dict = field(default_factory=dict)
    start_depth: int = 0
    positions: tuple[Board, ...] = boards_field(default=(Board.empty(),))
    partial_credit: float = 0.5


def _count(answer: Answer, names: tuple[str, ...], counter: str | None) -> int | None:
    if not answer.ok:
        return None
    if counter:
        value = answer.outcome.globals_after.get(counter)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return sum(answer.outcome.counts.get(n, 0) for n in names)


def _first_failure(positions: Sequence[Board], answers: Sequence[Answer | None]) -> tuple[Board, Answer] | None:
    return next(((b, a) for b, a in zip(positions, answers) if a is not None and not a.ok), None)


def run(check: Check[Params], ctx: CheckContext) -> CheckResult:
    params = check.params
    reset = {params.counter: 0} if params.counter else {}
    read = (params.counter,) if params.counter else ()
    mm = ctx.student(
        params.minimax_call,
        globals_from=params.globals,
        reset=reset,
        read_globals=read,
        count=params.minimax_count or (params.minimax_call.function,),
        timeout=max(ctx.assignment.call_timeout, 60),
    )
    ab = (
        None
        if params.alphabeta_call is None
        else ctx.student(
            params.alphabeta_call,
            globals_from=params.globals,
            reset=reset,
            read_globals=read,
            count=params.alphabeta_count or (params.alphabeta_call.function,),
            timeout=max(ctx.assignment.call_timeout, 60),
        )
    )
    offset = 1 if params.convention == "children" else 0
    rows: list[NodeCountRow] = []
    alpha, beta = params.window
    sides = [board.to_move(ctx.assignment.first_player) for board in params.positions]
    requests = [
        (str(board), ctx.placeholders(board, to_move=side, alpha=alpha, beta=beta))
        for board, side in zip(params.positions, sides)
    ]
    # One round trip per function for all the positions; alpha-beta is only asked once
    # minimax answered everywhere (a search that times out should not cost twice).
    mm_answers = mm.ask_many(requests)
    ab_answers: list[Answer | None] = [None] * len(requests)
    failed = _first_failure(params.positions, mm_answers)
    if failed is None and ab is not None:
        ab_answers = list(ab.ask_many(requests))
        failed = _first_failure(params.positions, ab_answers)
    if failed is not None:
        board, answer = failed
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"`{answer.call_text}` {answer.failure_text()}",
            counterexample=Counterexample(str(board), answer.call_text, "a completed search", answer.given()),
        )
    for board, side, mm_answer, ab_answer in zip(params.positions, sides, mm_answers, ab_answers):
        spec = ctx.spec(board, to_move=side, start_depth=params.start_depth)
        with_alphabeta: dict[str, Any] = {}
        if ab is not None and ab_answer is not None:
            with_alphabeta = dict(
                alphabeta=_count(ab_answer, ab.count, params.counter),
                reference_alphabeta=reference_alphabeta(board, spec, side, alpha, beta).nodes - offset,
                alphabeta_call=ab_answer.call_text,
            )
        rows.append(
            NodeCountRow(
                board=str(board),
                minimax=_count(mm_answer, mm.count, params.counter),
                reference_minimax=reference_minimax_nodes(board, spec, side) - offset,
                minimax_call=mm_answer.call_text,
                minimax_calls_counted=_count(mm_answer, mm.count, None) if params.counter else None,
                **with_alphabeta,
            )
        )
    verdict = _verdict(check, params, rows, _root_cause(check, ctx, params, rows))
    figures = {"source": f"the global `{params.counter}`" if params.counter else "calls counted by the grader"}
    return replace(verdict, node_counts=tuple(rows), figures={**verdict.figures, **figures})


def _root_cause(check: Check[Params], ctx: CheckContext, params: Params, rows: list[NodeCountRow]) -> str | None:
    """Whether every count follows from a lower-level function another check found wrong
    (the counts of a search built on it), when the grader counted the calls itself."""
    if params.counter or params.convention != "calls" or any(r.minimax is None for r in rows):
        return None
    observations: list[NodeCountObservation] = []
    for row in rows:
        board = Board.from_string(row.board)
        side = board.to_move(ctx.assignment.first_player)
        spec = ctx.spec(board, to_move=side, start_depth=params.start_depth)
        assert row.minimax is not None
        observations.append(NodeCountObservation(board, spec, side, row.minimax))
        if row.alphabeta is not None:
            observations.append(NodeCountObservation(board, spec, side, row.alphabeta, params.window))
    found = ctx.findings.root_cause(check.id, observations)
    return None if found is None else found.sentence


def _verdict(
    check: Check[Params], params: Params, rows: list[NodeCountRow], root_cause: str | None = None
) -> CheckResult:
    """``root_cause``, when every count follows from a lower-level function, replaces the
    cause a count alone suggests."""
    unreadable = [r for r in rows if r.minimax is None or (r.alphabeta_call is not None and r.alphabeta is None)]
    if unreadable:
        return CheckResult.for_check(
            check, CheckStatus.FAILED, f"The counter `{params.counter}` did not hold a whole number after the call."
        )
    if params.alphabeta_call is None:
        return _single_search_verdict(check, params, rows, root_cause)
    # Alpha-beta is judged against the reference's minimax count: a broken minimax loses
    # its own checks, and must not make a correct alpha-beta look wrong (or right).
    counts = [_AlphaBetaCounts.of(r) for r in rows]
    summary = "; ".join(f"alpha-beta {c.alphabeta:,} vs minimax {c.reference_minimax:,}" for c in counts)
    off_minimax = [c for c in counts if c.minimax != c.reference_minimax]
    note = ""
    if off_minimax:
        c = off_minimax[0]
        note = (
            f" Your minimax visited {c.minimax:,} nodes where the reference visits {c.reference_minimax:,}"
            " (row-major order, every call counted, the root included)."
        )
    worse = [c for c in counts if c.alphabeta >= c.reference_minimax]
    if worse:
        c = worse[0]
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"Alpha-beta visited {c.alphabeta:,} nodes, no fewer than minimax ({c.reference_minimax:,}).{note}",
            counterexample=Counterexample(
                c.board,
                c.call,
                f"{c.reference_alphabeta:,} nodes (fewer than {c.reference_minimax:,})",
                f"{c.alphabeta:,} nodes",
                root_cause
                or "No branch is ever cut off: check the cut-off condition and that alpha and beta are passed "
                "to the children.",
            ),
        )
    if all(c.alphabeta == c.reference_alphabeta for c in counts):
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"Alpha-beta node counts match the reference exactly ({summary}).{note}"
        )
    c = next(c for c in counts if c.alphabeta != c.reference_alphabeta)
    cause = (
        "Alpha-beta prunes less than it could: a cut-off on > instead of >= (or < instead of <=), "
        "or a bound not updated."
        if c.alphabeta > c.reference_alphabeta
        else "Alpha-beta prunes more than it should: a cut-off that happens too early, which can change values."
    )
    return CheckResult.for_check(
        check,
        CheckStatus.PARTIAL,
        f"Alpha-beta prunes ({summary}), but not as much as the reference does with row-major move order.{note}",
        score=check.points * params.partial_credit,
        counterexample=Counterexample(
            c.board, c.call, f"{c.reference_alphabeta:,} nodes", f"{c.alphabeta:,} nodes", root_cause or cause
        ),
    )


@dataclass(frozen=True)
class _AlphaBetaCounts:
    """A row of a check that ran both searches, every count read."""

    board: str
    call: str
    minimax: int
    reference_minimax: int
    alphabeta: int
    reference_alphabeta: int

    @classmethod
    def of(cls, row: NodeCountRow) -> _AlphaBetaCounts:
        assert row.minimax is not None and row.alphabeta is not None and row.reference_alphabeta is not None
        assert row.alphabeta_call is not None
        return cls(
            row.board, row.alphabeta_call, row.minimax, row.reference_minimax, row.alphabeta, row.reference_alphabeta
        )


def _single_search_verdict(
    check: Check[Params], params: Params, rows: list[NodeCountRow], root_cause: str | None
) -> CheckResult:
    summary = "; ".join(f"{r.minimax:,} nodes from {r.board}" for r in rows)
    wrong = [r for r in rows if r.minimax != r.reference_minimax]
    if not wrong:
        return CheckResult.for_check(check, CheckStatus.PASSED, f"Node count matches the reference ({summary}).")
    r = wrong[0]
    cause = root_cause
    counted = r.minimax_calls_counted
    if counted == r.reference_minimax:
        cause = (
            f"The search visits the right nodes (the grader counted {counted:,} calls), but `{params.counter}` "
            "says otherwise: count every call, the root included, and reset the counter before the search only."
        )
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Node count differs from the reference ({summary}).",
        counterexample=Counterexample(
            r.board, r.minimax_call, f"{r.reference_minimax:,} nodes", f"{r.minimax:,} nodes", cause
        ),
    )


NODE_COUNTS = CheckKind("node-counts", Params, run)
