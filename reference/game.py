"""The game abstraction (aima-style) and what a drawing of a position says.

:class:`Game` is what every search needs: the rules. :class:`BoardGame` adds what feedback
needs to show a position: a text drawing and a :class:`~reference.drawing.Drawing`.
Tic-tac-toe and Connect-K are board games; a toy game in a test need only be a game.
:class:`LineGame` adds its cells and the lines that win it, for the checks that read a board
cell by cell. The searches over any game live in ``reference.game_search``. The grader holds positions as
:class:`~reference.position.Position` and asks the assignment's game about them: both games
take any position and refuse, with :class:`~reference.errors.MalformedBoard`, one that is not
their own.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from reference.drawing import Drawing, Square
from reference.game_search import GameSearchResult, game_minimax
from reference.position import Position, WrittenPosition

__all__ = [
    "BoardGame",
    "Drawing",
    "Game",
    "GameSearchResult",
    "LineGame",
    "Position",
    "Square",
    "WrittenPosition",
    "game_minimax",
    "winner",
]

State = TypeVar("State", bound=Hashable)
Action = TypeVar("Action")


class Game(Protocol[State, Action]):
    """A two-player, turn-based, zero-sum game with immutable states.

    Players are named by strings (``"X"``/``"O"``) and take turns. ``result`` raises
    :class:`~reference.errors.IllegalMove` rather than returning garbage, and ``actions``
    (in the game's natural order) is empty exactly when the state is terminal.
    """

    def initial_state(self) -> State: ...

    def to_move(self, state: State) -> str: ...

    def actions(self, state: State) -> Sequence[Action]: ...

    def result(self, state: State, action: Action) -> State: ...

    def is_terminal(self, state: State) -> bool: ...

    def utility(self, state: State, player: str) -> float: ...


class BoardGame(Game[State, Action], Protocol):
    """A game whose positions can be shown: as text, and as a :class:`Drawing`."""

    def text(self, state: State) -> str:
        """A drawing in plain text, top row first."""
        ...

    def drawing(self, state: State, last: Action | None = None) -> Drawing:
        """The position as squares; ``last`` (the move that led here) is marked when given."""
        ...

    def pieces(self, state: State) -> int:
        """How many pieces are on the board: the size of a position, by which the smallest
        counterexample is chosen and which feedback gives."""
        ...


@runtime_checkable
class LineGame(BoardGame[State, int], Protocol):
    """A board game of marks in cells, won by a line of them (tic-tac-toe, Connect-K): what
    the checks that read a board cell by cell ask it. Cells are numbered row-major, top row
    first, and hold ``X``, ``O`` or ``EMPTY`` (``reference.tictactoe``)."""

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every winning line, as the cells in it."""
        ...

    def line_groups(self) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
        """The lines feedback names together (``"the rows"``), each group with its name."""
        ...

    def line_name(self, line: tuple[int, ...]) -> str:
        """One of ``lines`` as feedback names it (``"the top row"``); ``ValueError`` for another."""
        ...

    def cells(self, state: State) -> tuple[str, ...]:
        """The marks of ``state``, row-major."""
        ...

    def winners(self, state: State) -> frozenset[str]:
        """Every player with a complete line; two players only on impossible boards."""
        ...

    def position(self, text: str) -> State:
        """The position ``str`` wrote; :class:`~reference.errors.MalformedBoard` when it is none."""
        ...

    def spec_words(self) -> tuple[str, str]:
        """How a spec names a position of the game, and the example a message about a value that
        is no text gives (as :meth:`~reference.position.WrittenPosition.spec_words`)."""
        ...

    def with_cells(self, cells: Sequence[str]) -> State:
        """The position of these marks, whether or not a game reaches it."""
        ...


def winner(game: Game[State, Action], state: State) -> str | None:
    """Who won the finished game ``state`` (``X`` or ``O``); None for a draw."""
    value = game.utility(state, "X")
    return "X" if value > 0 else "O" if value < 0 else None
