"""What a check kind is: a parameter dataclass (validated when the assignment loads), a
function from (check, context) to a `CheckResult`, and the student functions a check of the
kind needs. Kinds are reusable across assignments."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from grader.checks.context import CheckContext
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check

P = TypeVar("P")


def called_functions(params: object) -> tuple[str, ...]:
    """The student functions a kind's parameters call: those of its call templates."""
    if not dataclasses.is_dataclass(params):
        return ()
    values = (getattr(params, f.name) for f in dataclasses.fields(params))
    return tuple(value.function for value in values if isinstance(value, CallTemplate))


@dataclass(frozen=True)
class CheckKind(Generic[P]):
    name: str
    """The ``kind`` an assignment.toml entry names."""
    params: type[P]
    run: Callable[[Check[P], CheckContext], CheckResult]
    """Raises `NotDefined` for a missing function (the registry makes it NOT RUN); anything
    else it raises is a grader fault (ERROR)."""
    needs: Callable[[P], tuple[str, ...]] = called_functions
    """The student functions a check of this kind calls (a bonus check runs only when the
    notebook defines them all)."""
    hands: Callable[[P], tuple[str, ...]] = lambda _: ()
    """The notebook's functions a check of this kind hands to its calls inside an object it
    makes (the lab's board functions the course's state carries): its calls reach them though
    their code never names them, so a wrong one is stood in for there too."""
    any_game: bool = False
    """The kind asks the assignment's game (``[game]``); False: it knows tic-tac-toe alone,
    and an assignment on another game may not use it."""
