"""Which of the handout's globals are questions for an `answer` check."""

from __future__ import annotations

from collections.abc import Sequence

import nbformat

from grader.authoring.answer_values import add_answer_checks, unanswered_globals, written_answers
from grader.authoring.draft import Draft, DraftCheck
from grader.execution.channel.call_data import Call, CallOutcome, CallStatus


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


class _Values:
    """A kernel whose globals hold the solution's answers."""

    def __init__(self, values: dict[str, object]) -> None:
        self.values = values

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        return [CallOutcome(CallStatus.OK, self.values[call.args[0][0].name]) for call in calls]


def test_a_question_named_like_a_checked_function_gets_a_check_of_its_own() -> None:
    draft = Draft(checks=[DraftCheck("minimax", "minimax", "minimax", "game-search", None, "")])
    handout = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("MINIMAX = None\nANSWER_1 = None\n")])
    solution = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("MINIMAX = 'B'\nANSWER_1 = 3\n")])
    add_answer_checks(draft, _Values({"MINIMAX": "B", "ANSWER_1": 3}), handout, solution)
    answers = {c.id: c.params.name for c in draft.checks if c.kind == "answer"}
    assert answers == {"minimax-answer": "MINIMAX", "answer-1": "ANSWER_1"}
    assert [c.kind for c in draft.checks if c.id == "minimax"] == ["game-search"]
