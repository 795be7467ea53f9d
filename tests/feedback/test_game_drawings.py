"""A counterexample on another game is drawn wherever it is shown: the HTML report (its columns
numbered, the last move ringed, the completed line outlined, escaped), the terminal and
Gradescope, and it reads back from a stored result as it was written; so is the node where a
failing search parted from the reference's."""

from __future__ import annotations

import dataclasses
import re

from grader.check_details import SearchDivergence
from grader.check_notes import Cause
from grader.feedback.gradescope import counterexample_text
from grader.feedback.html import render_student_report
from grader.feedback.text import format_submission
from grader.notebook.result_view import NotebookCheck
from grader.results import CheckResult, CheckStatus, Counterexample
from reference.connect4 import ConnectK
from reference.connect_endings import play
from tests.feedback import fabricated as fab

GAME = ConnectK(5, 6, 4)
MOVES = (2, 2, 3, 2, 4, 2, 5)
STATE = play(GAME, MOVES)


def failure() -> CheckResult:
    counterexample = Counterexample(
        str(STATE), "winner(board)", "'X'", "<None>", drawing=GAME.drawing(STATE, MOVES[-1])
    )
    result = CheckResult(
        "winner",
        "game-predicate",
        "winner",
        CheckStatus.FAILED,
        0,
        10,
        "Wrong answer on the position after 7 moves",
        counterexample=counterexample,
        cause=Cause("local", "the line runs across"),
    )
    return CheckResult.from_dict(result.to_dict())  # as a stored result reads back


def test_a_stored_drawing_reads_back_as_written() -> None:
    stored = failure()
    assert stored.counterexample is not None and stored.counterexample.drawing == GAME.drawing(STATE, MOVES[-1])


def test_the_report_draws_the_position_with_numbered_columns_and_the_last_move() -> None:
    html = render_student_report(fab.submission(failure()))
    drawing = html[html.index('<svg class="drawing"') : html.index("</svg>", html.index('<svg class="drawing"'))]
    assert drawing.count('class="column-number"') == 6
    assert drawing.count('class="last-move"') == 1
    assert drawing.count("disc disc-x winning") == 4  # the line across is outlined
    assert "last move in column 5" in drawing
    assert "&lt;None&gt;" in html and "<None>" not in html  # answers stay escaped


def test_the_standard_board_is_drawn_to_fit_a_phone() -> None:
    game = ConnectK(6, 7, 4)
    state = play(game, (3, 3, 2, 2, 4, 4, 5))
    drawn = Counterexample(str(state), "winner(board)", "'X'", "<None>", drawing=game.drawing(state, 5))
    html = render_student_report(fab.submission(dataclasses.replace(failure(), counterexample=drawn)))
    svg = re.search(r'<svg class="drawing" width="(\d+)" height="(\d+)" viewBox="-2 -2 (\d+) (\d+)"', html)
    assert svg is not None
    width, height, view_width, view_height = (int(n) for n in svg.groups())
    assert width <= 320 and (view_width, view_height) == (width, height)  # a phone's width, scaled with the page
    assert ".drawing { max-width: 100%; height: auto; }" in html
    assert html.count('class="column-number"') == 7


def test_the_terminal_and_gradescope_show_the_rows_over_the_column_numbers() -> None:
    text = format_submission(fab.submission(failure()))
    assert ". . X X X x" in text and "0 1 2 3 4 5" in text and "last move: column 5" in text
    gradescope = counterexample_text(failure().counterexample)  # type: ignore[arg-type]
    assert "   . . X X X x" in gradescope


def test_the_in_notebook_check_draws_it_too() -> None:
    shown = NotebookCheck("connect4", "Connect Four", fab.submission(failure()))._repr_html_()
    assert shown.count('class="column-number"') == 6 and 'class="last-move"' in shown
    assert ". . X X X x" in repr(NotebookCheck("connect4", "Connect Four", fab.submission(failure())))


def parted(visibility: str = "public") -> CheckResult:
    """A failing game search with the node where it parted from the reference's, as stored."""
    node = play(GAME, (0, 2))
    divergence = SearchDivergence(
        path=(0, 2),
        drawing=GAME.drawing(node, 2),
        evaluation=12,
        window=(float("-inf"), 6.0),
        expected="the reference cuts off here: after column 2 its value 6 reached beta = 6, so it tries no more columns",
        actual="your search went to column 3 and evaluated the position after columns 0 2 <3>",
    )
    result = CheckResult(
        "alphabeta",
        "game-search",
        "alphabeta",
        CheckStatus.FAILED,
        0,
        20,
        "Wrong answer at depth 3 on the empty board",
        visibility=visibility,  # type: ignore[arg-type]
        counterexample=Counterexample(
            str(GAME.initial_state()), "alphabeta(board, 3, 'X')", "(2, 8, 107)", "(2, 8, 122)"
        ),
        detail=divergence,
    )
    return CheckResult.from_dict(result.to_dict())


def test_the_node_where_a_search_went_wrong_is_drawn_wherever_it_is_shown() -> None:
    stored = parted()
    assert isinstance(stored.detail, SearchDivergence) and stored.detail.window == (float("-inf"), 6.0)
    html = render_student_report(fab.submission(stored))
    shown = html[html.index("Where your search went wrong") :]
    assert "At static evaluation 12, the node after columns 0 2:" in shown
    assert "<code>(-inf, 6)</code>" in shown
    assert "columns 0 2 &lt;3&gt;" in shown and "<3>" not in shown  # escaped
    assert "last move in column 2" in shown  # the node drawn, the last move of its path ringed
    text = format_submission(fab.submission(stored))
    assert "yours:    your search went to column 3" in text
    assert any(line.strip() == "X . o . . ." for line in text.splitlines())  # the node's bottom row
    assert "where it went wrong: at static evaluation 12, the node after columns 0 2" in text
    notebook = NotebookCheck("connect4", "Connect Four", fab.submission(stored))._repr_html_()
    assert "Where your search went wrong" in notebook and "tries no more columns" in notebook


def test_a_hidden_checks_node_is_not_shown_to_the_student() -> None:
    html = render_student_report(fab.submission(parted(visibility="hidden")))
    assert "Where your search went wrong" not in html and "static evaluation 12" not in html
