"""What the validation of a built-in assignment must show, asserted alike wherever one is
validated: `test_validate.py` validates every built-in but those a module of their own grades
anyway (`VALIDATED_ELSEWHERE`), whose solution would otherwise be graded twice."""

from __future__ import annotations

from grader.results import CheckStatus
from grader.validation import TEMPLATE_MAX_FRACTION, ValidationReport

VALIDATED_ELSEWHERE = {"connect4": "tests/grading/test_game_search_kernel.py"}
"""Built-in assignments validated, and asserted with `assert_validates`, in the module named."""


def assert_validates(report: ValidationReport) -> None:
    """The solution scores full marks, every check passing, and the handout template at most a
    fifth of the points."""
    assert report.problems == ()
    assert report.ok
    solution, template = report.solution, report.template
    assert solution is not None and template is not None
    assert solution.score >= solution.max_score > 0  # bonus tasks add beyond the maximum
    assert all(c.status in (CheckStatus.PASSED, CheckStatus.MANUAL) for c in solution.checks)
    assert template.score <= TEMPLATE_MAX_FRACTION * template.max_score
