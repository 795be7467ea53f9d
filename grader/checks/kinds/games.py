"""Challenge answers that play whole games through the student's functions: the recommended
move sequence (both sides playing their first-best move, the first in row-major order that
reaches the best value: 1, 2, 7, 6, 9 and a tie from the empty board) and tallies of seeded
games against a random or an optimal opponent."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from grader.checks.answers import ShapeError, read_search_result
from grader.checks.causes.root_cause import MoveObservation
from grader.checks.context import CallsStopped, CheckContext
from grader.checks.kind import CheckKind
from grader.checks.kinds.search import shapes_field
from grader.checks.params import PLACEHOLDERS, call_field
from grader.checks.reference_answers import reference_answer
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate, parse_call
from grader.spec.model import Check, MoveFormat, Side
from reference import Board, O, X, solve


def _parse_side_calls(raw: Any) -> dict[str, CallTemplate]:
    if not isinstance(raw, dict) or not raw or set(raw) - {X, O}:
        raise ValueError('must be a table such as { X = "min()", O = "max()" }')
    return {side: parse_call(text, allowed_placeholders=PLACEHOLDERS) for side, text in raw.items()}


def _outcome(board: Board) -> str:
    winners = board.winners()
    return next(iter(winners)) if winners else "tie"


def _describe_outcome(result: str | None) -> str:
    return {"tie": "a tie", None: "an unfinished game"}.get(result, f"a win for {result}")


@dataclass(frozen=True)
class SequenceParams:
    calls: dict[str, CallTemplate] = field(metadata={"parse": _parse_side_calls})
    """The function each side's move comes from, e.g. { X = "min()", O = "max()" }."""
    returns: tuple[str, ...] = shapes_field(("value,move",))
    move: MoveFormat | None = None
    globals: dict = field(default_factory=dict)
    player: Side = "X"
    """Whose moves make up the sequence that is checked."""
    expected_moves: tuple[int, ...] = ()
    """In the sequence's move format; default: the reference's first-best moves."""
    expected_result: Literal["X", "O", "tie"] | None = None
    sequence_format: MoveFormat = "position"
    moves: Literal["first-best", "optimal"] = "first-best"
    """first-best: the sequence must be exactly the expected one (a pinned tie-break);
    optimal: any optimal move is accepted at every turn and only the result is compared."""


def _reference_game(ctx: CheckContext) -> tuple[list[int], str]:
    """Both sides play the reference's first-best move (the first in row-major order that
    reaches the best value)."""
    board = Board.empty()
    moves: list[int] = []
    first = ctx.assignment.first_player
    while not board.is_terminal():
        side = board.to_move(first)
        best = reference_answer(board, ctx.spec(board, to_move=side), side).best_move
        assert best is not None  # a position that is not over has a move
        moves.append(best)
        board = board.play(best, side, first=first)
    return moves, _outcome(board)


def _move_sequence(check: Check[SequenceParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    students = {side: ctx.student(t, globals_from=params.globals) for side, t in params.calls.items()}
    first = ctx.assignment.first_player
    ref_moves, ref_result = _reference_game(ctx)
    ref_board = Board.empty()
    ref_sequence = []
    for ref_cell in ref_moves:
        side = ref_board.to_move(first)
        if side == params.player:
            ref_sequence.append(ref_cell)
        ref_board = ref_board.play(ref_cell, side, first=first)
    fmt = params.sequence_format
    expected_cells = [ctx.decode_move(m, fmt) for m in params.expected_moves] if params.expected_moves else ref_sequence
    expected_result = params.expected_result or ref_result
    expected_text = (
        f"{', '.join(ctx.show_move(c, fmt) for c in expected_cells)} ending in {_describe_outcome(expected_result)}"
    )

    board = Board.empty()
    sequence: list[int] = []
    while not board.is_terminal():
        side = board.to_move(first)
        student = students.get(side)
        if student is None:
            return CheckResult.for_check(check, CheckStatus.ERROR, f"No call is given for {side}'s moves.")
        answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
        failure = given = None
        cell: int | None = None
        if not answer.ok:
            failure, given = answer.failure_text(), answer.given()
        else:
            try:
                _, cell = read_search_result(answer.value, params.returns, ctx, params.move)
            except ShapeError as exc:
                failure, given = str(exc), exc.given()
            if failure is None and (cell is None or cell not in board.empty_cells()):
                given = f"the move {ctx.show_move(cell, fmt)}, which is not a free cell"
                failure = "returned " + given
        if failure or cell is None:
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"The game could not be played to the end: `{answer.call_text}` {failure}.",
                counterexample=Counterexample(str(board), answer.call_text, "a legal move", given or ""),
                figures={"moves": [ctx.show_move(c, fmt) for c in sequence]},
            )
        if params.moves == "optimal":
            best = reference_answer(board, ctx.spec(board, to_move=side), side).best_moves
            if cell not in best:
                return CheckResult.for_check(
                    check,
                    CheckStatus.FAILED,
                    f"`{answer.call_text}` played {ctx.show_move(cell, fmt)}, which is not an optimal move.",
                    counterexample=Counterexample(
                        str(board),
                        answer.call_text,
                        "a move in " + ", ".join(ctx.show_move(c, fmt) for c in best),
                        ctx.show_move(cell, fmt),
                    ),
                    figures={"moves": [ctx.show_move(c, fmt) for c in sequence]},
                )
        if side == params.player:
            sequence.append(cell)
        board = board.play(cell, side, first=first)
    result = _outcome(board)
    if params.moves == "optimal":
        expected_cells = sequence  # any optimal play is accepted; only the result is compared
        expected_text = f"optimal play ending in {_describe_outcome(expected_result)}"
    actual_text = f"{', '.join(ctx.show_move(c, fmt) for c in sequence)} ending in {_describe_outcome(result)}"
    figures = {"moves": [ctx.show_move(c, fmt) for c in sequence], "result": result}
    if sequence == expected_cells and result == expected_result:
        if params.moves == "optimal":
            return CheckResult.for_check(
                check,
                CheckStatus.PASSED,
                f"Every move was optimal and the game ended in {_describe_outcome(result)}.",
                figures=figures,
            )
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"Recommended moves {actual_text}, as expected.", figures=figures
        )
    cause = None
    for n, (got, want) in enumerate(zip(sequence, expected_cells), start=1):
        if got != want:
            cause = (
                f"Move {n} differs: {ctx.show_move(got, fmt)} instead of {ctx.show_move(want, fmt)}. "
                "The recommendation should be the first best move in reading order."
            )
            break
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"The game went differently: {actual_text}.",
        counterexample=Counterexample(
            None, " / ".join(s.describe({}) for s in students.values()), expected_text, actual_text, cause
        ),
        figures=figures,
    )


MOVE_SEQUENCE = CheckKind("move-sequence", SequenceParams, _move_sequence)


@dataclass(frozen=True)
class RandomOpponentParams:
    call: CallTemplate = call_field()
    returns: tuple[str, ...] = shapes_field(("move",))
    move: MoveFormat | None = None
    globals: dict = field(default_factory=dict)
    ai: Side = "O"
    games: int = 10
    seed: int = 0
    opponent: Literal["random", "optimal"] = "random"
    """``random``: any free cell. ``optimal``: any move that keeps the game's value for the
    opponent (win, draw or loss), so every mistake that throws away a draw is punished; the
    opponent's choice among those moves is still seeded and random, so games differ."""


_OPPONENT_NAMES = {"random": "the random player", "optimal": "an optimal opponent"}


def _opponent_choices(board: Board, side: str, opponent: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves the opponent picks from at random: any free cell, or the optimal ones."""
    if opponent == "random":
        return tuple(board.empty_cells())
    return solve(board, ctx.spec(board, to_move=side, scoring="unit")).optimal_moves


def _not_played(unplayed: int) -> str:
    if unplayed <= 0:
        return ""
    return "; the other game was not played" if unplayed == 1 else f"; the other {unplayed} games were not played"


def _random_opponent(check: Check[RandomOpponentParams], ctx: CheckContext) -> CheckResult:
    """A full-depth AI never loses seeded games against a random or an optimal opponent."""
    params = check.params
    student = ctx.student_for(params)
    rng = random.Random(params.seed)
    first = ctx.assignment.first_player
    opponent = _OPPONENT_NAMES[params.opponent]
    tally = {"AI": 0, "Opponent": 0, "Draw": 0}
    lost: tuple[int, Board, list[str], list[str]] | None = None
    played_by_ai: list[MoveObservation] = []
    stopped: str | None = None
    """Why the games ended early: the AI's calls could not be made (time, a hung function)."""
    # Game after game from one seeded stream: the opponent's moves depend on how the
    # earlier games went, so the games cannot be asked for side by side.
    for game in range(params.games):
        board = Board.empty()
        moves: list[str] = []
        boards: list[str] = []
        """The board after each move, for the report to draw the game."""
        while not board.is_terminal() and stopped is None:
            side = board.to_move(first)
            if side != params.ai:
                cell = rng.choice(_opponent_choices(board, side, params.opponent, ctx))
            else:
                try:
                    answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
                except CallsStopped as stop:
                    stopped = stop.reason
                    break
                try:
                    if not answer.ok:
                        raise ShapeError(answer.failure_text())
                    _, move = read_search_result(answer.value, params.returns, ctx, params.move)
                    if move is None or move not in board.empty_cells():
                        raise ShapeError(f"returned {ctx.show_move(move, params.move)}, which is not a free cell")
                    cell = move
                    played_by_ai.append(MoveObservation(board, ctx.spec(board, to_move=side), side, cell))
                except ShapeError as exc:
                    return CheckResult.for_check(
                        check,
                        CheckStatus.FAILED,
                        f"Game {game + 1} against {opponent} stopped: `{answer.call_text}` {exc}.",
                        counterexample=Counterexample(
                            str(board),
                            answer.call_text,
                            "a legal move",
                            answer.given() if not answer.ok else exc.given(),
                        ),
                        figures={"tally": tally, "moves": moves},
                    )
            moves.append(f"{side} {ctx.show_move(cell, params.move)}")
            board = board.play(cell, side, first=first)
            boards.append(str(board))
        if stopped is not None:
            break
        winners = board.winners()
        tally["AI" if params.ai in winners else "Opponent" if winners else "Draw"] += 1
        if winners and params.ai not in winners:
            # One loss decides the check; the games after it would only cost the
            # student's searches from new openings.
            lost = (game, board, moves, boards)
            break
    played = sum(tally.values())
    figures: dict[str, Any] = {
        "tally": tally,
        "games": params.games,
        "played": played,
        "seed": params.seed,
        "opponent": params.opponent,
    }
    summary = (
        f"AI {tally['AI']}, {params.opponent} opponent {tally['Opponent']}, draws {tally['Draw']} "
        f"over {played} seeded game{'s' if played != 1 else ''}"
    )
    if stopped is not None and played == 0:
        return CheckResult.not_run(check, f"{stopped} (before game 1 was over)")
    if stopped is not None:
        figures["stopped"] = stopped
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"The AI never lost ({summary}{_not_played(params.games - played)}: {stopped}).",
            figures=figures,
        )
    if lost is None:
        return CheckResult.for_check(check, CheckStatus.PASSED, f"The AI never lost ({summary}).", figures=figures)
    game, board, moves, boards = lost
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"The AI lost game {game + 1} of {params.games} to {opponent} "
        f"({summary}{_not_played(params.games - played)}): a full-depth search never loses.",
        counterexample=Counterexample(
            str(board),
            f"{student.describe({})} as {params.ai} in game {game + 1}",
            "a win or a draw for the AI",
            f"the moves {', '.join(moves)}, a win for {opponent}",
            _root_cause(ctx, check.id, played_by_ai),
        ),
        figures={**figures, "moves": moves, "boards": boards},
    )


def _root_cause(ctx: CheckContext, check_id: str, moves: list[MoveObservation]) -> str | None:
    """Whether every move the AI chose is what a search built on a lower-level function another
    check found wrong chooses."""
    found = ctx.findings.root_cause(check_id, moves)
    return None if found is None else found.sentence


RANDOM_OPPONENT = CheckKind("random-opponent", RandomOpponentParams, _random_opponent)
