"""A mistake in a search costs once, also where another search calls it: the reference's search
of the course's state, noted as a :class:`StandIn` when a `state-search` check finds the search it
judges wrong (`grader.checks.reference_helpers`).

``minimax_endgame_search`` may be written as a call of ``minimax_search``, a progressive deepening
calls alpha-beta: a check of the calling search whose student function reaches the wrong one is
graded again with the reference's search bound to its name
(:mod:`grader.execution.channel.kernel.called_searches`). That search answers what a right one
would: the search the check asks (minimax, alpha-beta, best-leaf), its tie-break and count, its
arguments where the check's call passes them, walking the state through what the assignment
names of it: the lab's functions the state expression hands it, whose roles the assignment's
`game-predicate` checks of them say (whether the game is over, the boards one move away, a
finished game's endgame score), the heuristic's parameters as its check calls it, the position
held where the answer's path is read, and the state expression itself for each next position.

None where it cannot be made, and the calling search is then charged as before: a progressive
deepening (no course calls one from another search); a call through a chain of methods; a state
made from the side to move as well as the position; a state expression whose functions the
assignment does not check (no `game-predicate` check says what one of them answers), or whose
path is read other than through the board object's attribute; a course whose adapter encodes
the boards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from grader.checks.context import CheckContext, NotDefined
from grader.checks.kinds.game_board import GamePredicateParams
from grader.checks.kinds.state_search import StateSearchParams
from grader.execution.channel.call_data import KernelName, StandIn, encode_argument
from grader.execution.channel.kernel.called_searches import SEARCH_ROLE
from grader.execution.channel.protocol import BOARD_SLOT
from grader.spec.call_template import CallTemplate, Placeholder

__all__ = ["search_stand_in", "walks_the_state_of"]

_ROLES = {"terminal": "over", "next-boards": "next", "endgame-score": "score"}
"""What the search asks of the lab's functions, by the ``expect`` of their checks."""


def search_stand_in(params: StateSearchParams, ctx: CheckContext) -> StandIn | None:
    """The reference's version of the search ``params`` judges, for the searches that call it;
    None where it cannot stand in (the module says when)."""
    setup = ctx.assignment.game
    template = params.call
    if setup is None or params.deepening or template.chain or ctx.adapter_encodes_boards:
        return None
    if params.made_state.placeholders != {"board"}:
        return None
    position = _position_path(params.path_board, setup.board_attribute if setup.board_object is not None else "")
    walk = _lab_functions(params, ctx)
    if position is None or walk is None:
        return None
    try:
        function = ctx.resolve(template.function)
    except NotDefined:
        return None
    slots = _slots(template)
    if "state_arg" not in slots:
        return None
    heuristic = params.heuristic
    heuristic_args = [_at(heuristic, "board"), _at(heuristic, "is_max")] if heuristic is not None else [0, 1]
    if None in heuristic_args:
        return None
    made = params.made_state.fill({"board": KernelName(BOARD_SLOT)})
    return StandIn(
        name=function,
        role=SEARCH_ROLE,
        marks=setup.encoding.marks,
        search={
            "kind": params.search,
            "tie": params.tie,
            "count_endgames": params.count_endgames,
            "maximize": params.maximize,
            "position": position,
            "state": encode_argument(made),
            "made_from": params.state,
            "heuristic_args": heuristic_args,
            **walk,
            **slots,
        },
    )


def _position_path(path_board: str, board_attribute: str) -> str | None:
    """Where a state holds the position its state expression is made from: the path's attributes
    but the board object's own (``snapshot.board_array`` -> ``snapshot``); None where the path
    does not end at that attribute."""
    if not board_attribute:
        return path_board
    head, dot, last = path_board.rpartition(".")
    return head if dot and last == board_attribute else None


def _lab_functions(params: StateSearchParams, ctx: CheckContext) -> dict[str, list[Any]] | None:
    """For each of ``over``, ``next`` and ``score``: the lab's function the state is made with
    that answers it, and where its board and ``is_max`` go, as that function's check calls it."""
    handed = set()
    for name in params.made_state.names:
        try:
            handed.add(ctx.resolve(name))
        except NotDefined:
            return None
    found: dict[str, list[Any]] = {}
    for check in ctx.assignment.checks:
        checked = check.params
        if not isinstance(checked, GamePredicateParams) or checked.expect not in _ROLES or checked.call.chain:
            continue
        try:
            function = ctx.resolve(checked.call.function)
        except NotDefined:
            continue
        board, is_max = _at(checked.call, "board"), _at(checked.call, "is_max")
        if function in handed and board is not None:
            found.setdefault(_ROLES[checked.expect], [function, board, is_max])
    if set(found) != set(_ROLES.values()) or found["score"][2] is None:
        return None
    return found


def _slots(template: CallTemplate) -> dict[str, Any]:
    """Where the search's call passes each of its arguments: a position, or a keyword's name."""
    slots: dict[str, Any] = {}
    named: Sequence[tuple[Any, Any]] = [*enumerate(template.target.args), *template.target.kwargs]
    for at, arg in named:
        slot = _slot(arg)
        if slot is not None:
            slots.setdefault(slot, at)
    return slots


def _slot(arg: Any) -> str | None:
    if isinstance(arg, Placeholder):
        return {
            "state": "state_arg",
            "heuristic": "heuristic_arg",
            "depth_limit": "depth_arg",
            "alpha": "alpha_arg",
            "beta": "beta_arg",
            "is_max": "maximize_arg",
        }.get(arg.name)
    if isinstance(arg, bool):
        return "maximize_arg"
    if isinstance(arg, float) and math.isinf(arg):
        return "alpha_arg" if arg < 0 else "beta_arg"
    return None


def _at(template: CallTemplate, placeholder: str) -> int | None:
    return next((n for n, arg in enumerate(template.target.args) if arg == Placeholder(placeholder)), None)


def walks_the_state_of(stand_in: StandIn, params: object, own: Sequence[str]) -> bool:
    """Whether the reference's search ``stand_in`` may take its search's place in a check of
    ``params`` calling ``own``: a check of another search, on the same course's state."""
    if stand_in.role != SEARCH_ROLE:
        return True
    made_from = (stand_in.search or {}).get("made_from")
    return stand_in.name not in own and isinstance(params, StateSearchParams) and params.state == made_from
