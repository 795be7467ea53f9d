"""A student's alpha-beta exploration against the reference's: the same positions in the same
order, or where they first part, what the search tree looks like there, and (only when a
known mistake reproduces the whole exploration) its name.

The exploration is what the kernel's recorder saw: the board each call of the search was
entered with (:class:`~grader.execution.channel.calls.CallExploration`). A search written
as a wrapper that loops over the root's moves (AIMA's ``alpha_beta_search``) never enters
the root itself: it explores the reference's positions minus the first, and is judged so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.check_details import SearchTreeExcerpt, TreeNode
from grader.execution.channel.calls import CallExploration
from reference import Board, SearchSpec
from reference.trace import MAX_STEPS, Divergence, alphabeta_trace, first_divergence, name_cause
from reference.trace_windows import Visit, visits

EXCERPT_ANCESTORS = 4
"""Ancestors of the node where the searches part that the excerpt shows (the root always)."""


@dataclass(frozen=True)
class Comparison:
    """How a traced alpha-beta call explored, against the reference from the same position."""

    nodes: int
    """The student's nodes, counted as the reference counts them (a wrapper's root added)."""
    divergence: Divergence | None
    """None: the same exploration as the reference's."""
    cause: str | None = None
    excerpt: SearchTreeExcerpt | None = None

    @property
    def same(self) -> bool:
        return self.divergence is None


def compare(
    exploration: CallExploration | None,
    board: Board,
    spec: SearchSpec,
    *,
    to_move: str,
    alpha: float,
    beta: float,
) -> Comparison | None:
    """The comparison, or None when the exploration cannot be compared step by step (not
    traced, past the cap, or a position the recorder could not read): then counts decide."""
    if exploration is None or exploration.steps is None or not exploration.complete:
        return None
    steps = exploration.steps
    if not steps or any(step is None for step in steps) or len(steps) >= MAX_STEPS:
        return None
    student = [step for step in steps if step is not None]
    reference = list(alphabeta_trace(board, spec, alpha=alpha, beta=beta, to_move=to_move).steps)
    if not reference or len(reference) >= MAX_STEPS:
        return None
    skipped_root = student[0] != reference[0] and len(reference) > 1 and student[0] == reference[1]
    if skipped_root:
        student = [reference[0], *student]
    divergence = first_divergence(student, reference)
    nodes = len(student)
    if divergence is None:
        return Comparison(nodes, None)
    cause = name_cause(student, board, spec, alpha=alpha, beta=beta, to_move=to_move)
    walk = visits(board, spec, alpha=alpha, beta=beta, to_move=to_move, cap=divergence.step + 1)
    return Comparison(nodes, divergence, cause, excerpt(student, walk, divergence))


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


def excerpt(student: Sequence[str], walk: Sequence[Visit], divergence: Divergence) -> SearchTreeExcerpt | None:
    """The tree around the first divergence: the path from the root to the node whose children
    the two searches disagree on, that node's window in the reference search, the children
    both explored there, and the child each search went to next.

    The node is the parent of the student's extra position when the student went deeper
    than the reference (the reference cut off there), otherwise the parent of the position
    the reference explores next (the student cut off, or ended, too early).
    """
    step = divergence.step
    prefix = [visit.board for visit in walk[:step]]
    if len(prefix) != step or step == 0:
        return None
    theirs = _parent_index(prefix, step, divergence.reference) if divergence.reference else None
    mine = _parent_index(prefix, step, divergence.student) if divergence.student else None
    candidates = [i for i in (mine, theirs) if i is not None]
    if not candidates:
        return None
    # The deeper of the two parents is where the searches part.
    focus = max(candidates, key=lambda i: (_pieces(prefix[i]), i))
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
