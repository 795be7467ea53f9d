"""Board predicates (win, winner, draw, full, terminal, legal moves, valid move) against the
reference, by hypothesis over reachable or arbitrary boards."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hypothesis import strategies as st

from grader.checks.answers import Answer, MoveCodec, ShapeError, format_value
from grader.checks.causes.predicates import predicate_cause
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.kind import CheckKind
from grader.checks.positions import positions
from grader.checks.properties import Mismatch
from grader.checks.recipe import Coverage, PropertyCheck, list_kinds, run_property
from grader.checks.verdicts import result_from_property, shape_of
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, MoveFormat
from reference import EMPTY, LINE_NAMES, LINES, Board, O, X, cell_to_rowcol, reachable_positions
from reference.strategies import arbitrary_boards

# The diagonals with their cells: "main" and "anti" are not every student's words.
_LINE_WORDS = {
    **LINE_NAMES,
    (0, 4, 8): LINE_NAMES[(0, 4, 8)] + " (cells 0, 4, 8)",
    (2, 4, 6): LINE_NAMES[(2, 4, 6)] + " (cells 2, 4, 6)",
}

Expectation = Literal["wins", "winner", "outcome", "score", "draw", "full", "terminal", "legal-moves", "valid-move"]


@dataclass(frozen=True)
class Params:
    call: CallTemplate
    expect: Expectation = "wins"
    boards: Literal["reachable", "arbitrary"] = "reachable"
    codes: dict = field(default_factory=dict)
    """How the student spells outcomes, e.g. { X = 1, O = 2, tie = -1, ongoing = 0 }."""
    globals: dict = field(default_factory=dict)
    """Student globals to set from placeholders before each call, e.g. { current_state = "board" }."""
    ordered: bool = False
    move: MoveFormat | None = None
    examples: Count | None = None

    def __post_init__(self) -> None:
        unknown = set(self.codes) - {"X", "O", "tie", "ongoing"}
        if unknown:
            raise ValueError(f"codes: unknown outcome(s) {sorted(unknown)}; use X, O, tie, ongoing")


_DRAWN = "XOXXOOOXX"
"""A full board with no line (X moved first)."""


def near_full_boards(reachable: bool, first: str) -> list[Board]:
    """A drawn board and the same board with each cell emptied in turn: a full, draw or
    finished-game test that skips a cell answers one of them wrong. With ``reachable``, only
    the positions a game ``first`` began can reach."""
    drawn = _DRAWN if first == X else _DRAWN.translate(str.maketrans("XO", "OX"))
    boards = [Board.from_string(drawn)]
    boards += [Board.from_string(drawn[:i] + EMPTY + drawn[i + 1 :]) for i in range(9)]
    return [b for b in boards if not reachable or b.legality_problem(first) is None]


def line_name(line: tuple[int, int, int]) -> str:
    return _LINE_WORDS[line]


def lines_of(board: Board, player: str) -> list[tuple[int, int, int]]:
    return [line for line in LINES if all(board.cells[i] == player for i in line)]


def expected_answer(params: Params, board: Board, player: str | None, position: int | None, maximizer: str = O) -> Any:
    winners = board.winners()
    if params.expect == "wins":
        return player in winners
    if params.expect == "full":
        return board.is_full()
    if params.expect == "draw":
        return board.is_full() and not winners
    if params.expect == "terminal":
        return bool(winners) or board.is_full()
    if params.expect in ("winner", "outcome"):
        if winners:
            return next(iter(winners))
        if board.is_full() and params.expect == "outcome":
            return "tie"
        return None
    if params.expect == "score":
        return 0 if len(winners) != 1 else (1 if maximizer in winners else -1)
    if params.expect == "legal-moves":
        return sorted(board.empty_cells())
    if params.expect == "valid-move":
        assert position is not None
        return 1 <= position <= 9 and board.cells[position - 1] == EMPTY
    raise AssertionError(params.expect)


def read_answer(params: Params, ctx: CheckContext, moves: MoveCodec, raw: Any) -> Any:
    if params.expect in ("wins", "full", "draw", "terminal", "valid-move"):
        if not isinstance(raw, (bool, int)) and raw is not None:
            raise ShapeError(f"expected True or False, got {type(raw).__name__} {raw!r}")
        return bool(raw)
    if params.expect in ("winner", "outcome"):
        codes = {**_marks(ctx), **({"tie": "tie"} if params.expect == "outcome" else {})}
        codes.update(params.codes)
        for outcome, code in codes.items():
            if raw == code and type(raw) is type(code):
                return None if outcome == "ongoing" else outcome
        if "ongoing" not in params.codes and (raw in (None, False, "", " ") or _is_empty_symbol(ctx, raw)):
            return None
        spelled = ", ".join(f"{k} as {v!r}" for k, v in codes.items())
        raise ShapeError(f"returned {raw!r}, which is none of the expected answers ({spelled})")
    if params.expect == "score":
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise ShapeError(f"expected a number, got {type(raw).__name__} {raw!r}")
        return raw
    if params.expect == "legal-moves":
        if not isinstance(raw, (list, tuple, set, frozenset)):
            raise ShapeError(f"expected a list of moves, got {type(raw).__name__} {raw!r}")
        cells = [moves.decode(m) for m in raw]
        return cells if params.ordered and not isinstance(raw, (set, frozenset)) else sorted(cells)
    raise AssertionError(params.expect)


def _marks(ctx: CheckContext) -> dict[str, Any]:
    """The winners as the student's code writes them: the encoding's marks."""
    return {X: ctx.encode_player(X), O: ctx.encode_player(O)}


def _is_empty_symbol(ctx: CheckContext, raw: Any) -> bool:
    """``raw`` is what an empty cell holds (a winner function that returns a line's cell)."""
    empty = ctx.assignment.encoding.empty
    return isinstance(empty, (str, int)) and raw == empty and type(raw) is type(empty)


def likely_cause(params: Params, board: Board, player: str | None, expected: Any, actual: Any) -> str | None:
    if params.expect == "wins" and expected and not actual and player:
        return f"`{params.call.function}` misses a win on {line_name(lines_of(board, player)[0])}."
    if params.expect == "wins" and actual and not expected and player:
        if lines_of(board, O if player == X else X):
            return f"It reports a win for {player} when it is the other player who has a line."
        return f"It reports a win for {player}, who has no complete line."
    if params.expect in ("winner", "outcome") and expected in (X, O) and actual != expected:
        return f"The winning line missed is {line_name(lines_of(board, expected)[0])}."
    if params.expect == "draw" and actual and board.winners():
        return "A full board with a winning line is counted as a draw: check for a win first."
    if params.expect == "draw" and actual and not board.is_full():
        return "It reports a draw while cells are still empty."
    if params.expect == "draw" and expected and not actual:
        return "It does not report a draw on a full board with no line."
    if params.expect == "valid-move" and not expected and actual:
        return "It accepts a move on an occupied or out-of-range cell."
    if params.expect == "valid-move" and expected and not actual:
        return "It rejects a move on a free cell: check how the position maps to a row and a column."
    if params.expect == "legal-moves" and isinstance(actual, list) and sorted(actual) == sorted(expected):
        return "The moves are all there, but not in row-major order (row by row, left to right)."
    if params.expect == "legal-moves" and isinstance(actual, list) and set(actual) < set(expected):
        missing = sorted(set(expected) - set(actual))
        return "Free cells are missing from the list: " + ", ".join(str(cell_to_rowcol(c)) for c in missing) + "."
    return None


@functools.cache
def line_boards(reachable_only: bool, first: str) -> tuple[Board, ...]:
    """For each line and each player, the smallest position where that line is complete, and
    the smallest full board where it is the only line.

    Random boards rarely hold exactly one line, and a missed diagonal is the commonest bug,
    so every predicate check tries these first. Arbitrary boards get the bare line; reachable
    ones the smallest legal position that contains it.
    """
    smallest: dict[tuple[str, tuple[int, int, int]], Board] = {}
    smallest_full: dict[tuple[str, tuple[int, int, int]], Board] = {}
    for board in sorted(reachable_positions(first), key=lambda b: (9 - len(b.empty_cells()), str(b))):
        winners = board.winners()
        if len(winners) != 1:
            continue
        player = next(iter(winners))
        lines = lines_of(board, player)
        if len(lines) == 1:
            smallest.setdefault((player, lines[0]), board)
            if board.is_full():
                # A full board whose one line is this one: a draw test built on a faulty win test fails here.
                smallest_full.setdefault((player, lines[0]), board)
    boards = []
    for player in (X, O):
        for line in LINES:
            if not reachable_only:
                cells = [EMPTY] * 9
                for i in line:
                    cells[i] = player
                boards.append(Board(tuple(cells)))
            elif (player, line) in smallest:
                boards.append(smallest[(player, line)])
            if (player, line) in smallest_full:
                boards.append(smallest_full[(player, line)])
    return tuple(boards)


def _extras(params: Params) -> st.SearchStrategy[Any]:
    """What goes with each board: the player a win test asks about, the position a move test
    tries, or nothing."""
    if params.expect == "wins":
        return st.sampled_from([X, O])
    if params.expect == "valid-move":
        return st.integers(0, 10)
    return st.none()


@functools.cache
def drawn_boards(first: str) -> tuple[Board, ...]:
    """Every full board with no line that a game can end on."""
    return tuple(sorted((b for b in reachable_positions(first) if b.is_full() and not b.winners()), key=str))


def _first_cases(params: Params, first_player: str) -> list[tuple[Board, Any]]:
    """Every line complete for each player (see `line_boards`) and every drawn board (for a
    full, draw or finished-game test also a drawn board with each cell emptied in turn), tried
    before any generated board: together they show each kind of answer (`_answer_kinds`)."""
    lines = line_boards(params.boards == "reachable", first_player)
    if params.expect == "valid-move":
        return [(b, pos) for b in lines[:2] for pos in (0, 1, 5, 9, 10)]
    boards = [*lines, *drawn_boards(first_player)]
    if params.expect in ("full", "draw", "terminal"):  # a test that skips a cell answers one wrong
        boards += near_full_boards(params.boards == "reachable", first_player)
    boards = list(dict.fromkeys(boards))
    if params.expect == "wins":
        return [(b, p) for b in boards for p in (X, O)]
    return [(b, None) for b in boards]


_LINE_KIND = "wins for {player} on {line}"
_LINE_KINDS = frozenset(_LINE_KIND.format(player=p, line=LINE_NAMES[line]) for p in (X, O) for line in LINES)
_SCORE_KINDS = {1: "wins for the maximizer", -1: "losses for the maximizer"}


def _line_kinds(board: Board, players: Iterable[str]) -> list[str]:
    return [_LINE_KIND.format(player=p, line=LINE_NAMES[line]) for p in sorted(players) for line in lines_of(board, p)]


def _answer_kinds(params: Params, board: Board, extra: Any, maximizer: str) -> list[str]:
    """The kinds of answer a case shows: a win on each line for each player, a draw, a full
    board with a line, a board with empty cells..., as the expectation tells them apart."""
    expect, winners, full = params.expect, board.winners(), board.is_full()
    if expect == "wins":
        return _line_kinds(board, [extra]) if extra in winners else ["positions without a win for the player asked"]
    if expect in ("winner", "outcome"):
        if winners:
            return _line_kinds(board, winners)
        return ["draws"] if full and expect == "outcome" else ["positions without a winner"]
    if expect == "draw":
        return ["boards with empty cells"] if not full else ["full boards with a line"] if winners else ["draws"]
    if expect == "full":
        return ["full boards" if full else "boards with empty cells"]
    if expect == "terminal":
        return ["won positions" if winners else "draws" if full else "unfinished positions"]
    if expect == "score":
        score = expected_answer(params, board, None, None, maximizer)
        return [_SCORE_KINDS.get(score, "positions without one winner")]
    if expect == "legal-moves":
        return ["full boards" if full else "boards with free cells"]
    if expect == "valid-move":
        valid = expected_answer(params, board, None, extra, maximizer)
        return ["moves on a free cell" if valid else "moves on a taken or out-of-range cell"]
    raise AssertionError(expect)


def _summary(counts: Mapping[str, int]) -> str:
    """The kinds seen, with the wins on each line for each player named together."""
    lines = {kind: n for kind, n in counts.items() if kind in _LINE_KINDS}
    rest = {kind: n for kind, n in counts.items() if kind not in _LINE_KINDS}
    if not lines:
        return list_kinds(rest)
    every = len(lines) == len(_LINE_KINDS)
    which = "every line for X and for O" if every else f"{len(lines)} of the 16 lines and players"
    listed = list_kinds(rest).removeprefix("Among them: ")
    return f"Among them: wins on {which}" + (f", and {listed}" if listed else ".")


def _player(params: Params, extra: Any) -> str | None:
    return extra if params.expect == "wins" else None


def _position(params: Params, extra: Any) -> int | None:
    return extra if params.expect == "valid-move" else None


def _property(params: Params, ctx: CheckContext, moves: MoveCodec) -> PropertyCheck[Any]:
    def boards(spread: bool) -> st.SearchStrategy[Board]:
        if params.boards == "arbitrary":
            return arbitrary_boards()
        return positions(ctx.assignment.first_player, spread=spread)

    def values(board: Board, extra: Any) -> dict[str, Any]:
        player, position = _player(params, extra), _position(params, extra)
        named: dict[str, Any] = {}
        if player:
            named["player"] = ctx.encode_player(player)
        if position is not None:
            named["position"] = position
        return ctx.placeholders(board, **named)

    def judge(board: Board, extra: Any, answer: Answer) -> Mismatch | None:
        player = _player(params, extra)
        expected = expected_answer(params, board, player, _position(params, extra), ctx.maximizer_for(board))
        shown = show(params, ctx, moves, expected)
        if not answer.ok:
            return Mismatch(answer.call_text, shown, answer.given())
        try:
            actual = read_answer(params, ctx, moves, answer.value)
        except ShapeError as exc:
            return Mismatch(answer.call_text, shown, exc.given())
        if actual == expected:
            return None
        cause = likely_cause(params, board, player, expected, actual)
        return Mismatch(answer.call_text, shown, show(params, ctx, moves, actual), cause)

    def kinds(board: Board, extra: Any) -> list[str]:
        return _answer_kinds(params, board, extra, ctx.maximizer_for(board))

    return PropertyCheck(
        boards,
        _extras(params),
        values,
        judge,
        first=_first_cases(params, ctx.assignment.first_player),
        examples=params.examples,
        coverage=Coverage(kinds, _summary),
    )


def run(check: Check[Params], ctx: CheckContext) -> CheckResult:
    params = check.params
    student = ctx.student_for(params)
    moves = ctx.moves(params.move)
    outcome = run_property(check, ctx, student, _property(params, ctx, moves)).board_alone()
    headline = None
    if outcome.mismatch is not None:
        headline = shape_of(student, none_ok=params.expect in ("winner", "outcome"))
        cause = _cause_from_every_answer(check, ctx, student, moves, stub=headline is not None)
        if cause is not None:
            outcome = replace(outcome, mismatch=replace(outcome.mismatch, cause=cause))
        no_winner = _no_winner_spelling(params, ctx, student, moves)
        if no_winner is not None:
            ctx.findings.spellings[check.id] = {"ongoing": no_winner[0]}
    return result_from_property(check, outcome, f"`{student.label}` agrees with the reference", headline=headline)


def _no_winner_spelling(
    params: Params, ctx: CheckContext, student: StudentFunction, moves: MoveCodec
) -> tuple[Any] | None:
    """How a winner or outcome function the assignment lets spell "no winner" several ways
    (None, False, "", the empty cell) spells it, when every such answer spells it alike: what
    the reference's version answers in its place (`grader.checks.reference_helpers`)."""
    if params.expect not in ("winner", "outcome") or "ongoing" in params.codes:
        return None
    spelled = set()
    for _, answer in student.answers():
        if answer.ok:
            try:
                if read_answer(params, ctx, moves, answer.value) is None:
                    spelled.add((type(answer.value), answer.value))
            except (ShapeError, TypeError):  # TypeError: an unhashable answer
                continue
    return (next(iter(spelled))[1],) if len(spelled) == 1 else None


def _cause_from_every_answer(
    check: Check[Params], ctx: CheckContext, student: StudentFunction, moves: MoveCodec, *, stub: bool
) -> str | None:
    params = check.params
    answers = [
        (Board.from_string(board), _player(params, extra), answer) for (board, extra), answer in student.answers()
    ]
    return predicate_cause(
        ctx,
        check.id,
        student.label,
        params.expect,
        answers,
        lambda raw: read_answer(params, ctx, moves, raw),
        codes=params.codes,
        stub=stub,
    )


def show(params: Params, ctx: CheckContext, moves: MoveCodec, value: Any) -> str:
    if params.expect == "legal-moves" and isinstance(value, list):
        return "[" + ", ".join(moves.show(c) for c in value) + "]"
    if params.expect in ("winner", "outcome"):
        codes = {**_marks(ctx), "tie": "tie", **params.codes}
        if value is None:
            return repr(codes["ongoing"]) if "ongoing" in codes else "None"
        return repr(codes.get(value, value))
    return format_value(value)


PREDICATE = CheckKind("predicate", Params, run)
