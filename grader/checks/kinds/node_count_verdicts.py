"""The verdict of a node-counts check, from what it measured: a finding first (which outcome,
at which position), then the words.

Alpha-beta is judged against the reference's minimax count: a broken minimax loses its own
checks, and must not make a correct alpha-beta look wrong (or right). Reduction earns nothing
unless the alpha-beta returns the minimax value.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.check_details import NodeCountRow, NodeCounts
from grader.check_notes import Cause
from grader.checks.causes.explorations import Comparison
from grader.checks.verdicts import explain
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check


@dataclass(frozen=True)
class Measured:
    """One position, measured: its counts, and what the alpha-beta did there."""

    row: NodeCountRow
    comparison: Comparison | None = None
    """The alpha-beta's exploration against the reference's (None: not traced)."""
    wrong_value: Counterexample | None = None
    """The alpha-beta's answer, where it is not the minimax value."""


class _Outcome(enum.Enum):
    SAME = "explores what the reference explores (or counts as many nodes)"
    WRONG_VALUE = "returns a value that is not the minimax value"
    NO_FEWER = "visits no fewer nodes than minimax"
    OTHERWISE = "prunes, but not as the reference does"


@dataclass(frozen=True)
class _AlphaBetaCounts:
    """A row of a check that ran both searches, every count read."""

    board: str
    call: str
    minimax: int
    reference_minimax: int
    alphabeta: int
    reference_alphabeta: int
    """The reference's count in the assignment's move order."""
    expected: int
    """What a correct alpha-beta visits here: the reference's count, or, where it was replayed in
    the student's move order, the replay's."""

    @classmethod
    def of(cls, measured: Measured) -> _AlphaBetaCounts:
        row = measured.row
        assert row.minimax is not None and row.alphabeta is not None and row.reference_alphabeta is not None
        assert row.alphabeta_call is not None
        comparison = measured.comparison
        return cls(
            row.board,
            row.alphabeta_call,
            row.minimax,
            row.reference_minimax,
            row.alphabeta,
            row.reference_alphabeta,
            row.reference_alphabeta
            if comparison is None or comparison.replayed_nodes is None
            else comparison.replayed_nodes,
        )


@dataclass(frozen=True)
class _Finding:
    outcome: _Outcome
    first_apart: int
    """The position where the alpha-beta first explores otherwise (the first, when none does)."""
    no_fewer: int | None = None
    """The first position where it visits no fewer nodes than minimax (NO_FEWER)."""
    traced: bool = False
    """Every position's exploration was compared step by step (not only counted)."""


def judge_alphabeta(measured: Sequence[Measured]) -> _Finding:
    """Which outcome the alpha-beta's counts, explorations and values show, and where."""
    counts = [_AlphaBetaCounts.of(m) for m in measured]
    same = [
        m.comparison.same if m.comparison is not None else c.alphabeta == c.reference_alphabeta
        for c, m in zip(counts, measured)
    ]
    first_apart = same.index(False) if not all(same) else 0
    if any(m.wrong_value is not None for m in measured):
        return _Finding(_Outcome.WRONG_VALUE, first_apart)
    if all(same):
        return _Finding(_Outcome.SAME, first_apart, traced=all(m.comparison is not None for m in measured))
    no_fewer = next((i for i, c in enumerate(counts) if c.alphabeta >= c.reference_minimax), None)
    if no_fewer is not None:
        return _Finding(_Outcome.NO_FEWER, first_apart, no_fewer)
    return _Finding(_Outcome.OTHERWISE, first_apart)


@dataclass(frozen=True)
class _Apart:
    """Where the alpha-beta first explores otherwise, as the words of a verdict use it."""

    counts: _AlphaBetaCounts
    where: str
    """The sentence on the step it parts from the reference at (empty: not traced)."""
    cause: Cause | None
    """The cause named for it (a lower-level function, or the trace's reading)."""
    detail: NodeCounts

    @classmethod
    def of(cls, counts: _AlphaBetaCounts, comparison: Comparison | None, root_cause: Cause | None) -> _Apart:
        divergence = None if comparison is None else comparison.divergence
        where = ""
        if divergence is not None:
            where = (
                f" From {counts.board} your search first parts from the reference at step {divergence.step:,} "
                f"(the root is step 0): {_step_text(divergence.student, divergence.reference)}."
            )
        cause = explain([lambda: root_cause, lambda: None if comparison is None else comparison.cause])
        return cls(counts, where, cause, NodeCounts((), divergence, None if comparison is None else comparison.excerpt))


def alphabeta_result(
    check: Check[Any],
    measured: Sequence[Measured],
    finding: _Finding,
    root_cause: Cause | None,
    partial_credit: float,
    any_order: bool = False,
) -> CheckResult:
    """The finding in words. ``root_cause``, when every count follows from a lower-level
    function, replaces the cause a count alone suggests. ``any_order``: the assignment fixes
    no move order, and the reference was replayed in the student's."""
    counts = [_AlphaBetaCounts.of(m) for m in measured]
    summary = "; ".join(f"alpha-beta {c.alphabeta:,} vs minimax {c.reference_minimax:,}" for c in counts)
    off_minimax = next((c for c in counts if c.minimax != c.reference_minimax), None)
    note = (
        ""
        if off_minimax is None
        else f" Your minimax visited {off_minimax.minimax:,} nodes where the reference visits "
        f"{off_minimax.reference_minimax:,} (every call counted, the root included; plain minimax visits "
        "the same nodes in any move order)."
    )
    if finding.outcome is _Outcome.SAME:
        order = next((m.comparison.order for m in measured if m.comparison is not None and m.comparison.order), None)
        if order is not None:
            counts_text = "; ".join(
                f"{c.alphabeta:,} nodes from {c.board} where row-major takes {c.reference_alphabeta:,}" for c in counts
            )
            return CheckResult.for_check(
                check,
                CheckStatus.PASSED,
                f"A correct alpha-beta; moves tried {order}: {counts_text} (plain minimax: "
                + " and ".join(f"{c.reference_minimax:,}" for c in counts)
                + f" nodes, the same in any order).{note}",
            )
        how = (
            "explored exactly the reference's positions, in its order"
            if finding.traced
            else "node counts match the reference"
        )
        return CheckResult.for_check(check, CheckStatus.PASSED, f"Alpha-beta {how} ({summary}).{note}")
    apart = _Apart.of(counts[finding.first_apart], measured[finding.first_apart].comparison, root_cause)
    if finding.outcome is _Outcome.WRONG_VALUE:
        wrong = next(m.wrong_value for m in measured if m.wrong_value is not None)
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"From {wrong.board} alpha-beta gave {wrong.actual} where the minimax value is {wrong.expected}: "
            f"the nodes a search saves earn nothing unless its value is right ({summary}).{apart.where}",
            counterexample=wrong,
            cause=apart.cause
            or Cause(
                "local",
                "The search cuts off branches that decide the value (or returns before searching): "
                "check the cut-off condition and which bound each node moves.",
            ),
            detail=apart.detail,
        )
    if finding.outcome is _Outcome.NO_FEWER:
        assert finding.no_fewer is not None
        return _no_fewer_result(check, counts[finding.no_fewer], apart, note)
    return _prunes_otherwise_result(check, apart, summary, note, partial_credit, any_order)


def _no_fewer_result(check: Check[Any], k: _AlphaBetaCounts, apart: _Apart, note: str) -> CheckResult:
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Alpha-beta visited {k.alphabeta:,} nodes, no fewer than minimax ({k.reference_minimax:,})."
        f"{apart.where}{note}",
        counterexample=Counterexample(
            k.board,
            k.call,
            f"{k.expected:,} nodes (fewer than {k.reference_minimax:,})",
            f"{k.alphabeta:,} nodes",
        ),
        cause=apart.cause
        or Cause(
            "local",
            "No branch is ever cut off: check the cut-off condition and that alpha and beta are passed "
            "to the children.",
        ),
        detail=apart.detail,
    )


def _prunes_otherwise_result(
    check: Check[Any], apart: _Apart, summary: str, note: str, partial_credit: float, any_order: bool
) -> CheckResult:
    c = apart.counts
    cause = apart.cause or Cause(
        "local",
        "Alpha-beta prunes less than it could: a cut-off on > instead of >= (or < instead of <=), "
        "or a bound not updated."
        if c.alphabeta > c.expected
        else "Alpha-beta prunes more than it should, or explores the moves in another order."
        if c.alphabeta < c.expected
        else "Alpha-beta visits as many nodes as the reference but not the same ones: check the move order "
        "(row-major) and which bound each node tests.",
    )
    reference = (
        "a correct alpha-beta explores trying the moves in your search's order"
        if any_order and apart.where
        else "the reference explores with row-major move order"
    )
    return CheckResult.for_check(
        check,
        CheckStatus.PARTIAL,
        f"Alpha-beta prunes ({summary}), but does not explore what {reference}.{apart.where}{note}",
        score=check.points * partial_credit,
        counterexample=Counterexample(c.board, c.call, f"{c.expected:,} nodes", f"{c.alphabeta:,} nodes"),
        cause=cause,
        detail=apart.detail,
    )


def _step_text(student: str | None, reference: str | None) -> str:
    if student is None:
        return f"your search had ended where the reference goes on to `{reference}`"
    if reference is None:
        return f"you go on to `{student}` where the reference's search has ended"
    return f"you enter `{student}` where the reference enters `{reference}`"


def single_search_result(
    check: Check[Any], rows: Sequence[NodeCountRow], root_cause: Cause | None, counter: str | None
) -> CheckResult:
    summary = "; ".join(f"{r.minimax:,} nodes from {r.board}" for r in rows)
    wrong = [r for r in rows if r.minimax != r.reference_minimax]
    if not wrong:
        return CheckResult.for_check(check, CheckStatus.PASSED, f"Node count matches the reference ({summary}).")
    r = wrong[0]
    counted = r.minimax_calls_counted

    def counter_off() -> Cause | None:
        if counted != r.reference_minimax:
            return None
        return Cause(
            "local",
            f"The search visits the right nodes (the grader counted {counted:,} calls), but `{counter}` "
            "says otherwise: count every call, the root included, and reset the counter before the search only.",
        )

    cause = explain([counter_off, lambda: root_cause])
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Node count differs from the reference ({summary}); plain minimax visits the same nodes in any move "
        "order, so the order is not the cause.",
        counterexample=Counterexample(
            r.board, r.minimax_call, f"{r.reference_minimax:,} nodes", f"{r.minimax:,} nodes"
        ),
        cause=cause,
    )
