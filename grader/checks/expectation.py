"""The base of every predicate expectation (`Expectation`), and how a check reads and shows
answers (`Reading`, `Read`). The expectations themselves are `grader.checks.expectations`.

An expectation reads a position through the assignment's game (`reference.game.LineGame`):
its cells, its lines and their names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from hypothesis import strategies as st

from grader.checks.answers import Answer, MoveCodec, ShapeError, format_value
from grader.checks.causes.defects import Defect, DrawObservation
from grader.checks.line_game import TIC_TAC_TOE
from grader.execution.channel.kernel.predicate_truths import PredicateTruth
from reference import LineGame, Position

__all__ = ["Boards", "Cases", "Expectation", "Read", "Reading"]

Boards = Sequence[Position]
Cases = list[tuple[Position, Any]]
"""Positions with what goes with each (`Expectation.extras`)."""


@dataclass(frozen=True)
class Reading:
    """How one check reads and shows answers: the student's marks for X and O, what an empty
    cell holds, the outcome codes the assignment gives, its move codec, whether order counts."""

    marks: Mapping[str, Any]
    empty: Any
    codes: Mapping[str, Any] = field(default_factory=dict)
    moves: MoveCodec = field(default_factory=lambda: MoveCodec("index"))
    ordered: bool = False


@dataclass(frozen=True)
class Read:
    """One answer, the board and player it was asked about, and the answer as the check reads
    it (``None`` when it did not read)."""

    board: Position
    player: str | None
    answer: Answer
    read: Any
    readable: bool = True


class Expectation:
    """One value of a predicate check's ``expect``; the defaults suit a True/False test."""

    name: ClassVar[str]
    truth: ClassVar[PredicateTruth]
    none_ok: ClassVar[bool] = False
    """"No winner" is an answer: None is no sign of a stub."""
    near_full_cases: ClassVar[bool] = False
    """A test that skips a cell answers one of the nearly full boards wrong: try them first."""
    asks_player: ClassVar[bool] = False
    """Each board goes with the player asked about (`player`)."""
    stands_in: ClassVar[bool] = True
    """The reference's version can stand in for the function in the checks built on it."""
    scores_for_maximizer: ClassVar[bool] = False
    """Its answers depend on who maximizes."""
    takes_codes: ClassVar[bool] = False
    """The student spells the outcomes its own way (``codes``)."""
    title: ClassVar[str] = ""
    """What ``grader init`` says the function does, after its name."""
    true_on: ClassVar[str | None] = None
    """The boards a True/False function is True on, when ``grader init`` reads it from answers alone."""
    draft_role: ClassVar[str] = ""
    """The role of a function ``grader init`` reads as this expectation."""
    draft_boards: ClassVar[Literal["reachable", "arbitrary", "unfinished"]] = "reachable"
    """Boards ``grader init`` asks about: arbitrary ones reach the full and nearly full
    boards a draw test must get right."""
    draft_examples: ClassVar[bool] = False
    """``grader init`` asks about more boards than a property's default (a missed cell shows on few)."""
    player_is_first: ClassVar[bool] = False
    """The truth's ``player`` is the side that began the game (the assignment's ``first_player``),
    not a player the call is given."""

    def expected(
        self,
        board: Position,
        player: str | None,
        position: int | None,
        maximizer: str,
        game: LineGame[Position] = TIC_TAC_TOE,
    ) -> Any:
        return self.truth.truth(game.cells(board), player, position, maximizer)

    def extras(self) -> st.SearchStrategy[Any]:
        """What goes with each board: nothing, unless a player or a move is asked about."""
        return st.none()

    def player(self, extra: Any) -> str | None:
        return None

    def position(self, extra: Any) -> int | None:
        return None

    def first_cases(self, game: LineGame[Position], lines: Boards, drawn: Boards, near_full: Boards) -> Cases:
        """Every line complete for each player and every drawn board (the nearly full ones
        too when `near_full_cases`), before any generated board: together they show each kind
        of answer."""
        boards = list(dict.fromkeys([*lines, *drawn, *(near_full if self.near_full_cases else ())]))
        return [(b, None) for b in boards]

    def read(self, raw: Any, reading: Reading) -> Any:
        if not isinstance(raw, (bool, int)) and raw is not None:
            raise ShapeError(f"expected True or False, got {type(raw).__name__} {raw!r}")
        return bool(raw)

    def show(self, value: Any, reading: Reading) -> str:
        return format_value(value)

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        """The kinds of answer a case shows (a win on each line for each player, a draw...)."""
        raise NotImplementedError

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        """The likely cause of one wrong answer, read from that answer alone."""
        return None

    def defect(self, game: LineGame[Position], function: str, seen: Sequence[Read]) -> Defect | None:
        """The defect every answer shows, as a search built on the function would use it."""
        return None

    def root_observations(self, game: LineGame[Position], seen: Sequence[Read]) -> list[DrawObservation] | None:
        """The answers as evidence of a lower-level function's defect; None: not asked."""
        return None

    def convention(
        self, game: LineGame[Position], function: str, seen: Sequence[Read], marks: Mapping[str, Any]
    ) -> str | None:
        """Another convention every answer follows (the winning mark for True/False)."""
        return None
