"""Auto-grader for adversarial-search notebook assignments.

Students check their work from a notebook cell with ``grader.notebook`` (or ``%load_ext
grader`` and ``%check``). The public names below are loaded on first use: ``import
grader.cli`` (or any other part) must not pay for the kernel machinery and hypothesis that
grading needs.

These names, the command line, `grader.notebook` and `grader.checks.api` (for an assignment's
own checks) are the grader's public surface. Every other module is internal: its names may
change from one release to the next, as each package's docstring says; a module that is
re-exported lists its public names in ``__all__``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.grading import GradingOptions, grade_submission
    from grader.results import CheckResult, CheckStatus, Counterexample, SubmissionResult
    from grader.spec.loader import list_assignments, load_assignment
    from grader.spec.model import Assignment, AssignmentError, Check

_HOMES = {
    "grade_submission": "grader.grading",
    "GradingOptions": "grader.grading",
    "load_assignment": "grader.spec.loader",
    "list_assignments": "grader.spec.loader",
    "Assignment": "grader.spec.model",
    "AssignmentError": "grader.spec.model",
    "Check": "grader.spec.model",
    "CheckResult": "grader.results",
    "CheckStatus": "grader.results",
    "Counterexample": "grader.results",
    "SubmissionResult": "grader.results",
    # ``%load_ext grader``: IPython looks the hook up on the package itself.
    "load_ipython_extension": "grader.notebook.magic",
}

__all__ = [
    "Assignment",
    "AssignmentError",
    "Check",
    "CheckResult",
    "CheckStatus",
    "Counterexample",
    "GradingOptions",
    "SubmissionResult",
    "grade_submission",
    "list_assignments",
    "load_assignment",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'grader' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)


def __dir__() -> list[str]:
    return sorted(__all__)
