"""`grader init` on one correct hand-in of a class plus the course's handout, then the whole class graded
with the assignment as written, each student's verdict set beside the oracle's.

Used by `test_init_on_class.py` (which asserts) and run as a script for the figures a course author
wants: defects caught, correct students at full marks, correct functions failed, the class's time.

    .venv/bin/python -m tests.classes.init_on_class cs50 bruno
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.authoring.create import InitReport, InitRequest, create_assignment
from grader.batch.plan import BatchOptions, run_batch
from grader.class_folder.records import GradingRecord
from grader.results import CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, Check
from tests.classes.oracle import COURSES, iter_handins

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

HERE = Path(__file__).parent


def expected_verdicts(course: str) -> dict[str, dict[str, Any]]:
    return tomllib.loads((HERE / course / "expected.toml").read_text(encoding="utf-8"))["handins"]


def functions_called(check: Check[Any]) -> set[str]:
    """The API functions (by their own name) whose calls a check makes."""
    names: set[str] = set()
    params = check.params
    for value in vars(params).values() if hasattr(params, "__dict__") else ():
        templates = value.values() if isinstance(value, dict) else [value]
        for template in templates:
            if isinstance(template, CallTemplate):
                names.add(template.function.rsplit(".", 1)[-1])
                names.update(step.name for step in template.chain)
    return names


def checks_of(assignment: Assignment, function: str) -> list[str]:
    return [check.id for check in assignment.checks if function in functions_called(check)]


@dataclass
class StudentOutcome:
    name: str
    score: float
    max_score: float
    failed_checks: set[str]
    own_defects: set[str]
    inherited_defects: set[str]
    missed: list[str] = field(default_factory=list)
    """Own defects of a function no check of which lost points."""
    wrongly_failed: list[str] = field(default_factory=list)
    """Correct functions with a check that lost points: ``function: check``."""


@dataclass
class ClassOutcome:
    course: str
    solution: str
    init: InitReport
    assignment: Assignment
    students: list[StudentOutcome]
    not_importing: list[StudentOutcome]
    seconds: float
    unchecked_functions: list[str]
    """API functions the assignment has no check for."""

    @property
    def correct(self) -> list[StudentOutcome]:
        return [s for s in self.students if not s.own_defects and not s.inherited_defects]

    @property
    def defects(self) -> int:
        return sum(len(s.own_defects) for s in self.students)

    @property
    def caught(self) -> int:
        return sum(len(s.own_defects) - len(s.missed) for s in self.students)

    @property
    def correct_at_full_marks(self) -> int:
        return sum(s.score == s.max_score for s in self.correct)

    @property
    def inherited_charged(self) -> list[str]:
        """Functions wrong only through another one whose own checks lost points too."""
        return [
            f"{s.name}: {function}"
            for s in self.students
            for function in sorted(s.inherited_defects)
            if set(checks_of(self.assignment, function)) & s.failed_checks
        ]

    @property
    def correct_functions_failed(self) -> list[str]:
        return [f"{s.name}: {w}" for s in self.students for w in s.wrongly_failed]

    def figures(self) -> str:
        return "\n".join(
            [
                f"{self.course}: init on {self.solution} with the handout; "
                f"{len(self.assignment.checks)} checks: {', '.join(c.id for c in self.assignment.checks)}",
                f"  own defects caught: {self.caught} of {self.defects}",
                f"  correct hand-ins at full marks: {self.correct_at_full_marks} of {len(self.correct)}",
                f"  correct functions failed: {len(self.correct_functions_failed)}"
                + "".join(f"\n    {line}" for line in self.correct_functions_failed),
                "  defects missed: "
                + ("none" if self.caught == self.defects else "")
                + "".join(f"\n    {s.name}: {m}" for s in self.students for m in s.missed),
                f"  functions wrong only through another: {sum(len(s.inherited_defects) for s in self.students)}, "
                f"of which charged again: {len(self.inherited_charged)}"
                + "".join(f"\n    {line}" for line in self.inherited_charged),
                f"  not importing: {', '.join(s.name for s in self.not_importing) or 'none'}"
                f" (scores {', '.join(f'{s.score:g}' for s in self.not_importing)})",
                f"  API functions with no check: {', '.join(self.unchecked_functions) or 'none'}",
                f"  class of {len(self.students) + len(self.not_importing)} graded in {self.seconds:.0f} s "
                "(two workers)",
            ]
        )


def init_assignment(course: str, solution: str, workdir: Path) -> tuple[InitReport, Path]:
    """`grader init` on the hand-in ``solution`` (its stem) with the course's handout, no edit:
    the report, and the assignment folder it wrote in ``workdir``."""
    out = workdir / f"{course}-assignment"
    handin = HERE / course / "handins" / f"{solution}.py"
    return create_assignment(InitRequest(handin, out, template=HERE / course / "handout.py")), out


def grade_class(course: str, solution: str, workdir: Path, jobs: int = 2) -> ClassOutcome:
    """Init on ``solution`` (a hand-in's stem) with the course's handout, then grade every other hand-in."""
    judge = COURSES[course]
    handins = {path.stem: path for path in iter_handins(HERE / course)}
    expected = expected_verdicts(course)
    assert expected[solution]["imports"] and "defective" not in expected[solution], f"{solution} is not correct"
    report, out = init_assignment(course, solution, workdir)
    if report.return_code != 0:
        raise AssertionError(f"init failed: {report}")
    assignment = load_assignment(out)
    class_dir = workdir / f"{course}-class"
    class_dir.mkdir()
    for stem, path in handins.items():
        if stem != solution:
            shutil.copyfile(path, class_dir / f"{stem}.py")
    started = time.monotonic()
    result = run_batch(class_dir, assignment, workdir / f"{course}-graded", BatchOptions(jobs=jobs, progress=False))
    seconds = time.monotonic() - started
    students: list[StudentOutcome] = []
    not_importing: list[StudentOutcome] = []
    for record in sorted(result.records, key=lambda r: r.submission.student_id):
        verdict = expected[record.submission.student_id]
        outcome = _compare_with(record, assignment, verdict, judge.functions)
        (students if verdict["imports"] else not_importing).append(outcome)
    unchecked = [f for f in judge.functions if not checks_of(assignment, f)]
    return ClassOutcome(course, solution, report, assignment, students, not_importing, seconds, unchecked)


def _compare_with(
    record: GradingRecord, assignment: Assignment, verdict: dict[str, Any], api: tuple[str, ...]
) -> StudentOutcome:
    failed = {c.check_id for c in record.result.checks if c.status not in (CheckStatus.PASSED, CheckStatus.MANUAL)}
    defective = set(verdict.get("defective", {}))
    inherited = set(verdict.get("through", {}))
    own = defective - inherited
    outcome = StudentOutcome(
        record.submission.student_id, record.result.score, record.result.max_score, failed, own, inherited
    )
    if not verdict["imports"]:
        return outcome
    for function in sorted(own):
        if not set(checks_of(assignment, function)) & failed:
            outcome.missed.append(f"{function}: {verdict['defective'][function]}")
    for function in api:
        if function in defective:
            continue
        outcome.wrongly_failed += [f"{function}: {c}" for c in checks_of(assignment, function) if c in failed]
    return outcome


def _workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="init-on-class-") as folder:
        yield Path(folder)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="init on one hand-in, grade the class, compare with the oracle")
    parser.add_argument("course", choices=sorted(COURSES))
    parser.add_argument("solution", help="the stem of a correct hand-in")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    for workdir in _workdir():
        outcome = grade_class(args.course, args.solution, workdir, args.jobs)
        print(outcome.figures())
        print((workdir / f"{args.course}-assignment" / "assignment.toml").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
