"""Reading the move of a function that plays it in place: ``ai_move(board)`` puts the
computer's mark on the board it was given and returns nothing.

The move is the one cell the call changed, read from the board as the call left it
(`StudentFunction.board_after`). A call that changed no cell, several cells, a taken cell,
or put down the other side's mark gave no move (`NoMovePlayed`, a `ShapeError`: it is
judged as an answer of the wrong shape is).
"""

from __future__ import annotations

from grader.checks.answers import Answer, MoveCodec, ShapeError
from grader.checks.context import NOT_READ, CheckContext, StudentFunction
from grader.checks.line_game import line_game
from reference import EMPTY, MalformedBoard, Position


class NoMovePlayed(ShapeError):
    """The call did not play exactly one move of the side to move."""

    def given(self) -> str:
        return f"the call {self}"


def played_cell(
    ctx: CheckContext, student: StudentFunction, board: Position, side: str, answer: Answer, moves: MoveCodec
) -> int:
    """The cell the call played ``side``'s mark on, ``board`` being the position it was given;
    ShapeError when it did not play exactly that one move."""
    if not answer.ok:
        raise ShapeError(answer.failure_text())
    try:
        return cell_played(ctx, board, student.board_after(answer.outcome), side, moves)
    except NoMovePlayed as exc:
        if answer.value is not None and str(exc) == UNCHANGED:
            # The commonest slip of this style: the best cell is found and returned, not played.
            raise NoMovePlayed(f"{UNCHANGED} and returned {answer.value!r}: the move is to be played on it") from None
        raise


UNCHANGED = "left the board as it was"


def cell_played(ctx: CheckContext, position: Position, raw: object, side: str, moves: MoveCodec) -> int:
    """The one cell where ``raw``, the board a call left, has ``side``'s mark and ``position``,
    the position it was given, had none; ShapeError when the call did anything else to it."""
    game = line_game(ctx.game)
    before = game.cells(position)
    if raw is NOT_READ:
        raise NoMovePlayed("left a board that could not be read back")
    try:
        after = game.cells(ctx.decode_board(raw))
    except MalformedBoard as exc:
        raise NoMovePlayed(f"left no board behind ({exc})") from None
    changed = [cell for cell, (mark, was) in enumerate(zip(after, before)) if mark != was]
    if not changed:
        raise NoMovePlayed(UNCHANGED)
    shown = ", ".join(moves.show(cell) for cell in changed)
    if len(changed) > 1:
        raise NoMovePlayed(f"changed {len(changed)} cells ({shown}), where one move changes one")
    cell = changed[0]
    if before[cell] != EMPTY:
        raise NoMovePlayed(f"changed {shown}, which was already taken")
    if after[cell] != side:
        placed = "emptied it" if after[cell] == EMPTY else f"put {after[cell]} there"
        raise NoMovePlayed(f"played {shown} but {placed}, where {side} is to move")
    return cell
