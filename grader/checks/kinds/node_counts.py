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

A search that has entered far more nodes than the reference's minimax (`NODE_CAP_FACTOR` times,
at least `NODE_CAP_FLOOR` more) is stopped there by the kernel and fails at once: its count is
wrong whatever it does next. The cap is the minimax's for the alpha-beta too, so an alpha-beta
that never prunes is still counted whole and named. A counter the student keeps is not capped.

This module collects (the counts, as ints, and what each alpha-beta call did);
`node_count_verdicts` judges.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from grader.check_details import NodeCountRow, NodeCounts
from grader.check_notes import Cause
from grader.checks.answers import Answer, ShapeError, format_value, read_search_result
from grader.checks.causes.explorations import Comparison, compare, explained, recorded_steps, separate
from grader.checks.causes.root_cause import NodeCountObservation
from grader.checks.context import CheckContext, Explore, StudentFunction
from grader.checks.kind import CheckKind
from grader.checks.kinds.node_count_verdicts import Measured, alphabeta_result, judge_alphabeta, single_search_result
from grader.checks.kinds.search import Shapes
from grader.checks.node_counter import NodeCounter
from grader.checks.reference_answers import reference_alphabeta, reference_answer, reference_minimax_nodes
from grader.execution.channel.call_data import CallStatus
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference import Position, SearchSpec, TicTacToe

NODE_CAP_FACTOR = 5
"""How many times the reference minimax's nodes a search may enter before it is stopped."""
NODE_CAP_FLOOR = 10_000
"""Nodes past the reference's always allowed, however small its search."""


@dataclass(frozen=True)
class Params:
    """Counts the nodes of minimax and alpha-beta: the calls of the student's search wherever its recursion lives, or
    the functions the assignment pins (``minimax_count``), or a counter the student keeps (``counter``). Nothing
    unless the alpha-beta returns the minimax value on the counted positions; fewer nodes than minimax is required.
    The alpha-beta's exploration is compared step by step with the reference's: the same exploration gets full
    credit, fewer nodes but another exploration ``partial_credit``, with the first step where the searches part.
    Beyond 200,000 steps, or where the boards cannot be read, counts are compared. A search past 5 times the
    reference minimax's count (at least 10,000 more) is stopped there and fails; a ``counter`` is not capped."""

    minimax_call: CallTemplate
    """The plain minimax call whose nodes are counted, e.g. ``minimax(board, 0, is_max)``."""
    alphabeta_call: CallTemplate | None = None
    """Without it, the check compares one search's node count with the reference's."""
    window: tuple[float, float] = (-math.inf, math.inf)
    """The window the alpha-beta call starts with (for the reference count)."""
    minimax_count: tuple[str, ...] = ()
    """Functions whose calls are minimax's nodes (default: the search the recorder finds)."""
    alphabeta_count: tuple[str, ...] = ()
    """Functions whose calls are alpha-beta's nodes (default: the search the recorder finds)."""
    counter: str | None = None
    """Read this student global (reset to 0 first) instead of counting calls."""
    convention: Literal["calls", "children"] = "calls"
    """calls: every call counts, root included; children: created states (calls - 1)."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    start_depth: int = 0
    """The depth the student's code gives the root (matters for depth-adjusted scores)."""
    positions: tuple[Position, ...] = (TicTacToe().initial_state(),)
    """The positions both searches are counted from."""
    partial_credit: float = 0.5
    """The share of the points for fewer nodes than minimax but another exploration."""
    returns: Shapes = ("value", "value,move", "value,row,col", "move,value")
    """How the alpha-beta call's result holds the value (the first shape that reads wins)."""
    move_order: Literal["row-major", "any"] = "row-major"
    """row-major: the alpha-beta explores what the reference does trying the cells row by row;
    any: what the reference does in the order the student's search tried the moves at each node."""


def _called_name(template: CallTemplate) -> tuple[str, ...]:
    """The function a plain call names, counted by name: a wrapper around it costs next to
    nothing, where recording the search costs it three to four times over. A chained call
    (a method on a constructed object) has no such name."""
    return () if template.chain else (template.target.name,)


@dataclass(frozen=True)
class _Position:
    """A position the searches are counted from, and the reference's counts there."""

    board: Position
    side: str
    spec: SearchSpec
    offset: int
    """1 when the convention counts created states (calls minus the root), else 0."""

    @property
    def reference_minimax(self) -> int:
        return reference_minimax_nodes(self.board, self.spec, self.side) - self.offset

    def reference_alphabeta(self, window: tuple[float, float]) -> int:
        return reference_alphabeta(self.board, self.spec, self.side, *window).nodes - self.offset

    @property
    def node_cap(self) -> int:
        """The calls either search may make from here before it is stopped: far past any
        count the check accepts, the root counted or not."""
        calls = reference_minimax_nodes(self.board, self.spec, self.side)
        return max(NODE_CAP_FACTOR * calls, calls + NODE_CAP_FLOOR)


def _positions(ctx: CheckContext, params: Params) -> list[_Position]:
    offset = 1 if params.convention == "children" else 0
    positions = []
    for board in params.positions:
        side = ctx.game.to_move(board)
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
        if answer.outcome.status is CallStatus.NODE_CAP:  # the names counted it up to its cap
            continue
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
    alphabeta_search: StudentFunction | None = None


@dataclass(frozen=True)
class _Failure:
    """The first call that did not answer, and the reference's count where it was asked."""

    position: _Position
    answer: Answer
    reference_nodes: int


def _ask(ctx: CheckContext, params: Params, positions: Sequence[_Position]) -> _Answers | _Failure:
    """The searches' answers on every position, or the first position where a call failed.
    Both functions are looked up first (a missing one makes the check NOT RUN before any
    call). One round trip per function for all the positions; alpha-beta is only asked once
    minimax answered everywhere (a search that times out should not cost twice)."""
    by_name = params.minimax_count or _called_name(ctx.assignment.board.on_object(params.minimax_call))
    minimax, minimax_counter = _search(ctx, params, params.minimax_call, by_name, None if by_name else ctx.explore())
    alphabeta: tuple[StudentFunction, NodeCounter] | None = None
    if params.alphabeta_call is not None:
        board_global = next((name for name, placeholder in params.globals.items() if placeholder == "board"), None)
        explore = ctx.explore(trace=not params.counter, board_global=board_global)
        alphabeta = _search(ctx, params, params.alphabeta_call, params.alphabeta_count, explore)
    alpha, beta = params.window
    requests = [(str(p.board), ctx.placeholders(p.board, to_move=p.side, alpha=alpha, beta=beta)) for p in positions]
    caps = {} if params.counter else {str(p.board): p.node_cap for p in positions}
    minimax_answers = minimax.ask_many(requests, node_caps=caps)
    if by_name and not params.minimax_count and _recursion_elsewhere(positions, minimax_counter, minimax_answers):
        minimax, minimax_counter = _search(ctx, params, params.minimax_call, (), ctx.explore())
        minimax_answers = minimax.ask_many(requests, node_caps=caps)
    if (failed := _first_failure(positions, minimax_answers)) is not None:
        return _Failure(*failed, failed[0].reference_minimax)
    if alphabeta is None:
        return _Answers(minimax_answers, minimax_counter, None, NodeCounter())
    alphabeta_answers = alphabeta[0].ask_many(requests, node_caps=caps)
    if (failed := _first_failure(positions, alphabeta_answers)) is not None:
        return _Failure(*failed, failed[0].reference_alphabeta(params.window))
    return _Answers(minimax_answers, minimax_counter, alphabeta_answers, alphabeta[1], alphabeta[0])


def _first_failure(positions: Sequence[_Position], answers: Sequence[Answer]) -> tuple[_Position, Answer] | None:
    return next(((p, a) for p, a in zip(positions, answers) if not a.ok), None)


def _failed(check: Check[Params], failure: _Failure) -> CheckResult:
    """A call that did not answer fails the check; one stopped at its cap of nodes says so."""
    board, answer = str(failure.position.board), failure.answer
    if answer.outcome.status is not CallStatus.NODE_CAP:
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"`{answer.call_text}` {answer.failure_text()}",
            counterexample=Counterexample(board, answer.call_text, "a completed search", answer.given()),
        )
    cap, reference = failure.position.node_cap, failure.reference_nodes
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"`{answer.call_text}` from {board} had entered {cap:,} nodes when it was stopped; the reference's "
        f"search enters {reference:,}, so the count is wrong whatever the search does next.",
        counterexample=Counterexample(board, answer.call_text, f"{reference:,} nodes", f"{cap:,} nodes when stopped"),
    )


def _measure(ctx: CheckContext, params: Params, positions: Sequence[_Position], answers: _Answers) -> list[Measured]:
    """Each position's counts, and where the alpha-beta's exploration parts from the
    reference's (why it does is left to :func:`_explain`, for the position the verdict names)."""
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
            measured.append(Measured(row))
            continue
        ab_answer = answers.alphabeta[i]
        comparison = None
        counter = answers.alphabeta_counter
        if not (params.counter or params.alphabeta_count) or _recorded_alike(ab_answer, counter.names):
            alpha, beta = params.window
            exploration = ab_answer.outcome.exploration
            comparison = compare(
                exploration,
                position.board,
                position.spec,
                to_move=position.side,
                alpha=alpha,
                beta=beta,
                any_order=params.move_order == "any",
                explain=False,
            )
        counted = counter.nodes(ab_answer)
        row = replace(
            row,
            alphabeta=comparison.nodes if comparison is not None and counted is not None else counted,
            reference_alphabeta=position.reference_alphabeta(params.window),
            alphabeta_call=ab_answer.call_text,
        )
        measured.append(Measured(row, comparison, _wrong_value(ctx, params, position, ab_answer)))
    return measured


def _explain(
    ctx: CheckContext,
    params: Params,
    positions: Sequence[_Position],
    answers: _Answers,
    measured: list[Measured],
    first_apart: int,
    root_cause: Cause | None,
) -> list[Measured]:
    """Why the alpha-beta parts from the reference, at the one position the verdict's words
    speak of (the first where it explores otherwise): the rule searches and the call that
    tells readings apart cost seconds on a large exploration, and no other position's
    explanation reaches the report. A lower-level function's defect, when it explains every
    count, is the cause named: then no rule set is looked for."""
    at = measured[first_apart]
    if at.comparison is None or at.comparison.divergence is None:
        return measured
    position = positions[first_apart]
    alpha, beta = params.window
    comparison = explained(
        at.comparison,
        position.board,
        position.spec,
        to_move=position.side,
        alpha=alpha,
        beta=beta,
        named=root_cause is None,
    )
    if len(comparison.readings) > 1:
        comparison = _separate(ctx, params, position, answers.alphabeta_search, comparison)
    return [*measured[:first_apart], replace(at, comparison=comparison), *measured[first_apart + 1 :]]


def _separate(
    ctx: CheckContext,
    params: Params,
    position: _Position,
    search: StudentFunction | None,
    comparison: Comparison,
) -> Comparison:
    """Readings that explore alike from the check's window, told apart by calling the search on
    the same position with a window under which they part (when the call takes its window from
    the ``alpha`` and ``beta`` placeholders)."""
    assert params.alphabeta_call is not None
    if search is None or not {"alpha", "beta"} <= params.alphabeta_call.placeholders:
        return comparison

    def ask(window: tuple[float, float]) -> list[str] | None:
        values = ctx.placeholders(position.board, to_move=position.side, alpha=window[0], beta=window[1])
        # a call the check's time no longer allows is skipped: the alternatives then stand
        answer = search.ask_many([((str(position.board), window), values)], partial=True)[0]
        return recorded_steps(answer.outcome.exploration) if answer.ok else None

    return separate(comparison, position.board, position.spec, to_move=position.side, ask=ask)


def run(check: Check[Params], ctx: CheckContext) -> CheckResult:
    params = check.params
    positions = _positions(ctx, params)
    answers = _ask(ctx, params, positions)
    if isinstance(answers, _Failure):
        return _failed(check, answers)
    measured = _measure(ctx, params, positions, answers)
    rows = tuple(m.row for m in measured)
    root_cause = _root_cause(check, ctx, params, positions, rows)
    if any(r.minimax is None or (r.alphabeta_call is not None and r.alphabeta is None) for r in rows):
        what = f"The counter `{params.counter}` did not hold" if params.counter else "The grader could not count"
        verdict = CheckResult.for_check(check, CheckStatus.FAILED, f"{what} a whole number of nodes for the call.")
    elif params.alphabeta_call is None:
        verdict = single_search_result(check, rows, root_cause, params.counter)
    else:
        finding = judge_alphabeta(measured)
        measured = _explain(ctx, params, positions, answers, measured, finding.first_apart, root_cause)
        verdict = alphabeta_result(
            check, measured, finding, root_cause, params.partial_credit, params.move_order == "any"
        )
    source = f"the global `{params.counter}`" if params.counter else "calls counted by the grader"
    detail = verdict.detail_as(NodeCounts) or NodeCounts(())
    return replace(verdict, detail=replace(detail, rows=rows), figures={**verdict.figures, "source": source})


def _root_cause(
    check: Check[Params],
    ctx: CheckContext,
    params: Params,
    positions: Sequence[_Position],
    rows: Sequence[NodeCountRow],
) -> Cause | None:
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
    return None if found is None else found.cause


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
        value, _ = read_search_result(answer.value, params.returns, ctx.moves())
    except ShapeError as error:
        return Counterexample(board, answer.call_text, expected, error.given())
    if value is None:
        return Counterexample(board, answer.call_text, expected, answer.given())
    right = value == exact if alpha < exact < beta else (value <= alpha if exact <= alpha else value >= beta)
    return None if right else Counterexample(board, answer.call_text, expected, format_value(value))


NODE_COUNTS = CheckKind("node-counts", Params, run)
