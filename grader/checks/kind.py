"""What a check kind is: a parameter dataclass (validated when the assignment loads) and a
function from (check, context) to a `CheckResult`. Kinds are reusable across assignments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from grader.checks.context import CheckContext
from grader.results import CheckResult
from grader.spec.model import Check

P = TypeVar("P")


@dataclass(frozen=True)
class CheckKind(Generic[P]):
    name: str
    """The ``kind`` an assignment.toml entry names."""
    params: type[P]
    run: Callable[[Check[P], CheckContext], CheckResult]
    """Raises `NotDefined` for a missing function (the registry makes it NOT RUN); anything
    else it raises is a grader fault (ERROR)."""
