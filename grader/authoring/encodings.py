"""The board encodings and locations worth trying on a solution.

Every encoding the spec can describe is a candidate, narrowed by what the source could
possibly use: a string symbol is tried only when the source writes that literal, numpy only
when the notebook imports it, a dict only when the source builds one. What remains is asked
(`grader.authoring.inference`); the source only spares the calls that cannot succeed.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from nbformat import NotebookNode

from grader.authoring.discovery import Discovered, code_cell_trees
from grader.checks.context import CallRunner
from grader.execution.channel.calls import Call
from grader.spec.board import BoardLocation
from grader.spec.call_template import parse_call
from reference import MalformedBoard
from reference.codecs import CODECS, BoardEncoding, CellName, Symbol

_STRING_EMPTIES = (" ", "", "_", "-", ".", "*")
_OTHER_SYMBOLS: tuple[tuple[Symbol, int | str, int | str], ...] = (
    (0, 1, 2),
    (0, 1, -1),
    (0, -1, 1),
    (None, "X", "O"),
    (CellName.DIGIT, "X", "O"),
    (CellName.NUMBER, "X", "O"),
    (CellName.INDEX, "X", "O"),
)
BOARD_NAME = re.compile(r"^(board|state|grid|game_?board|current_?state|cells|squares|b|brd|field|gameboard)$", re.I)


@dataclass(frozen=True)
class SourceLiterals:
    strings: frozenset[str]
    numpy: bool
    dicts: bool
    boards: tuple[object, ...] = ()
    """Literal values the source assigns to a board's name (``current_state = [['1', '2', '3'],
    ...]``): how the notebook itself writes a board, when its functions cannot tell."""


def source_literals(notebook: NotebookNode) -> SourceLiterals:
    strings: set[str] = set()
    boards: list[object] = []
    numpy = dicts = False
    for tree in code_cell_trees(notebook):
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 1:
                strings.add(node.value)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                numpy = numpy or any((m or "").split(".")[0] == "numpy" for m in modules)
            elif isinstance(node, (ast.Dict, ast.DictComp)) or (isinstance(node, ast.Name) and node.id == "dict"):
                dicts = True
            if isinstance(node, ast.Assign):
                boards += _assigned_board(node)
    return SourceLiterals(frozenset(strings), numpy, dicts, tuple(boards))


def _assigned_board(node: ast.Assign) -> list[object]:
    """The literal list, tuple or string assigned to a board's name, or nothing."""
    named = [t for t in node.targets if isinstance(t, ast.Name) and BOARD_NAME.match(t.id)]
    if not named or not isinstance(node.value, (ast.List, ast.Tuple, ast.Constant)):
        return []
    try:
        value = ast.literal_eval(node.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return []
    return [value] if isinstance(value, (list, tuple, str)) else []


def writes_a_board(encoding: BoardEncoding, boards: Sequence[object]) -> bool:
    """Whether one of the boards the source writes reads as a board under ``encoding``."""
    return any(_reads_as_board(board, [encoding]) for board in boards)


def _symbol_sets(literals: SourceLiterals) -> Iterable[tuple[Symbol, int | str, int | str]]:
    for x, o in (("X", "O"), ("x", "o")):
        if x not in literals.strings or o not in literals.strings:
            continue
        for empty in _STRING_EMPTIES:
            if empty in literals.strings:
                yield empty, x, o
    yield from _OTHER_SYMBOLS


def candidate_encodings(literals: SourceLiterals) -> tuple[BoardEncoding, ...]:
    """The presets first (by name), then every other description the source allows."""
    found: dict[BoardEncoding, None] = dict.fromkeys(CODECS.values())
    containers = (
        ["list", "tuple", "string"] + (["numpy"] if literals.numpy else []) + (["dict"] if literals.dicts else [])
    )
    for (empty, x, o), container, layout in itertools.product(_symbol_sets(literals), containers, ("flat", "rows")):
        if container == "numpy" and not all(isinstance(s, int) and not isinstance(s, bool) for s in (empty, x, o)):
            continue
        try:
            found.setdefault(BoardEncoding(layout, container, empty, x, o), None)  # type: ignore[arg-type]
        except ValueError:
            continue  # a combination the spec cannot hold (a string of rows, a two-character symbol)
    return tuple(found)


def candidate_locations(
    discovered: Discovered,
    made: Mapping[str, Mapping[str, object]] | None = None,
    encodings: Sequence[BoardEncoding] = (),
) -> tuple[BoardLocation, ...]:
    """An argument; each global with a board's name; each attribute of an object made
    without arguments that holds a board.

    ``made`` gives, per class, the attributes of an object the solution made (`made_objects`):
    an attribute holds a board when one of ``encodings`` reads its value as one, whatever it
    is called and wherever the class sets it (the constructor, or a method such as
    ``initialize_game()`` the constructor calls). A class no object was made of falls back on
    the board-named attributes its constructor sets."""
    made = made or {}
    locations = [BoardLocation()]
    locations += [BoardLocation("global", name) for name in discovered.global_names if BOARD_NAME.match(name)]
    for cls in discovered.classes:
        if any(not p.has_default for p in discovered.classes.get(cls, ())):
            continue
        if cls in made:
            attributes = [name for name, value in made[cls].items() if _reads_as_board(value, encodings)]
        else:
            attributes = [name for name in discovered.attributes.get(cls, ()) if BOARD_NAME.match(name)]
        locations += [BoardLocation("attribute", name, parse_call(f"{cls}()")) for name in attributes]
    return tuple(locations)


def _reads_as_board(value: object, encodings: Sequence[BoardEncoding]) -> bool:
    for encoding in encodings:
        try:
            encoding.decode(value)
        except (MalformedBoard, ValueError, TypeError):
            continue
        return True
    return False


def made_objects(runner: CallRunner, discovered: Discovered, timeout: float) -> dict[str, Mapping[str, object]]:
    """Per class whose constructor needs no argument, the attributes of an object made with
    it: where such a class keeps its board is read from the object, not guessed from names."""
    classes = [cls for cls, params in discovered.classes.items() if all(p.has_default for p in params)]
    outcomes = runner.call_many([Call(cls, timeout=timeout, check_mutation=False) for cls in classes])
    made: dict[str, Mapping[str, object]] = {}
    for cls, outcome in zip(classes, outcomes):
        attributes = getattr(outcome.value, "attributes", None) if outcome.ok else None
        if isinstance(attributes, Mapping):
            made[cls] = attributes
    return made
