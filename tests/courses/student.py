"""A course notebook's code run in this process, and its functions called in the course's conventions.

Not a sandbox: only the course fixtures run here. Code cells run in order in one namespace as
``__main__``, with ``input()`` answered from a script (it raises ``EOFError`` when the answers run
out, as the grader's scripted stdin does) and printing discarded.
"""

from __future__ import annotations

import contextlib
import functools
import io
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import Any

import nbformat
import numpy as np

from reference.tictactoe import EMPTY, Board
from tests.courses.manifest import DIGIT, Course, Function


@dataclass
class ScriptedInput:
    answers: list[str]
    prompts: list[str] = field(default_factory=list)

    def __call__(self, prompt: object = "") -> str:
        self.prompts.append(str(prompt))
        if len(self.prompts) > len(self.answers):
            raise EOFError("the scripted answers ran out")
        return self.answers[len(self.prompts) - 1]

    @property
    def unused(self) -> int:
        return max(0, len(self.answers) - len(self.prompts))


class StudentRaised(Exception):
    """A call into the notebook raised: the student's exception, kept apart from the checks' own."""

    def __init__(self, call: str, error: Exception) -> None:
        super().__init__(f"{call} raises {type(error).__name__}: {error}")
        self.error = error


@dataclass(frozen=True)
class CellError:
    cell: int
    error: BaseException


def encode(board: Board, course: Course) -> object:
    """``board`` in the course's encoding: a fresh object each time (solutions mutate boards)."""
    symbols = [_cell_symbols(course.empty, course.x, course.o)[cell][mark] for cell, mark in enumerate(board.cells)]
    if course.container == "string":
        text = "".join(str(s) for s in symbols)
        return text if course.layout == "flat" else [text[r * 3 : r * 3 + 3] for r in range(3)]
    if course.container == "numpy":
        array = np.array(symbols)
        return array if course.layout == "flat" else array.reshape(3, 3)
    build = tuple if course.container == "tuple" else list
    if course.layout == "flat":
        return build(symbols)
    return build(build(symbols[r * 3 : r * 3 + 3]) for r in range(3))


@functools.cache
def _cell_symbols(empty: object, x: object, o: object) -> tuple[dict[str, object], ...]:
    """Per cell, the symbol of each reference mark (an empty cell may show its own digit)."""
    return tuple({EMPTY: str(cell + 1) if empty == DIGIT else empty, "X": x, "O": o} for cell in range(9))


def decode(raw: object, course: Course) -> Board:
    """The reference board a (list or tuple) board in the course's encoding stands for;
    ``ValueError`` when it is none."""
    cells = list(raw) if isinstance(raw, (list, tuple)) else []
    if course.layout == "rows":
        cells = [cell for row in cells for cell in (row if isinstance(row, (list, tuple)) else [None] * 4)]
    if len(cells) != 9:
        raise ValueError(f"not a board: {raw!r}")
    marks = []
    for number, cell in enumerate(cells):
        found = [
            mark for mark, symbol in _cell_symbols(course.empty, course.x, course.o)[number].items() if symbol == cell
        ]
        if not found:
            raise ValueError(f"not a board: {raw!r}")
        marks.append(found[0])
    return Board(tuple(marks))


def cell_of_move(move: object, move_format: str) -> int:
    """The cell 0..8 a move in ``move_format`` names; ``ValueError`` when it names none."""
    if move_format in ("index", "position"):
        number = _whole(move)
        cell = number if move_format == "index" else number - 1
    else:
        if not isinstance(move, (tuple, list, np.ndarray)) or len(move) != 2:
            raise ValueError(f"a (row, col) move, got {move!r}")
        row, col = (_whole(part) for part in move)
        if move_format == "rowcol1":
            row, col = row - 1, col - 1
        if not (0 <= row < 3 and 0 <= col < 3):
            raise ValueError(f"no such cell: {move!r}")
        cell = 3 * row + col
    if not 0 <= cell < 9:
        raise ValueError(f"no such cell: {move!r}")
    return cell


def _whole(value: object) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"a whole number, got {value!r}")
    return int(value)


@functools.cache
def _compiled(expression: str) -> CodeType:
    return compile(expression, "<call>", "eval")


class StudentCode:
    """One notebook's namespace after running it, and calls into it."""

    def __init__(self, notebook: Path, course: Course, answers: list[str]) -> None:
        self.course = course
        self.input = ScriptedInput(answers)
        self.namespace: dict[str, Any] = {"__name__": "__main__", "input": self.input}
        self.errors: list[CellError] = []
        cells = nbformat.read(notebook, as_version=4).cells
        code_cells = [cell for cell in cells if cell.cell_type == "code"]
        with contextlib.redirect_stdout(io.StringIO()):
            for number, cell in enumerate(code_cells):
                try:
                    exec(compile(cell.source, f"<cell-{number}>", "exec"), self.namespace)
                except Exception as error:  # a student cell that fails ends that cell only
                    self.errors.append(CellError(number, error))

    def call(self, function: Function, board: Board, **values: object) -> object:
        """Evaluate ``function.call`` with ``board`` installed where the course keeps it."""
        names: dict[str, object] = dict(values)
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                self._install(encode(board, self.course), names)
                return eval(_compiled(function.call), self.namespace, names)
            except Exception as error:
                raise StudentRaised(function.call, error) from error

    def board_after(self, function: Function, board: Board, **values: object) -> Board:
        """The board as a call of ``function`` on ``board`` left it (it plays in place)."""
        names: dict[str, object] = dict(values)
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                self._install(encode(board, self.course), names)
                eval(_compiled(function.call), self.namespace, names)
            except Exception as error:
                raise StudentRaised(function.call, error) from error
        course = self.course
        if course.location == "argument":
            raw = names["board"]
        elif course.location == "attribute":
            raw = getattr(names["game"], str(course.attribute))
        else:
            raw = self.namespace[str(course.global_name)]
        return decode(raw, course)

    def _install(self, encoded: object, names: dict[str, object]) -> None:
        """Put the board where the course's functions look for it (making the object that holds it)."""
        course = self.course
        if course.location == "argument":
            names["board"] = encoded
        elif course.location == "attribute":
            game = eval(_compiled(str(course.factory)), self.namespace)
            setattr(game, str(course.attribute), encoded)
            names["game"] = game
        else:
            self.namespace[str(course.global_name)] = encoded

    def global_value(self, name: str) -> object:
        return self.namespace[name]

    def set_global(self, name: str, value: object) -> None:
        self.namespace[name] = value

    @contextlib.contextmanager
    def counting(self, name: str) -> Iterator[Counter[str]]:
        """Count calls of the notebook's function (or the board object's method) ``name``.

        A recursive call looks the name up again, in the namespace or on the class, so replacing
        it there counts every call of the search, root included.
        """
        calls: Counter[str] = Counter()
        owner: Any
        if self.course.location == "attribute":
            owner = type(eval(str(self.course.factory), self.namespace))
            original = owner.__dict__[name]
        else:
            owner = None
            original = self.namespace[name]

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(*args, **kwargs)

        wrapper: Callable[..., Any] = functools.wraps(original)(counted)
        if owner is None:
            self.namespace[name] = wrapper
        else:
            setattr(owner, name, wrapper)
        try:
            yield calls
        finally:
            if owner is None:
                self.namespace[name] = original
            else:
                setattr(owner, name, original)
