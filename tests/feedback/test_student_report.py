"""The student-facing HTML report: escaping, hidden checks, wording, drawings, the notebook as it ran."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from grader.execution.result import CellStatus, ExecutionResult
from grader.feedback.html import render_student_report
from grader.feedback.views import ExecutionView, check_view, headline, score_caveat
from grader.results import CheckStatus, Counterexample
from grader.spec.loader import load_assignment
from tests.feedback import fabricated as fab

ALL_PASSED = re.compile(r"\ball\b[^.<]*\b(tests?|checks?)\b[^.<]*\bpassed\b", re.IGNORECASE)


class _Collector(HTMLParser):
    """Tags with their attributes, and the visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    return collector


def test_printed_html_is_shown_as_text() -> None:
    html = render_student_report(fab.submission(fab.public_failure()))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert fab.HOSTILE_OUTPUT not in html
    assert "<img" not in html
    parsed = parse(html)
    assert not [t for t, _ in parsed.tags if t in ("script", "img", "iframe")]
    assert fab.HOSTILE_OUTPUT in "".join(parsed.text)  # the student sees exactly what was printed


def test_messages_and_causes_are_escaped() -> None:
    failure = fab.check("x", CheckStatus.FAILED, 0, 5, 'returned "<b>bold</b>" & more')
    html = render_student_report(fab.submission(failure))
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html


def test_report_is_self_contained() -> None:
    html = render_student_report(fab.submission(fab.public_failure(), fab.node_counts()))
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html  # the page may not fetch anything


def test_hidden_checks_never_show_their_inputs() -> None:
    result = fab.submission(fab.public_failure(), fab.hidden_failure(), fab.hidden_node_counts())
    html = render_student_report(result)
    for secret in (*fab.SECRETS, "SECRETBRD", "OOX"):
        assert secret not in html, secret
    assert "title of secret-search" in html  # the name and points may show
    assert "0 / 10" in html
    assert 'aria-label="board: OOX' not in html


def test_a_hidden_check_view_carries_nothing_to_leak() -> None:
    view = check_view(fab.hidden_failure(), student_facing=True)
    assert view.counterexample is None and view.board is None and view.node_chart is None
    assert view.likely_cause is None
    assert "SECRET" not in view.message
    instructor = check_view(fab.hidden_failure(), student_facing=False)
    assert instructor.counterexample is not None and instructor.likely_cause == "SECRET_CAUSE"


@pytest.mark.parametrize("with_hidden", [False, True])
def test_all_passed_wording_only_without_hidden_checks(with_hidden: bool) -> None:
    html = render_student_report(fab.all_passed(with_hidden=with_hidden))
    text = " ".join(parse(html).text)
    if with_hidden:
        assert not ALL_PASSED.search(text.replace("All 2 public checks passed", ""))
        assert "All 2 public checks passed" in text
    else:
        assert "All 2 checks passed." in text


def test_self_check_names_the_hidden_checks_it_did_not_run(tmp_path) -> None:
    assignment = _with_hidden_check(tmp_path)
    graded = assignment.public()
    checks = [fab.check(c.id, CheckStatus.PASSED, c.points, c.points) for c in graded.checks if c.points]
    html = render_student_report(fab.submission(*checks), assignment=assignment)
    text = " ".join(parse(html).text)
    assert "hidden check(s) run only when the assignment is graded" in text
    assert "not yet your final score" in text
    assert not ALL_PASSED.search(re.sub(r"All \d+ public checks passed", "", text))
    hidden = next(c for c in assignment.checks if c.hidden)
    assert hidden.title in text


def test_headline_counts_only_scored_public_checks() -> None:
    views = [
        check_view(c, student_facing=True)
        for c in (
            fab.check("a", CheckStatus.PASSED, 5, 5),
            fab.check("b", CheckStatus.FAILED, 0, 5),
            fab.check("bonus", CheckStatus.NOT_RUN, 0, 0),
            fab.check("m", CheckStatus.MANUAL, 0, 0),
        )
    ]
    assert headline(views, hidden_not_run=0, nothing_ran=False).text == "1 of 2 public checks passed."
    assert "could not be graded" in headline(views, 0, nothing_ran=True).text


def test_counterexample_board_is_drawn_as_a_grid() -> None:
    html = render_student_report(fab.submission(fab.public_failure()))
    parsed = parse(html)
    boards = [a for t, a in parsed.tags if t == "svg" and "board" in (a.get("class") or "")]
    assert len(boards) == 1 and boards[0]["aria-label"] == "board: XO.X....."
    marks_x = [a for t, a in parsed.tags if t == "line" and a.get("class") == "mark-x"]
    marks_o = [a for t, a in parsed.tags if t == "circle" and a.get("class") == "mark-o"]
    assert len(marks_x) == 2 * 2 and len(marks_o) == 1  # two X (two strokes each), one O
    text = " ".join(parsed.text)
    for fact in ("minimax(board, 0, True)", "Expected", "Your code gave", "-1", "wrong player's side"):
        assert fact in text


def test_node_counts_are_drawn_as_a_bar_chart() -> None:
    html = render_student_report(fab.submission(fab.node_counts()))
    parsed = parse(html)
    assert any(t == "svg" and "node-chart" in (a.get("class") or "") for t, a in parsed.tags)
    bars = [a for t, a in parsed.tags if t == "rect" and (a.get("class") or "").startswith("series-")]
    assert len(bars) == 8  # 2 positions x (minimax, alpha-beta, both references)
    widths = {a["class"]: float(a["width"] or "nan") for a in bars[:4]}
    assert widths["series-minimax"] == pytest.approx(330)
    assert widths["series-alphabeta"] < widths["series-minimax"] / 20
    assert "59,705" in html and "787" in html


def test_cells_errors_timeouts_and_stdin_appear_where_they_happened() -> None:
    html = render_student_report(fab.submission(fab.public_failure()))
    # code cells numbered as Jupyter numbers them: the markdown cell at position 1 does not count
    cell_2 = html[html.index('id="cell-2"') : html.index('id="cell-3"')]
    assert "Your move? five" in cell_2 and "ValueError: invalid literal" in cell_2
    assert "\x1b" not in html
    assert '<details class="cell trouble" id="cell-2" open>' in html  # unfolded where it went wrong
    assert '<details class="cell" id="cell-1">' in html
    cell_3 = html[html.index('id="cell-3"') :]
    assert "timeout" in cell_3 and "60 s" in cell_3 and 'id="cell-4"' not in html
    assert "NOTE_FOR_FOOTER" in html.split("<footer>")[1]  # not listed among the student's problems
    assert "/instructor/private" not in html


@pytest.mark.parametrize(
    ("record", "cells"),
    [
        ({}, 0),
        ({"cells": None}, 0),
        ({"cells": [{}]}, 1),
        ({"cells": ["junk", 3]}, 0),
        ({"stdin_transcript": [{"prompt": None}], "cells": []}, 0),
        ({"cells": [{"index": "x", "status": None, "output": ["a", {"text": "b"}], "duration": "slow"}]}, 1),
    ],
)
def test_any_stored_execution_record_is_read_and_renders(record: dict, cells: int) -> None:
    """A damaged stored record keeps the cells it has, each with neutral values, and renders."""
    execution = ExecutionResult.from_dict(record)
    assert [(c.number, c.status, c.output, c.duration) for c in execution.cells] == [
        (1, CellStatus.NOT_RUN, "", 0.0)
    ] * cells
    html = render_student_report(fab.submission(fab.public_failure(), execution=record))
    assert html.count('<details class="cell') == cells


def test_nothing_ran() -> None:
    result = fab.submission(
        fab.check("a", CheckStatus.NOT_RUN, 0, 10, "Not run: not a notebook"),
        problems=("The file is not a notebook: invalid JSON",),
    )
    result = type(result)(result.submission, result.assignment_id, result.checks, None, result.problems)
    html = render_student_report(result)
    assert "could not be graded" in html and "invalid JSON" in html and "as it ran" not in html


def _with_hidden_check(tmp_path):
    source = load_assignment("lab05").directory
    spec = (source / "assignment.toml").read_text(encoding="utf-8")
    spec = spec.replace('id = "best-move"', 'id = "best-move"\nvisibility = "hidden"')
    (tmp_path / "assignment.toml").write_text(spec, encoding="utf-8")
    for extra in ("STDIN.txt", "adapter.py"):
        if (source / extra).is_file():
            (tmp_path / extra).write_bytes((source / extra).read_bytes())
    return load_assignment(tmp_path)


def test_backticks_become_code_and_stay_escaped() -> None:
    html = render_student_report(
        fab.submission(
            fab.check("a", CheckStatus.FAILED, 0, 5, "`minimax(<i>board</i>)` returned 1"),
            fab.check("b", CheckStatus.FAILED, 0, 5, "an `unbalanced <b>quote"),
        )
    )
    assert "<code>minimax(&lt;i&gt;board&lt;/i&gt;)</code> returned 1" in html
    assert "an `unbalanced &lt;b&gt;quote" in html


def game_record(timed_out_cell: int | None = 7, *, notebook_timed_out: bool = False) -> dict:
    """Seven cells; the game in the last one asks for moves, and the named one never ends."""
    cells = [{"index": n, "source": f"step_{n}()", "status": "ok"} for n in range(7)]
    if timed_out_cell is not None:
        cells[timed_out_cell - 1]["status"] = "timeout"
    moves = [{"cell_index": 6, "prompt": "Enter your move (0-8): ", "answer": m} for m in ("4", "6", None)]
    return {"cells": cells, "stdin_transcript": moves, "notebook_timed_out": notebook_timed_out}


def test_each_prompt_and_its_answer_are_a_line_of_their_own() -> None:
    html = render_student_report(fab.submission(fab.public_failure(), execution=game_record()))
    transcript = html[html.index('<pre class="stdin">', html.index('id="cell-7"')) :]
    transcript = transcript[: transcript.index("</pre>")]
    lines = re.findall(r'<span class="stdin-line">(.*?)</span>(?=<span class="stdin-line">|$)', transcript)
    assert lines[:2] == ["Enter your move (0-8): 4", "Enter your move (0-8): 6"]
    assert lines[2].startswith("Enter your move (0-8): ") and "no answer left" in lines[2]
    assert ".stdin-line { display: block; }" in html


def test_full_marks_say_next_to_the_score_that_a_cell_timed_out() -> None:
    result = fab.submission(fab.check("check-win", CheckStatus.PASSED, 10, 10), execution=game_record())
    html = render_student_report(result)
    summary = html[html.index('id="summary"') : html.index("</section>", html.index('id="summary"'))]
    text = " ".join(" ".join(parse(summary).text).split())
    assert "10 / 10 — but cell 7 timed out" in text
    assert 'href="#cell-7"' in summary


def test_no_caveat_for_a_notebook_that_ran_cleanly() -> None:
    result = fab.submission(fab.check("check-win", CheckStatus.PASSED, 10, 10), execution=game_record(None))
    html = render_student_report(result)
    assert 'class="caveat"' not in html
    assert score_caveat(None, full_marks=True) is None


@pytest.mark.parametrize(
    ("record", "full_marks", "text", "cell"),
    [
        (game_record(7), True, "but cell 7 timed out", 7),
        (game_record(7), False, "cell 7 timed out", 7),
        (fab.execution_record(), True, "but cell 3 timed out", 3),
        (game_record(None, notebook_timed_out=True), True, "but the notebook ran out of time", None),
        (
            {
                "cells": [
                    {"index": 1, "number": 2, "status": "timeout"},
                    {"index": 2, "number": 3, "status": "killed"},
                    {"index": 4, "number": 5, "status": "timeout"},
                ]
            },
            True,
            "but cells 2 and 5 timed out and cell 3 crashed the kernel",
            2,
        ),
    ],
)
def test_score_caveat_names_the_cells(record: dict, full_marks: bool, text: str, cell: int | None) -> None:
    caveat = score_caveat(ExecutionView.from_record(ExecutionResult.from_dict(record)), full_marks=full_marks)
    assert caveat is not None and (caveat.text, caveat.cell) == (text, cell)


def test_node_chart_scales_to_fit_a_phone() -> None:
    html = render_student_report(fab.submission(fab.node_counts()))
    chart = next(a for t, a in parse(html).tags if t == "svg" and "node-chart" in (a.get("class") or ""))
    width = float(chart["width"] or 0)
    assert width <= 400  # a phone shrinks it only a little, so its text stays legible
    assert chart["viewbox"] == f"0 0 {chart['width']} {chart['height']}"
    assert "svg.chart { max-width: 100%; height: auto; }" in html


def test_cells_are_numbered_as_jupyter_numbers_code_cells() -> None:
    """Markdown cells before and between code cells do not count: the third code cell, at
    notebook position 5, is cell 3 in the report, as `In [3]` in Jupyter."""
    cells = [
        {"index": 1, "number": 1, "source": "x = 1", "status": "ok"},
        {"index": 3, "number": 2, "source": "y = 2", "status": "ok"},
        {"index": 5, "number": 3, "source": "while True: pass", "status": "timeout"},
    ]
    result = fab.submission(fab.check("check-win", CheckStatus.PASSED, 10, 10), execution={"cells": cells})
    html = render_student_report(result)
    assert 'id="cell-3"' in html and 'id="cell-6"' not in html
    assert "but cell 3 timed out" in " ".join(" ".join(parse(html).text).split())


def test_a_lost_game_is_drawn_move_by_move() -> None:
    moves = ["X 0", "O 4", "X 1", "O 2", "X 8", "O 6"]
    boards = ["X........", "X...O....", "XX..O....", "XXO.O....", "XXO.O...X", "XXO.O.O.X"]
    lost = fab.check(
        "random-opponent",
        CheckStatus.FAILED,
        0,
        10,
        kind="random-opponent",
        figures={"moves": moves, "boards": boards},
        counterexample=Counterexample(boards[-1], "best_move(board) as X in game 1", "a win or a draw", "a loss"),
    )
    html = render_student_report(fab.submission(lost))
    strip = html[html.index('<ol class="game-strip">') : html.index("</ol>", html.index('<ol class="game-strip">'))]
    assert strip.count('<svg class="board"') == 6
    assert "6. O 6" in " ".join(parse(strip).text)
    assert 'aria-label="board: XXO.O.O.X"' in strip
