"""Challenge answers that play whole games through the student's functions: the recommended
move sequence (both sides playing their first-best move, the first in row-major order that
reaches the best value: 1, 2, 7, 6, 9 and a tie from the empty board) and tallies of seeded
games against a random or an optimal opponent."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from grader.check_details import PlayedGame
from grader.check_notes import Cause
from grader.checks.answers import Answer, MoveCodec, ShapeError, read_search_result
from grader.checks.causes.root_cause import MoveObservation
from grader.checks.context import CallsStopped, CheckContext, StudentFunction
from grader.checks.kind import CheckKind
from grader.checks.kinds.game_choices import openings_note, opponent_choices, seeded_opening
from grader.checks.kinds.search import Shapes
from grader.checks.played_moves import played_cell
from grader.checks.reference_answers import reference_answer
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, MoveFormat, Side
from reference import BoardGame, Position, winner


def _outcome(game: BoardGame[Position, int], board: Position) -> str:
    """Who won the finished game: ``X``, ``O`` or ``tie``."""
    return winner(game, board) or "tie"


def _describe_outcome(result: str | None) -> str:
    return {"tie": "a tie", None: "an unfinished game"}.get(result, f"a win for {result}")


@dataclass(frozen=True)
class SequenceParams:
    """Plays a whole game through the student's functions and compares the moves and the result (seed 003: 1, 2, 7, 6,
    9 and a tie from the empty board)."""

    calls: dict[Side, CallTemplate]
    """The function each side's move comes from, e.g. { X = "min()", O = "max()" }."""
    returns: Shapes = ("value,move",)
    """The shape of the answer: one of value, value,move, value,row,col, row,col,value, move, move,value, or a list of
    them (the first that reads wins)."""
    move: MoveFormat | None = None
    """The format of the moves the function takes and returns; default: the assignment's ``move``."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    player: Side = "X"
    """Whose moves make up the sequence that is checked."""
    expected_moves: tuple[int, ...] = ()
    """In the sequence's move format; default: the reference's first-best moves."""
    expected_result: Literal["X", "O", "tie"] | None = None
    """X, O or tie; default: the reference's result of the same game."""
    sequence_format: MoveFormat = "position"
    """The move format of ``expected_moves`` and of the sequence shown in the feedback."""
    moves: Literal["first-best", "optimal"] = "first-best"
    """first-best: the sequence must be exactly the expected one (a pinned tie-break);
    optimal: any optimal move is accepted at every turn and only the result is compared."""

    def __post_init__(self) -> None:
        if not self.calls:
            raise ValueError('calls: give at least one side\'s call, such as { X = "min()", O = "max()" }')


def _reference_sequence(ctx: CheckContext, player: str) -> tuple[list[int], str]:
    """``player``'s moves when both sides play the reference's first-best move (the first in
    row-major order that reaches the best value), and how that game ends."""
    game = ctx.game
    board = game.initial_state()
    sequence: list[int] = []
    while not game.is_terminal(board):
        side = game.to_move(board)
        best = reference_answer(board, ctx.spec(board, to_move=side), side).best_move
        assert best is not None  # a position that is not over has a move
        if side == player:
            sequence.append(best)
        board = game.result(board, best)
    return sequence, _outcome(game, board)


@dataclass(frozen=True)
class _Stop:
    """Why a game could not be played to the end: the check's status, message and the
    position where it stopped."""

    status: CheckStatus
    message: str
    counterexample: Counterexample | None = None


@dataclass(frozen=True)
class _SequenceGame:
    """The game the sequence's calls played: the checked player's moves, how it ended."""

    sequence: tuple[int, ...]
    result: str | None = None
    """X, O or tie; None when the game stopped (``stop``)."""
    stop: _Stop | None = None


def _play_sequence(params: SequenceParams, ctx: CheckContext, students: dict[str, StudentFunction]) -> _SequenceGame:
    """Both sides play the moves their calls recommend, to the end of the game; with
    ``moves = "optimal"`` every move must be an optimal one."""
    game = ctx.game
    moves, shown = ctx.moves(params.move), MoveCodec(params.sequence_format)
    board = game.initial_state()
    sequence: list[int] = []
    while not game.is_terminal(board):
        side = game.to_move(board)
        student = students.get(side)
        if student is None:
            return _SequenceGame(
                tuple(sequence), stop=_Stop(CheckStatus.ERROR, f"No call is given for {side}'s moves.")
            )
        answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
        try:
            cell = _recommended_cell(answer, params.returns, moves)
        except ShapeError as exc:
            given = answer.given() if not answer.ok else exc.given()
            return _SequenceGame(tuple(sequence), stop=_no_legal_move(board, answer, str(exc), given))
        if cell is None or cell not in game.actions(board):
            given = f"the move {shown.show(cell)}, which is not a free cell"
            return _SequenceGame(tuple(sequence), stop=_no_legal_move(board, answer, "returned " + given, given))
        if params.moves == "optimal":
            best = reference_answer(board, ctx.spec(board, to_move=side), side).best_moves
            if cell not in best:
                return _SequenceGame(
                    tuple(sequence),
                    stop=_Stop(
                        CheckStatus.FAILED,
                        f"`{answer.call_text}` played {shown.show(cell)}, which is not an optimal move.",
                        Counterexample(
                            str(board),
                            answer.call_text,
                            "a move in " + ", ".join(shown.show(c) for c in best),
                            shown.show(cell),
                        ),
                    ),
                )
        if side == params.player:
            sequence.append(cell)
        board = game.result(board, cell)
    return _SequenceGame(tuple(sequence), _outcome(game, board))


def _no_legal_move(board: Position, answer: Answer, failure: str, given: str) -> _Stop:
    return _Stop(
        CheckStatus.FAILED,
        f"The game could not be played to the end: `{answer.call_text}` {failure}.",
        Counterexample(str(board), answer.call_text, "a legal move", given),
    )


def _recommended_cell(answer: Answer, returns: tuple[str, ...], moves: MoveCodec) -> int | None:
    """The cell ``answer`` recommends (None: none); ShapeError when there is no answer of a
    shape that reads."""
    if not answer.ok:
        raise ShapeError(answer.failure_text())
    return read_search_result(answer.value, returns, moves)[1]


def _move_sequence(check: Check[SequenceParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    students: dict[str, StudentFunction] = {
        side: ctx.student(t, globals_from=params.globals) for side, t in params.calls.items()
    }
    shown = MoveCodec(params.sequence_format)
    ref_sequence, ref_result = _reference_sequence(ctx, params.player)
    expected_cells = [shown.decode(m) for m in params.expected_moves] if params.expected_moves else ref_sequence
    expected_result = params.expected_result or ref_result
    expected_text = f"{', '.join(shown.show(c) for c in expected_cells)} ending in {_describe_outcome(expected_result)}"
    game = _play_sequence(params, ctx, students)
    played = PlayedGame(tuple(shown.show(c) for c in game.sequence))
    if game.stop is not None:
        stop = game.stop
        if stop.counterexample is None:  # the spec's fault: nothing was played to show
            return CheckResult.for_check(check, stop.status, stop.message)
        return CheckResult.for_check(
            check, stop.status, stop.message, counterexample=stop.counterexample, detail=played
        )
    sequence, result = list(game.sequence), game.result
    if params.moves == "optimal":
        expected_cells = sequence  # any optimal play is accepted; only the result is compared
        expected_text = f"optimal play ending in {_describe_outcome(expected_result)}"
    actual_text = f"{', '.join(played.moves)} ending in {_describe_outcome(result)}"
    figures = {"result": result}
    if sequence == expected_cells and result == expected_result:
        if params.moves == "optimal":
            return CheckResult.for_check(
                check,
                CheckStatus.PASSED,
                f"Every move was optimal and the game ended in {_describe_outcome(result)}.",
                figures=figures,
                detail=played,
            )
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"Recommended moves {actual_text}, as expected.", figures=figures, detail=played
        )
    cause = None
    for n, (got, want) in enumerate(zip(sequence, expected_cells), start=1):
        if got != want:
            cause = Cause(
                "local",
                f"Move {n} differs: {shown.show(got)} instead of {shown.show(want)}. "
                "The recommendation should be the first best move in reading order.",
            )
            break
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"The game went differently: {actual_text}.",
        counterexample=Counterexample(
            None, " / ".join(s.describe({}) for s in students.values()), expected_text, actual_text
        ),
        cause=cause,
        figures=figures,
        detail=played,
    )


def _sequence_needs(params: SequenceParams) -> tuple[str, ...]:
    return tuple(template.function for template in params.calls.values())


MOVE_SEQUENCE = CheckKind("move-sequence", SequenceParams, _move_sequence, needs=_sequence_needs)


@dataclass(frozen=True)
class RandomOpponentParams:
    """The AI never loses seeded games against a random player, or with ``opponent = "optimal"`` against one that picks
    at random among the moves that keep its game value, so that every mistake that throws a draw away is punished;
    the first loss ends the check. Where every first move keeps the game's value (an AI moving first in tic-tac-toe),
    the game opens with a seeded move in the AI's place."""

    call: CallTemplate
    """The call that gives the AI's move on a board, e.g. ``best_move(board)``."""
    returns: Shapes = ("move",)
    """The shape of the answer: one of value, value,move, value,row,col, row,col,value, move, move,value, or a list of
    them (the first that reads wins)."""
    move: MoveFormat | None = None
    """The format of the moves the function takes and returns; default: the assignment's ``move``."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    ai: Side = "O"
    """The side the student's AI plays."""
    games: Count = 10
    """How many games are played."""
    seed: int = 0
    """The seed of the opponent's choices: every submission meets the same games."""
    in_place: bool = False
    """The AI plays its move on the board it is given and returns nothing (``ai_move(board)``): its move is the one
    cell the call changed (see ``search-value``); ``returns`` is not read."""
    opponent: Literal["random", "optimal"] = "random"
    """``random``: any free cell. ``optimal``: any move that keeps the game's value for the
    opponent (win, draw or loss), so every mistake that throws away a draw is punished; the
    opponent's choice among those moves is still seeded and random, so games differ."""


_OPPONENT_NAMES = {"random": "the random player", "optimal": "an optimal opponent"}


def _not_played(unplayed: int) -> str:
    if unplayed <= 0:
        return ""
    return "; the other game was not played" if unplayed == 1 else f"; the other {unplayed} games were not played"


@dataclass(frozen=True)
class IllegalAnswer:
    """An answer of the AI's that is not a legal move, and the position it was asked on."""

    board: Position
    call: str
    reason: str
    given: str


@dataclass(frozen=True)
class GameRecord:
    """One game the student's AI played against the opponent, move by move."""

    moves: tuple[str, ...]
    """Each move with its side, e.g. ``X 4``, in the assignment's move format."""
    boards: tuple[str, ...]
    """The board after each move."""
    final: Position
    ai_moves: tuple[MoveObservation, ...]
    """The positions the AI chose a move on, and its choice."""
    stopped: str | None = None
    """The AI's calls could not be made (time, a hung function): the game was not finished."""
    illegal: IllegalAnswer | None = None
    """The AI gave no legal move: the game was not finished."""
    opening: str | None = None
    """The seeded first move played in the AI's place (`seeded_opening`), e.g. ``X 1,1``."""
    won_by: str | None = None
    """Who won (``X`` or ``O``); None for a draw or a game not finished."""

    @property
    def finished(self) -> bool:
        return self.stopped is None and self.illegal is None

    def tally_key(self, ai: str) -> Literal["AI", "Opponent", "Draw"]:
        return "AI" if self.won_by == ai else "Opponent" if self.won_by else "Draw"


def play_game(
    ctx: CheckContext, params: RandomOpponentParams, student: StudentFunction, rng: random.Random
) -> GameRecord:
    """A game of the student's AI (``params.ai``) against the opponent, whose moves come from
    ``rng``; it ends early when the AI gives no legal move or its calls stop. A first move that
    cannot lose is seeded in the AI's place (`seeded_opening`)."""
    game = ctx.game
    codec = ctx.moves(params.move)
    board = game.initial_state()
    moves: list[str] = []
    boards: list[str] = []
    ai_moves: list[MoveObservation] = []
    opening: str | None = None

    def record(**ended: Any) -> GameRecord:
        won_by = winner(game, board) if game.is_terminal(board) else None
        return GameRecord(tuple(moves), tuple(boards), board, tuple(ai_moves), opening=opening, won_by=won_by, **ended)

    while not game.is_terminal(board):
        side = game.to_move(board)
        if side != params.ai:
            cell = rng.choice(opponent_choices(board, side, params.opponent, ctx))
        elif openings := seeded_opening(board, side, ctx):
            cell = rng.choice(openings)
            opening = f"{side} {codec.show(cell)}"
        else:
            try:
                answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
            except CallsStopped as stop:
                return record(stopped=stop.reason)
            try:
                if params.in_place:
                    move: int | None = played_cell(ctx, student, board, side, answer, codec)
                else:
                    move = _recommended_cell(answer, params.returns, codec)
                if move is None or move not in game.actions(board):
                    raise ShapeError(f"returned {codec.show(move)}, which is not a free cell")
                cell = move
            except ShapeError as exc:
                given = answer.given() if not answer.ok else exc.given()
                return record(illegal=IllegalAnswer(board, answer.call_text, str(exc), given))
            ai_moves.append(MoveObservation(board, ctx.spec(board, to_move=side), side, cell))
        moves.append(f"{side} {codec.show(cell)}")
        board = game.result(board, cell)
        boards.append(str(board))
    return record()


def _random_opponent(check: Check[RandomOpponentParams], ctx: CheckContext) -> CheckResult:
    """A full-depth AI never loses seeded games against a random or an optimal opponent."""
    params = check.params
    student = ctx.student_for(params, read_board=params.in_place)
    rng = random.Random(params.seed)
    games: list[GameRecord] = []
    # Game after game from one seeded stream: the opponent's moves depend on how the
    # earlier games went, so the games cannot be asked for side by side.
    for _ in range(params.games):
        game = play_game(ctx, params, student, rng)
        games.append(game)
        # One loss decides the check; the games after it would only cost the student's
        # searches from new openings.
        if not game.finished or game.tally_key(params.ai) == "Opponent":
            break
    return _games_verdict(check, ctx, student, games)


def _games_verdict(
    check: Check[RandomOpponentParams], ctx: CheckContext, student: StudentFunction, games: list[GameRecord]
) -> CheckResult:
    params = check.params
    opponent = _OPPONENT_NAMES[params.opponent]
    tally = {"AI": 0, "Opponent": 0, "Draw": 0}
    for game in games:
        if game.finished:
            tally[game.tally_key(params.ai)] += 1
    last, number = games[-1], len(games)
    opened = openings_note(games)
    if last.illegal is not None:
        illegal = last.illegal
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"Game {number} against {opponent} stopped: `{illegal.call}` {illegal.reason}.{opened}",
            counterexample=Counterexample(str(illegal.board), illegal.call, "a legal move", illegal.given),
            figures={"tally": tally},
            detail=PlayedGame(last.moves),
        )
    played = sum(tally.values())
    figures: dict[str, Any] = {
        "tally": tally,
        "games": params.games,
        "played": played,
        "seed": params.seed,
        "opponent": params.opponent,
    }
    if opened:
        figures["openings"] = [game.opening for game in games if game.opening is not None]
    summary = (
        f"AI {tally['AI']}, {params.opponent} opponent {tally['Opponent']}, draws {tally['Draw']} "
        f"over {played} seeded game{'s' if played != 1 else ''}"
    )
    if last.stopped is not None and played == 0:
        return CheckResult.not_run(check, f"{last.stopped} (before game 1 was over)")
    if last.stopped is not None:
        figures["stopped"] = last.stopped
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"The AI never lost ({summary}{_not_played(params.games - played)}: {last.stopped}).{opened}",
            figures=figures,
        )
    if tally["Opponent"] == 0:
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"The AI never lost ({summary}).{opened}", figures=figures
        )
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"The AI lost game {number} of {params.games} to {opponent} "
        f"({summary}{_not_played(params.games - played)}): a full-depth search never loses.{opened}",
        counterexample=Counterexample(
            str(last.final),
            f"{student.describe({})} as {params.ai} in game {number}",
            "a win or a draw for the AI",
            f"the moves {', '.join(last.moves)}, a win for {opponent}",
        ),
        cause=_root_cause(ctx, check.id, [move for game in games for move in game.ai_moves]),
        figures=figures,
        detail=PlayedGame(last.moves, last.boards),
    )


def _root_cause(ctx: CheckContext, check_id: str, moves: list[MoveObservation]) -> Cause | None:
    """Whether every move the AI chose is what a search built on a lower-level function another
    check found wrong chooses."""
    found = ctx.findings.root_cause(check_id, moves)
    return None if found is None else found.cause


RANDOM_OPPONENT = CheckKind("random-opponent", RandomOpponentParams, _random_opponent)
