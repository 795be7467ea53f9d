"""A mistake costs once: the checks built on a wrong lower-level function, or on a wrong search
they call, graded again with the reference's version in its place.

A ``check_win`` that misses the anti-diagonal makes minimax, alpha-beta, the best move and
the games wrong too, though their own code may be right. When a predicate check (a win,
winner, draw, full, finished-game, score or moves function) fails, the reference's version
of that function is noted as a :class:`StandIn`: the same name, the board read where the
assignment's call puts it (an argument, a global, an attribute of ``self``), the answers
spelled as that check reads them. Every later check that fails, and whose functions reach
the wrong one through a name (as the kernel read their code), is run again with the
stand-in bound in the student's namespace for its calls only
(:mod:`grader.execution.channel.kernel.stand_ins`). When that scores better, the check keeps that
result and says so: "`minimax` is right once `check_win` is: graded with the reference
`check_win`." When it does not (the search is wrong as well), the first result stands, with
whatever cause it named.

A search another search calls is one too: a `state-search` check that fails leaves the
reference's search of the course's state (`grader.checks.search_stand_in`), and a check of a
search whose function calls it is graded again with that search in its place.

A function whose place the reference cannot take keeps today's behaviour: a check through an
adapter's own board encoding, a call chain longer than one method, a win test whose player
the call does not pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from grader.check_notes import Regraded
from grader.checks.context import CheckContext, NotDefined
from grader.checks.kinds.game_board import GamePredicateParams, GameSuccessorParams
from grader.checks.kinds.predicates import Params as PredicateParams
from grader.checks.kinds.state import SuccessorParams
from grader.checks.kinds.state_search import StateSearchParams
from grader.checks.search_stand_in import search_stand_in, walks_the_state_of
from grader.execution.channel.call_data import KernelName, StandIn
from grader.execution.channel.protocol import BOARD_SLOT
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate, Placeholder
from grader.spec.model import Check
from reference import O, X

__all__ = ["better_of", "stand_in_for", "stand_ins_to_try", "wrong_helper"]

_PLAYER = (Placeholder("player"), Placeholder("to_move"))


def stand_in_for(check: Check[Any], ctx: CheckContext) -> StandIn | None:
    """The reference's version of the function a predicate, successor or search check tests,
    speaking the assignment's encoding and that check's answer convention; None where it cannot
    stand in."""
    params = check.params
    if isinstance(params, StateSearchParams):
        return search_stand_in(params, ctx)
    if isinstance(params, SuccessorParams):
        return _successor_stand_in(params, ctx)
    if isinstance(params, GameSuccessorParams):
        return _move_stand_in(params, ctx)
    if isinstance(params, GamePredicateParams):
        return _game_board_stand_in(params, ctx)
    if not isinstance(params, PredicateParams) or not params.expectation.stands_in or ctx.adapter_encodes_boards:
        return None
    template = ctx.assignment.board.on_object(params.call)
    if len(template.chain) > 1:
        return None
    try:
        function = ctx.resolve(template.function)
    except NotDefined:
        return None
    # A method is called with ``self`` first; the board is then one of its attributes.
    step, offset = (template.chain[0], 1) if template.chain else (template.target, 0)
    name = f"{function}.{step.name}" if template.chain else function
    board_global = next((g for g, p in params.globals.items() if p == "board"), ctx.assignment.board.board_global)
    board_arg = _position(step.args, (Placeholder("board"),))
    player_arg = _position(step.args, _PLAYER)
    if params.expectation.asks_player and player_arg is None:
        return None
    maximizer = ctx.assignment.maximizer
    if params.expectation.scores_for_maximizer and maximizer == "to-move":  # whose score depends on the board
        return None
    codes: dict[str, Any] = {X: ctx.encode_player(X), O: ctx.encode_player(O), "tie": "tie", "ongoing": None}
    codes.update(ctx.findings.spellings.get(check.id, {}))  # "no winner" as the student's function says it
    codes.update(params.codes)
    return StandIn(
        name=name,
        role=params.expect,
        marks=ctx.assignment.encoding.marks,
        board_global=board_global,
        board_arg=None if board_global is not None or board_arg is None else board_arg + offset,
        player_arg=None if player_arg is None else player_arg + offset,
        codes=codes,
        move_format=params.move or ctx.assignment.move_format,
        maximizer=X if maximizer == "to-move" else maximizer,
        first_player=ctx.assignment.first_player,
    )


def _successor_stand_in(params: SuccessorParams, ctx: CheckContext) -> StandIn | None:
    """The reference's successor for a plain function of the board and the move that returns
    the new board or plays on the given one (``result(board, action)``, ``select_space(board,
    move, turn)``); None for a state object's method, which the reference cannot make."""
    template = params.call
    if template.chain or params.globals or ctx.adapter_encodes_boards:
        return None
    if params.returns == "state" and params.board_attribute:
        return None
    board_arg = _position(template.target.args, (Placeholder("board"),))
    move_arg = _position(template.target.args, (Placeholder("move"),))
    if board_arg is None or move_arg is None:
        return None
    try:
        function = ctx.resolve(template.function)
    except NotDefined:
        return None
    return StandIn(
        name=function,
        role="successor",
        marks=ctx.assignment.encoding.marks,
        board_arg=board_arg,
        move_arg=move_arg,
        move_format=params.move or ctx.assignment.move_format,
        first_player=ctx.assignment.first_player,
        returns=params.returns,
        invalid=params.invalid,
    )


_GRID_ROLES = {
    "winner": "grid-winner",
    "terminal": "grid-terminal",
    "endgame-score": "grid-endgame-score",
    "wins": "grid-wins",
    "has-room": "grid-has-room",
    "open-row": "grid-open-row",
    "next-boards": "grid-next-boards",
    "legal-moves": "grid-legal-moves",
}


def _game_board_stand_in(params: GamePredicateParams, ctx: CheckContext) -> StandIn | None:
    """The reference's version of another game's board function: its winner (the winner's mark,
    or None), whether the game is over, a finished game's endgame score (``is_max`` whether the
    side to move maximizes), whether a player has won (``winning_move(board, piece)``), whether
    a column has room, the row a piece dropped into a column lands in, the boards one move away
    (made as the course makes its board objects, ``[game] board_object``), the legal moves (left
    to right, where the check asks that order: another order the course keeps is not known, and
    a search's move order is its own); the board a grid, or the course's board object holding
    one. None for the legal moves in any order, and for the boards one move away when the
    course's board object is made otherwise than from the board alone (``ConnectFour()``, then
    its attributes written)."""
    setup = ctx.assignment.game
    template = params.call
    args = template.target.args
    board_arg = _position(args, (Placeholder("board"),))
    role = _GRID_ROLES.get(params.expect)
    if setup is None or role is None or template.chain or board_arg is None:
        return None
    is_max_arg = _position(args, (Placeholder("is_max"),))
    if role == "grid-endgame-score" and is_max_arg is None:
        return None
    if role == "grid-legal-moves" and not params.ordered:
        return None
    made = setup.board_object
    if role == "grid-next-boards" and made is not None and made.placeholders != {"board"}:
        return None
    try:
        function = ctx.resolve(template.function)
    except NotDefined:
        return None
    game = setup.game
    return StandIn(
        name=function,
        role=role,
        marks=setup.encoding.marks,
        board_arg=board_arg,
        player_arg=is_max_arg if role == "grid-endgame-score" else _position(args, _PLAYER),
        move_arg=_position(args, (Placeholder("move"),)),
        first_player=game.first_player,
        grid=(game.rows, game.cols, game.k),
        top_row_first=setup.encoding.top_row_first,
        board_attribute=setup.board_attribute if made is not None else "",
        win=params.win,
        board_object=made.fill({"board": KernelName(BOARD_SLOT)}) if role == "grid-next-boards" and made else None,
    )


def _move_stand_in(params: GameSuccessorParams, ctx: CheckContext) -> StandIn | None:
    """The reference's move, or its taking back: on the board given, a new board returned
    (``drop_piece(board, col, piece)``) or the one given changed (``drop_piece(board, row, col,
    piece)``), or on the course's object that holds the game (``make_move(col)``,
    ``undo_move(col)``: the board and the side to move in its attributes); None for an object
    given the board when made."""
    setup = ctx.assignment.game
    template = params.call
    args = template.target.args
    board_arg, move_arg = _position(args, (Placeholder("board"),)), _position(args, (Placeholder("move"),))
    if setup is None or template.chain or (setup.board_object is not None and not setup.board_written):
        return None
    if params.returns == "new-board" and setup.board_object is not None:
        return None
    if board_arg is None or move_arg is None or (not setup.turn_attribute and _position(args, _PLAYER) is None):
        return None
    try:
        function = ctx.resolve(template.function)
    except NotDefined:
        return None
    game = setup.game
    return StandIn(
        name=function,
        role="grid-undo" if params.returns == "undone" else "grid-drop",
        returns="new-board" if params.returns == "new-board" else "played",
        marks=setup.encoding.marks,
        board_arg=board_arg,
        player_arg=_position(args, _PLAYER),
        move_arg=move_arg,
        first_player=game.first_player,
        grid=(game.rows, game.cols, game.k),
        top_row_first=setup.encoding.top_row_first,
        board_attribute=setup.board_attribute,  # the spec names both only for an object the board
        turn_attribute=setup.turn_attribute,  # is written to: empty for a board given
        row_arg=_position(args, (Placeholder("row"),)),
        answers=params.answers or "",
    )


def _position(args: Sequence[Any], placeholders: Sequence[Placeholder]) -> int | None:
    return next((n for n, arg in enumerate(args) if arg in placeholders), None)


def wrong_helper(check: Check[Any], ctx: CheckContext, result: CheckResult) -> StandIn | None:
    """The reference's version of the function a predicate check found wrong, for the checks
    after it; None when the check did not fail or the reference cannot stand in."""
    if result.status is not CheckStatus.FAILED or not ctx.assignment.reference_helpers:
        return None
    return stand_in_for(check, ctx)


def stand_ins_to_try(
    check: Check[Any],
    ctx: CheckContext,
    result: CheckResult,
    functions: Sequence[str],
    handed: Sequence[str] = (),
) -> tuple[tuple[StandIn, ...], list[str]]:
    """The reference's versions of the wrong functions ``check``'s ``functions`` reach, or
    the functions it ``handed`` to its calls inside an object it made (the first check of a
    name wins), to grade it again with, when its first ``result`` lost points; and how
    feedback names the check's own functions."""
    if not ctx.assignment.reference_helpers or result.status not in (CheckStatus.FAILED, CheckStatus.PARTIAL):
        return (), []
    own = _labels(check, ctx) or _resolved(ctx, functions)
    reach = ctx.hang_memory.reach([*(name.split(".")[0] for name in own), *_resolved(ctx, handed)])
    by_name = {
        stand_in.name: stand_in
        for source, stand_in in reversed(ctx.findings.wrong_helpers)
        if source != check.id
        and stand_in.name.split(".")[0] in reach
        and walks_the_state_of(stand_in, check.params, own)
    }
    return tuple(reversed(by_name.values())), own


def better_of(result: CheckResult, again: CheckResult, stand_ins: Sequence[StandIn], own: Sequence[str]) -> CheckResult:
    """``again`` (graded with ``stand_ins``), noted so, when it passes or scores more than the
    first ``result``; else ``result`` with whatever cause it named."""
    if again.status is not CheckStatus.PASSED and again.score <= result.score:
        return result
    helpers = tuple(dict.fromkeys(stand_in.name for stand_in in stand_ins))
    built = tuple(dict.fromkeys(f for f in own if f not in helpers)) or tuple(own)
    return replace(again, notes=(*again.notes, Regraded(helpers, built, again.status is CheckStatus.PASSED)))


def _labels(check: Check[Any], ctx: CheckContext) -> list[str]:
    """How feedback names the functions the check's calls make: `minimax`, `State.minmax`."""
    labels = []
    if dataclasses.is_dataclass(check.params):
        for field in dataclasses.fields(check.params):
            template = getattr(check.params, field.name)
            if isinstance(template, CallTemplate):
                template = ctx.assignment.board.on_object(template)
                try:
                    function = ctx.resolve(template.function)
                except NotDefined:
                    continue
                labels.append(f"{function}.{template.chain[-1].name}" if template.chain else function)
    return list(dict.fromkeys(labels))


def _resolved(ctx: CheckContext, functions: Sequence[str]) -> list[str]:
    names = []
    for function in functions:
        try:
            names.append(ctx.resolve(function))
        except NotDefined:
            continue
    return names
