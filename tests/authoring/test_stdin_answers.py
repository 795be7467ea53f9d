"""Answers for a game loop's prompts: what each prompt asks decides the answer."""

from __future__ import annotations

from grader.authoring.stdin_answers import MOVE_STYLES, PromptAnswerer


def test_questions_get_their_kind_of_answer() -> None:
    answerer = PromptAnswerer("cells 1-9")
    assert answerer.answer("Play again? (y/n) ") == "n"
    assert answerer.answer("Do you want to be X or O? ") == "X"
    assert [answerer.answer("Your move (1-9): ") for _ in range(10)] == [*MOVE_STYLES["cells 1-9"], "1"]


def test_a_row_and_a_column_asked_apart_name_one_cell() -> None:
    answerer = PromptAnswerer("row col from 1")
    answers = [answerer.answer(p) for p in ("Enter row: ", "Enter column: ", "Enter row: ", "Enter column: ")]
    assert answers == ["1", "1", "1", "2"]


def test_a_prompt_that_states_its_range_is_answered_within_it_on_any_board() -> None:
    answerer = PromptAnswerer("cells 1-9")
    columns = [answerer.answer("Player 1, make your selection (0-6): ") for _ in range(8)]
    assert columns == ["0", "1", "2", "3", "4", "5", "6", "0"]
    assert [answerer.answer("Your square (0 - 8): ") for _ in range(2)] == ["0", "1"]
    assert answerer.answer("Pick a column 1 to 7: ") == "1"
    assert answerer.answer("Your move: ") == "1"  # no range: the style's next cell
    assert answerer.answer("Play again? (y/n) ") == "n"
