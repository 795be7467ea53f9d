"""Pieces every check kind shares: parameter fields, position sampling, making results."""

from __future__ import annotations

import functools
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hypothesis import strategies as st

from grader.checks.context import Answer, CheckContext, NotDefined, StudentFunction
from grader.checks.properties import Mismatch, PropertyOutcome, find_smallest_failure
from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate, parse_call
from grader.spec.model import Check
from reference import Board, MalformedBoard, reachable_positions

PLACEHOLDERS = frozenset(
    {
        "board",
        "to_move",
        "opponent",
        "player",
        "is_max",
        "alpha",
        "beta",
        "depth_limit",
        "position",
        "cell",
        "row",
        "col",
        "move",
    }
)


def call_field(**kwargs: Any) -> Any:
    """A params field holding a call text, parsed (and checked) at load time."""
    return field(metadata={"parse": lambda text: _parse_call_text(text)}, **kwargs)


def _parse_call_text(text: Any) -> CallTemplate:
    if not isinstance(text, str):
        raise ValueError(f'must be a call text such as "f(board)", not {text!r}')
    return parse_call(text, allowed_placeholders=PLACEHOLDERS)


def boards_field(**kwargs: Any) -> Any:
    """A params field holding a list of 9-character boards."""
    return field(metadata={"parse": _parse_boards}, **kwargs)


def _parse_boards(raw: Any) -> tuple[Board, ...]:
    if not isinstance(raw, list):
        raise ValueError('must be a list of 9-character boards such as "X.O......"')
    try:
        return tuple(Board.from_string(s) for s in raw)
    except (MalformedBoard, TypeError) as exc:
        raise ValueError(f"bad board: {exc}") from None


class CheckKind(Protocol):
    Params: type

    @staticmethod
    def run(check: Check, ctx: CheckContext) -> CheckResult: ...


@dataclass(frozen=True)
class Sampling:
    """Which positions a search check samples (weighted toward few empty cells)."""

    min_empty: int = 1
    max_empty: int = 6
    to_move: str | None = None
    """Only positions with this side to move (for functions that always play one side)."""

    def strategy(self, ctx: CheckContext, *, spread: bool = False) -> st.SearchStrategy[Board]:
        return positions(
            ctx.assignment.first_player,
            self.min_empty,
            self.max_empty,
            self.to_move,
            include_terminal=False,
            spread=spread,
        )


@functools.cache
def position_pool(
    first: str, min_empty: int, max_empty: int, to_move: str | None, include_terminal: bool
) -> tuple[Board, ...]:
    """Reachable positions in the bounds, fewest pieces first."""
    pool = (
        b
        for b in reachable_positions(first)
        if min_empty <= len(b.empty_cells()) <= max_empty
        and (include_terminal or not b.is_terminal())
        and (to_move is None or (not b.is_terminal() and b.to_move(first) == to_move))
    )
    return tuple(sorted(pool, key=board_size))


def positions(
    first: str,
    min_empty: int = 0,
    max_empty: int = 9,
    to_move: str | None = None,
    include_terminal: bool = True,
    *,
    spread: bool = False,
) -> st.SearchStrategy[Board]:
    """Reachable positions drawn from the table of all of them (microseconds a draw, where
    replaying random games costs milliseconds).

    Hypothesis favours the first entries of a list. In smallest-first order that makes it
    shrink toward the board with the fewest pieces; with ``spread`` the list is a fixed
    shuffle instead, so a batch of examples is close to uniform over positions, which favours
    boards with few empty cells (there are far more of them) and keeps slow student code
    affordable.
    """
    return st.sampled_from(
        _spread_pool(first, min_empty, max_empty, to_move, include_terminal)
        if spread
        else position_pool(first, min_empty, max_empty, to_move, include_terminal)
    )


@functools.cache
def _spread_pool(
    first: str, min_empty: int, max_empty: int, to_move: str | None, include_terminal: bool
) -> tuple[Board, ...]:
    pool = list(position_pool(first, min_empty, max_empty, to_move, include_terminal))
    random.Random(len(pool)).shuffle(pool)
    return tuple(pool)


def board_size(board: Board) -> tuple:
    """Order for 'smallest' counterexamples: fewest pieces, then reading order."""
    return (9 - len(board.empty_cells()), str(board))


def check_seed(ctx: CheckContext, check: Check) -> int:
    """Fixed per assignment and check: every submission is asked about the same positions,
    which is fair between students and makes grading reproducible."""
    return zlib.crc32(f"{ctx.assignment.id}:{check.id}".encode())


def check_key(ctx: CheckContext, check: Check) -> tuple:
    """Identifies a check's generated examples across the submissions of a batch (the
    parameters too: a course author's edit, or a test's variant, must not reuse them)."""
    return (ctx.assignment.id, str(ctx.assignment.directory), check.id, repr(check.params))


def make_result(
    check: Check,
    status: CheckStatus,
    message: str,
    *,
    score: float | None = None,
    counterexample: Counterexample | None = None,
    figures: dict[str, Any] | None = None,
    started: float | None = None,
) -> CheckResult:
    # Bonus checks add to the score only; manual items are for the instructor, unscored.
    max_score = 0.0 if check.bonus or check.kind == "manual" else check.points
    if score is None:
        score = check.points if status == CheckStatus.PASSED else 0.0
    return CheckResult(
        check_id=check.id,
        kind=check.kind,
        title=check.title,
        status=status,
        score=round(score, 4),
        max_score=max_score,
        message=message,
        visibility=check.visibility,
        counterexample=counterexample,
        figures=figures or {},
        duration=round(time.monotonic() - started, 4) if started else 0.0,
    )


def result_from_property(
    check: Check,
    outcome: PropertyOutcome,
    passed_message: str,
    *,
    started: float,
    figures: dict[str, Any] | None = None,
) -> CheckResult:
    figures = {"examples": outcome.tried, **(figures or {})}
    if outcome.budget_exhausted:
        figures["budget_exhausted"] = True
    if outcome.passed:
        message = passed_message + f" ({outcome.tried} positions tried)"
        if outcome.budget_exhausted:
            message += "; the time budget ran out before all planned positions were tried"
        return make_result(check, CheckStatus.PASSED, message, figures=figures, started=started)
    board = outcome.failing_input
    mismatch = outcome.mismatch
    assert mismatch is not None
    return make_result(
        check,
        CheckStatus.FAILED,
        f"Wrong answer on a position with {9 - len(board.empty_cells())} pieces"
        if isinstance(board, Board)
        else "Wrong answer",
        counterexample=counterexample_for(board if isinstance(board, Board) else None, mismatch),
        figures=figures,
        started=started,
    )


def counterexample_for(board: Board | None, mismatch: Mismatch) -> Counterexample:
    return Counterexample(
        board=str(board) if board is not None else None,
        call=mismatch.call,
        expected=mismatch.expected,
        actual=mismatch.actual,
        cause=mismatch.cause,
    )


def guarded(run: Callable[[Check, CheckContext], CheckResult]) -> Callable[[Check, CheckContext], CheckResult]:
    """Turn a missing function into NOT RUN, whatever the kind."""

    def wrapper(check: Check, ctx: CheckContext) -> CheckResult:
        try:
            return run(check, ctx)
        except NotDefined as exc:
            return make_result(check, CheckStatus.NOT_RUN, f"Not run: {exc}", figures={"missing": exc.name})

    return wrapper


def find_failure(
    check: Check,
    ctx: CheckContext,
    student: StudentFunction,
    strategy: st.SearchStrategy[Any],
    judge: Callable[[Any], Mismatch | None],
    *,
    key: Callable[[Any], Any],
    values: Callable[[Any], dict[str, Any]],
    size: Callable[[Any], tuple] = board_size,
    explicit: Sequence[Any] = (),
    examples: int | None = None,
    sample: st.SearchStrategy[Any] | None = None,
) -> PropertyOutcome:
    """A check's property run with the assignment's budget, the check's own seed and example
    cache, and the student's answers fetched in batches (``key`` and ``values`` say how a
    case becomes a call)."""
    aside = AnswersAside(student, key, values)
    return find_smallest_failure(
        strategy,
        aside.judging(judge),
        size=size,
        examples=examples or ctx.assignment.hypothesis_examples,
        run_seed=check_seed(ctx, check),
        cache_key=check_key(ctx, check),
        budget_seconds=ctx.assignment.check_budget_seconds,
        prefetch=aside.fetch,
        speculate=aside.speculate,
        explicit=explicit,
        sample=sample,
    )


SPECULATIVE_SECONDS = 2.0
"""The longest a batch of inputs fetched ahead may run if every call in it hangs: each call
gets its share as its time limit (never more than the student's own limit). Blocks are sized
so that the slowest call seen fits dozens of times in that share."""


class AnswersAside:
    """The student's answers to inputs a property run has not asked about yet.

    They are fetched with the student's own calls but kept out of its evidence (what
    diagnoses read) until the run judges their input: a run sees exactly the answers it would
    have seen asking one input at a time. An answer that timed out under the shorter limit of
    speculative calls, or a crash, is dropped: if judged, that input is asked again with the
    student's full limit.
    """

    def __init__(
        self, student: StudentFunction, key: Callable[[Any], Any], values: Callable[[Any], dict[str, Any]]
    ) -> None:
        self.student = student
        self.key = key
        self.values = values
        self.aside: dict[Any, Answer] = {}

    def fetch(self, cases: Sequence[Any]) -> list[float | None]:
        """One batch, cached as usual (the first pass's examples)."""
        answers = self.student.ask_many((self.key(c), self.values(c)) for c in cases)
        return [_seconds(a.outcome) for a in answers]

    def speculate(self, cases: Sequence[Any]) -> list[float | None]:
        """One batch, kept aside until judged. Each call's time limit is its share of
        `SPECULATIVE_SECONDS` (at most the student's own limit)."""
        requests = {self.key(c): self.values(c) for c in cases if self.key(c) not in self.aside}
        if not requests:
            return []
        answers = self.student.fetch_aside(
            requests.items(), timeout=min(self.student.timeout, SPECULATIVE_SECONDS / len(requests))
        )
        seconds = [_seconds(answer.outcome) for answer in answers.values()]
        for (k, answer), took in zip(answers.items(), seconds):
            if took is not None:  # a hang or crash under the short limit is asked again if judged
                self.aside[k] = answer
        return seconds

    def judging(self, judge: Callable[[Any], Mismatch | None]) -> Callable[[Any], Mismatch | None]:
        """``judge``, with the answer kept aside for its input made evidence first."""

        def judge_with_answer(case: Any) -> Mismatch | None:
            k = self.key(case)
            if k in self.aside:
                self.student.keep(k, self.aside.pop(k))
            return judge(case)

        return judge_with_answer


def _seconds(outcome: CallOutcome) -> float | None:
    """The student's time for a call; None when it hung or crashed (nothing to go by)."""
    if outcome.status in (CallStatus.TIMEOUT, CallStatus.KILLED):
        return None
    return outcome.duration
