"""The positions the checks of a game other than tic-tac-toe ask about, and how they are shown.

A case is a game played from the initial position (`GameCase`: its moves), so that it is a
real position, its last move is known (a drawing marks it) and a failure orders by the
length of the game that shows it. The first cases are the game's finished games of every
outcome (`reference.connect_endings`); the rest are random and heuristic playouts of varied
length (`reference.game_strategies`). `GameView` is what every such check needs of the
assignment's game: the board in the student's encoding, the placeholders of a call, a drawing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hypothesis import strategies as st

from grader.checks.context import CheckContext
from grader.checks.properties import Mismatch
from grader.execution.channel.call_data import KernelMade, RemoteObject
from grader.results import Counterexample
from grader.spec.game import GameSetup
from reference.connect4 import ConnectK, ConnectState
from reference.connect_endings import DIRECTIONS, finished_games, play
from reference.connect_heuristics import OpenWindows
from reference.drawing import Drawing
from reference.game_strategies import played_games
from reference.tictactoe import O, X, opponent

__all__ = ["GameCase", "GameView", "case_counterexample", "game_view", "line_direction"]


@dataclass(frozen=True)
class GameCase:
    """A position, as the game that reaches it: its moves (columns) from the initial position."""

    game: ConnectK
    moves: tuple[int, ...]
    label: str = ""
    """What a first case shows (``"X wins across"``); empty for a drawn one."""

    @cached_property
    def state(self) -> ConnectState:
        return play(self.game, self.moves)

    @property
    def last(self) -> int | None:
        return self.moves[-1] if self.moves else None

    def size(self) -> tuple[int, tuple[int, ...]]:
        """Failures order by the length of the game, then its moves."""
        return len(self.moves), self.moves

    def drawing(self) -> Drawing:
        return self.game.drawing(self.state, self.last)

    def described(self) -> str:
        """``after 7 moves (columns 3 3 4 ...)``: how feedback names the position."""
        if not self.moves:
            return "the empty board"
        plies = f"{len(self.moves)} move{'s' if len(self.moves) > 1 else ''}"
        return (
            f"the position after {plies} (column{'s' if len(self.moves) > 1 else ''} {' '.join(map(str, self.moves))})"
        )

    def __hash__(self) -> int:
        return hash(self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameCase) and other.moves == self.moves and other.game == self.game


@dataclass(frozen=True)
class GameView:
    """The assignment's game as the checks of one submission use it."""

    setup: GameSetup

    @property
    def game(self) -> ConnectK:
        return self.setup.game

    def encode(self, state: ConnectState) -> Any:
        return self.setup.encoding.encode(state)

    def mark(self, player: str) -> Any:
        return self.setup.encoding.symbol(player)

    def player_of(self, raw: Any) -> str | None:
        """X or O for a mark the student's code wrote; None for anything else."""
        for player in (X, O):
            mark = self.mark(player)
            if type(raw) is type(mark) and raw == mark or (isinstance(mark, int) and _whole(raw) == mark):
                return player
        return None

    def placeholders(self, state: ConnectState, **extra: Any) -> dict[str, Any]:
        """The values of a call's placeholders on ``state``: the board (the course's board
        object made from it, with a ``[game] board_object``), the side to move and the other
        side (``player``: the side to move unless given; ``is_max``: whether ``player`` is the
        side to move, as a course asks "is the current player the maximizer"), and ``extra``."""
        mover = self.game.to_move(state)
        values = {
            "board": self.encode(state),
            "to_move": self.mark(mover),
            "opponent": self.mark(opponent(mover)),
            "player": self.mark(mover),
        }
        values.update(extra)
        values.setdefault("is_max", values["player"] == values["to_move"])
        made = self.setup.board_object
        if made is not None:
            values["board"] = self._made(values)
        return values

    def _made(self, values: dict[str, Any]) -> KernelMade:
        """The course's board object for one position: made from the board, or made and then
        given the board (and the side to move) in its attributes."""
        setup = self.setup
        assert setup.board_object is not None
        made = setup.board_object.fill(values)
        if not setup.board_written:
            return made
        written = [(setup.board_attribute, values["board"])]
        if setup.turn_attribute:
            written.append((setup.turn_attribute, values["to_move"]))
        return dataclasses.replace(made, attributes=tuple(written))

    def held_turn(self, raw: Any) -> str | None:
        """X or O as the course's board object ``raw`` says is to move (``[game]
        turn_attribute``); None without one, or for anything else."""
        attribute = self.setup.turn_attribute
        if not attribute or not isinstance(raw, RemoteObject):
            return None
        return self.player_of(getattr(raw, attribute, None))

    def left_changed(self, answer: Any) -> Mismatch | None:
        """A call that left the course's board object otherwise than it was made (its board, the
        side to move), where the object holds the game: a move made and not taken back."""
        if not self.setup.board_written or not answer.ok or not answer.outcome.mutated:
            return None
        return Mismatch(
            answer.call_text,
            "the board object left as it was given",
            f"{answer.given()}, and the object changed",
            "the call changed the board object it was given: a move that is made must be undone afterwards",
        )

    def held_board(self, raw: Any) -> Any:
        """The board in the assignment's encoding inside ``raw``: the attribute of the course's
        board object that holds it (``[game] board_attribute``), or ``raw`` itself."""
        attribute = self.setup.board_attribute
        if attribute and isinstance(raw, RemoteObject):
            return getattr(raw, attribute, None)
        return raw

    def landing_row(self, state: ConnectState, col: int) -> int:
        """The row, as the board's rows are indexed in the student's encoding, a piece dropped
        into ``col`` lands in."""
        return self.setup.encoding.landing_row(state.height(col))

    # -- the cases -----------------------------------------------------------------------------

    def first_cases(self, *, finished: bool = True) -> list[GameCase]:
        """The empty board, then (with ``finished``) a finished game of every outcome."""
        cases = [GameCase(self.game, ())]
        if finished:
            cases += [GameCase(self.game, ending.moves, ending.label) for ending in finished_games(self.game)]
        return cases

    def strategy(
        self, *, min_plies: int = 0, max_plies: int | None = None, finished: bool = True, guided: bool = True
    ) -> st.SearchStrategy[GameCase]:
        """Random playouts (which shrink to the shortest game) and, with ``guided``, playouts
        that follow a heuristic (which reach the positions good play reaches)."""
        most = self.game.rows * self.game.cols if max_plies is None else max_plies
        games = played_games(self.game, min_plies=min_plies, max_plies=most, include_terminal=finished)
        if guided:
            guide = OpenWindows(self.game)
            games = st.one_of(
                games,
                played_games(self.game, min_plies=min_plies, max_plies=most, include_terminal=finished, guide=guide),
            )
        return games.map(lambda moves: GameCase(self.game, tuple(moves)))


def game_view(ctx: CheckContext) -> GameView:
    """The game of the context's assignment; a kind that asks the game runs on no other."""
    setup = ctx.assignment.game
    if setup is None:
        raise ValueError("this check kind needs a [game] table: tic-tac-toe has kinds of its own")
    return GameView(setup)


def case_counterexample(case: GameCase, mismatch: Mismatch) -> Counterexample:
    """The failing case as a counterexample: the position's text and its drawing."""
    return Counterexample(
        board=str(case.state),
        call=mismatch.call,
        expected=mismatch.expected,
        actual=mismatch.actual,
        drawing=case.drawing(),
    )


def line_direction(game: ConnectK, state: ConnectState) -> tuple[str, bool] | None:
    """The direction of a completed line, and whether it touches the board's right or top
    edge (where an off-by-one in a loop's range misses it); None without one."""
    for line in game.lines:
        marks = {state.cells[i] for i in line}
        if len(marks) == 1 and marks != {"."}:
            (r0, c0), (r1, c1) = divmod(line[0], game.cols), divmod(line[1], game.cols)
            name = next(n for n, step in DIRECTIONS.items() if step == (r1 - r0, c1 - c0))
            at_edge = any(i % game.cols in (0, game.cols - 1) or i // game.cols == 0 for i in line)
            return name, at_edge
    return None


def _whole(value: Any) -> Any:
    """An integral float as an int (numpy's ``0.0``); anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
