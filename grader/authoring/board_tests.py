"""Which board test a function is (win, winner, full, draw, terminal, legal moves, score),
decided from its answers on the probe positions under one encoding.

A reading is kept only when it reproduces every answer; a function whose answers fit no
reading, or more than one, is not a board test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from grader.authoring.draft import NEAR_MISS, NearMiss
from grader.authoring.probes import Conventions, Prober
from grader.authoring.signatures import Signature
from grader.checks.answers import ShapeError
from grader.checks.context import CheckContext
from grader.checks.expectations import EXPECTATIONS, Expectation
from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.spec.model import MOVE_FORMATS, MoveFormat
from reference import EMPTY, TIC_TAC_TOE, O, Position, TicTacToe, X


@dataclass(frozen=True)
class BoardTest:
    """A function read as one of the predicate kind's expectations."""

    signature: Signature
    role: str
    expect: str
    evidence: str
    codes: dict[str, Any] = field(default_factory=dict)
    move: MoveFormat | None = None
    ordered: bool = False
    boards: Literal["unfinished"] | None = None
    """Set when the function answers only on games in progress (None or raising on finished
    ones): its check is judged there alone."""

    @property
    def function(self) -> str:
        return self.signature.function.name

    @property
    def expectation(self) -> Expectation:
        return EXPECTATIONS[self.expect]


def _plain(value: Any) -> bool:
    return isinstance(value, (bool, int, str)) or value is None


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))


def _agreement(
    signature: Signature, role: str, answers: Sequence[Any], expected: Sequence[Any], boards: Sequence[Any]
) -> NearMiss | None:
    """A near miss when most, not all, answers agree with ``expected``."""
    agreed = sum(bool(a) == e for a, e in zip(answers, expected))
    if agreed == len(answers) or agreed < NEAR_MISS * len(answers):
        return None
    a, e, b = next((a, e, b) for a, e, b in zip(answers, expected, boards) if bool(a) != e)
    return NearMiss(signature.function.name, role, agreed, len(answers), str(b), a, e)


def read_board_test(
    prober: Prober,
    signature: Signature,
    conventions: Conventions,
    positions: Sequence[Position],
    call_timeout: float | None = None,
) -> BoardTest | NearMiss | None:
    """The board test ``signature`` is under ``conventions``' encoding, if its answers on
    ``positions`` (tic-tac-toe's boards: what a board test answers is read from their cells)
    say so. ``call_timeout``: a screening limit (`Prober.ask`)."""
    boards = list(positions)
    rest = signature.inputs
    if rest == ("player",):
        return _win_test(prober, signature, conventions, boards, call_timeout)
    if rest:
        return None
    outcomes = prober.ask(signature, conventions, [{"board": b} for b in boards], call_timeout=call_timeout)
    found = _read_answers(prober, signature, conventions, boards, outcomes)
    return found if found is not None else _read_in_progress(prober, signature, conventions, boards, outcomes)


def _empty_cells(board: Position) -> list[int]:
    """The empty cells, finished game or not (a moves test may list them on either)."""
    return [cell for cell, mark in enumerate(TIC_TAC_TOE.cells(board)) if mark == EMPTY]


_OPEN_WHEN_FINISHED = ("legal-moves", "to-move")
"""What a course may leave open on a finished game (CS50 AI: any answer of `actions` and
`player` there), as a solution shows by answering None or raising."""


def _read_in_progress(
    prober: Prober,
    signature: Signature,
    conventions: Conventions,
    boards: Sequence[Position],
    outcomes: Sequence[CallOutcome],
) -> BoardTest | None:
    """The moves or the side to move, read from games in progress alone, when the function
    answers None or raises on every finished game: judged on games in progress only."""
    finished = [o for o, b in zip(outcomes, boards) if TIC_TAC_TOE.is_terminal(b)]
    ongoing = [(b, o) for b, o in zip(boards, outcomes) if not TIC_TAC_TOE.is_terminal(b)]
    if not finished or not ongoing:
        return None
    if all(o.ok and o.value is None for o in finished):
        how = "returns None"
    elif all(o.status is CallStatus.RAISED for o in finished):
        how = "raises"
    else:
        return None
    found = _read_answers(prober, signature, conventions, [b for b, _ in ongoing], [o for _, o in ongoing])
    if not isinstance(found, BoardTest) or found.expect not in _OPEN_WHEN_FINISHED:
        return None
    evidence = f"{found.evidence}; it {how} on the {len(finished)} finished games"
    return dataclasses.replace(found, evidence=evidence, boards="unfinished")


def _read_answers(
    prober: Prober,
    signature: Signature,
    conventions: Conventions,
    boards: Sequence[Position],
    outcomes: Sequence[CallOutcome],
) -> BoardTest | NearMiss | None:
    if not all(o.ok for o in outcomes):
        return None
    answers = [o.value for o in outcomes]
    if all(_is_bool(a) for a in answers):
        return _true_false_test(signature, answers, boards)
    moves = _legal_moves(prober.context(conventions), signature, answers, boards)
    if moves is not None:
        return moves
    # A function told the side to move cannot say who moves first.
    turn = None if signature.has("to_move") else _turn(signature, answers, boards, conventions)
    if turn is not None:
        return turn
    winner = _winner(signature, answers, boards)
    encoding = conventions.encoding
    if winner is not None and winner.codes.get("X", X) == encoding.x and winner.codes.get("O", O) == encoding.o:
        return winner  # the board's own marks: the winner, even where they read as +1/-1 scores
    return _score(signature, answers, boards) or winner


def _true_false_test(
    signature: Signature, answers: Sequence[Any], boards: Sequence[Position]
) -> BoardTest | NearMiss | None:
    """The expectation whose truth (full, draw, finished game) reproduces every True/False
    answer; a near miss when most, not all, answers fit one."""
    readings = {e.name: e for e in EXPECTATIONS.values() if e.true_on is not None}
    truths = {name: [e.expected(b, None, None, X) for b in boards] for name, e in readings.items()}
    fitting = [name for name, truth in truths.items() if all(bool(a) == t for a, t in zip(answers, truth))]
    if len(fitting) == 1:
        fits = readings[fitting[0]]
        return BoardTest(
            signature, fits.draft_role, fits.name, f"True exactly on the {fits.true_on} of {len(boards)} boards"
        )
    # "Has someone won" has no check kind; a constant answer is no attempt at any test.
    if (
        fitting
        or all(bool(a) == bool(TIC_TAC_TOE.winners(b)) for a, b in zip(answers, boards))
        or len(set(map(bool, answers))) < 2
    ):
        return None
    misses = [_agreement(signature, f"a {name} test", answers, truth, boards) for name, truth in truths.items()]
    return max((m for m in misses if m), key=lambda m: m.agreed, default=None)


def _win_test(
    prober: Prober,
    signature: Signature,
    conventions: Conventions,
    boards: Sequence[Position],
    call_timeout: float | None,
) -> BoardTest | NearMiss | None:
    pairs = [(b, p) for b in boards for p in (X, O)]
    cases = [{"board": b, "player": p} for b, p in pairs]
    outcomes = prober.ask(signature, conventions, cases, call_timeout=call_timeout)
    if not all(o.ok and _is_bool(o.value) for o in outcomes):
        return None
    expected = [EXPECTATIONS["wins"].expected(board, player, None, X) for board, player in pairs]
    if all(bool(o.value) == e for o, e in zip(outcomes, expected)):
        return BoardTest(
            signature,
            "win-test",
            "wins",
            f"True exactly when the given player has a line, on {len(boards)} boards for each player",
        )
    return _agreement(
        signature, "a win test", [o.value for o in outcomes], expected, [f"{b} (for {p})" for b, p in pairs]
    )


def _legal_moves(
    ctx: CheckContext, signature: Signature, answers: Sequence[Any], boards: Sequence[Position]
) -> BoardTest | None:
    if not all(isinstance(a, (list, tuple, set, frozenset)) for a in answers):
        return None
    fitting: list[tuple[MoveFormat, bool]] = []
    for move_format in MOVE_FORMATS:
        try:
            codec = ctx.moves(move_format)
            read = [[codec.decode(m) for m in a] for a in answers]
        except ShapeError:
            continue
        if all(sorted(cells) == sorted(_empty_cells(b)) for cells, b in zip(read, boards)):
            unordered = any(isinstance(a, (set, frozenset)) for a in answers)
            fitting.append((move_format, not unordered and all(cells == sorted(cells) for cells in read)))
    if len(fitting) != 1:
        return None
    move_format, ordered = fitting[0]
    order = ", in row-major order" if ordered else ""
    return BoardTest(
        signature,
        "moves",
        "legal-moves",
        f"lists exactly the empty cells as {move_format} moves{order}, on {len(boards)} boards",
        move=move_format,
        ordered=ordered,
    )


def _turn(
    signature: Signature, answers: Sequence[Any], boards: Sequence[Position], conventions: Conventions
) -> BoardTest | None:
    """The side to move, by the board's marks: on a game in progress with as many X as O it
    names the player who began, so its answers say who moves first. Finished boards are
    not asked about (who moves there is anyone's convention)."""
    encoding = conventions.encoding
    ongoing = [(a, b) for a, b in zip(answers, boards) if not TIC_TAC_TOE.is_terminal(b)]
    if not ongoing or not all(_plain(a) for a, _ in ongoing):
        return None
    marks = {X: encoding.x, O: encoding.o}
    fitting = []
    for first in (X, O):
        # Each convention answers for the games it allows: a board with one X more is
        # judged under X first only.
        game = TicTacToe(first)
        legal = [(a, b) for a, b in ongoing if game.legality_problem(b) is None]
        if legal and all(a == marks[game.to_move(b)] and type(a) is type(marks[X]) for a, b in legal):
            fitting.append(first)
    if len(fitting) != 1:
        return None
    first = fitting[0]
    game = TicTacToe(first)
    finished = [
        (a, b) for a, b in zip(answers, boards) if TIC_TAC_TOE.is_terminal(b) and game.legality_problem(b) is None
    ]
    plain = all(a == marks[game.to_move(b)] and type(a) is type(marks[X]) for a, b in finished)
    on_finished = (
        "on finished games too it names the side with fewer marks"
        if plain
        else "on finished games it answers otherwise, as a course may allow"
    )
    return BoardTest(
        signature,
        "turn",
        "to-move",
        f"names the side to move on {len(ongoing)} games in progress, {first} where the marks are even; "
        f'{on_finished}; only games in progress are asked (boards = "reachable" asks finished ones too)',
        codes={"first_player": first},
    )


def _winner(signature: Signature, answers: Sequence[Any], boards: Sequence[Position]) -> BoardTest | None:
    """The winner's mark (or a code per outcome), when each outcome always gets one answer."""
    if not all(_plain(a) for a in answers):
        return None
    by_outcome: dict[str, set[Any]] = {}
    for answer, board in zip(answers, boards):
        winners = TIC_TAC_TOE.winners(board)
        outcome = next(iter(winners)) if winners else "tie" if EMPTY not in TIC_TAC_TOE.cells(board) else "ongoing"
        by_outcome.setdefault(outcome, set()).add((type(answer).__name__, answer))
    if any(len(v) != 1 for v in by_outcome.values()) or not {X, O} <= set(by_outcome):
        return None
    code = {k: next(iter(v))[1] for k, v in by_outcome.items()}
    if len(set(map(repr, code.values()))) != len(code) and code.get("tie") != code.get("ongoing"):
        return None
    if code[X] == code[O] or isinstance(code[X], bool):
        return None
    ongoing = code.get("ongoing")
    tie = code.get("tie", ongoing)
    codes: dict[str, Any] = {}
    if code[X] != X or code[O] != O:
        codes.update({"X": code[X], "O": code[O]})
    if tie != ongoing:
        codes["tie"] = tie
        if ongoing is not None:
            codes["ongoing"] = ongoing
        expect = "outcome"
        role = "terminal-test"
    else:
        if ongoing not in (None, False, "", " "):
            codes["ongoing"] = ongoing
        expect, role = "winner", "win-test"
    spelled = ", ".join(f"{k} -> {v!r}" for k, v in code.items())
    return BoardTest(signature, role, expect, f"one answer per outcome on {len(boards)} boards: {spelled}", codes=codes)


def _score(signature: Signature, answers: Sequence[Any], boards: Sequence[Position]) -> BoardTest | None:
    """+1 where one player has a line, -1 where the other has, 0 otherwise: a static evaluation."""
    if not all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in answers):
        return None
    for maximizer in (X, O):
        expected = [EXPECTATIONS["score"].expected(b, None, None, maximizer) for b in boards]
        if list(answers) == expected:
            return BoardTest(
                signature,
                "evaluate",
                "score",
                f"+1 where {maximizer} has a line, -1 for the other, 0 otherwise, on {len(boards)} boards",
                codes={"maximizer": maximizer},
            )
    return None
