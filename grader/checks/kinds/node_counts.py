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

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from grader.check_details import NodeCountRow, NodeCounts
from grader.checks.answers import Answer, ShapeError, format_value, read_search_result
from grader.checks.causes.explorations import Comparison, compare
from grader.checks.causes.root_cause import NodeCountObservation
from grader.checks.context import CheckContext, Explore, StudentFunction
from grader.checks.kind import CheckKind
from grader.checks.kinds.search import shapes_field
from grader.checks.params import boards_field, call_field
from grader.checks.reference_answers import reference_alphabeta, reference_answer, reference_minimax_nodes
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference import Board, SearchSpec


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


@dataclass(frozen=True)
class NodeCounter:
    """How the nodes of one search call are counted: the student's own counter (a global),
    the calls of the functions named (resolved to what the notebook defines), or, with no
    names, the search the recorder found wherever its recursion lives."""

    names: tuple[str, ...] = ()
    counter: str | None = None

    def nodes(self, answer: Answer) -> int | None:
        """The count, or None when the call failed or the counter holds no whole number."""
        if not answer.ok:
            return None
        if self.counter:
            value = answer.outcome.globals_after.get(self.counter)
            return value if isinstance(value, int) and not isinstance(value, bool) else None
        if self.names:
            return sum(answer.outcome.counts.get(n, 0) for n in self.names)
        exploration = answer.outcome.exploration
        return None if exploration is None else exploration.nodes

    def calls(self, answer: Answer) -> int | None:
        """The grader's own count, whatever the student's counter says."""
        return replace(self, counter=None).nodes(answer)


def _called_name(template: CallTemplate) -> tuple[str, ...]:
    """The function a plain call names, counted by name: a wrapper around it costs next to
    nothing, where recording the search costs it three to four times over. A chained call
    (a method on a constructed object) has no such name."""
    return () if template.chain else (template.target.name,)


@dataclass(frozen=True)
class _Position:
    """A position the searches are counted from, and the reference's counts there."""

    board: Board
    side: str
    spec: SearchSpec
    offset: int
    """1 when the convention counts created states (calls minus the root), else 0."""

    @property
    def reference_minimax(self) -> int:
        return reference_minimax_nodes(self.board, self.spec, self.side) - self.offset

    def reference_alphabeta(self, window: tuple[float, float]) -> int:
        return reference_alphabeta(self.board, self.spec, self.side, *window).nodes - self.offset


def _positions(ctx: CheckContext, params: Params) -> list[_Position]:
    offset = 1 if params.convention == "children" else 0
    positions = []
    for board in params.positions:
        side = board.to_move(ctx.assignment.first_player)
        positions.append(_Position(board, side, ctx.spec(board, to_move=side, start_depth=params.start_depth), offset))
    return positions


def _search(
    ctx: CheckContext, params: Params, template: CallTemplate, count: tuple[str, ...], explore: Explore | None
) -> tuple[StudentFunction, NodeCounter]:
    """The student's search as the check calls it (its counter reset first), and how its
    nodes are counted."""
    student = ctx.student(
        template,
        globals_from=params.globals,
        reset={params.counter: 0} if params.counter else {},
        read_globals=(params.counter,) if params.counter else (),
        count=count,
        explore=explore,
        timeout=max(ctx.assignment.call_timeout, 60),
    )
    return student, NodeCounter(student.count, params.counter)


def _recursion_elsewhere(positions: Sequence[_Position], counter: NodeCounter, answers: Sequence[Answer]) -> bool:
    """Whether counting by name missed the search: the function was called once where the
    reference searches many nodes (its recursion lives in a helper, a closure, methods), or a
    call could not be counted. Then the search is recorded wherever its recursion lives."""
    for position, answer in zip(positions, answers):
        counted = counter.calls(answer)
        if counted is None or counted <= 1 < position.reference_minimax:
            return True
    return False


@dataclass(frozen=True)
class _Answers:
    """Every position's answers, both searches asked and every call answered."""

    minimax: Sequence[Answer]
    minimax_counter: NodeCounter
    alphabeta: Sequence[Answer] | None
    alphabeta_counter: NodeCounter


def _ask(ctx: CheckContext, params: Params, positions: Sequence[_Position]) -> _Answers | tuple[Board, Answer]:
    """The searches' answers on every position, or the first position where a call failed.
    Both functions are looked up first (a missing one makes the check NOT RUN before any
    call). One round trip per function for all the positions; alpha-beta is only asked once
    minimax answered everywhere (a search that times out should not cost twice)."""
    by_name = params.minimax_count or _called_name(params.minimax_call)
    minimax, minimax_counter = _search(ctx, params, params.minimax_call, by_name, None if by_name else ctx.explore())
    alphabeta: tuple[StudentFunction, NodeCounter] | None = None
    if params.alphabeta_call is not None:
        board_global = next((name for name, placeholder in params.globals.items() if placeholder == "board"), None)
        explore = ctx.explore(trace=not params.counter, board_global=board_global)
        alphabeta = _search(ctx, params, params.alphabeta_call, params.alphabeta_count, explore)
    alpha, beta = params.window
    requests = [(str(p.board), ctx.placeholders(p.board, to_move=p.side, alpha=alpha, beta=beta)) for p in positions]
    minimax_answers = minimax.ask_many(requests)
    if by_name and not params.minimax_count and _recursion_elsewhere(positions, minimax_counter, minimax_answers):
        minimax, minimax_counter = _search(ctx, params, params.minimax_call, (), ctx.explore())
        minimax_answers = minimax.ask_many(requests)
    if (failed := _first_failure(positions, minimax_answers)) is not None:
        return failed
    if alphabeta is None:
        return _Answers(minimax_answers, minimax_counter, None, NodeCounter())
    alphabeta_answers = alphabeta[0].ask_many(requests)
    if (failed := _first_failure(positions, alphabeta_answers)) is not None:
        return failed
    return _Answers(minimax_answers, minimax_counter, alphabeta_answers, alphabeta[1])


def _first_failure(positions: Sequence[_Position], answers: Sequence[Answer]) -> tuple[Board, Answer] | None:
    return next(((p.board, a) for p, a in zip(positions, answers) if not a.ok), None)


@dataclass(frozen=True)
class _Measured:
    """One position, measured: its counts, and what the alpha-beta did there."""

    row: NodeCountRow
    comparison: Comparison | None = None
    """The alpha-beta's exploration against the reference's (None: not traced)."""
    wrong_value: Counterexample | None = None
    """The alpha-beta's answer, where it is not the minimax value."""


def _measure(ctx: CheckContext, params: Params, positions: Sequence[_Position], answers: _Answers) -> list[_Measured]:
    measured = []
    for i, position in enumerate(positions):
        mm_answer = answers.minimax[i]
        row = NodeCountRow(
            board=str(position.board),
            minimax=answers.minimax_counter.nodes(mm_answer),
            reference_minimax=position.reference_minimax,
            minimax_call=mm_answer.call_text,
            minimax_calls_counted=answers.minimax_counter.calls(mm_answer) if params.counter else None,
        )
        if answers.alphabeta is None:
            measured.append(_Measured(row))
            continue
        ab_answer = answers.alphabeta[i]
        comparison = None
        counter = answers.alphabeta_counter
        if not (params.counter or params.alphabeta_count) or _recorded_alike(ab_answer, counter.names):
            alpha, beta = params.window
            exploration = ab_answer.outcome.exploration
            comparison = compare(
                exploration, position.board, position.spec, to_move=position.side, alpha=alpha, beta=beta
            )
        counted = counter.nodes(ab_answer)
        row = replace(
            row,
            alphabeta=comparison.nodes if comparison is not None and counted is not None else counted,
            reference_alphabeta=position.reference_alphabeta(params.window),
            alphabeta_call=ab_answer.call_text,
        )
        measured.append(_Measured(row, comparison, _wrong_value(ctx, params, position, ab_answer)))
    return measured


def run(check: Check[Params], ctx: CheckContext) -> CheckResult:
    params = check.params
    positions = _positions(ctx, params)
    answers = _ask(ctx, params, positions)
    if not isinstance(answers, _Answers):
        board, answer = answers
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"`{answer.call_text}` {answer.failure_text()}",
            counterexample=Counterexample(str(board), answer.call_text, "a completed search", answer.given()),
        )
    measured = _measure(ctx, params, positions, answers)
    rows = tuple(m.row for m in measured)
    root_cause = _root_cause(check, ctx, params, positions, rows)
    if any(r.minimax is None or (r.alphabeta_call is not None and r.alphabeta is None) for r in rows):
        what = f"The counter `{params.counter}` did not hold" if params.counter else "The grader could not count"
        verdict = CheckResult.for_check(check, CheckStatus.FAILED, f"{what} a whole number of nodes for the call.")
    elif params.alphabeta_call is None:
        verdict = _single_search_verdict(check, params, rows, root_cause)
    else:
        verdict = _alphabeta_result(check, params, measured, _judge_alphabeta(measured), root_cause)
    source = f"the global `{params.counter}`" if params.counter else "calls counted by the grader"
    detail = verdict.detail_as(NodeCounts) or NodeCounts(())
    return replace(verdict, detail=replace(detail, rows=rows), figures={**verdict.figures, "source": source})


def _root_cause(
    check: Check[Params],
    ctx: CheckContext,
    params: Params,
    positions: Sequence[_Position],
    rows: Sequence[NodeCountRow],
) -> str | None:
    """Whether every count follows from a lower-level function another check found wrong
    (the counts of a search built on it), when the grader counted the calls itself."""
    if params.counter or params.convention != "calls":
        return None
    observations: list[NodeCountObservation] = []
    for position, row in zip(positions, rows):
        if row.minimax is None:
            return None
        observations.append(NodeCountObservation(position.board, position.spec, position.side, row.minimax))
        if row.alphabeta is not None:
            observations.append(
                NodeCountObservation(position.board, position.spec, position.side, row.alphabeta, params.window)
            )
    found = ctx.findings.root_cause(check.id, observations)
    return None if found is None else found.sentence


def _recorded_alike(answer: Answer, pinned: tuple[str, ...]) -> bool:
    """The recorder took the same search as the pinned functions (its trace is theirs)."""
    exploration = answer.outcome.exploration
    return exploration is not None and exploration.nodes == sum(answer.outcome.counts.get(n, 0) for n in pinned)


def _wrong_value(ctx: CheckContext, params: Params, position: _Position, answer: Answer) -> Counterexample | None:
    """The alpha-beta's answer where it is not the minimax value (on the call's window:
    a bound on the right side of the window when the value lies outside it)."""
    board = str(position.board)
    exact = reference_answer(position.board, position.spec, position.side).value
    alpha, beta = params.window
    expected = format_value(exact)
    try:
        value, _ = read_search_result(answer.value, params.returns, ctx)
    except ShapeError as error:
        return Counterexample(board, answer.call_text, expected, error.given())
    if value is None:
        return Counterexample(board, answer.call_text, expected, answer.given())
    right = value == exact if alpha < exact < beta else (value <= alpha if exact <= alpha else value >= beta)
    return None if right else Counterexample(board, answer.call_text, expected, format_value(value))


# -- judging an alpha-beta: a finding first, then its words --------------------------------------


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

    @classmethod
    def of(cls, row: NodeCountRow) -> _AlphaBetaCounts:
        assert row.minimax is not None and row.alphabeta is not None and row.reference_alphabeta is not None
        assert row.alphabeta_call is not None
        return cls(
            row.board, row.alphabeta_call, row.minimax, row.reference_minimax, row.alphabeta, row.reference_alphabeta
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


def _judge_alphabeta(measured: Sequence[_Measured]) -> _Finding:
    """Alpha-beta is judged against the reference's minimax count: a broken minimax loses
    its own checks, and must not make a correct alpha-beta look wrong (or right)."""
    counts = [_AlphaBetaCounts.of(m.row) for m in measured]
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


def _alphabeta_result(
    check: Check[Params], params: Params, measured: Sequence[_Measured], finding: _Finding, root_cause: str | None
) -> CheckResult:
    """The finding in words. ``root_cause``, when every count follows from a lower-level
    function, replaces the cause a count alone suggests."""
    counts = [_AlphaBetaCounts.of(m.row) for m in measured]
    summary = "; ".join(f"alpha-beta {c.alphabeta:,} vs minimax {c.reference_minimax:,}" for c in counts)
    off_minimax = next((c for c in counts if c.minimax != c.reference_minimax), None)
    note = (
        ""
        if off_minimax is None
        else f" Your minimax visited {off_minimax.minimax:,} nodes where the reference visits "
        f"{off_minimax.reference_minimax:,} (row-major order, every call counted, the root included)."
    )
    if finding.outcome is _Outcome.SAME:
        how = (
            "explored exactly the reference's positions, in its order"
            if finding.traced
            else "node counts match the reference"
        )
        return CheckResult.for_check(check, CheckStatus.PASSED, f"Alpha-beta {how} ({summary}).{note}")
    c, comparison = counts[finding.first_apart], measured[finding.first_apart].comparison
    divergence = None if comparison is None else comparison.divergence
    detail = NodeCounts((), divergence, None if comparison is None else comparison.excerpt)
    named = root_cause or (None if comparison is None else comparison.cause)
    where = ""
    if divergence is not None:
        where = (
            f" From {c.board} your search first parts from the reference at step {divergence.step:,} "
            f"(the root is step 0): {_step_text(divergence.student, divergence.reference)}."
        )
    if finding.outcome is _Outcome.WRONG_VALUE:
        wrong = next(m.wrong_value for m in measured if m.wrong_value is not None)
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
            detail=detail,
        )
    if finding.outcome is _Outcome.NO_FEWER:
        assert finding.no_fewer is not None
        k = counts[finding.no_fewer]
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
            detail=detail,
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
        detail=detail,
    )


def _step_text(student: str | None, reference: str | None) -> str:
    if student is None:
        return f"your search had ended where the reference goes on to `{reference}`"
    if reference is None:
        return f"you go on to `{student}` where the reference's search has ended"
    return f"you enter `{student}` where the reference enters `{reference}`"


def _single_search_verdict(
    check: Check[Params], params: Params, rows: Sequence[NodeCountRow], root_cause: str | None
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
