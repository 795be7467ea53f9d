"""Solution markers, read line by line: what the answer key keeps, what students get, and one
error naming the line for a marker that cannot be read."""

from __future__ import annotations

import pytest

from grader.release.markers import ANSWER_PLACEHOLDER, MarkerError, split_source

NBGRADER = '''def minimax(board, is_max):
    """The value, O maximizing."""
    ### BEGIN SOLUTION
    if won(board):
        return score(board)
    return max(children(board))
    ### END SOLUTION
'''


def test_a_region_becomes_the_stub_at_its_indentation_and_the_key_loses_only_the_marker_lines() -> None:
    split = split_source(NBGRADER, where="cell 3")
    assert (
        split.student
        == 'def minimax(board, is_max):\n    """The value, O maximizing."""\n    raise NotImplementedError()\n'
    )
    assert split.solution == NBGRADER.replace("    ### BEGIN SOLUTION\n", "").replace("    ### END SOLUTION\n", "")
    assert (split.marked, split.locked) == (True, False)
    compile(split.student, "student", "exec")


def test_the_courses_own_stub_line_takes_the_solutions_place() -> None:
    split = split_source(NBGRADER, where="cell 3", stub="pass  # your code here")
    assert "    pass  # your code here\n" in split.student
    assert "NotImplementedError" not in split.student


def test_otter_lines_keep_an_assignments_target_and_no_prompt_leaves_nothing() -> None:
    source = (
        "def best(board):\n"
        "    depth = 9  # SOLUTION\n"
        "    # BEGIN SOLUTION NO PROMPT\n"
        "    helper = 1\n"
        "    # END SOLUTION\n"
        "    return search(board, depth)  # SOLUTION\n"
        "    log(board)  # SOLUTION NO PROMPT\n"
    )
    split = split_source(source, where="cell 1")
    assert split.student == "def best(board):\n    depth = ...\n    raise NotImplementedError()\n"
    assert split.solution == (
        "def best(board):\n    depth = 9\n    helper = 1\n    return search(board, depth)\n    log(board)\n"
    )


def test_hidden_tests_stay_in_the_key_and_never_reach_students() -> None:
    source = "assert f(1) == 1\n### BEGIN HIDDEN TESTS\nassert f('X........') == 7\n### END HIDDEN TESTS\n"
    split = split_source(source, where="cell 5")
    assert split.student == "assert f(1) == 1\n"
    assert "X........" in split.solution and "HIDDEN" not in split.solution
    assert not split.marked  # tests are not a solution


def test_a_locked_cell_is_read_and_its_marker_taken_out() -> None:
    split = split_source("# LOCKED\nLINES = [(0, 1, 2)]\n", where="cell 2")
    assert split.locked and split.student == split.solution == "LINES = [(0, 1, 2)]\n"


def test_a_markdown_answer_becomes_the_answer_placeholder() -> None:
    split = split_source("Why?\n# BEGIN SOLUTION\nBecause.\n# END SOLUTION\n", where="cell 4", markdown=True)
    assert split.student == f"Why?\n{ANSWER_PLACEHOLDER}\n" and split.solution == "Why?\nBecause.\n"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = 1\n### BEGIN SOLUTION\nx = 2\n", "cell 7, line 2: BEGIN SOLUTION is never closed by END SOLUTION"),
        ("x = 1\n### END SOLUTION\n", "cell 7, line 2: END SOLUTION with no BEGIN SOLUTION before it"),
        (
            "# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION\n",
            "cell 7, line 2: BEGIN SOLUTION inside the solution begun on line 1",
        ),
        (
            "### BEGIN HIDDEN TESTS\nx\n### END SOLUTION\n",
            "cell 7, line 3: END SOLUTION with no BEGIN SOLUTION before it",
        ),
        ("def f():\n    # begin solution\n    return 1\n", "cell 7, line 2: '# begin solution' is not a marker"),
        ("### BEGIN SOLUTIONS\nx = 1\n", "cell 7, line 1: '### BEGIN SOLUTIONS' is not a marker"),
        ("# LOCKED\nx = 1  # SOLUTION\n", "cell 7 is marked # LOCKED and holds a solution"),
    ],
    ids=["unclosed", "end-alone", "nested", "crossed", "lower-case", "plural", "locked-solution"],
)
def test_a_marker_that_cannot_be_read_is_one_error_naming_its_line(source: str, message: str) -> None:
    with pytest.raises(MarkerError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        split_source(source, where="cell 7")
