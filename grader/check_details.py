"""What a check measured beyond its verdict, typed per kind: one `CheckDetail` on a result.

A check result carries at most one detail: the node counts of a node-counts check (with where
its alpha-beta first parts from the reference's, and the search tree there), the table of a
self-play check, a game a game check played, the node where a search on another game first
parts from the reference's, or the points of an item marked by hand. The
reports read the detail by its type, never by dictionary keys.

The detail is written into and read from a result's JSON here, and only here
(`write_detail`, `read_detail`), under the ``figures`` keys earlier versions used, so stored
results still load and load typed.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from reference.drawing import Drawing, Square
from reference.trace import Divergence


@dataclass(frozen=True)
class NodeCountRow:
    """Nodes visited from one position: the student's searches against the reference's."""

    board: str
    minimax: int | None
    """None when the student's counter did not hold a whole number."""
    reference_minimax: int
    minimax_call: str
    minimax_calls_counted: int | None = None
    """The calls the grader counted, when the figure above is the student's own counter."""
    alphabeta: int | None = None
    reference_alphabeta: int | None = None
    alphabeta_call: str | None = None
    """Set when the check also ran alpha-beta (the alpha-beta figures are then meaningful)."""

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        if self.minimax_calls_counted is None:
            del data["minimax_calls_counted"]
        if self.alphabeta_call is None:
            for key in ("alphabeta", "reference_alphabeta", "alphabeta_call"):
                del data[key]
        return data


@dataclass(frozen=True)
class TreeNode:
    """A position of the reference alpha-beta, with the window it was entered with."""

    board: str
    alpha: float
    beta: float
    value: float | None = None
    """What the reference search returned there, when the excerpt needs it (where it cut off)."""


@dataclass(frozen=True)
class SearchTreeExcerpt:
    """The search tree where a student's alpha-beta first parts from the reference's."""

    path: tuple[TreeNode, ...]
    """From the root to the node whose children the searches disagree on (the last)."""
    elided: int
    """Ancestors left out between the root and the rest of the path."""
    explored: tuple[str, ...]
    """That node's children both searches explored, in order."""
    student: str | None
    """The child the student explored next there (None: not a child of that node)."""
    reference: str | None
    """The child the reference explores next there (None: it explores no more of them)."""
    reference_cut_off: bool
    """The reference cut the node off where the student went on."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SearchTreeExcerpt:
        return cls(
            path=tuple(TreeNode(**node) for node in data["path"]),
            elided=data["elided"],
            explored=tuple(data["explored"]),
            student=data["student"],
            reference=data["reference"],
            reference_cut_off=data["reference_cut_off"],
        )


@dataclass(frozen=True)
class NodeCounts:
    """A node-counts check: the counts per position, and where the alpha-beta went astray."""

    rows: tuple[NodeCountRow, ...]
    divergence: Divergence | None = None
    """Where the alpha-beta's exploration first parts from the reference's."""
    search_tree: SearchTreeExcerpt | None = None
    """The search tree around that divergence, for the report."""


@dataclass(frozen=True)
class SearchDivergence:
    """Where a search on a game other than tic-tac-toe first parts from the reference's: the
    node, its path from the root, and what each search did there (`game-search`)."""

    path: tuple[int, ...]
    """The moves (columns) from the position searched to the node."""
    drawing: Drawing
    """The node drawn, the last move of its path ringed."""
    evaluation: int
    """The static evaluation, counted from 1, where the two searches part."""
    window: tuple[float, float] | None
    """The window the reference's alpha-beta entered the node with; None for minimax."""
    expected: str
    """What the reference's search did there."""
    actual: str
    """What the student's search did there."""
    depth: int | None = None
    """The depth of the search it happened in, for progressive deepening."""

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["window"] = None if self.window is None else [_number(bound) for bound in self.window]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SearchDivergence:
        squares = tuple(tuple(Square(**square) for square in row) for row in data["drawing"]["squares"])
        window = data.get("window")
        return cls(
            path=tuple(data["path"]),
            drawing=Drawing(squares),
            evaluation=data["evaluation"],
            window=None if window is None else (float(window[0]), float(window[1])),
            expected=data["expected"],
            actual=data["actual"],
            depth=data.get("depth"),
        )


def _number(bound: float) -> float | str:
    """A bound as JSON holds it: infinities as text (``float("inf")`` reads them back)."""
    return bound if math.isfinite(bound) else str(bound)


@dataclass(frozen=True)
class SelfPlayRow:
    """One depth limit of a self-play table: what the student's game reported, and the reference."""

    depth: int
    reference_winner: str
    reference_generated: int
    call: str
    winner: Any
    """As the student's code returned it (compared with the reference's spelling)."""
    generated: Any
    channel_generated: int | None
    """States generated as the grader counted them (search calls minus searches); None where the
    grader did not count (the reported count was right, or the game was not the reference's)."""


@dataclass(frozen=True)
class SelfPlayTable:
    """A self-play check: one row per depth limit played."""

    rows: tuple[SelfPlayRow, ...]


@dataclass(frozen=True)
class PlayedGame:
    """A game a game check played through the student's functions, as the report shows it."""

    moves: tuple[str, ...]
    """The moves in the assignment's move format (a random-opponent game: each with its side)."""
    boards: tuple[str, ...] = ()
    """The board after each move, when the report should draw the game (a lost game)."""


@dataclass(frozen=True)
class ManualMarking:
    """An item the instructor marks by hand."""

    points: float
    instructions: str = ""
    """How to mark it: for the instructor's eyes only (the class index)."""


CheckDetail = NodeCounts | SelfPlayTable | PlayedGame | ManualMarking | SearchDivergence
"""What one check measured, by kind (None on a result: nothing beyond the verdict)."""


# -- JSON: the detail's keys in a result's ``figures`` (and the manual item's notes) ----------

INSTRUCTIONS_KEY = "instructor_notes"
"""The manual item's instructions sit at the top of a check's JSON, beside ``figures``."""


def write_detail(detail: CheckDetail | None, figures: MutableMapping[str, Any], data: MutableMapping[str, Any]) -> None:
    """Write ``detail`` into a check's JSON: its ``figures`` and, for a manual item's
    instructions, the check's own ``data``."""
    match detail:
        case NodeCounts(rows, divergence, tree):
            if rows:
                figures["positions"] = [row.to_dict() for row in rows]
            if divergence is not None:
                figures["divergence"] = divergence.as_dict()
            if tree is not None:
                figures["search_tree"] = tree.to_dict()
        case SelfPlayTable(rows):
            if rows:
                figures["rows"] = [dataclasses.asdict(row) for row in rows]
        case PlayedGame(moves, boards):
            figures["moves"] = list(moves)
            if boards:
                figures["boards"] = list(boards)
        case SearchDivergence():
            figures["divergence"] = detail.to_dict()
        case ManualMarking(points, instructions):
            figures["points"] = points
            if instructions:
                data[INSTRUCTIONS_KEY] = instructions


def read_detail(kind: str, figures: MutableMapping[str, Any], data: Mapping[str, Any]) -> CheckDetail | None:
    """The detail a stored check of ``kind`` carries, its keys taken out of ``figures``
    (what is left are the plain figures). Tolerant: keys of the wrong shape are left alone."""
    if kind == "node-counts":
        positions, divergence, tree = (figures.pop(k, None) for k in ("positions", "divergence", "search_tree"))
        if not (positions or divergence or tree):
            return None
        return NodeCounts(
            rows=tuple(NodeCountRow(**row) for row in positions or ()),
            divergence=Divergence(**divergence) if divergence else None,
            search_tree=SearchTreeExcerpt.from_dict(tree) if tree else None,
        )
    if kind == "game-search":
        divergence = figures.pop("divergence", None)
        return SearchDivergence.from_dict(divergence) if isinstance(divergence, Mapping) else None
    if kind == "selfplay-table":
        rows = figures.pop("rows", None)
        return SelfPlayTable(tuple(SelfPlayRow(**row) for row in rows)) if rows else None
    if kind in ("random-opponent", "move-sequence") and _strings(figures.get("moves")):
        moves = tuple(figures.pop("moves"))
        boards = tuple(figures.pop("boards")) if _strings(figures.get("boards")) else ()
        return PlayedGame(moves, boards)
    points = figures.pop("points", None)
    if isinstance(points, (int, float)) and not isinstance(points, bool):
        notes = data.get(INSTRUCTIONS_KEY)
        return ManualMarking(points, notes if isinstance(notes, str) else "")
    return None


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
