"""Reading a game search's answer: the shapes courses use, and progressive deepening's answer
after each depth (a list, a tuple, or an object's history)."""

from __future__ import annotations

import pytest

from grader.checks.game_answers import ShapedAnswer, per_depth, read_answer
from grader.execution.channel.call_data import RemoteObject


def test_each_shape_is_read_into_its_parts() -> None:
    assert read_answer("move,value", (3, 5)) == ShapedAnswer(3, 5, None, None)
    assert read_answer("value", 7.0) == ShapedAnswer(None, 7.0, None, None)
    assert read_answer("move,value,evaluations", [2, -1, 40]) == ShapedAnswer(2, -1, 40, None)
    assert read_answer("path,score,evaluations", ([3, 4], 9, 12)) == ShapedAnswer(3, 9, 12, (3, 4))


@pytest.mark.parametrize(
    ("shape", "raw", "wanted"),
    [
        ("move,value", 3, "an answer of 2 parts (move,value)"),
        ("move,value", (3, "five"), "a number for the value"),
        ("move,value,evaluations", (3, 5, 1.5), "a whole number of evaluations"),
        ("path,score,evaluations", (3, 5, 1), "a list of columns for the path"),
    ],
)
def test_a_wrong_shape_says_what_the_answer_must_be(shape: str, raw: object, wanted: str) -> None:
    assert read_answer(shape, raw) == wanted  # type: ignore[arg-type]


def test_the_answers_per_depth_are_read_from_a_list_or_a_tuple() -> None:
    answers = [(2, 5, 6), (0, -2, 29), (2, 8, 136)]
    assert per_depth("move,value,evaluations", answers, 3) == answers
    assert per_depth("move,value,evaluations", tuple(answers), 3) == answers
    assert per_depth("value", [5, -2, 8], 3) == [5, -2, 8]


def test_the_answers_per_depth_are_read_from_the_history_of_an_anytime_value() -> None:
    history = [([2], 5, 6), ([0, 1], -2, 23)]
    anytime = RemoteObject("AnytimeValue", "__main__", {"history": history, "value": history[-1]})
    assert per_depth("path,score,evaluations", anytime, 2, "history") == history
    missing = per_depth("path,score,evaluations", RemoteObject("AnytimeValue", "__main__", {}), 2, "history")
    assert missing == (
        "an object whose `history` holds a list of 2 answers, one for each depth 1 to 2, the first for depth 1: "
        "it has no `history`"
    )
    assert per_depth("path,score,evaluations", history, 2, "history") == (
        "an object whose `history` holds a list of 2 answers, one for each depth 1 to 2, the first for depth 1"
    )


def test_the_last_depths_answer_alone_is_told_apart_from_a_list_of_answers() -> None:
    # three parts and three depths: a single answer, not one per depth
    told = per_depth("move,value,evaluations", (2, 8, 136), 3)
    assert isinstance(told, str) and told.endswith("(does it keep only the last depth's answer?)")
    assert per_depth("move,value", (2, 8), 3) == (
        "a list of 3 answers, one for each depth 1 to 3, the first for depth 1: it answers once, as a search of "
        "one depth does (does it keep only the last depth's answer?)"
    )


def test_too_few_answers_are_counted() -> None:
    assert per_depth("move,value", [(2, 5), (0, -2)], 3) == (
        "a list of 3 answers, one for each depth 1 to 3, the first for depth 1, not 2"
    )
    assert per_depth("value", 5, 3) == "a list of 3 answers, one for each depth 1 to 3, the first for depth 1"
