"""How a search's ``(path, score, evaluations)`` answer is judged against the reference's,
whatever its path holds (`state-search`: the course's states of a game position, `tree-search`:
the nodes of a game tree): the shape, the score, the path, then the count, the first that
differs named with its likely cause.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from grader.checks.game_search_causes import count_cause
from grader.checks.kinds.game_heuristic import number
from grader.checks.properties import Mismatch
from grader.execution.channel.call_data import RemoteObject
from reference.game_search import GameSearchResult, GameSearchSpec
from reference.tictactoe import X

__all__ = ["ExpectedSearch", "PathReference", "held_at", "judge_path_answer"]


@dataclass(frozen=True)
class ExpectedSearch:
    """The reference's search of one position (or tree) at one depth limit."""

    spec: GameSearchSpec
    best: GameSearchResult
    """The value and path (minimax's for alpha-beta)."""
    evaluations: int
    unpruned: int
    """Minimax's count, for the likely cause of an alpha-beta's."""
    maximizer: str = X


@dataclass(frozen=True)
class PathReference:
    """The reference's answer, and how a path is read and shown for one kind."""

    search: str
    """minimax, alphabeta or best-leaf."""
    value: float
    path: Sequence[Any]
    """What the path must hold, in the kind's terms (positions, labels)."""
    evaluations: int
    unpruned: int
    """Minimax's count, for the likely cause of an alpha-beta's."""
    read: Callable[[Any], Sequence[Any] | str]
    """The path returned, in the kind's terms, or what it must be instead."""
    show: Callable[[Sequence[Any]], str]
    """A path as feedback writes it."""
    counted: str
    """What a static evaluation also is, in the count's cause: `` (a leaf's value is one ...)``."""

    @property
    def wanted(self) -> str:
        return f"({self.show(self.path)}, {self.value:g}, {self.evaluations})"


def held_at(item: Any, attributes: str) -> Any:
    """What ``item`` (an object of the kernel's answer) holds at ``attributes`` (``snapshot.label``);
    None where it holds nothing there."""
    for part in attributes.split("."):
        item = getattr(item, part, None) if isinstance(item, RemoteObject) else None
    return item


def judge_path_answer(
    call: str,
    raw: Any,
    reference: PathReference,
    score_why: Callable[[], str],
    path_why: Callable[[Sequence[Any]], str],
) -> Mismatch | None:
    """``raw`` against the reference: None when it is the reference's; else how it differs,
    ``score_why`` and ``path_why`` saying why a score or a path is wrong."""
    wanted = reference.wanted
    if not isinstance(raw, (list, tuple)) or len(raw) != 3:
        return Mismatch(call, wanted, repr(raw)[:200], "the search must return (path, score, evaluations)")
    path, score, count = raw
    read = reference.read(path)
    shown = read if isinstance(read, str) else reference.show(read)
    actual = f"({shown}, {score!r}, {count!r})"
    value = number(score)
    if value is None:
        return Mismatch(call, wanted, actual, "the score must be a number")
    if reference.search == "best-leaf" and value > reference.value:
        return Mismatch(
            call,
            wanted,
            actual,
            f"no leaf below is worth {value:g}, the best is worth {reference.value:g}: does the best score start "
            "above every leaf's (at 0) instead of below (at -inf, or the first leaf's)?",
        )
    if not math.isclose(value, reference.value, abs_tol=1e-9):
        return Mismatch(call, wanted, actual, score_why())
    if isinstance(read, str):
        return Mismatch(call, wanted, actual, f"the path must be {read}")
    if list(read) != list(reference.path):
        return Mismatch(call, wanted, actual, path_why(read))
    if isinstance(count, bool) or not isinstance(count, int) or count != reference.evaluations:
        made = count if isinstance(count, int) and not isinstance(count, bool) else None
        prune = reference.search == "alphabeta"
        return Mismatch(
            call,
            wanted,
            actual,
            count_cause(prune, made, reference.evaluations, reference.unpruned) + reference.counted,
        )
    return None
