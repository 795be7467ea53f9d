"""A student's alpha-beta exploration against the reference's: the same positions in the same
order, or where they first part, what the search tree looks like there, and (only when a
known mistake reproduces the whole exploration) its name.

The exploration is what the kernel's recorder saw: the board each call of the search was
entered with (:class:`~grader.execution.channel.calls.CallExploration`). A search written
as a wrapper that loops over the root's moves (AIMA's ``alpha_beta_search``) never enters
the root itself: it explores the reference's positions minus the first, and is judged so.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from grader.check_details import SearchTreeExcerpt, TreeNode
from grader.check_notes import Cause
from grader.execution.channel.calls import CallExploration
from reference import Board, Position, SearchSpec
from reference.engine import MoveOrder
from reference.mistakes import Mistake
from reference.replay import StudentOrder, one_order
from reference.search import root_mover
from reference.separate import confirmed, separating_window
from reference.tictactoe import board_of, opponent
from reference.trace import MAX_STEPS, Divergence, cause_sentence, first_divergence, fitting_mistakes, rules_trace
from reference.trace_windows import Visit, visits

EXCERPT_ANCESTORS = 4
"""Ancestors of the node where the searches part that the excerpt shows (the root always)."""

Window = tuple[float, float]


@dataclass(frozen=True)
class Comparison:
    """How a traced alpha-beta call explored, against the reference from the same position
    (in the student's own move order when the assignment fixes none)."""

    nodes: int
    """The student's nodes, counted as the reference counts them (a wrapper's root added)."""
    divergence: Divergence | None
    """None: the same exploration as the reference's."""
    readings: tuple[Mistake, ...] = ()
    """The rule sets (known mistakes and general readings) that reproduce the whole exploration."""
    at_divergence: str | None = None
    """What the reference did at the node where the searches part, in words."""
    excerpt: SearchTreeExcerpt | None = None
    order: str | None = None
    """The student's move order in words, when it is not the assignment's and counts as right."""
    separated_by: Window | None = None
    """The window of the call that told apart readings the first call could not."""
    alike: int = 0
    """How many readings reproduced the first call's exploration (before a second call)."""
    student_order: StudentOrder | None = field(default=None, compare=False, repr=False)
    replayed_nodes: int | None = None
    """The nodes of the reference replayed in the student's order (None: not replayed)."""
    explained: bool = True
    """False: where the searches part is known, not yet why (:func:`explained`)."""
    student: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The student's exploration (a wrapper's root added), for :func:`explained`."""
    searched_order: MoveOrder | None = field(default=None, compare=False, repr=False)
    """The move order the reference was searched in (``student_order``, or row-major where
    that is the same at every node)."""

    @property
    def same(self) -> bool:
        return self.divergence is None

    @property
    def cause(self) -> Cause | None:
        """The known mistake, when one reproduces the whole exploration (those that do, when the
        evidence cannot tell them apart); otherwise the local fact at the divergence."""
        if self.divergence is None:
            return None
        named = cause_sentence(self.readings)
        if named is None:
            at = self.at_divergence
            return None if at is None else Cause("local", f"{at[0].upper()}{at[1:]}.")
        if self.separated_by is not None:
            alpha, beta = self.separated_by
            others = self.alike - len(self.readings)
            named += (
                f" {others} other rule{'s' if others > 1 else ''} explore{'' if others > 1 else 's'} the same "
                f"positions from the first call's window; called again on {self.divergence.position} with the window "
                f"({_num(alpha)}, {_num(beta)}), where they part, your search explored as this one does."
            )
        if self.at_divergence is not None:
            named += f" It first shows {self.at_divergence}."
        return Cause("known-mistake", named)


def _with_root(steps: Sequence[str], root: str) -> list[str]:
    """A wrapper that loops over the root's moves itself never enters the root: add it."""
    student = list(steps)
    if student and student[0] != root and _is_child(student[0], root):
        student = [root, *student]
    return student


def recorded_steps(exploration: CallExploration | None) -> list[str] | None:
    """The positions a traced call entered, or None when they cannot be compared step by step
    (not traced, past the cap, or a position the recorder could not read)."""
    if exploration is None or exploration.steps is None or not exploration.complete:
        return None
    steps = exploration.steps
    if not steps or len(steps) >= MAX_STEPS:
        return None
    read = [step for step in steps if step is not None]
    return read if len(read) == len(steps) else None


def compare(
    exploration: CallExploration | None,
    position: Position,
    spec: SearchSpec,
    *,
    to_move: str,
    alpha: float,
    beta: float,
    any_order: bool = False,
    explain: bool = True,
) -> Comparison | None:
    """The comparison, or None when the exploration cannot be compared step by step: then
    counts decide. With ``any_order`` the reference is replayed in the order the student's
    search tried the moves at each node, and every rule is judged in that order. Without
    ``explain``, only whether and where the searches part (:func:`explained` adds why)."""
    steps = recorded_steps(exploration)
    if steps is None:
        return None
    board = board_of(position)
    student = tuple(_with_root(steps, str(board)))
    order = StudentOrder.of(student) if any_order else None
    searched = None if order is None else order.fixed()
    reference = _reference_steps(board, spec, alpha, beta, to_move, searched)
    if not reference or len(reference) >= MAX_STEPS:
        return None
    divergence = first_divergence(student, reference)
    replayed_nodes = None if order is None else len(reference)
    if divergence is None:
        return Comparison(
            len(student), None, order=_order_words(order, spec), student_order=order, replayed_nodes=replayed_nodes
        )
    comparison = Comparison(
        len(student),
        divergence,
        student_order=order,
        replayed_nodes=replayed_nodes,
        explained=False,
        student=student,
        searched_order=searched,
    )
    return explained(comparison, board, spec, to_move=to_move, alpha=alpha, beta=beta) if explain else comparison


def explained(
    comparison: Comparison,
    position: Position,
    spec: SearchSpec,
    *,
    to_move: str,
    alpha: float,
    beta: float,
    named: bool = True,
) -> Comparison:
    """The comparison with why the searches part: the known mistakes that reproduce the whole
    exploration, what the reference did where they part, the tree around it. This is the
    costly part (a search per rule set): done only for the position a verdict speaks of.
    Without ``named`` the known mistakes are not looked for (another cause is named)."""
    divergence = comparison.divergence
    if divergence is None or comparison.explained:
        return comparison
    board = board_of(position)
    student, order = comparison.student, comparison.searched_order
    readings = (
        fitting_mistakes(student, board, spec, alpha=alpha, beta=beta, to_move=to_move, order=order) if named else ()
    )
    walk = visits(board, spec, alpha=alpha, beta=beta, to_move=to_move, cap=divergence.step + 1, order=order)
    focus = _focus(walk, divergence)
    side = root_mover(board, spec, to_move)
    return replace(
        comparison,
        readings=readings,
        at_divergence=None
        if focus is None or side is None
        else _at_divergence(walk, divergence, focus, side, spec, board),
        excerpt=None if focus is None else excerpt(student, walk, divergence),
        explained=True,
    )


def _reference_steps(
    board: Board, spec: SearchSpec, alpha: float, beta: float, to_move: str, order: MoveOrder | None
) -> tuple[str, ...]:
    """The correct alpha-beta's exploration (in ``order``, else the spec's)."""
    if order is None or isinstance(order, tuple):
        return _shared_reference_steps(board, spec, alpha, beta, to_move, order)
    trace = rules_trace(board, spec, alpha=alpha, beta=beta, to_move=to_move, order=order)
    assert trace is not None  # no expected trace, so never abandoned
    return trace.steps


@functools.lru_cache(maxsize=32)
def _shared_reference_steps(
    board: Board, spec: SearchSpec, alpha: float, beta: float, to_move: str, order: tuple[int, ...] | None
) -> tuple[str, ...]:
    """In one fixed order the reference's exploration is the same for every student: searched
    once per position and window in a process (a batch worker's class). An assignment counts
    from a few positions, and a correct alpha-beta explores little (18,297 steps from the empty
    board in row-major order)."""
    trace = rules_trace(board, spec, alpha=alpha, beta=beta, to_move=to_move, order=order)
    assert trace is not None
    return trace.steps


def separate(
    comparison: Comparison,
    position: Position,
    spec: SearchSpec,
    *,
    to_move: str,
    ask: Callable[[Window], Sequence[str] | None],
) -> Comparison:
    """Where several readings reproduce the exploration, ask the search again (``ask``: the
    positions it enters from ``board`` with a root window) with a window under which their
    explorations part, and keep the ones that reproduce that exploration too. Unchanged when
    one reading or none fits, no window parts them, or the second exploration cannot be read."""
    if len(comparison.readings) < 2:
        return comparison
    board = board_of(position)
    window = separating_window(board, spec, comparison.readings, to_move=to_move, order=comparison.searched_order)
    if window is None:
        return comparison
    steps = ask(window)
    if steps is None:
        return comparison
    student = _with_root(steps, str(board))
    order = StudentOrder.of(student).fixed() if comparison.student_order is not None else None
    kept = confirmed(student, board, spec, comparison.readings, window, to_move=to_move, order=order)
    if not kept or len(kept) == len(comparison.readings):
        return comparison
    return replace(comparison, readings=kept, separated_by=window, alike=len(comparison.readings))


_CENTRE, _CORNERS = {4}, {0, 2, 6, 8}


def _order_words(order: StudentOrder | None, spec: SearchSpec) -> str | None:
    """The student's move order in words, when it is not the assignment's."""
    if order is None:
        return None
    cells = one_order(order.tried.values())
    if cells is not None and list(cells) == [c for c in spec.move_order if c in cells]:
        return None
    if cells is None:
        return "in an order that changes from position to position (sorted by an evaluation, say)"
    groups: list[str] = []
    for cell in cells:
        kind = "centre" if cell in _CENTRE else "corners" if cell in _CORNERS else "edges"
        if not groups or groups[-1] != kind:
            groups.append(kind)
    if len(groups) == len(set(groups)):
        return f"{groups[0]} first, then " + ", then ".join(groups[1:]) if len(groups) > 1 else f"{groups[0]} only"
    return "in the order " + ", ".join(str(cell) for cell in cells)


def _num(value: float) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return str(int(value)) if value == int(value) else str(value)


def _at_divergence(
    walk: Sequence[Visit], divergence: Divergence, focus: int, root_side: str, spec: SearchSpec, board: Board
) -> str:
    """What the reference did at the node where the searches part, from its own state: the
    window it was entered with, the value that reached a bound and cut off there (or did not),
    the window it handed the next child, the value it returned."""
    node = walk[focus]
    side = root_side if (_pieces(node.board) - _pieces(str(board))) % 2 == 0 else opponent(root_side)
    maximizing = side == spec.maximizer
    kind, bound = ("MAX", "beta") if maximizing else ("MIN", "alpha")
    step = divergence.step
    seen = [w for w in node.weighings if w.entered <= step]
    head = (
        f"at step {step:,}: the reference's {kind} node `{node.board}` was entered with the window "
        f"({_num(node.alpha)}, {_num(node.beta)})"
    )
    if seen and seen[-1].cut:
        last = seen[-1]
        limit = last.beta if maximizing else last.alpha
        returned = "" if node.value is None else f" and returned {_num(node.value)}"
        went = f"; your search went on to `{divergence.student}`" if divergence.student else ""
        return (
            f"{head}; its value {_num(last.best)} reached {bound} = {_num(limit)}, so it cut off there{returned}{went}"
        )
    held = (
        f"; it held ({_num(seen[-1].alpha)}, {_num(seen[-1].beta)}) with the value {_num(seen[-1].best)}"
        if seen
        else ""
    )
    not_reached = f", which does not reach {bound}," if seen else ""
    nxt = walk[step] if step < len(walk) and divergence.reference else None
    if nxt is None:
        return f"{head}{held}{not_reached} and it ended there; your search went on to `{divergence.student}`"
    instead = f"your search entered `{divergence.student}`" if divergence.student else "your search had ended"
    return (
        f"{head}{held}{not_reached} so it went on to `{nxt.board}`, handing it the window "
        f"({_num(nxt.alpha)}, {_num(nxt.beta)}); {instead}"
    )


def _pieces(board: str) -> int:
    return sum(cell != "." for cell in board)


def _is_child(child: str, parent: str) -> bool:
    """``child`` is ``parent`` with one more mark."""
    changed = [(a, b) for a, b in zip(parent, child) if a != b]
    return len(changed) == 1 and changed[0][0] == "."


def _parent_index(steps: Sequence[str], before: int, child: str) -> int | None:
    """The step a node was entered from: in call order, the last earlier step it is a child of."""
    for index in range(before - 1, -1, -1):
        if _is_child(child, steps[index]):
            return index
    return None


def _ancestors(steps: Sequence[str], index: int) -> list[int]:
    """``index`` and the steps above it, root first."""
    chain = [index]
    while chain[-1] > 0:
        parent = _parent_index(steps, chain[-1], steps[chain[-1]])
        if parent is None:
            break
        chain.append(parent)
    return chain[::-1]


def _node(visit: Visit, finished: bool) -> TreeNode:
    return TreeNode(visit.board, visit.alpha, visit.beta, visit.value if finished else None)


def _focus(walk: Sequence[Visit], divergence: Divergence) -> int | None:
    """The step of the node whose children the two searches disagree on: the parent of the
    student's extra position when the student went deeper than the reference (the reference
    cut off there), otherwise the parent of the position the reference explores next (the
    student cut off, or ended, too early); the deeper of the two."""
    step = divergence.step
    prefix = [visit.board for visit in walk[:step]]
    if len(prefix) != step or step == 0:
        return None
    theirs = _parent_index(prefix, step, divergence.reference) if divergence.reference else None
    mine = _parent_index(prefix, step, divergence.student) if divergence.student else None
    candidates = [i for i in (mine, theirs) if i is not None]
    if not candidates:
        return None
    return max(candidates, key=lambda i: (_pieces(prefix[i]), i))


def excerpt(student: Sequence[str], walk: Sequence[Visit], divergence: Divergence) -> SearchTreeExcerpt | None:
    """The tree around the first divergence (:func:`_focus`): the path from the root to the
    node whose children the two searches disagree on, that node's window in the reference
    search, the children both explored there, and the child each search went to next."""
    focus = _focus(walk, divergence)
    if focus is None:
        return None
    step = divergence.step
    prefix = [visit.board for visit in walk[:step]]
    theirs = _parent_index(prefix, step, divergence.reference) if divergence.reference else None
    mine = _parent_index(prefix, step, divergence.student) if divergence.student else None
    chain = _ancestors(prefix, focus)
    shown = chain if len(chain) <= EXCERPT_ANCESTORS + 1 else [chain[0], *chain[-EXCERPT_ANCESTORS:]]
    explored = tuple(prefix[i] for i in range(focus + 1, step) if _parent_index(prefix, i, prefix[i]) == focus)
    return SearchTreeExcerpt(
        path=tuple(_node(walk[i], finished=(i == focus and mine == focus and theirs != focus)) for i in shown),
        elided=len(chain) - len(shown),
        explored=explored,
        student=divergence.student if mine == focus else None,
        reference=divergence.reference if theirs == focus else None,
        reference_cut_off=mine == focus and theirs != focus,
    )
