"""What a predicate check expects of a board function, one class per expectation.

An assignment's predicate check names its expectation (``expect = "wins"``). Everything that
differs between expectations lives on that expectation's class: its truth (stdlib-only, in
`grader.execution.channel.kernel.predicate_truths`, so the kernel's stand-in answers by the same one),
how an answer is read and shown, the extra input each board goes with (the player asked
about, the move tried), the cases tried first, the kinds of answer the check must see before
it passes, the local cause of one wrong answer, the defect every answer shows, the convention
a student may have followed instead, whether the reference can stand in for the function,
and how ``grader init`` writes a check of it. Adding an expectation ("has someone won") is
one new class in `EXPECTATIONS`.

The base class is `grader.checks.expectation`; the expectations of moves and turns (legal
moves, a valid move, the side to move) are `grader.checks.move_expectations`; this module
holds those of a game's outcome (wins, winner, score, full, draw, finished) and the registry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from grader.checks.answers import ShapeError
from grader.checks.causes.conventions import PredicateObservation, explain_win_convention, explain_winner_convention
from grader.checks.causes.defects import (
    Defect,
    DrawObservation,
    WinObservation,
    draw_test_defect,
    win_test_defect,
)
from grader.checks.expectation import Boards, Cases, Expectation, Read, Reading
from grader.checks.move_expectations import LegalMoves, ToMove, ValidMove
from grader.execution.channel.kernel.predicate_truths import PREDICATE_TRUTHS
from reference import EMPTY, LineGame, O, Position, X

__all__ = ["EXPECTATIONS", "Expectation", "Read", "Reading", "line_kinds", "line_name", "lines_of"]

Line = tuple[int, ...]
_LINE_KIND = "wins for {player} on {line}"
_SCORE_KINDS = {1: "wins for the maximizer", -1: "losses for the maximizer"}


def line_kinds(game: LineGame[Position]) -> frozenset[str]:
    """Every "win on this line for this player" kind of answer (`Expectation.answer_kinds`)."""
    return frozenset(_LINE_KIND.format(player=p, line=game.line_name(line)) for p in (X, O) for line in game.lines)


def line_name(game: LineGame[Position], line: Line) -> str:
    """A line as a local cause names it: a diagonal with its cells, as "main" and "anti" are
    not every student's words."""
    name = game.line_name(line)
    return f"{name} (cells {', '.join(map(str, line))})" if "diagonal" in name else name


def lines_of(game: LineGame[Position], board: Position, player: str) -> list[Line]:
    cells = game.cells(board)
    return [line for line in game.lines if all(cells[i] == player for i in line)]


def _line_kinds(game: LineGame[Position], board: Position, players: Iterable[str]) -> list[str]:
    return [
        _LINE_KIND.format(player=p, line=game.line_name(line))
        for p in sorted(players)
        for line in lines_of(game, board, p)
    ]


class Wins(Expectation):
    name = "wins"
    truth = PREDICATE_TRUTHS["wins"]
    asks_player = True
    title = "finds a line for the given player"
    draft_role = "win-test"
    draft_boards = "arbitrary"

    def extras(self) -> st.SearchStrategy[Any]:
        return st.sampled_from([X, O])

    def player(self, extra: Any) -> str | None:
        return extra

    def first_cases(self, game: LineGame[Position], lines: Boards, drawn: Boards, near_full: Boards) -> Cases:
        return [(b, p) for b, _ in super().first_cases(game, lines, drawn, near_full) for p in (X, O)]

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        if extra in game.winners(board):
            return _line_kinds(game, board, [extra])
        return ["positions without a win for the player asked"]

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        if expected and not actual and player:
            return f"`{function}` misses a win on {line_name(game, lines_of(game, board, player)[0])}."
        if actual and not expected and player:
            if lines_of(game, board, O if player == X else X):
                return f"It reports a win for {player} when it is the other player who has a line."
            return f"It reports a win for {player}, who has no complete line."
        return None

    def defect(self, game: LineGame[Position], function: str, seen: Sequence[Read]) -> Defect | None:
        asked = [WinObservation(r.board, r.player, bool(r.read), game) for r in seen if r.player is not None]
        return win_test_defect(function, asked)

    def convention(
        self, game: LineGame[Position], function: str, seen: Sequence[Read], marks: Mapping[str, Any]
    ) -> str | None:
        return explain_win_convention(function, _observed(game, seen), marks=marks)


class Winner(Expectation):
    """The winner's mark, or a "no winner" answer."""

    name = "winner"
    truth = PREDICATE_TRUTHS["winner"]
    none_ok = True
    takes_codes = True
    title = "names the winner"
    draft_role = "win-test"

    def _codes(self, reading: Reading) -> dict[str, Any]:
        return {X: reading.marks[X], O: reading.marks[O]}

    def read(self, raw: Any, reading: Reading) -> Any:
        codes = self._codes(reading)
        codes.update(reading.codes)
        for outcome, code in codes.items():
            if raw == code and type(raw) is type(code):
                return None if outcome == "ongoing" else outcome
        if "ongoing" not in reading.codes and (raw in (None, False, "", " ") or _is_empty_symbol(reading, raw)):
            return None
        spelled = ", ".join(f"{k} as {v!r}" for k, v in codes.items())
        raise ShapeError(f"returned {raw!r}, which is none of the expected answers ({spelled})")

    def show(self, value: Any, reading: Reading) -> str:
        codes = {**reading.marks, "tie": "tie", **reading.codes}
        if value is None:
            return repr(codes["ongoing"]) if "ongoing" in codes else "None"
        return repr(codes.get(value, value))

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        winners = game.winners(board)
        return _line_kinds(game, board, winners) if winners else ["positions without a winner"]

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        if expected in (X, O) and actual != expected:
            return f"The winning line missed is {line_name(game, lines_of(game, board, expected)[0])}."
        return None

    def defect(self, game: LineGame[Position], function: str, seen: Sequence[Read]) -> Defect | None:
        # A winner function answers for both players (reachable boards hold one winner at most).
        return win_test_defect(function, [WinObservation(r.board, p, r.read == p, game) for r in seen for p in (X, O)])

    def convention(
        self, game: LineGame[Position], function: str, seen: Sequence[Read], marks: Mapping[str, Any]
    ) -> str | None:
        return explain_winner_convention(function, _observed(game, seen), marks=marks)


class Outcome(Winner):
    """The winner's mark, a tie's code, or a "game goes on" answer."""

    name = "outcome"
    truth = PREDICATE_TRUTHS["outcome"]
    title = "names the outcome"
    draft_role = "terminal-test"

    def _codes(self, reading: Reading) -> dict[str, Any]:
        return {**super()._codes(reading), "tie": "tie"}

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        if not game.winners(board) and _full(game, board):
            return ["draws"]
        return super().answer_kinds(game, board, extra, maximizer)


class Score(Expectation):
    """A static evaluation: +1, -1 or 0 for the maximizer."""

    name = "score"
    truth = PREDICATE_TRUTHS["score"]
    scores_for_maximizer = True
    title = "scores a finished game"
    draft_role = "evaluate"

    def read(self, raw: Any, reading: Reading) -> Any:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise ShapeError(f"expected a number, got {type(raw).__name__} {raw!r}")
        return raw

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        value = self.expected(board, None, None, maximizer, game)
        return [_SCORE_KINDS.get(value, "positions without one winner")]


class Full(Expectation):
    name = "full"
    truth = PREDICATE_TRUTHS["full"]
    near_full_cases = True
    title = "tells a full board"
    true_on = "full boards"
    draft_role = "draw-test"
    draft_boards = "arbitrary"
    draft_examples = True

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        return ["full boards" if _full(game, board) else "boards with empty cells"]


class Draw(Expectation):
    name = "draw"
    truth = PREDICATE_TRUTHS["draw"]
    near_full_cases = True
    title = "tells a draw"
    true_on = "full boards with no line"
    draft_role = "draw-test"
    draft_boards = "arbitrary"
    draft_examples = True

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        if not _full(game, board):
            return ["boards with empty cells"]
        return ["full boards with a line"] if game.winners(board) else ["draws"]

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        if actual and game.winners(board):
            return "A full board with a winning line is counted as a draw: check for a win first."
        if actual and not _full(game, board):
            return "It reports a draw while cells are still empty."
        if expected and not actual:
            return "It does not report a draw on a full board with no line."
        return None

    def defect(self, game: LineGame[Position], function: str, seen: Sequence[Read]) -> Defect | None:
        return draw_test_defect(function, [DrawObservation(r.board, bool(r.read), game) for r in seen])

    def root_observations(self, game: LineGame[Position], seen: Sequence[Read]) -> list[DrawObservation] | None:
        # A draw test is wrong where the win test it calls is: that defect is the cause.
        return [DrawObservation(r.board, bool(r.read), game) for r in seen]


class Terminal(Expectation):
    name = "terminal"
    truth = PREDICATE_TRUTHS["terminal"]
    near_full_cases = True
    title = "tells a finished game"
    true_on = "won or full boards"
    draft_role = "terminal-test"
    draft_boards = "arbitrary"
    draft_examples = True

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        won, full = game.winners(board), _full(game, board)
        return ["won positions" if won else "draws" if full else "unfinished positions"]


def _observed(game: LineGame[Position], seen: Sequence[Read]) -> list[PredicateObservation]:
    return [PredicateObservation(r.board, r.answer.value, r.player, game) for r in seen]


def _full(game: LineGame[Position], board: Position) -> bool:
    return EMPTY not in game.cells(board)


def _is_empty_symbol(reading: Reading, raw: Any) -> bool:
    """``raw`` is what an empty cell holds (a winner function that returns a line's cell)."""
    empty = reading.empty
    return isinstance(empty, (str, int)) and raw == empty and type(raw) is type(empty)


EXPECTATIONS: Mapping[str, Expectation] = {
    expectation.name: expectation
    for expectation in (
        Wins(),
        Winner(),
        Outcome(),
        Score(),
        Full(),
        Draw(),
        Terminal(),
        LegalMoves(),
        ValidMove(),
        ToMove(),
    )
}
"""Every expectation by its name in an assignment."""
