"""What a student's report shows of a result: view objects the templates render.

Two rules that matter most live here: in `check_view`, a hidden check seen by a student
shows its title, status and points, never its inputs (no counterexample, call, expected or
actual value, node counts); in `headline`, a student-facing report never claims that
everything passed while hidden checks exist. A tic-tac-toe counterexample's board is drawn
from `board_cells` wherever it is shown (the HTML report, the terminal, Gradescope): the
tic-tac-toe kinds store the board as its nine characters. Another game's counterexample carries
its game's own `Drawing` (any size; `drawing_rows` as text), and `board_cells` leaves it alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.check_details import NodeCounts, PlayedGame, SearchDivergence
from grader.check_wording import cause_line
from grader.execution.result import CellStatus, ExecutionResult, strip_ansi
from grader.feedback.charts import NodeChart
from grader.results import CheckResult, CheckStatus, Counterexample, InstructorMark
from reference.drawing import Drawing, Square

STATUS_LABELS = {
    CheckStatus.PASSED: "passed",
    CheckStatus.FAILED: "failed",
    CheckStatus.PARTIAL: "partly passed",
    CheckStatus.ERROR: "error",
    CheckStatus.NOT_RUN: "not run",
    CheckStatus.MANUAL: "marked by hand",
}

HIDDEN_CHECK_MESSAGES = {
    CheckStatus.PASSED: "Passed.",
    CheckStatus.FAILED: "Did not pass. This is a hidden check: its test cases are not shown.",
    CheckStatus.PARTIAL: "Partly passed. This is a hidden check: its test cases are not shown.",
    CheckStatus.ERROR: "Your code raised an error or ran out of time on a hidden test case.",
    CheckStatus.NOT_RUN: (
        "Not run: a function it needs is missing, or the notebook did not run (see the problems above)."
    ),
    CheckStatus.MANUAL: "Marked by your instructor.",
}

CELL_STATUS_LABELS = {
    CellStatus.OK: "ok",
    CellStatus.ERROR: "error",
    CellStatus.TIMEOUT: "timeout",
    CellStatus.KILLED: "killed",
    CellStatus.SKIPPED: "skipped",
    CellStatus.NOT_RUN: "not run",
}

TROUBLED_CELL_STATUSES = (CellStatus.ERROR, CellStatus.TIMEOUT, CellStatus.KILLED)


def status_class(status: CheckStatus | CellStatus) -> str:
    """The CSS class of a status badge: ``status-passed``, ``status-not-run``, ...; the one
    place a status becomes text for the stylesheet."""
    return "status-" + status.name.lower().replace("_", "-")


def format_points(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def format_seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


# -- the counterexample board ---------------------------------------------------------------------


def board_cells(board: str | None) -> tuple[str, ...] | None:
    """A tic-tac-toe board as nine cells, ``X``, ``O`` or an empty string; None for no board
    or any other input (a Connect-K position, a move list), which is shown as text instead."""
    if board is None or len(board) != 9:
        return None
    return tuple(c if c in "XO" else "" for c in board.upper())


def board_rows(board: str | None, *, empty: str, separator: str) -> list[str]:
    """A tic-tac-toe board as three lines of text (none for any other input: another game's
    position is drawn from its `Drawing` by `drawing_rows`)."""
    cells = board_cells(board)
    if cells is None:
        return []
    return [separator.join(c or empty for c in cells[r * 3 : r * 3 + 3]) for r in range(3)]


def drawing_rows(drawing: Drawing | None) -> list[str]:
    """A drawn position (any board game) as lines of text, top row first, over its column
    numbers; none without a drawing."""
    if drawing is None or not drawing.squares:
        return []
    rows = [" ".join(_square_text(square) for square in row) for row in drawing.squares]
    return [*rows, " ".join(str(col % 10) for col in range(drawing.cols))]


def _square_text(square: Square) -> str:
    """A square's mark (``.`` when empty), lower-case where the last move landed."""
    mark = square.mark or "."
    return mark.lower() if square.last else mark


# -- where a search on another game went wrong ------------------------------------------------------


@dataclass(frozen=True)
class DivergenceView:
    """The node where a search on a game first parts from the reference's, in words and drawn."""

    where: str
    """``At static evaluation 12 (in the search at depth 2), the node after columns 0 2``."""
    window: str | None
    """``(-inf, 6)``: the reference's alpha-beta window there; None for minimax."""
    drawing: Drawing
    expected: str
    actual: str

    def facts(self) -> list[str]:
        """The words beside the drawing, a line each, as plain text shows them."""
        lines = [f"where it went wrong: {self.where[0].lower()}{self.where[1:]}"]
        if self.window is not None:
            lines.append(f"window:   {self.window} (alpha, beta) as the reference entered it")
        return [*lines, f"expected: {self.expected}", f"yours:    {self.actual}"]


def divergence_view(divergence: SearchDivergence | None) -> DivergenceView | None:
    if divergence is None:
        return None
    path = divergence.path
    node = f"the node after columns {' '.join(map(str, path))}" if path else "the position searched itself"
    depth = "" if divergence.depth is None else f" (in the search at depth {divergence.depth})"
    window = divergence.window
    return DivergenceView(
        where=f"At static evaluation {divergence.evaluation}{depth}, {node}",
        window=None if window is None else f"({_bound(window[0])}, {_bound(window[1])})",
        drawing=divergence.drawing,
        expected=divergence.expected,
        actual=divergence.actual,
    )


def _bound(value: float) -> str:
    return f"{value:g}"


# -- checks -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckView:
    id: str
    title: str
    status: CheckStatus
    status_label: str
    score: float
    max_score: float
    manual_points: float | None
    hidden: bool
    zero_weight: bool
    """Counts for nothing toward the maximum (a bonus, or an informational check)."""
    message: str
    counterexample: Counterexample | None
    likely_cause: str | None
    """The cause named beside the counterexample (`grader.check_wording.cause_line`)."""
    board: tuple[str, ...] | None
    """The counterexample board as nine cells, `X`, `O` or empty strings."""
    drawing: Drawing | None
    """The counterexample position of any other board game, square by square."""
    node_chart: NodeChart | None
    duration: float
    game: tuple[tuple[tuple[str, ...], str], ...] = ()
    """A game the check played, move by move: each board after a move, and that move."""
    divergence: DivergenceView | None = None
    """Where a search on another game first parted from the reference's."""
    instructor: InstructorMark | None = None
    """The instructor's points and comment (``score`` is then the final score)."""
    overridden: bool = False
    """The instructor set the points of this automatic check."""
    marked: bool = False
    """A manual item the instructor has marked."""


def game_view(game: PlayedGame | None) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The boards of a game a check played, after each move, with the move that made each one
    (nothing when no board was recorded for each move, or a board is not a tic-tac-toe board)."""
    if game is None or len(game.boards) != len(game.moves):
        return ()
    drawn: list[tuple[tuple[str, ...], str]] = []
    for board, move in zip(game.boards, game.moves):
        cells = board_cells(board)
        if cells is None:
            return ()
        drawn.append((cells, move))
    return tuple(drawn)


def check_view(check: CheckResult, *, student_facing: bool) -> CheckView:
    redact = student_facing and check.visibility != "public"
    counterexample = None if redact else check.counterexample
    counts = check.detail_as(NodeCounts)
    chart = None if redact or counts is None else NodeChart.from_rows(counts.rows)
    return CheckView(
        id=check.check_id,
        title=check.title,
        status=check.status,
        status_label=STATUS_LABELS[check.status],
        score=check.score,
        max_score=check.max_score,
        manual_points=check.manual_points if check.status == CheckStatus.MANUAL else None,
        hidden=check.visibility != "public",
        zero_weight=check.max_score == 0,
        message=HIDDEN_CHECK_MESSAGES[check.status] if redact else check.message,
        counterexample=counterexample,
        likely_cause=None if redact else cause_line(check),
        board=board_cells(counterexample.board) if counterexample else None,
        drawing=counterexample.drawing if counterexample else None,
        node_chart=chart,
        duration=check.duration,
        game=() if redact else game_view(check.detail_as(PlayedGame)),
        divergence=None if redact else divergence_view(check.detail_as(SearchDivergence)),
        instructor=check.instructor,
        overridden=check.overridden,
        marked=check.marked,
    )


@dataclass(frozen=True)
class HiddenCheckNotRun:
    title: str
    points: float


# -- the notebook as it ran -------------------------------------------------------------------------


@dataclass(frozen=True)
class StdinView:
    prompt: str
    answer: str | None


@dataclass(frozen=True)
class CellView:
    number: int
    source: str
    status: CellStatus
    error: str
    traceback: str
    outputs: str
    output_truncated: bool
    duration: float | None
    stdin: tuple[StdinView, ...]

    @property
    def status_label(self) -> str:
        return CELL_STATUS_LABELS[self.status]

    @property
    def first_line(self) -> str:
        """The first line of code that says something, for the folded view."""
        lines = [line.strip() for line in self.source.splitlines()]
        return next((line for line in lines if line and not line.startswith("#")), lines[0] if lines else "")


@dataclass(frozen=True)
class ExecutionView:
    cells: tuple[CellView, ...]
    stdin_elsewhere: tuple[StdinView, ...]
    """Scripted input that no cell claims."""
    sandbox: str
    isolation_note: str
    total_duration: float | None
    kernel_restarts: int
    notebook_timed_out: bool

    @property
    def troubled_cells(self) -> int:
        return sum(c.status in TROUBLED_CELL_STATUSES for c in self.cells)

    @classmethod
    def from_record(cls, record: ExecutionResult | None) -> ExecutionView | None:
        """The record as the report shows it (a stored one is read tolerantly by
        `ExecutionResult.from_dict`: any record renders)."""
        if record is None:
            return None
        by_cell: dict[int, list[StdinView]] = {}
        for entry in record.stdin_transcript:
            by_cell.setdefault(entry.cell_index, []).append(StdinView(entry.prompt, entry.answer))
        cells = [
            CellView(
                number=cell.number,
                source=cell.source,
                status=cell.status,
                error=": ".join(part for part in (cell.error_name, cell.error_message) if part),
                # a record stored by hand or by an older grader may still carry colour codes
                traceback=strip_ansi(cell.traceback),
                outputs=cell.output,
                output_truncated=cell.output_truncated,
                duration=cell.duration,
                stdin=tuple(by_cell.pop(cell.index, ())),
            )
            for cell in record.cells
        ]
        # input() asked for by a cell the record does not list
        elsewhere = [view for orphans in by_cell.values() for view in orphans]
        return cls(
            cells=tuple(cells),
            stdin_elsewhere=tuple(elsewhere),
            sandbox=record.sandbox_mode.value,
            isolation_note=record.isolation_note or "",
            total_duration=record.total_duration,
            kernel_restarts=record.kernel_restarts,
            notebook_timed_out=record.notebook_timed_out,
        )


# -- the summary at the top -------------------------------------------------------------------------


@dataclass(frozen=True)
class Headline:
    tone: str
    """good, mixed or bad: only the colour."""
    text: str


def headline(checks: Sequence[CheckView], hidden_not_run: int, nothing_ran: bool) -> Headline:
    """The sentence at the top. It never says that everything passed while hidden checks
    exist, whether they ran (scores shown) or not (self-check)."""
    if nothing_ran:
        return Headline("bad", "Your submission could not be graded: see the problems below.")
    scored = [
        c
        for c in checks
        if c.status is not CheckStatus.MANUAL and not (c.zero_weight and c.status is CheckStatus.NOT_RUN)
    ]
    public = [c for c in scored if not c.hidden]
    hidden_exist = hidden_not_run > 0 or any(c.hidden for c in checks)
    public_ok = all(c.status is CheckStatus.PASSED for c in public)
    if public_ok and not hidden_exist:
        return Headline("good", f"All {len(public)} checks passed.")
    if public_ok:
        if hidden_not_run:
            return Headline(
                "good",
                f"All {len(public)} public checks passed. {hidden_not_run} hidden check(s) run only "
                "when the assignment is graded, so this is not yet your final score.",
            )
        return Headline(
            "good",
            f"All {len(public)} public checks passed. Hidden checks are scored below; their test cases are not shown.",
        )
    passed = sum(c.status is CheckStatus.PASSED for c in public)
    return Headline("mixed" if passed else "bad", f"{passed} of {len(public)} public checks passed.")


@dataclass(frozen=True)
class ScoreCaveat:
    """What a score alone hides: cells that ran out of time or crashed the kernel. A
    notebook whose game loop never ends can still score full marks on its functions."""

    text: str
    cell: int | None
    """The first such cell's number, to link to."""


def score_caveat(execution: ExecutionView | None, *, full_marks: bool) -> ScoreCaveat | None:
    if execution is None:
        return None
    parts = []
    first: int | None = None
    for status, verb in ((CellStatus.TIMEOUT, "timed out"), (CellStatus.KILLED, "crashed the kernel")):
        numbers = [c.number for c in execution.cells if c.status == status]
        if numbers:
            parts.append(f"{_cells_phrase(numbers)} {verb}")
            first = numbers[0] if first is None else min(first, numbers[0])
    if execution.notebook_timed_out and not any(c.status is CellStatus.TIMEOUT for c in execution.cells):
        parts.append("the notebook ran out of time")
    if not parts:
        return None
    text = " and ".join(parts)
    return ScoreCaveat(f"but {text}" if full_marks else text, first)


def _cells_phrase(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"cell {numbers[0]}"
    return f"cells {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
