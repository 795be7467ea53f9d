"""results.json (Gradescope's format) and grades.csv (an LMS import) are well formed."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from dataclasses import replace

import jsonschema
import pytest

from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.feedback.gradescope import counterexample_text, gradescope_results, results_json
from grader.feedback.text import format_submission
from grader.results import CheckStatus
from tests.feedback import fabricated as fab

VISIBILITIES = ["hidden", "after_due_date", "after_published", "visible"]
FORMATS = ["text", "html", "simple_format", "md", "ansi"]

# https://gradescope-autograders.readthedocs.io/en/latest/specs/#output-format
GRADESCOPE_SCHEMA = {
    "type": "object",
    "required": ["score", "execution_time", "output", "stdout_visibility", "tests"],
    "additionalProperties": False,
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number", "minimum": 0},
        "output": {"type": "string"},
        "output_format": {"enum": FORMATS},
        "stdout_visibility": {"enum": VISIBILITIES},
        "visibility": {"enum": VISIBILITIES},
        "extra_data": {"type": "object"},
        "tests": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "score", "max_score", "status", "output", "visibility"],
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "number": {"type": "string"},
                    "score": {"type": "number", "minimum": 0},
                    "max_score": {"type": "number", "minimum": 0},
                    "status": {"enum": ["passed", "failed"]},
                    "output": {"type": "string"},
                    "output_format": {"enum": FORMATS},
                    "visibility": {"enum": VISIBILITIES},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}


def mixed_result():
    return fab.submission(
        fab.check("check-win", CheckStatus.PASSED, 10, 10),
        fab.public_failure(),
        fab.hidden_failure(),
        fab.node_counts(),
        fab.check("crash", CheckStatus.ERROR, 0, 5, "`minimax(board)` raised RecursionError"),
        fab.check("bonus", CheckStatus.PASSED, 3, 0),
        fab.check("style", CheckStatus.MANUAL, 0, 0, "Comment your code", figures={"points": 5}),
    )


def test_results_json_matches_the_gradescope_format() -> None:
    document = json.loads(results_json(mixed_result()))
    jsonschema.validate(document, GRADESCOPE_SCHEMA)
    assert document["score"] == pytest.approx(10 + 0 + 0 + 5 + 0 + 3)
    assert document["execution_time"] == pytest.approx(63.6)
    names = [t["name"] for t in document["tests"]]
    assert "title of style" not in names  # manual items are marked in Gradescope itself
    assert "marked by your instructor" in document["output"]


def test_gradescope_tests_status_and_visibility() -> None:
    tests = {t["name"]: t for t in gradescope_results(mixed_result())["tests"]}
    assert tests["title of check-win"]["status"] == "passed"
    assert tests["title of node-reduction"]["status"] == "failed"  # partial credit is not a pass
    assert tests["title of crash"]["status"] == "failed"
    assert tests["title of minimax-value"]["visibility"] == "visible"
    assert "Expected: 1" in tests["title of minimax-value"]["output"]
    assert "X | O |" in tests["title of minimax-value"]["output"]
    hidden = tests["title of secret-search"]
    assert hidden["visibility"] == "after_published"
    assert hidden["max_score"] == 10


def test_gradescope_output_never_carries_hidden_inputs() -> None:
    text = results_json(fab.submission(fab.hidden_failure(), fab.hidden_node_counts()))
    for secret in (*fab.SECRETS, "SECRETBRD", "OOX"):
        assert secret not in text


def test_results_json_for_a_submission_that_could_not_be_graded() -> None:
    result = fab.submission(
        fab.check("a", CheckStatus.NOT_RUN, 0, 10, "Not run: not a notebook"), problems=("not a notebook",)
    )
    document = json.loads(results_json(result, failure="not a notebook"))
    jsonschema.validate(document, GRADESCOPE_SCHEMA)
    assert document["score"] == 0 and "could not be graded: not a notebook" in document["output"]


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_grades_csv_has_one_row_per_student_and_a_column_per_check() -> None:
    result = mixed_result()
    text = grades_csv(
        [
            GradebookRow("zoe", "Zoe Z", result),
            GradebookRow("adam", "", result),
            GradebookRow("crashed", "", result, withheld=True),
        ]
    )
    header = text.splitlines()[0].split(",")
    assert header[:4] == ["student_id", "name", "total", "max"]
    assert header[4:] == [c.check_id for c in result.checks]
    rows = read_csv(text)
    assert [r["student_id"] for r in rows] == ["adam", "crashed", "zoe"]
    for row in rows:
        assert float(row["max"]) == result.max_score
    adam = rows[0]
    assert float(adam["total"]) == result.score
    assert sum(float(adam[c.check_id]) for c in result.checks if c.status != CheckStatus.MANUAL) == pytest.approx(
        result.score
    )
    assert adam["style"] == ""  # manual: the instructor fills it in
    assert rows[1]["total"] == "" and rows[1]["check-win"] == ""  # the grader failed: no false zero


def test_grades_csv_neutralises_formulas_in_names() -> None:
    rows = read_csv(grades_csv([GradebookRow("=HYPERLINK(1)", "@sum", fab.all_passed(with_hidden=False))]))
    assert rows[0]["student_id"] == "'=HYPERLINK(1)" and rows[0]["name"] == "'@sum"


def test_the_board_is_drawn_alike_in_the_terminal_and_in_gradescope() -> None:
    tic_tac_toe = fab.public_failure()
    assert tic_tac_toe.counterexample is not None
    wide_board = replace(tic_tac_toe.counterexample, board="XO.X..O|.......")
    connect_four = replace(tic_tac_toe, check_id="connect-four", counterexample=wide_board)
    terminal = format_submission(fab.submission(tic_tac_toe, connect_four))
    assert "X O .   call:     minimax(board, 0, True)" in terminal
    assert "X . .   expected: 1" in terminal and ". . .   actual:   -1" in terminal
    output = counterexample_text(tic_tac_toe.counterexample)
    assert output.startswith("Position:\n   X | O |  \n   X |   |  \n     |   |  \n")
    other = counterexample_text(wide_board)  # not a 3x3 board: shown as text, in both
    assert other.startswith("Input: XO.X..O|.......") and "input:    XO.X..O|......." in terminal


def test_the_terminal_names_timings_in_words() -> None:
    result = dataclasses.replace(fab.all_passed(with_hidden=False), timings={"kernel_start": 0.5, "total": 2.0})
    text = format_submission(result)
    assert "kernel start 0.50s" in text and "kernel_start" not in text
