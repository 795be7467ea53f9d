"""Where a search on a game other than tic-tac-toe first parts from the reference's (`game-search`).

The student's search is watched through its heuristic: the kernel logs the position each call
of the heuristic is given, in order. The reference's search, traced (`reference.game_trace`),
evaluates its leaves in its own order. At the first evaluation where the two differ, the
searches part at one node: the deepest node above the last position both evaluated that also
holds the next position one of them evaluated (the deeper of the two when both went on). The
report shows that node drawn, its path from the root, and what each search did there: for
alpha-beta, the window the reference entered it with and where it cut off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.check_details import SearchDivergence
from reference.connect4 import ConnectK, ConnectState
from reference.game_search import GameSearchSpec
from reference.game_trace import GameTrace, TracedNode, trace_search
from reference.tictactoe import EMPTY

__all__ = ["Parting", "first_parting", "search_divergence"]


@dataclass(frozen=True)
class Parting:
    """The first evaluation where a student's search and the reference's differ."""

    index: int
    """The evaluation, counted from 0."""
    node: int
    """The reference's node where the searches part (an index into the trace's nodes)."""
    reference: int | None
    """The node the reference evaluates at ``index``; None: it evaluates no more."""
    student: ConnectState | None
    """The position the student's search evaluated at ``index``; None: it evaluated no more."""


def below(node: ConnectState, state: ConnectState) -> bool:
    """``state`` can follow ``node`` in a game: every piece of ``node`` is in ``state``."""
    return all(a == EMPTY or a == b for a, b in zip(node.cells, state.cells))


def first_parting(
    trace: GameTrace[ConnectState], student: Sequence[ConnectState], *, more_follow: bool = False
) -> Parting | None:
    """Where ``student`` (the positions the student's heuristic was given, in order) first
    differs from the reference's evaluations; None when they are the same. With ``more_follow``
    the student's positions after the reference's last belong to another search (the next depth
    of a progressive deepening) and are not compared."""
    reference = [trace.nodes[i].state for i in trace.evaluated]
    compared = student[: len(reference)] if more_follow else student
    index = next(
        (i for i, (theirs, mine) in enumerate(zip(reference, compared)) if theirs != mine),
        min(len(reference), len(compared)),
    )
    if index == len(reference) and index == len(compared):
        return None
    theirs = trace.evaluated[index] if index < len(reference) else None
    mine = compared[index] if index < len(compared) else None
    chain = trace.ancestors(trace.evaluated[index - 1]) if index else [0]
    candidates = []
    if theirs is not None:
        above_theirs = set(trace.ancestors(theirs))
        candidates.append(next(i for i in reversed(chain) if i in above_theirs))
    if mine is not None:
        # The nodes the reference has entered so far: those above its last evaluation, and those
        # on its way to the next (where a search that goes deeper than the reference parts).
        entered = [*chain, *([] if theirs is None else trace.ancestors(theirs))]
        holding = [i for i in entered if below(trace.nodes[i].state, mine)]
        if holding:
            candidates.append(max(holding, key=lambda i: len(trace.nodes[i].path)))
    node = max(candidates, key=lambda i: len(trace.nodes[i].path)) if candidates else 0
    return Parting(index, node, theirs, mine)


def search_divergence(
    game: ConnectK, root: ConnectState, specs: Sequence[GameSearchSpec], prune: bool, student: Sequence[ConnectState]
) -> SearchDivergence | None:
    """The node where the student's search first parts from the reference's, searched from
    ``root`` under each of ``specs`` in turn (one, or one per depth of a progressive
    deepening); None when the student's evaluations are the reference's."""
    offset = 0
    for number, spec in enumerate(specs, start=1):
        trace = trace_search(game, root, spec, prune=prune)
        last = number == len(specs)
        parting = first_parting(trace, student[offset:], more_follow=not last)
        if parting is not None:
            depth = spec.depth_limit if len(specs) > 1 else None
            return _divergence(game, trace, parting, prune, offset, depth)
        offset += len(trace.evaluated)
    return None


def _divergence(
    game: ConnectK, trace: GameTrace[ConnectState], parting: Parting, prune: bool, offset: int, depth: int | None
) -> SearchDivergence:
    node = trace.nodes[parting.node]
    previous = trace.nodes[trace.evaluated[parting.index - 1]].state if parting.index else None
    return SearchDivergence(
        path=node.path,
        drawing=game.drawing(node.state, node.path[-1] if node.path else None),
        evaluation=offset + parting.index + 1,
        window=(node.alpha, node.beta) if prune else None,
        expected=_reference_did(trace, parting, node),
        actual=_student_did(game, node, parting.student, again=parting.index > 0 and parting.student == previous),
        depth=depth,
    )


def _columns(path: Sequence[int]) -> str:
    return f"columns {' '.join(map(str, path))}" if path else "the position searched"


def _reference_did(trace: GameTrace[ConnectState], parting: Parting, node: TracedNode[ConnectState]) -> str:
    theirs = parting.reference
    if theirs is not None and parting.node in trace.ancestors(theirs):
        evaluated = trace.nodes[theirs].path
        if evaluated == node.path:
            return "the reference evaluates this position"
        column = evaluated[len(node.path)]
        return f"the reference goes on to column {column} and evaluates the position after {_columns(evaluated)}"
    if not node.weighed:  # a leaf: evaluated once, and the search went on elsewhere
        went_on = "" if theirs is None else f" and goes on to the position after {_columns(trace.nodes[theirs].path)}"
        return f"the reference evaluates this position once{went_on}"
    maximizing = len(node.path) % 2 == 0
    cut = next((w for w in node.weighed if w.cut), None)
    if cut is not None:
        bound, limit = ("beta", cut.beta) if maximizing else ("alpha", cut.alpha)
        return (
            f"the reference cuts off here: after column {cut.move} its value {cut.best:g} reached "
            f"{bound} = {limit:g}, so it tries no more columns"
        )
    if theirs is None:
        return "the reference evaluates no more positions"
    return "the reference has tried every column here"


def _student_did(game: ConnectK, node: TracedNode[ConnectState], student: ConnectState | None, again: bool) -> str:
    if student is None:
        return "your search evaluated no more positions"
    moves = _moves_between(game, node.state, student)
    if moves is None:
        return "your search evaluated a position that does not follow from this one"
    if not moves:
        return "your search evaluated this position again" if again else "your search evaluated this position"
    return f"your search went to column {moves[0]} and evaluated the position after {_columns((*node.path, *moves))}"


def _moves_between(game: ConnectK, start: ConnectState, goal: ConnectState) -> tuple[int, ...] | None:
    """Moves that lead from ``start`` to ``goal``, the leftmost first; None when none do."""
    if start == goal:
        return ()
    if game.is_terminal(start):
        return None
    for move in game.actions(start):
        after = game.result(start, move)
        if below(after, goal):
            rest = _moves_between(game, after, goal)
            if rest is not None:
                return (move, *rest)
    return None
