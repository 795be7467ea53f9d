"""How an `answer` check compares the notebook's value with the course's."""

from __future__ import annotations

import pytest

from grader.checks.kinds.answer import same_answer


@pytest.mark.parametrize(
    ("given", "expected", "same"),
    [
        (" b", "B", True),
        (4.0, 4, True),
        (True, 1, False),
        ("4", 4, False),
        (10**400, 4, False),
        (10**400, 10**400, True),
        (4, 10**400, False),
    ],
)
def test_a_value_is_the_answer_only_when_equal_and_never_breaks_the_check(
    given: object, expected: str | int | float | bool, same: bool
) -> None:
    assert same_answer(given, expected) is same
