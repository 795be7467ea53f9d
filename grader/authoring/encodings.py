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
from collections.abc import Iterable
from dataclasses import dataclass

from nbformat import NotebookNode

from grader.authoring.discovery import Discovered
from grader.spec.board import BoardLocation
from grader.spec.call_template import parse_call
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


def source_literals(notebook: NotebookNode) -> SourceLiterals:
    strings: set[str] = set()
    numpy = dicts = False
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(cell.source)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 1:
                strings.add(node.value)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                numpy = numpy or any((m or "").split(".")[0] == "numpy" for m in modules)
            elif isinstance(node, (ast.Dict, ast.DictComp)) or (isinstance(node, ast.Name) and node.id == "dict"):
                dicts = True
    return SourceLiterals(frozenset(strings), numpy, dicts)


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


def candidate_locations(discovered: Discovered) -> tuple[BoardLocation, ...]:
    """An argument; each global with a board's name; each board-named attribute an object
    made without arguments sets in its constructor."""
    locations = [BoardLocation()]
    locations += [BoardLocation("global", name) for name in discovered.global_names if BOARD_NAME.match(name)]
    for cls, attributes in discovered.attributes.items():
        if any(not p.has_default for p in discovered.classes.get(cls, ())):
            continue
        for attribute in attributes:
            if BOARD_NAME.match(attribute):
                locations.append(BoardLocation("attribute", attribute, parse_call(f"{cls}()")))
    return tuple(locations)
