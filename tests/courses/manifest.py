"""The course fixtures' manifest: what each course's solution contains and how its mutants break it.

``manifest.toml`` holds one ``[[course]]`` table per course: its board encoding, conventions, the
functions of its solution (``[[course.function]]``, one per checked role) and its mutants
(``[[course.mutant]]``, each a list of text edits of the solution's ``source.py``). Board symbols
are written as Python literals in strings (``"'_'"``, ``"None"``, ``"0"``); ``"digit"`` is the
cell's own number ``'1'``..``'9'``.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

COURSES_DIR = Path(__file__).parent
MANIFEST = COURSES_DIR / "manifest.toml"

Role = Literal["win-test", "draw-test", "moves", "minimax", "alphabeta", "best-move", "depth-limited", "node-counter"]
ROLES: tuple[Role, ...] = (
    "win-test",
    "draw-test",
    "moves",
    "minimax",
    "alphabeta",
    "best-move",
    "depth-limited",
    "node-counter",
)
MOVE_FORMATS = ("index", "position", "rowcol", "rowcol1")
DIGIT = "digit"


@dataclass(frozen=True)
class Function:
    """One function of a solution in one role, and how to call it."""

    name: str
    """The function's (or method's, or the node counter's) name in the notebook."""
    role: Role
    call: str
    """A Python expression; ``board``, ``game``, ``player``, ``is_max``, ``alpha``, ``beta`` and
    ``limit`` stand for the position under test (see ``student.py``)."""
    returns: str
    """``bool``, ``mark``, ``outcome`` (the winner's mark, the course's ``tie`` on a full board
    without one, ``no_winner`` otherwise), ``moves``, ``value``, ``move``, ``in-place`` (returns
    nothing and plays its move on the board it is given) or comma-separated parts of a sequence:
    ``value``, ``move``, ``row``, ``col`` and ``_`` (ignored)."""
    does: str
    """One line in words."""
    to_move: str | None = None
    """``"X"``/``"O"`` when the function only plays one side (e.g. the computer's best move)."""
    means: str | None = None
    """For a draw test: ``full`` (no empty cell), ``draw`` (full and nobody won) or ``over``."""
    counts: str | None = None
    """For a node counter: the function whose calls it counts."""

    @property
    def key(self) -> str:
        return f"{self.name}:{self.role}"


@dataclass(frozen=True)
class Mutant:
    name: str
    function: str
    """The function the mistake is in (for a node counter: the counter's name)."""
    role: Role
    """The role of that function whose check the mistake breaks."""
    mistake: str
    edits: tuple[tuple[str, str], ...]
    """Text replacements of the solution's source; each old text occurs exactly once."""
    also: tuple[str, ...] = ()
    """Other checks the mistake changes, as ``function:role`` (callers of the broken function)."""

    @property
    def key(self) -> str:
        return f"{self.function}:{self.role}"

    @property
    def broken(self) -> frozenset[str]:
        return frozenset((self.key, *self.also))


@dataclass(frozen=True)
class Course:
    id: str
    summary: str
    """What makes this course different, one line."""
    board: str
    """The encoding in words."""
    layout: Literal["flat", "rows"]
    container: Literal["list", "tuple", "string", "numpy"]
    empty: object
    x: object
    o: object
    location: Literal["argument", "attribute", "global"]
    maximizer: str
    first_player: str
    scoring: Literal["unit", "depth-adjusted"]
    move: str
    functions: tuple[Function, ...]
    mutants: tuple[Mutant, ...]
    factory: str | None = None
    """For ``location = "attribute"``: the expression that makes the object holding the board."""
    attribute: str | None = None
    """For ``location = "attribute"``: the attribute the board is stored in."""
    global_name: str | None = None
    """For ``location = "global"``: the global the functions read."""
    no_winner: object = None
    """What a win test returning the winner's mark gives when nobody has won."""
    tie: object = None
    """What a win test returning ``outcome`` gives on a full board without a winner."""
    min_marks: int = 3
    """Value checks use positions with at least this many marks (keeps slow styles fast)."""

    @property
    def dir(self) -> Path:
        return COURSES_DIR / self.id

    @property
    def source(self) -> Path:
        return self.dir / "source.py"

    @property
    def solution(self) -> Path:
        return self.dir / "solution.ipynb"

    @property
    def stdin_file(self) -> Path:
        return self.dir / "STDIN.txt"

    def mutant_path(self, mutant: Mutant) -> Path:
        return self.dir / "mutants" / f"{mutant.name}.ipynb"

    def symbol(self, player: str) -> object:
        """The course's symbol for the reference player ``"X"`` or ``"O"``."""
        return self.x if player == "X" else self.o

    def function(self, key: str) -> Function:
        for function in self.functions:
            if function.key == key:
                return function
        raise KeyError(f"{self.id} has no function {key}")


def _literal(text: str) -> object:
    return DIGIT if text == DIGIT else ast.literal_eval(text)


def _function(raw: dict[str, Any]) -> Function:
    return Function(**raw)


def _mutant(raw: dict[str, Any]) -> Mutant:
    fields = dict(raw)
    edits = fields.pop("replace")
    also = fields.pop("also", [])
    return Mutant(edits=tuple((old, new) for old, new in edits), also=tuple(also), **fields)


def _course(raw: dict[str, Any]) -> Course:
    fields = dict(raw)
    for symbol in ("empty", "x", "o", "no_winner", "tie"):
        if symbol in fields:
            fields[symbol] = _literal(str(fields[symbol]))
    functions = tuple(_function(f) for f in fields.pop("function"))
    mutants = tuple(_mutant(m) for m in fields.pop("mutant", []))
    fields["global_name"] = fields.pop("global", None)
    return Course(functions=functions, mutants=mutants, **fields)


def load_courses(path: Path = MANIFEST) -> tuple[Course, ...]:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(_course(course) for course in raw["course"])
