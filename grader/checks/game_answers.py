"""How the answer of a search on a game other than tic-tac-toe is read (`game-search`).

A search answers in one of the shapes courses use: a column, a value, ``(move, value)``,
``(move, value, evaluations)`` or ``(path, score, evaluations)``. Progressive deepening answers
once for every depth 1..d: a list (or tuple) of such answers, the first for depth 1, or an
object that holds that list in an attribute (MIT 6.034's ``AnytimeValue.history``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from grader.checks.kinds.game_heuristic import number
from grader.execution.channel.call_data import RemoteObject
from reference.game_search import GameSearchResult

__all__ = ["SearchShape", "ShapedAnswer", "check_deepening", "per_depth", "read_answer", "shown"]

SearchShape = Literal["move,value", "value", "move", "move,value,evaluations", "path,score,evaluations"]


@dataclass(frozen=True)
class ShapedAnswer:
    """One answer read in its shape: the parts the shape has, None for the others."""

    move: Any
    value: float | None
    evaluations: int | None
    path: tuple[int, ...] | None


def read_answer(shape: SearchShape, raw: Any) -> ShapedAnswer | str:
    """The parts of ``raw`` in ``shape``, or what the answer must be instead (a phrase)."""
    parts = shape.split(",")
    if len(parts) == 1:
        items = [raw]
    elif isinstance(raw, (list, tuple)) and len(raw) == len(parts):
        items = list(raw)
    else:
        return f"an answer of {len(parts)} parts ({shape})"
    read = dict(zip(parts, items))
    value = read.get("value", read.get("score"))
    move = read.get("move")
    path = read.get("path")
    count = read.get("evaluations")
    if "value" in read or "score" in read:
        if number(value) is None:
            return "a number for the value"
        value = number(value)
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
        return "a whole number of evaluations"
    if path is not None:
        if not isinstance(path, (list, tuple)) or not all(isinstance(m, int) for m in path):
            return "a list of columns for the path"
        path = tuple(path)
        move = path[0] if path else None
    return ShapedAnswer(move, value, count, path)


def check_deepening(deepening: bool, history: str, depth_limits: tuple[int, ...]) -> None:
    """A ValueError naming what is wrong with a check's progressive deepening: it starts at depth
    1, and ``history`` (where its answers are kept) is an attribute name read only with it."""
    if deepening and any(depth < 1 for depth in depth_limits):
        raise ValueError(f"deepening starts at depth 1: depth_limits must be 1 or more, not {list(depth_limits)}")
    if history and not deepening:
        raise ValueError("history names where progressive deepening keeps its answers: set deepening = true")
    if history and not history.isidentifier():
        raise ValueError(f"history must be an attribute name, not {history!r}")


def per_depth(shape: SearchShape, raw: Any, deepest: int, history: str = "") -> list[Any] | str:
    """Progressive deepening's answers for depths 1..``deepest``, in order, from what its call
    returned (``history``: the attribute of the returned object that holds them); or what the
    answer must be instead, naming the mistake its shape shows."""
    wanted = f"a list of {deepest} answers, one for each depth 1 to {deepest}, the first for depth 1"
    held = raw
    if history:
        if not isinstance(raw, RemoteObject):
            return f"an object whose `{history}` holds {wanted}"
        held = getattr(raw, history, None)
        if held is None:
            return f"an object whose `{history}` holds {wanted}: it has no `{history}`"
    if not isinstance(held, (list, tuple)):
        return wanted
    answers = list(held)
    one = not isinstance(read_answer(shape, held), str)
    if len(answers) == deepest and not (one and any(isinstance(read_answer(shape, a), str) for a in answers)):
        return answers
    if one and deepest > 1:
        return f"{wanted}: it answers once, as a search of one depth does (does it keep only the last depth's answer?)"
    return f"{wanted}, not {len(answers)}"


def shown(shape: SearchShape, best: GameSearchResult, evaluations: int) -> str:
    """The reference's answer in ``shape``: its first best move, its value, its count."""
    value = f"{best.value:g}"
    move = best.best_moves[0] if best.best_moves else None
    return {
        "move,value": f"({move}, {value})",
        "value": value,
        "move": f"{move}",
        "move,value,evaluations": f"({move}, {value}, {evaluations})",
        "path,score,evaluations": f"({list(best.path)}, {value}, {evaluations})",
    }[shape]
