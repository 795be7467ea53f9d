"""Asking the solution's functions about positions, under one candidate encoding.

The positions are fixed (seeded) and chosen to tell conventions apart: wins on every line
for both players, full boards with and without a winner, games in progress with wins at
different depths ahead, for each side to move. The answers come back as raw values; what
they mean is for the inference modules to decide.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.authoring.signatures import Signature
from grader.checks.call_budget import CallWindow
from grader.checks.context import NOT_READ, CallRunner, CheckContext, NotDefined
from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.spec.board import BoardLocation
from grader.spec.call_template import parse_call
from grader.spec.model import Assignment, Maximizer, MoveFormat, Scoring, Side
from reference import LINES, TIC_TAC_TOE, BoardGame, O, Position, TicTacToe, X, reachable_positions, solve_all
from reference.codecs import BoardEncoding

CELLS = 9
"""Tic-tac-toe's cells: init probes a solution on its boards (`swap_marks` for a game O begins)."""

PROBE_SEED = 2024
SCREEN_CALL_TIMEOUT = 0.5
"""A board test answers about one board in microseconds: a function that takes this long on
a screening board is a search or a game, whatever the encoding."""
BATCH_SECONDS = 10.0
"""How long one batch of probe calls may keep starting calls."""


@dataclass(frozen=True)
class Conventions:
    """The assignment-level fields a probe or a check depends on."""

    encoding: BoardEncoding
    location: BoardLocation = BoardLocation()
    maximizer: Maximizer = "O"
    first_player: Side = "X"
    scoring: Scoring = "unit"
    move_format: MoveFormat = "index"

    @property
    def game(self) -> BoardGame[Position, int]:
        """The game the probes play: tic-tac-toe, begun by ``first_player``."""
        return TicTacToe(self.first_player)


def draft_assignment(conventions: Conventions, call_timeout: float, directory: Path = Path(".")) -> Assignment:
    """An assignment with no checks, for encoding boards and reading moves the way a spec
    with these conventions would."""
    return Assignment(
        id="draft",
        title="draft",
        directory=directory,
        encoding=conventions.encoding,
        board=conventions.location,
        maximizer=conventions.maximizer,
        first_player=conventions.first_player,
        scoring=conventions.scoring,
        move_format=conventions.move_format,
        stdin=(),
        cell_timeout=call_timeout,
        notebook_timeout=call_timeout,
        call_timeout=call_timeout,
        aliases={},
        checks=(),
    )


def swap_marks(board: Position) -> Position:
    """The same position with X and O exchanged: as a game the other side began sees it."""
    return TIC_TAC_TOE.with_cells(tuple({X: O, O: X}.get(c, c) for c in TIC_TAC_TOE.cells(board)))


def _full(board: Position) -> bool:
    return TIC_TAC_TOE.pieces(board) == CELLS


def _empty(board: Position) -> int:
    return CELLS - TIC_TAC_TOE.pieces(board)


@functools.lru_cache(maxsize=1)
def predicate_positions() -> tuple[Position, ...]:
    """Boards for the win, draw and moves tests: each line won by each player, full boards
    with and without a winner, games in progress. No board has more than five empty cells,
    so that a search function probed here answers quickly."""
    rng = random.Random(PROBE_SEED)
    pool = sorted(reachable_positions(X), key=str)
    chosen: dict[str, Position] = {}
    for player in (X, O):
        for line in LINES:
            won = [
                b
                for b in pool
                if TIC_TAC_TOE.winners(b) == {player} and all(TIC_TAC_TOE.cells(b)[i] == player for i in line)
            ]
            if won:
                board = rng.choice(won)
                chosen[str(board)] = board
    full = [b for b in pool if _full(b)]
    no_line = [b for b in full if not TIC_TAC_TOE.winners(b)]
    for board in rng.sample(no_line, 4) + rng.sample([b for b in full if TIC_TAC_TOE.winners(b)], 3):
        chosen[str(board)] = board
    ongoing = [b for b in pool if not TIC_TAC_TOE.is_terminal(b) and 1 <= _empty(b) <= 5]
    for board in rng.sample(ongoing, 10):
        chosen[str(board)] = board
    return tuple(chosen.values())


@functools.lru_cache(maxsize=1)
def screening_positions() -> tuple[Position, ...]:
    """A few of `predicate_positions` on which every board test already shows what it is:
    a line won by each player (board not full), full boards with and without a line, and
    games in progress. Whatever reads as no board test on these (no reading fits, an
    error, an answer no board test gives) reads as none on all of them."""
    boards = predicate_positions()

    def first(count: int, keep: Callable[[Position], bool]) -> list[Position]:
        return [b for b in boards if keep(b)][:count]

    return tuple(
        first(2, lambda b: TIC_TAC_TOE.winners(b) == {X} and not _full(b))
        + first(2, lambda b: TIC_TAC_TOE.winners(b) == {O} and not _full(b))
        + first(2, lambda b: _full(b) and not TIC_TAC_TOE.winners(b))
        + first(1, lambda b: _full(b) and bool(TIC_TAC_TOE.winners(b)))
        + first(3, lambda b: not TIC_TAC_TOE.is_terminal(b))
    )


@functools.lru_cache(maxsize=4)
def search_positions(first_player: str, per_side: int = 8) -> tuple[Position, ...]:
    """Games in progress (2 to 5 empty cells) that ``first_player`` began, ``per_side`` for
    each side to move, half of them with a win or a loss still ahead, so that scores tell
    conventions apart."""
    rng = random.Random(PROBE_SEED)
    table = solve_all()
    pool = sorted((b for b in table if not TIC_TAC_TOE.is_terminal(b) and 2 <= _empty(b) <= 5), key=str)
    boards: list[Position] = []
    for side in (X, O):
        mine = [b for b in pool if TIC_TAC_TOE.to_move(b) == side]
        decided = [b for b in mine if table[b].value != 0]
        drawn = [b for b in mine if table[b].value == 0]
        boards += rng.sample(decided, per_side - per_side // 2) + rng.sample(drawn, per_side // 2)
    return tuple(boards if first_player == X else [swap_marks(b) for b in boards])


@dataclass(frozen=True)
class ProbeHang:
    """A probe call that never came back: it ran out of time, or it crashed the kernel."""

    function: str
    board: Position
    timed_out: bool
    seconds: float

    def __str__(self) -> str:
        if self.timed_out:
            return f"`{self.function}` did not return within {self.seconds:g} s on {self.board}"
        return f"`{self.function}` crashed the kernel on {self.board}"


class Prober:
    """Calls the solution's functions with boards encoded one candidate way."""

    def __init__(self, runner: CallRunner, defined: frozenset[str], call_timeout: float) -> None:
        self.runner = runner
        self.defined = defined
        self.call_timeout = call_timeout
        self.hung: dict[tuple[str, BoardEncoding, BoardLocation], ProbeHang] = {}
        """(function, encoding, location) -> what ran out of time: not called so again."""

    def hangs_under(self, conventions: Conventions) -> list[ProbeHang]:
        """What ran out of time with the board written the chosen way."""
        chosen = (conventions.encoding, conventions.location)
        return [what for (_, encoding, location), what in self.hung.items() if (encoding, location) == chosen]

    def context(self, conventions: Conventions) -> CheckContext:
        """A context whose calls start within ``BATCH_SECONDS``: a function searching far
        more than a probe needs (a board read the wrong way looks empty) is cut short."""
        ctx = CheckContext.of(draft_assignment(conventions, self.call_timeout), self.runner, self.defined)
        return ctx.within(
            CallWindow.share(BATCH_SECONDS, "the probe's time was spent", wall_reason="the probe's time was spent")
        )

    def board_after(self, signature: Signature, conventions: Conventions, outcome: CallOutcome) -> Any:
        """The board as a call of ``signature`` asked with ``read_board`` left it (raw), or
        `NOT_READ`."""
        ctx = self.context(conventions)
        try:
            student = ctx.student(parse_call(signature.call_text()), read_board=True)
        except NotDefined:
            return NOT_READ
        return student.board_after(outcome)

    def ask(
        self,
        signature: Signature,
        conventions: Conventions,
        cases: Sequence[Mapping[str, Any]],
        *,
        reset: Mapping[str, Any] | None = None,
        call_timeout: float | None = None,
        read_board: bool = False,
    ) -> list[CallOutcome]:
        """One call per case; a case gives the board (canonical) and the other slots' values.
        ``reset``: globals set before each call and read back after it. ``call_timeout``: a
        shorter limit for a screening ask; running out of it is an answer (no board test
        is that slow), not a hang to remember. ``read_board``: the board is read back after
        each call (`board_after`)."""
        ctx = self.context(conventions)
        try:
            student = ctx.student(
                parse_call(signature.call_text()),
                timeout=call_timeout or self.call_timeout,
                reset=reset,
                read_globals=tuple(reset or ()),
                read_board=read_board,
            )
        except NotDefined:
            return [CallOutcome(CallStatus.MISSING, error="not defined")] * len(cases)
        name = signature.function.name
        key = (name, conventions.encoding, conventions.location)
        if key in self.hung:
            return [CallOutcome(CallStatus.SKIPPED, error=str(self.hung[key]))] * len(cases)
        requests = []
        for n, case in enumerate(cases):
            board: Position = case["board"]
            values = {
                "board": ctx.encode_board(board),
                "player": ctx.encode_player(case.get("player", X)),
                **{k: v for k, v in case.items() if k not in ("board", "player")},
            }
            if signature.has("to_move"):
                values["to_move"] = ctx.encode_player(ctx.game.to_move(board))
            requests.append((n, values))
        outcomes = [answer.outcome for answer in student.ask_many(requests, partial=True)]
        if call_timeout is not None:
            return outcomes
        for case, outcome in zip(cases, outcomes):
            if outcome.status in (CallStatus.TIMEOUT, CallStatus.KILLED):
                self.hung[key] = ProbeHang(name, case["board"], outcome.status is CallStatus.TIMEOUT, self.call_timeout)
                break
        return outcomes
