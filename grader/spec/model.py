"""What an assignment asks: the spec's data types and the closed sets of values its fields take.

Nothing here knows the check kinds: `grader.spec.loader` builds these from
`assignments/<id>/assignment.toml` with the kinds' parameter types, and the kinds read them.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

from grader.errors import UsageError
from grader.execution.isolation import SandboxChoice
from grader.serialization import Positive
from grader.spec.board import BoardLocation
from grader.spec.game import GameSetup
from grader.spec.support import SupportModule
from reference import BoardGame, Position, TicTacToe
from reference.codecs import MOVE_FORMATS, BoardEncoding, MoveFormat  # noqa: F401 - the spec's move formats

__all__ = [
    "MOVE_FORMATS",
    "Assignment",
    "AssignmentError",
    "BoardEncoding",
    "Check",
    "Maximizer",
    "MoveFormat",
    "Scoring",
    "Side",
    "Visibility",
]

Maximizer = Literal["X", "O", "to-move"]
"""Which side maximizes: a fixed player, or whoever is to move."""
Scoring = Literal["unit", "depth-adjusted"]
Visibility = Literal["public", "hidden"]
Side = Literal["X", "O"]


Seconds = Annotated[float, Positive()]
"""A time limit: more than 0 seconds (0 is refused rather than read as "no limit")."""
Count = Annotated[int, Positive()]
"""How many of something to try: at least 1."""

MAXIMIZERS: tuple[Maximizer, ...] = get_args(Maximizer)
SCORINGS: tuple[Scoring, ...] = get_args(Scoring)
VISIBILITIES: tuple[Visibility, ...] = get_args(Visibility)
SIDES: tuple[Side, ...] = get_args(Side)

MANUAL_KIND = "manual"
"""The kind of items only the instructor marks: never scored automatically."""

KERNEL_START_SECONDS = 60.0
"""What starting the kernel may take (the sandbox's start-up limit)."""
LONG_CALL_SECONDS = 60.0
"""The longest limit a built-in check gives one call by default (node counts search from
near-empty boards)."""
KERNEL_REPLACE_SECONDS = 10.0
"""Interrupting a call that ignores its alarm, and starting a kernel in its place."""

P = TypeVar("P", covariant=True)
"""A kind's parameter type. Covariant: a `Check` of a kind whose parameters extend another
kind's (depth-limited search extends search) is read like the other kind's."""


class AssignmentError(UsageError, ValueError):
    """A spec problem, located: file, field, what is wrong; ``problems`` holds every
    (field, problem) pair found, this one first."""

    def __init__(self, path: Path | str, field_name: str, problem: str, *more: tuple[str, str]) -> None:
        self.path = str(path)
        self.field = field_name
        self.problem = problem
        self.problems = ((field_name, problem), *more)
        lines = [f"{where}: {what}" if where else what for where, what in self.problems]
        super().__init__(f"{path}: {lines[0]}" if len(lines) == 1 else "\n  ".join([f"{path}:", *lines]))

    @classmethod
    def of(cls, path: Path | str, problems: Sequence[tuple[str, str]]) -> AssignmentError:
        """One error for all of ``problems`` (at least one)."""
        (field_name, problem), *more = problems
        return cls(path, field_name, problem, *more)


@dataclass(frozen=True)
class Check(Generic[P]):
    """What to test (never what happened: that is `grader.results.CheckResult`)."""

    id: str
    kind: str
    title: str
    points: float
    params: P
    """The kind's own frozen parameter dataclass, validated at load time."""
    visibility: Visibility = "public"
    bonus: bool = False
    """Bonus checks add to the score but not to the maximum, and only run when the notebook
    defines the function they need."""
    description: str = ""
    slow_cost: float | None = None
    """The share of the points a correct but slow answer costs (`Assignment.slow_after`);
    None: the assignment's ``slow_cost``."""

    @property
    def hidden(self) -> bool:
        return self.visibility == "hidden"

    @property
    def manual(self) -> bool:
        return self.kind == MANUAL_KIND

    @property
    def max_score(self) -> float:
        """What the check adds to the maximum: bonus checks add to the score only, and manual
        items are for the instructor, unscored."""
        return 0.0 if self.bonus or self.manual else self.points


HANDED_SUFFIXES = (".ipynb", ".py")
"""The forms a solution or handout is stored in, the notebook first."""


def handed_file(directory: Path, stem: str) -> Path:
    """The assignment's ``stem`` file (``solution``, ``template``) in the form it was given:
    the notebook when there is one, else the script; the notebook's name when neither exists,
    so that "missing" names the usual file."""
    for suffix in HANDED_SUFFIXES:
        path = directory / f"{stem}{suffix}"
        if path.is_file():
            return path
    return directory / f"{stem}{HANDED_SUFFIXES[0]}"


@dataclass(frozen=True)
class Assignment:
    """An assignment as loaded. The defaults here are the spec's: a field its ``[assignment]``
    table leaves out takes them (`grader.spec.tables.AssignmentTable`)."""

    id: str
    title: str
    directory: Path
    encoding: BoardEncoding
    """How the student's code holds a tic-tac-toe board (a preset or a ``[board]``
    description); an assignment on another game holds its board in ``game.encoding``."""
    aliases: Mapping[str, tuple[str, ...]]
    checks: tuple[Check[Any], ...]
    maximizer: Maximizer = "O"
    first_player: Side = "X"
    scoring: Scoring = "unit"
    move_format: MoveFormat = "index"
    stdin: tuple[str, ...] = ()
    cell_timeout: float = 30.0
    notebook_timeout: float = 300.0
    call_timeout: float = 10.0
    """The hard limit, in seconds of the kernel's CPU time: a call still running after it is
    stopped and has no answer."""
    slow_after: float | None = None
    """The soft limit: a check whose answers are right, one of which came after this many
    seconds of CPU time (and before ``call_timeout``), is "correct, but slower than" it and loses
    ``slow_cost`` of its points. None: no soft limit."""
    slow_cost: float = 0.0
    """The share of a check's points that being slow costs (0: it is said, and costs nothing)."""
    description: str = ""
    adapter: types.ModuleType | None = None
    hypothesis_examples: int = 60
    board: BoardLocation = BoardLocation()
    """Where the student's functions find the board: an argument, an object's attribute, a global."""
    check_budget_seconds: float = 20.0
    reference_helpers: bool = True
    """When a lower-level function is wrong, grade the checks built on it again with the
    reference's version standing in for it (`grader.checks.reference_helpers`)."""
    game: GameSetup | None = None
    """The game when it is not tic-tac-toe (the ``[game]`` table): its checks ask it, never a 3x3 board."""
    sandbox: SandboxChoice | None = None
    """The isolation its author chose for every grader of it (``limits`` where bubblewrap
    cannot run, as in a container); None: bubblewrap, refusing where it cannot run. A
    command's ``--sandbox`` and ``GRADER_SANDBOX`` win (`grader.execution.isolation`)."""
    support: tuple[SupportModule, ...] = ()
    """The course's own modules its notebooks import, kept in the folder's ``support/``: every
    kernel imports them from there (`grader.spec.support`)."""

    @property
    def solution_path(self) -> Path:
        """``solution.ipynb``, or ``solution.py`` when the solution was given as a script."""
        return handed_file(self.directory, "solution")

    @property
    def template_path(self) -> Path:
        """The handout: ``template.ipynb``, or ``template.py`` when it was given as a script."""
        return handed_file(self.directory, "template")

    @functools.cached_property
    def board_game(self) -> BoardGame[Position, int]:
        """The game its checks ask: the ``[game]`` table's, else tic-tac-toe with ``first_player``
        (made once: the checks ask it about every position)."""
        return self.game.game if self.game is not None else TicTacToe(self.first_player)

    @property
    def max_score(self) -> float:
        return sum(c.max_score for c in self.checks)

    # -- time budgets (docs/judging.md, "Time budgets") -------------------------------------------
    @property
    def short_limit(self) -> float:
        """The limit of a cell or call that may reach a function that already ran out of its
        time (`grader.execution.hangs`)."""
        return min(self.call_timeout, max(2.0, self.call_timeout / 4))

    @property
    def check_share_seconds(self) -> float:
        """The kernel's CPU time a check's calls may use: its property budget and two full call
        limits (on the wall clock, `grader.execution.channel.protocol.wall_bound` of it is the
        safety net). The calls that would start later are not made, and the check says how
        many positions it judged."""
        return self.check_budget_seconds + 2 * self.call_timeout

    @property
    def grading_deadline(self) -> float:
        """Seconds after which no check of a submission starts and no call is made: the
        kernel's start, the whole notebook, and for every check its share plus one long call
        in flight and a kernel replacement. It adds up what each part may take, so that no
        single part, a hanging function included, can use it up."""
        in_flight = max(self.call_timeout, LONG_CALL_SECONDS) + KERNEL_REPLACE_SECONDS
        return KERNEL_START_SECONDS + self.notebook_timeout + len(self.checks) * (self.check_share_seconds + in_flight)

    def public(self) -> Assignment:
        """The same assignment with hidden checks removed (the student self-check)."""
        return dataclasses.replace(self, checks=tuple(c for c in self.checks if not c.hidden))

    def names_for(self, function: str) -> tuple[str, ...]:
        """The function's name followed by its accepted aliases."""
        return (function, *self.aliases.get(function, ()))
