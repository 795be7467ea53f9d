"""The game a notebook's game cell played, replayed and judged as a game.

A sentence proves nothing: a game cell that prints "It's a tie!" after every turn, around a
``find_best_move`` that plays the first free cell, printed the right sentence first. So the
game is played again: the human's moves are the assignment's scripted answers, read as the
cell reads them (an answer that names no free cell is passed over, as "Cell already taken.
Try again." does), the AI's moves come from the student's own function, the one the cell
calls. The game is judged on its moves (each of the AI's must be optimal) and on its end;
what the cell printed must announce that end, once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from grader.check_details import PlayedGame
from grader.checks.answers import MoveCodec, ShapeError, read_search_result
from grader.checks.context import CallsStopped, CheckContext, StudentFunction
from grader.checks.reference_answers import reference_answer
from grader.results import Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import MoveFormat
from reference import O, Position, X, winner

OUTCOMES = ("X", "O", "tie")


@dataclass(frozen=True)
class GameRules:
    """How the game cell plays: what the parameters of a printed game say."""

    call: CallTemplate
    """The AI's move function, as the cell calls it."""
    ai: str
    returns: tuple[str, ...]
    move: MoveFormat | None
    globals: Mapping[str, str]
    stdin_moves: MoveFormat
    """How the scripted answers name the human's cells."""


@dataclass(frozen=True)
class ReplayedGame:
    moves: tuple[str, ...]
    """Each move with its side, in the assignment's move format (``O 5``)."""
    boards: tuple[str, ...]
    outcome: str | None
    """X, O or tie; None when the game could not be finished (``stopped``)."""
    stopped: str | None = None
    """Why the game could not be played to its end."""
    not_optimal: Counterexample | None = None
    """The AI's first move that is not optimal, where it was played."""
    not_optimal_sentence: str = ""
    calls_stopped: bool = False
    """The student's function could not be called at all (time, a dead kernel)."""

    @property
    def detail(self) -> PlayedGame:
        return PlayedGame(self.moves, self.boards)


def replay_game(rules: GameRules, ctx: CheckContext) -> ReplayedGame:
    """The scripted game, with the AI's moves from the student's function."""
    student = ctx.student(rules.call, globals_from=dict(rules.globals))
    game = ctx.game
    shown, ai_moves, human_moves = ctx.moves(), ctx.moves(rules.move), MoveCodec(rules.stdin_moves)
    answers = iter(ctx.assignment.stdin)
    board = game.initial_state()
    moves: list[str] = []
    boards: list[str] = []
    not_optimal: tuple[Counterexample, str] | None = None
    while not game.is_terminal(board):
        side = game.to_move(board)
        if side != rules.ai:
            cell = _next_free_cell(game.actions(board), answers, human_moves)
            if cell is None:
                stopped = f"the scripted answers ran out before the game was over, after {len(moves)} moves"
                return ReplayedGame(tuple(moves), tuple(boards), None, stopped, *(not_optimal or (None, "")))
        else:
            try:
                cell = _ai_cell(student, board, side, ctx, ai_moves, rules.returns)
            except CallsStopped as stop:
                return ReplayedGame(tuple(moves), tuple(boards), None, stop.reason, calls_stopped=True)
            except ShapeError as illegal:
                stopped = f"`{student.describe({})}` {illegal} on the board {board}"
                return ReplayedGame(tuple(moves), tuple(boards), None, stopped, *(not_optimal or (None, "")))
            best = reference_answer(board, ctx.spec(board, to_move=side), side).best_moves
            if not_optimal is None and cell not in best:
                number = sum(move.startswith(side) for move in moves) + 1
                sentence = (
                    f"{side}'s {ordinal(number)} move, {shown.show(cell)}, is not optimal "
                    f"(the optimal moves: {', '.join(shown.show(c) for c in best)})"
                )
                wanted = "a move in " + ", ".join(shown.show(c) for c in best)
                not_optimal = (Counterexample(str(board), student.describe({}), wanted, shown.show(cell)), sentence)
        moves.append(f"{side} {shown.show(cell)}")
        board = game.result(board, cell)
        boards.append(str(board))
    outcome = winner(game, board) or "tie"
    return ReplayedGame(tuple(moves), tuple(boards), outcome, None, *(not_optimal or (None, "")))


def _next_free_cell(free: Sequence[int], answers: Iterator[str], codec: MoveCodec) -> int | None:
    """The cell of the next scripted answer that names a ``free`` one; None when they run out."""
    for text in answers:
        try:
            cell = codec.decode(int(str(text).strip()))
        except (ShapeError, ValueError):
            continue  # "Invalid input": the cell asks again, with the next answer
        if cell in free:
            return cell
    return None


def _ai_cell(
    student: StudentFunction, board: Position, side: str, ctx: CheckContext, codec: MoveCodec, shapes: tuple[str, ...]
) -> int:
    """The free cell the student's function plays; ShapeError when it names none."""
    answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
    if not answer.ok:
        raise ShapeError(answer.failure_text())
    cell = read_search_result(answer.value, shapes, codec)[1]
    if cell is None or cell not in ctx.game.actions(board):
        raise ShapeError(f"returned {codec.show(cell)}, which is not a free cell")
    return cell


def describe_outcome(outcome: str | None) -> str:
    return {"tie": "a tie", None: "no end", X: "a win for X", O: "a win for O"}.get(outcome, str(outcome))


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
