"""The search-tree excerpt of a node-count check: where a student's alpha-beta first parts
from the reference's, drawn as a small tree (inline SVG, rendered by
``templates/_search_tree.html.j2``).

The path from the root (with the ancestors in between left out past a few) runs down the
left; the node where the searches part is the last on it, labelled with the window the
reference entered it with and, where the reference cut it off, the value that did it. Below
it, its children: those both searches explored, then the one the student went to instead
(or the branch the student skipped), each drawn and labelled.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from grader.check_details import NodeCounts, SearchTreeExcerpt, TreeNode
from grader.results import CheckResult

BOARD = 42
"""Side of a drawn board, in pixels."""
ROW = 64
"""Vertical distance between the tree's levels."""
COLUMN = 62
"""Horizontal distance between siblings."""
LABEL_WIDTH = 330
MAX_CHILDREN = 6
"""Children explored by both that are drawn; earlier ones are summarised."""


@dataclass(frozen=True)
class DrawnBoard:
    x: float
    y: float
    cells: tuple[str, ...]
    kind: str
    """path | explored | student | reference (a CSS class of the template)."""
    label: str = ""
    note: str = ""


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    kind: str


@dataclass(frozen=True)
class SearchTreeView:
    step: int
    width: float
    height: float
    boards: tuple[DrawnBoard, ...]
    edges: tuple[Edge, ...]
    summary: str
    """The same excerpt in words (the SVG's accessible description)."""


def number(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _cells(board: str) -> tuple[str, ...]:
    return tuple(c if c in "XO" else "" for c in board)


def _window(node: TreeNode) -> str:
    return f"α = {number(node.alpha)}, β = {number(node.beta)}"


def _cut_note(node: TreeNode) -> str:
    if node.value is None:
        return ""
    if node.value >= node.beta:
        return f"the reference cuts off here: value {number(node.value)} ≥ β"
    if node.value <= node.alpha:
        return f"the reference cuts off here: value {number(node.value)} ≤ α"
    return f"the reference tries every move here (value {number(node.value)})"


def view(excerpt: SearchTreeExcerpt, step: int) -> SearchTreeView:
    boards: list[DrawnBoard] = []
    edges: list[Edge] = []
    focus = excerpt.path[-1]
    for level, node in enumerate(excerpt.path):
        y = level * ROW
        label = ("root, " if level == 0 else "") + _window(node)
        if level == 0 and excerpt.elided:
            label += f" ({excerpt.elided} more moves down to the next)"
        note = _cut_note(node) if node is focus and excerpt.reference_cut_off else ""
        boards.append(DrawnBoard(0, y, _cells(node.board), "path", label, note))
        if level:
            kind = "elided" if level == 1 and excerpt.elided else "path"
            edges.append(Edge(BOARD / 2, y - ROW + BOARD, BOARD / 2, y, kind))
    children: list[tuple[str, str, str]] = []
    shown = excerpt.explored[-MAX_CHILDREN:]
    left_out = len(excerpt.explored) - len(shown)
    for index, board in enumerate(shown):
        children.append((board, "explored", f"both (+{left_out})" if index == 0 and left_out else "both"))
    if excerpt.student is not None:
        children.append((excerpt.student, "student", "yours"))
    if excerpt.reference is not None:
        children.append((excerpt.reference, "reference", "reference"))
    child_y = len(excerpt.path) * ROW
    parent_x, parent_y = BOARD / 2, child_y - ROW + BOARD
    for index, (board, kind, label) in enumerate(children):
        x = index * COLUMN
        boards.append(DrawnBoard(x, child_y, _cells(board), kind, label))
        edges.append(Edge(parent_x, parent_y, x + BOARD / 2, child_y, kind))
    width = max(len(children) * COLUMN, BOARD + LABEL_WIDTH)
    height = child_y + BOARD + 18
    return SearchTreeView(step, width, height, tuple(boards), tuple(edges), _summary(excerpt, step))


def _summary(excerpt: SearchTreeExcerpt, step: int) -> str:
    focus = excerpt.path[-1]
    text = f"At step {step} the searches part below {focus.board} ({_window(focus)} in the reference)"
    if excerpt.reference_cut_off:
        text += f"; {_cut_note(focus)}"
    if excerpt.student is not None:
        text += f"; you explored {excerpt.student} (red)"
    if excerpt.reference is not None:
        skipped = "" if excerpt.student is not None else ", which your search skipped"
        text += f"; the reference explores {excerpt.reference} next (green){skipped}"
    return text + ". Grey: the children both searches explored there."


def search_tree_views(checks: Iterable[CheckResult], *, student_facing: bool) -> Mapping[str, SearchTreeView]:
    """The excerpt of each check that has one; a student never sees a hidden check's."""
    views = {}
    for check in checks:
        counts = check.detail_as(NodeCounts)
        if counts is None or counts.search_tree is None or counts.divergence is None:
            continue
        if not (student_facing and check.visibility != "public"):
            views[check.check_id] = view(counts.search_tree, counts.divergence.step)
    return views
