"""The draft's checks run against the solution that was probed, and the checks it fails read
again where init claimed too much.

init reads some properties of a solution's function from a dozen probes (a heuristic that is
zero where no line has begun); the check then asks a wider sample, seeded by the assignment's
id. Where the solution itself fails a check only through such a property, the property was
never the course's: the check is written again without it, run again, and kept when the
solution passes it, with a note saying what was dropped. A check the solution still fails is
left out by the caller, as before.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from grader.authoring.draft import Draft, DraftCheck
from grader.checks.kinds.game_heuristic import HeuristicParams
from grader.errors import GraderError
from grader.execution.result import ExecutionResult
from grader.execution.session import NotebookSession
from grader.grading import run_checks
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import assignment_from
from grader.spec.model import AssignmentError
from grader.spec.tables import AssignmentTable, SpecFile

READ_FROM_PROBES: dict[type, tuple[tuple[str, str], ...]] = {
    HeuristicParams: (("zero_without_lines", "zero where no line holds one side's pieces"),),
}
"""Per kind's parameters: the properties init reads from its probes alone, each with its words."""


class DraftRefused(GraderError):
    """The drafted assignment does not load: a bug of init's, said plainly by the caller."""


def solution_results(
    spec: SpecFile, folder: Path, session: NotebookSession, execution: ExecutionResult | None
) -> list[CheckResult]:
    """``spec``'s checks run against the solution in the kernel that was probed (its assignment
    written as if in ``folder``); raises AssignmentError when the spec does not load."""
    assignment = assignment_from(spec, folder / "assignment.toml")
    allowed = assignment.grading_deadline
    _, results = run_checks(session, execution, assignment, time.monotonic() + allowed, allowed)
    return results


def candidate_passes(
    session: NotebookSession, check: DraftCheck, game: Mapping[str, Any], table: AssignmentTable
) -> bool:
    """Whether the solution passes ``check`` alone, under ``table``'s limits: how init's readers
    choose among the readings of a function."""
    spec = SpecFile(assignment=table, checks=(check.check(),), game=dict(game))
    with tempfile.TemporaryDirectory() as folder:
        try:
            results = solution_results(spec, Path(folder), session, None)
        except AssignmentError:
            return False
    return all(r.status is CheckStatus.PASSED for r in results)


def check_own_solution(
    spec: SpecFile, staging: Path, session: NotebookSession, execution: ExecutionResult
) -> list[CheckResult]:
    """The draft's checks, run against the solution in the kernel that was probed."""
    try:
        return solution_results(spec, staging, session, execution)
    except AssignmentError as exc:
        raise DraftRefused(str(exc)) from None


def relax_failing(draft: Draft, results: list[CheckResult]) -> set[str]:
    """Write each check the solution fails without the properties init read from its probes
    alone (a note says so); the ids of the checks written again."""
    failed = {r.check_id: r for r in results if r.status is CheckStatus.FAILED}
    relaxed: set[str] = set()
    for number, check in enumerate(draft.checks):
        properties = READ_FROM_PROBES.get(type(check.params), ())
        dropped = [(name, words) for name, words in properties if getattr(check.params, name)]
        if check.id not in failed or not dropped:
            continue
        params = dataclasses.replace(check.params, **{name: False for name, _ in dropped})
        said = ", ".join(words for _, words in dropped)
        evidence = f"{check.evidence}; but not '{said}': the solution itself does not keep it"
        draft.checks[number] = dataclasses.replace(check, params=params, evidence=evidence)
        relaxed.add(check.id)
        draft.notes.append(
            f"check {check.id} is written without '{said}', which the probes suggested and the "
            f"solution itself does not keep: {failed[check.id].message}"
        )
    return relaxed


def only(draft: Draft, ids: set[str]) -> Draft:
    """The draft with only the checks ``ids`` names, to run them again."""
    return dataclasses.replace(draft, checks=[c for c in draft.checks if c.id in ids])
