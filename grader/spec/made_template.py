"""Objects a spec has the kernel make from a position, written as Python:

    board_object = "ConnectFourBoard(board)"
    state = "AbstractGameState(board, is_game_over_connectfour, next_boards_connectfour, endgame_score_connectfour)"

A call (of a class or function of the notebook's namespace: the course's support modules, the
student's own code) whose arguments are literals, placeholders (``board``, ``to_move``, ...),
other such calls, and names of the namespace passed as they are (the lab's functions handed to
the course's state). A bare name is a placeholder when the spec knows it as one, else a name of
the namespace. Parsing happens when the assignment loads; filling gives the
`~grader.execution.channel.call_data.KernelMade` a call carries to the kernel, which makes the
object within the student's time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from grader.execution.channel.call_data import KernelMade, KernelName
from grader.spec.call_template import CallTemplateError, dotted_name

__all__ = ["MadeTemplate", "parse_made"]


@dataclass(frozen=True)
class _Slot:
    """A placeholder inside a made object."""

    name: str


@dataclass(frozen=True)
class MadeTemplate:
    """A parsed object expression: ``factory(args...)``, filled per position."""

    text: str
    made: KernelMade
    """The object with `_Slot`s where placeholders go."""

    @property
    def placeholders(self) -> frozenset[str]:
        return frozenset(leaf.name for leaf in _leaves(self.made) if isinstance(leaf, _Slot))

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the namespace passed as they are (the lab's functions handed to the
        course's state), in order; not the classes and functions called to make objects."""
        return tuple(dict.fromkeys(leaf.name for leaf in _leaves(self.made) if isinstance(leaf, KernelName)))

    def fill(self, values: Mapping[str, Any]) -> KernelMade:
        """The object to make for one position: each placeholder replaced by its value."""
        filled = _fill(self.made, values)
        assert isinstance(filled, KernelMade)
        return filled


def _leaves(value: Any) -> Iterator[Any]:
    """The values inside ``value`` that are not made objects, lists or tuples, in order."""
    if isinstance(value, KernelMade):
        for item in (*value.args, *(v for _, v in value.kwargs)):
            yield from _leaves(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _fill(value: Any, values: Mapping[str, Any]) -> Any:
    if isinstance(value, _Slot):
        if value.name not in values:
            raise CallTemplateError(f"placeholder {value.name!r} has no value here")
        return values[value.name]
    if isinstance(value, KernelMade):
        return KernelMade(
            value.factory,
            tuple(_fill(a, values) for a in value.args),
            tuple((k, _fill(v, values)) for k, v in value.kwargs),
        )
    if isinstance(value, list):
        return [_fill(item, values) for item in value]
    if isinstance(value, tuple):
        return tuple(_fill(item, values) for item in value)
    return value


def parse_made(text: str, placeholders: frozenset[str]) -> MadeTemplate:
    """Parse ``text``; CallTemplateError naming the problem."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise CallTemplateError(f"{text!r} is not a Python expression: {exc.msg}") from None
    if not isinstance(tree.body, ast.Call):
        raise CallTemplateError(f"{text!r} must be a call that makes an object, such as ConnectFourBoard(board)")
    made = _value(tree.body, text, placeholders)
    assert isinstance(made, KernelMade)
    return MadeTemplate(text.strip(), made)


def _value(node: ast.expr, text: str, placeholders: frozenset[str]) -> Any:
    if isinstance(node, ast.Call):
        if any(kw.arg is None for kw in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
            raise CallTemplateError(f"{text!r}: * and ** arguments are not supported")
        return KernelMade(
            dotted_name(node.func, text),
            tuple(_value(a, text, placeholders) for a in node.args),
            tuple((str(kw.arg), _value(kw.value, text, placeholders)) for kw in node.keywords),
        )
    if isinstance(node, ast.Name):
        if node.id == "inf":
            return float("inf")
        return _Slot(node.id) if node.id in placeholders else KernelName(node.id)
    if isinstance(node, ast.Attribute):
        return KernelName(dotted_name(node, text))
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(item, text, placeholders) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise CallTemplateError(
            f"{text!r}: {ast.unparse(node)!r} must be a literal, a placeholder, a name or a call"
        ) from None
