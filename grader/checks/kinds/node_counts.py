"""Node reduction: alpha-beta visits fewer nodes than minimax, by the reference's count, and
explores what the reference explores.

A search's nodes are the calls of the student's search wherever its recursion lives (a
helper, a closure, ``max_value``/``min_value``, methods): the kernel's exploration recorder
finds them. An assignment can instead pin the counted functions (``minimax_count``), or read
a counter the student keeps themselves (a global such as ``node_count`` or
``State.generated``). The alpha-beta call is also traced: the position each node was entered
with, compared step by step with the reference's exploration (up to 200,000 steps; beyond,
or when the boards cannot be read, the counts are compared). Reduction earns nothing unless
the alpha-beta returns the minimax value on the positions it is counted from: a stub or an
early return prunes a lot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from grader.checks.answers import Answer, ShapeError, format_value, read_search_result
from grader.checks.causes.explorations import Comparison, compare
from grader.checks.causes.root_cause import NodeCountObservation
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.kind import CheckKind
from grader.checks.kinds.search import shapes_field
from grader.checks.params import boards_field, call_field
from grader.checks.reference_answers import reference_alphabeta, reference_answer, reference_minimax_nodes
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
    """Functions whose calls are minimax's nodes (default: the search the recorder finds)."""
    alphabeta_count: tuple[str, ...] = ()
    counter: str | None = None
    """Read this student global (reset to 0 first) instead of counting calls."""
    convention: Literal["calls", "children"] = "calls"
    """calls: every call counts, root included; children: created states (calls - 1)."""
    globals: dict = field(default_factory=dict)
    start_depth: int = 0
    positions: tuple[Board, ...] = boards_field(default=(Board.empty(),))
    partial_credit: float = 0.5
    returns: tuple[str, ...] = shapes_field(("value", "value,move", "value,row,col", "move,value"))
    """How the alpha-beta call's result holds the value (the first shape that reads wins)."""


def _count(answer: Answer, names: tuple[str, ...], counter: str | None) -> int | None:
    if not answer.ok:
        return None
    if counter:
        value = answer.outcome.globals_after.get(counter)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if names:
        return sum(answer.outcome.counts.get(n, 0) for n in names)
    exploration = answer.outcome.exploration
    return None if exploration is None else exploration.nodes


def _called_name(template: CallTemplate) -> tuple[str, ...]:
    """The function a plain call names, counted by name: a wrapper around it costs next to
    nothing, where recording the search costs it three to four times over. A chained call
    (a method on a constructed object) has no such name."""
    return () if template.chain else (template.target.name,)


def _recursion_elsewhere(
    ctx: CheckContext, params: Params, sides: Sequence[str], student: StudentFunction, answers: Sequence[Answer]
) -> bool:
    """Whether counting by name missed the search: the function was called once where the
    reference searches many nodes (its recursion lives in a helper, a closure, methods), or a
    call could not be counted. Then the search is recorded wherever its recursion lives."""
    offset = 1 if params.convention == "children" else 0
    for board, side, answer in zip(params.positions, sides, answers):
        if not answer.ok:
            return True
        counted = sum(answer.outcome.counts.get(name, 0) for name in student.count)
        spec = ctx.spec(board, to_move=side, start_depth=params.start_depth)
        if counted <= 1 < reference_minimax_nodes(board, spec, side) - offset:
            return True
    return False


def _first_failure(positions: Sequence[Board], answers: Sequence[Answer | None]) -> tuple[Board, Answer] | None:
    return next(((b, a) for b, a in zip(positions, answers) if a is not None and not a.ok), None)


def run(check: Check[Params], ctx: CheckContext) -> CheckResult:
    params = check.params
    reset = {params.counter: 0} if params.counter else {}
    read = (params.counter,) if params.counter else ()
    board_global = next((name for name, placeholder in params.globals.items() if placeholder == "board"), None)
    by_name = params.minimax_count or _called_name(ctx.assignment.board.on_object(params.minimax_call))

    def minimax(recorded: bool) -> StudentFunction:
        return ctx.student(
            params.minimax_call,
            globals_from=params.globals,
            reset=reset,
            read_globals=read,
            count=() if recorded else by_name,
            explore=ctx.explore() if recorded else None,
            timeout=max(ctx.assignment.call_timeout, 60),
        )

    mm = minimax(recorded=not by_name)
    ab = (
        None
        if params.alphabeta_call is None
        else ctx.student(
            params.alphabeta_call,
            globals_from=params.globals,
            reset=reset,
            read_globals=read,
            count=params.alphabeta_count,
            explore=ctx.explore(trace=not params.counter, board_global=board_global),
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
    if by_name and not params.minimax_count and _recursion_elsewhere(ctx, params, sides, mm, mm_answers):
        mm = minimax(recorded=True)
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
    comparisons: list[Comparison | None] = []
    wrong_values: list[Counterexample] = []
    for board, side, mm_answer, ab_answer in zip(params.positions, sides, mm_answers, ab_answers):
        spec = ctx.spec(board, to_move=side, start_depth=params.start_depth)
        with_alphabeta: dict[str, Any] = {}
        if ab is not None and ab_answer is not None:
            comparison = None
            if not (params.counter or params.alphabeta_count) or _recorded_alike(ab_answer, ab.count):
                comparison = compare(ab_answer.outcome.exploration, board, spec, to_move=side, alpha=alpha, beta=beta)
            comparisons.append(comparison)
            wrong = _wrong_value(ctx, params, board, side, ab_answer)
            if wrong is not None:
                wrong_values.append(wrong)
            counted = _count(ab_answer, ab.count, params.counter)
            with_alphabeta = dict(
                alphabeta=comparison.nodes if comparison is not None and counted is not None else counted,
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
    verdict = _verdict(check, params, rows, comparisons, wrong_values, _root_cause(check, ctx, params, rows))
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


def _recorded_alike(answer: Answer, pinned: tuple[str, ...]) -> bool:
    """The recorder took the same search as the pinned functions (its trace is theirs)."""
    exploration = answer.outcome.exploration
    return exploration is not None and exploration.nodes == sum(answer.outcome.counts.get(n, 0) for n in pinned)


def _wrong_value(ctx: CheckContext, params: Params, board: Board, side: str, answer: Answer) -> Counterexample | None:
    """The alpha-beta's answer where it is not the minimax value (on the call's window:
    a bound on the right side of the window when the value lies outside it)."""
    exact = reference_answer(board, ctx.spec(board, to_move=side, start_depth=params.start_depth), side).value
    alpha, beta = params.window
    expected = format_value(exact)
    try:
        value, _ = read_search_result(answer.value, params.returns, ctx)
    except ShapeError as error:
        return Counterexample(str(board), answer.call_text, expected, error.given())
    if value is None:
        return Counterexample(str(board), answer.call_text, expected, answer.given())
    right = value == exact if alpha < exact < beta else (value <= alpha if exact <= alpha else value >= beta)
    return None if right else Counterexample(str(board), answer.call_text, expected, format_value(value))


def _verdict(
    check: Check[Params],
    params: Params,
    rows: list[NodeCountRow],
    comparisons: list[Comparison | None],
    wrong_values: list[Counterexample],
    root_cause: str | None = None,
) -> CheckResult:
    """``root_cause``, when every count follows from a lower-level function, replaces the
    cause a count alone suggests."""
    unreadable = [r for r in rows if r.minimax is None or (r.alphabeta_call is not None and r.alphabeta is None)]
    if unreadable:
        what = f"The counter `{params.counter}` did not hold" if params.counter else "The grader could not count"
        return CheckResult.for_check(check, CheckStatus.FAILED, f"{what} a whole number of nodes for the call.")
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
    same = [
        comparison.same if comparison is not None else c.alphabeta == c.reference_alphabeta
        for c, comparison in zip(counts, comparisons)
    ]
    traced = all(comparison is not None for comparison in comparisons)
    if all(same) and not wrong_values:
        how = (
            "explored exactly the reference's positions, in its order" if traced else "node counts match the reference"
        )
        return CheckResult.for_check(check, CheckStatus.PASSED, f"Alpha-beta {how} ({summary}).{note}")
    index = same.index(False) if not all(same) else 0
    c, comparison = counts[index], comparisons[index]
    divergence = None if comparison is None else comparison.divergence
    named = root_cause or (None if comparison is None else comparison.cause)
    where = ""
    if divergence is not None:
        where = (
            f" From {c.board} your search first parts from the reference at step {divergence.step:,} "
            f"(the root is step 0): {_step_text(divergence.student, divergence.reference)}."
        )
    tree = None if comparison is None else comparison.excerpt
    if wrong_values:
        wrong = wrong_values[0]
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"From {wrong.board} alpha-beta gave {wrong.actual} where the minimax value is {wrong.expected}: "
            f"the nodes a search saves earn nothing unless its value is right ({summary}).{where}",
            counterexample=replace(
                wrong,
                cause=named
                or "The search cuts off branches that decide the value (or returns before searching): "
                "check the cut-off condition and which bound each node moves.",
            ),
            divergence=divergence,
            search_tree=tree,
        )
    worse = [k for k in counts if k.alphabeta >= k.reference_minimax]
    if worse:
        k = worse[0]
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"Alpha-beta visited {k.alphabeta:,} nodes, no fewer than minimax ({k.reference_minimax:,}).{where}{note}",
            counterexample=Counterexample(
                k.board,
                k.call,
                f"{k.reference_alphabeta:,} nodes (fewer than {k.reference_minimax:,})",
                f"{k.alphabeta:,} nodes",
                named
                or "No branch is ever cut off: check the cut-off condition and that alpha and beta are passed "
                "to the children.",
            ),
            divergence=divergence,
            search_tree=tree,
        )
    cause = named or (
        "Alpha-beta prunes less than it could: a cut-off on > instead of >= (or < instead of <=), "
        "or a bound not updated."
        if c.alphabeta > c.reference_alphabeta
        else "Alpha-beta prunes more than it should, or explores the moves in another order."
        if c.alphabeta < c.reference_alphabeta
        else "Alpha-beta visits as many nodes as the reference but not the same ones: check the move order "
        "(row-major) and which bound each node tests."
    )
    return CheckResult.for_check(
        check,
        CheckStatus.PARTIAL,
        f"Alpha-beta prunes ({summary}), but does not explore what the reference explores with row-major move "
        f"order.{where}{note}",
        score=check.points * params.partial_credit,
        counterexample=Counterexample(
            c.board, c.call, f"{c.reference_alphabeta:,} nodes", f"{c.alphabeta:,} nodes", cause
        ),
        divergence=divergence,
        search_tree=tree,
    )


def _step_text(student: str | None, reference: str | None) -> str:
    if student is None:
        return f"your search had ended where the reference goes on to `{reference}`"
    if reference is None:
        return f"you go on to `{student}` where the reference's search has ended"
    return f"you enter `{student}` where the reference enters `{reference}`"


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
