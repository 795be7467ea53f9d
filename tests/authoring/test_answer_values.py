"""Which of the handout's globals are questions for an `answer` check."""

from __future__ import annotations

import nbformat

from grader.authoring.answer_values import unanswered_globals, written_answers


def test_a_global_left_none_or_as_a_release_stubs_it_is_a_question() -> None:
    cells = ["ANSWER_1 = None\nANSWER_2 = ...\nDEPTH = None\n", "DEPTH = 4\nBOARD = []\n"]
    handout = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    assert unanswered_globals(handout) == ["ANSWER_1", "ANSWER_2"]


def test_only_a_global_the_solution_writes_as_a_literal_is_answered_by_its_value() -> None:
    cells = [
        'ANSWER_1 = "B"\nANSWER_2 = -4\nRATIO: float = 0.5\nRESULT = minimax(board)\n',
        "TWICE = 1\nTWICE = len(moves)\nNAMES = ['a']\n",
    ]
    solution = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    assert written_answers(solution) == {"ANSWER_1", "ANSWER_2", "RATIO"}
