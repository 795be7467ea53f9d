"""Checks for state-class APIs (a `State` class whose moves create successor states): the
successor a move creates, and the table of a depth-limited self-play game (winner and
generated states per depth limit).

The grader counts generated states itself only where the table's count is off: it plays
that game again with the kernel's exploration recorder, which counts the calls of the
search wherever its recursion lives (a search written as a method, a helper or a pair of
functions alike). Recording costs a whole game 2-4 times its time, so a right table is
never recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import strategies as st

from grader.check_details import SelfPlayRow, SelfPlayTable
from grader.check_notes import Cause, Learnt
from grader.checks.answers import Answer
from grader.checks.causes.defects import SuccessorObservation, expand_hypotheses, successor_defect
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.checks.positions import positions
from grader.checks.properties import Mismatch
from grader.checks.recipe import PropertyCheck, run_property
from grader.checks.verdicts import explain, local_cause, result_from_property, shape_of
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, Seconds
from reference import Board, MalformedBoard, depth_limited_selfplay
from reference.codecs import cell_to_rowcol

OUT_OF_RANGE = ((3, 0), (0, 3), (-1, 0))


@dataclass(frozen=True)
class SuccessorParams:
    """A move makes the right new state, refuses occupied or out-of-range cells (None), and leaves the old state
    unchanged."""

    call: CallTemplate
    """The call that makes the successor, with a ``move`` placeholder, e.g.
    ``State(board, to_move).expand(move)``."""
    board_attribute: str = "gameplan"
    """Where the successor keeps its board ("" when the call returns the board itself)."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""


def _read_board(ctx: CheckContext, raw: Any, attribute: str) -> Board | None:
    if raw is None:
        return None
    value = getattr(raw, attribute) if attribute else raw
    return ctx.decode_board(value)


def _successor(check: Check[SuccessorParams], ctx: CheckContext) -> CheckResult:
    """A move on a free cell gives the new board; an occupied or out-of-range cell gives None;
    the state the move is applied to is left unchanged."""
    params = check.params
    student = ctx.student_for(params)
    first = ctx.assignment.first_player
    moves = st.one_of(st.integers(0, 8).map(cell_to_rowcol), st.sampled_from(OUT_OF_RANGE))

    def boards(spread: bool) -> st.SearchStrategy[Board]:
        return positions(first, min_empty=1, include_terminal=False, spread=spread)

    def values(board: Board, move: tuple[int, int]) -> dict[str, Any]:
        return ctx.placeholders(board, move=move)

    def judge(board: Board, move: tuple[int, int], answer: Answer) -> Mismatch | None:
        row, col = move
        legal = 0 <= row < 3 and 0 <= col < 3 and (row * 3 + col) in board.empty_cells()
        expected = board.play(row * 3 + col, board.to_move(first), first=first) if legal else None
        expected_text = f"a state whose board is {expected}" if expected else "None (the move is not allowed)"
        if not answer.ok:
            return Mismatch(answer.call_text, expected_text, answer.given())
        if answer.outcome.mutated:
            return Mismatch(
                answer.call_text,
                expected_text + ", the original state unchanged",
                "the original state's board was changed",
                "The new state shares its board with the old one: copy the board before placing the mark.",
            )
        try:
            actual = _read_board(ctx, answer.value, params.board_attribute)
        except (AttributeError, MalformedBoard) as exc:
            return Mismatch(answer.call_text, expected_text, f"a result whose board cannot be read ({exc})")
        if actual == expected:
            return None
        actual_text = "None" if actual is None else f"a state whose board is {actual}"
        cause = None
        if expected is None:
            cause = "A move on an occupied or out-of-range cell must be refused (return None)."
        elif actual is not None and actual.cells != expected.cells:
            cause = "The mark placed is not the mover's, or it is placed on the wrong cell."
        return Mismatch(answer.call_text, expected_text, actual_text, cause)

    outcome = run_property(check, ctx, student, PropertyCheck(boards, moves, values, judge, examples=params.examples))
    observations = _successor_observations(ctx, params, student.answers())
    if outcome.passed:
        # Right from the root, where the player to move is the maximizer: mistakes about whose
        # mark deeper moves place stay possible, and the searches built on it may show them.
        learnt = Learnt(suspects=tuple(expand_hypotheses(student.label)))
    else:
        learnt = Learnt(defect=None if observations is None else successor_defect(student.label, observations))
    cause = None
    if not outcome.passed:
        cause = explain([lambda: shape_of(student), lambda: local_cause(outcome.mismatch, learnt.defect)])
    return result_from_property(
        check, outcome.board_alone(), f"`{student.label}` makes the right successors", cause=cause, learnt=learnt
    )


def _successor_observations(
    ctx: CheckContext, params: SuccessorParams, answers: list[tuple[Any, Any]]
) -> list[SuccessorObservation] | None:
    """Every new board made, as cells; ``None`` when some answer cannot be read as one."""
    first = ctx.assignment.first_player
    observations = []
    for (board_text, (row, col)), answer in answers:
        if not answer.ok or not (0 <= row < 3 and 0 <= col < 3):
            continue
        board = Board.from_string(board_text)
        try:
            result = _read_board(ctx, answer.value, params.board_attribute)
        except (AttributeError, MalformedBoard):
            return None
        observations.append(SuccessorObservation(board, board.to_move(first), row * 3 + col, result))
    return observations


SUCCESSOR = CheckKind("successor", SuccessorParams, _successor)


@dataclass(frozen=True)
class SelfPlayParams:
    """A self-play game per depth limit: the winner and the number of generated states, through the student's counter
    and, where that is off, through the grader's own count (``partial_credit`` when only the counter is off). The
    depths are played shallowest first, and a row that can score neither way ends the check."""

    call: CallTemplate
    """Plays a whole game at a depth limit and returns a tuple, e.g. ``run_game(depth_limit)``."""
    depths: tuple[int, ...] = (2, 4, 9)
    """The depth limits played (the ``depth_limit`` placeholder), in order."""
    winner_index: int = 0
    """Where the winner is in the returned tuple."""
    generated_index: int = 2
    """Where the number of generated states is in the returned tuple."""
    count: tuple[str, ...] = ()
    """Functions whose calls the grader counts itself (a search call per node; states generated =
    calls - searches); default: the search the exploration recorder finds."""
    partial_credit: float = 0.5
    """Given when the games are right and the grader's count matches, but the student's own
    counter does not: the search is right, the bookkeeping is not."""
    timeout: Seconds = 180.0
    """Seconds one game may take."""


def _selfplay_table(check: Check[SelfPlayParams], ctx: CheckContext) -> CheckResult:
    """The winner and the number of generated states of a self-play game per depth limit."""
    params = check.params
    student = ctx.student(params.call, count=params.count, timeout=params.timeout)
    recorded = None if params.count else ctx.student(params.call, explore=ctx.explore(), timeout=params.timeout)
    rows: list[SelfPlayRow] = []
    # One depth at a time, cheapest first: a row that fails both ways to score (the
    # reported table, or the grader's own count for partial credit) decides the check,
    # and the deeper games after it would only cost their searches.
    for depth in params.depths:
        answer = student.ask(depth, {"depth_limit": depth})
        ref = depth_limited_selfplay(depth)
        if not answer.ok:
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"`{answer.call_text}` {answer.failure_text()}",
                counterexample=Counterexample(None, answer.call_text, "a finished game", answer.given()),
                detail=SelfPlayTable(tuple(rows)),
            )
        value: Any = answer.value
        try:
            winner, generated = value[params.winner_index], value[params.generated_index]
        except (TypeError, IndexError, KeyError):
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"`{answer.call_text}` returned {value!r}, not a tuple with the winner at position "
                f"{params.winner_index} and the generated states at {params.generated_index}.",
                detail=SelfPlayTable(tuple(rows)),
            )
        searches = len(ref.moves)
        nodes: int | None = sum(answer.outcome.counts.values())
        if recorded is not None:
            nodes = None
            if winner == ref.winner and generated != ref.generated:
                again = recorded.ask(depth, {"depth_limit": depth})
                exploration = again.outcome.exploration
                nodes = exploration.nodes if again.ok and exploration is not None else None
        row = SelfPlayRow(
            depth=depth,
            reference_winner=ref.winner,
            reference_generated=ref.generated,
            call=answer.call_text,
            winner=winner,
            generated=generated,
            channel_generated=None if nodes is None else nodes - searches,
        )
        rows.append(row)
        if _cannot_pass(row):
            break
    return replace(_table_verdict(check, params, rows), detail=SelfPlayTable(tuple(rows)))


def _table_verdict(check: Check[SelfPlayParams], params: SelfPlayParams, rows: list[SelfPlayRow]) -> CheckResult:
    table = "; ".join(f"depth {r.depth}: {r.winner}, {_states(r.generated)}" for r in rows)
    changed = len({r.reference_winner for r in rows}) > 1
    note = " The shallower limits change the result, as they should." if changed else ""
    games_right = all(r.winner == r.reference_winner for r in rows)
    if games_right and all(r.generated == r.reference_generated for r in rows):
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"Self-play table matches the reference ({table}).{note}"
        )
    if games_right and all(r.reference_generated in (r.generated, r.channel_generated) for r in rows):
        r = next(r for r in rows if r.generated != r.reference_generated)
        counted = "; ".join(
            f"depth {r.depth}: {_states(r.channel_generated)}" for r in rows if r.channel_generated is not None
        )
        return CheckResult.for_check(
            check,
            CheckStatus.PARTIAL,
            f"The games and the search are right (the grader counted {counted}), "
            f"but the reported counts are not ({table}).",
            score=check.points * params.partial_credit,
            counterexample=Counterexample(
                None,
                r.call,
                f"{_states(r.reference_generated)} reported",
                f"{_states(r.generated)} reported",
            ),
            cause=Cause(
                "local",
                "The counter you report is off: is it incremented for every new state, "
                "and reset before each search only?",
            ),
        )
    r = next(r for r in rows if _search_differs(r))
    cause = (
        "A different game was played: check the depth limit (depth counts from the start of the game) and the "
        "tie-break (first best move in row-major order)."
        if r.winner != r.reference_winner
        else f"The search generates {_states(r.channel_generated)} (counted by the grader) "
        f"where the reference generates "
        f"{_states(r.reference_generated)}: check the depth limit (counted from the start of the game) and the "
        "terminal test, which decide where the search stops."
    )
    unplayed = params.depths[len(rows) :]
    rest = f" The games at depth {', '.join(map(str, unplayed))} were not played." if unplayed else ""
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Self-play table differs from the reference ({table}).{rest}",
        counterexample=Counterexample(
            None,
            r.call,
            f"{r.reference_winner}, {_states(r.reference_generated)}",
            f"{r.winner}, {_states(r.generated)}",
        ),
        cause=Cause("local", cause),
    )


def _cannot_pass(row: SelfPlayRow) -> bool:
    """A row that neither the full score (winner and reported count right) nor the partial
    credit (winner and the grader's count right) allows, whatever the other depths show."""
    return _search_differs(row) and (row.winner != row.reference_winner or row.generated != row.reference_generated)


def _search_differs(row: SelfPlayRow) -> bool:
    """A different game, or a search that generates a different number of states (as the
    grader counts them, where it counted): the row a failure points at."""
    if row.winner != row.reference_winner:
        return True
    return row.generated != row.reference_generated and row.channel_generated != row.reference_generated


def _states(n: object) -> str:
    return f"{n:,} generated states" if isinstance(n, int) and not isinstance(n, bool) else f"{n!r} generated states"


SELFPLAY_TABLE = CheckKind("selfplay-table", SelfPlayParams, _selfplay_table)
