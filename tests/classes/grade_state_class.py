"""The state-objects class (`state_lab/`) graded by the grader under an assignment of the course, each hand-in's
failed checks beside the oracle's verdict (`expected.toml`), and the figures a course author reads: correct
hand-ins at full marks, own defects caught, correct functions failed, mistakes charged twice, the fixed-assert
checker's figures on the same class, and the time the class took.

The assignment is one argument: the hand-written one of the course (the default), or one `grader init` wrote
from the course's solution and handout.

    .venv/bin/python -m tests.classes.grade_state_class
    .venv/bin/python -m tests.classes.grade_state_class --assignment /path/to/init-written-assignment
    .venv/bin/python -m tests.classes.grade_state_class --handins ada wen zeno --no-fixed
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.batch.plan import BatchOptions, run_batch
from grader.check_notes import Regraded
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, Check
from tests.classes.state_oracle import FUNCTIONS, expected_verdicts, iter_handins

HAND_WRITTEN = Path(__file__).parent.parent / "courses" / "support-state-objects"


def judged_function(check: Check[Any]) -> str | None:
    """The lab's function a check judges: the one its call calls (a search's check also hands it the student's
    heuristic, but judges the search)."""
    call = getattr(check.params, "call", None)
    function = getattr(call, "function", None)
    return function.rsplit(".", 1)[-1] if isinstance(function, str) else None


@dataclass
class Graded:
    name: str
    score: float
    max_score: float
    failed: list[str]
    """The checks that lost points."""
    own: list[str]
    """The oracle's defective functions, wrong on their own."""
    through: list[str]
    """The oracle's defective functions, wrong only through another."""
    missed: list[str] = field(default_factory=list)
    correct_failed: list[str] = field(default_factory=list)
    charged_twice: list[str] = field(default_factory=list)
    regraded: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The checks graded again with the reference's versions of wrong functions, and those functions."""

    def line(self) -> str:
        return (
            f"  {self.name:7} {self.score:5.1f}/{self.max_score:g}  failed: {', '.join(self.failed) or '-'}"
            f"  | oracle: {', '.join(self.own) or '-'}"
            + (f" (through: {', '.join(self.through)})" if self.through else "")
        )


@dataclass
class ClassGrading:
    assignment: Assignment
    graded: list[Graded]
    not_importing: list[Graded]
    wall_seconds: float
    unchecked: list[str]

    @property
    def correct(self) -> list[Graded]:
        return [g for g in self.graded if not g.own and not g.through]

    @property
    def own_defects(self) -> int:
        return sum(len(g.own) for g in self.graded)

    @property
    def caught(self) -> int:
        return self.own_defects - sum(len(g.missed) for g in self.graded)

    def figures(self) -> str:
        full = [g for g in self.correct if g.score == g.max_score]
        listed = [
            ("defects missed", [f"{g.name}: {m}" for g in self.graded for m in g.missed]),
            ("correct functions failed", [f"{g.name}: {c}" for g in self.graded for c in g.correct_failed]),
            ("inherited mistakes charged twice", [f"{g.name}: {c}" for g in self.graded for c in g.charged_twice]),
        ]
        lines = [
            f"grader, {self.assignment.directory}: {len(self.assignment.checks)} checks",
            *[g.line() for g in self.graded + self.not_importing],
            f"  correct hand-ins at full marks: {len(full)} of {len(self.correct)}",
            f"  own defects caught (a check of the function lost points): {self.caught} of {self.own_defects}",
        ]
        for title, items in listed:
            lines.append(f"  {title}: {len(items)}" + "".join(f"\n    {item}" for item in items))
        lines += [
            f"  functions wrong only through another: {sum(len(g.through) for g in self.graded)}",
            f"  not importing: {', '.join(f'{g.name} ({g.score:g})' for g in self.not_importing) or 'none'}",
            f"  lab functions with no check: {', '.join(self.unchecked) or 'none'}",
            f"  class of {len(self.graded) + len(self.not_importing)} graded in {self.wall_seconds:.0f} s "
            "(two workers; its CPU, kernels included: bench/tree_cpu.py)",
        ]
        return "\n".join(lines)


def compare(
    name: str,
    score: float,
    max_score: float,
    failed: list[str],
    verdict: dict[str, Any],
    by_check: dict[str, str | None],
) -> Graded:
    defective = set(verdict.get("defective", {}))
    through = set(verdict.get("through", {}))
    own = defective - through
    graded = Graded(name, score, max_score, sorted(failed), sorted(own), sorted(through))
    if not verdict["imports"]:
        return graded
    failed_functions: dict[str, list[str]] = {}
    for check_id in failed:
        function = by_check.get(check_id)
        if function is not None:  # a check of no function of the lab (runs-cleanly) is on the hand-in's line only
            failed_functions.setdefault(function, []).append(check_id)
    checked = set(by_check.values())
    for function in sorted(own):
        if function not in failed_functions:
            why = "no check of it" if function not in checked else "its checks passed"
            graded.missed.append(f"{function} ({why}): {verdict['defective'][function]}")
    for function, checks in sorted(failed_functions.items()):
        if function in through:
            graded.charged_twice += [f"{function}: {c}" for c in checks]
        elif function not in own:
            graded.correct_failed += [f"{function}: {c}" for c in checks]
    return graded


def grade_class(assignment_dir: Path, workdir: Path, stems: list[str] | None = None, jobs: int = 2) -> ClassGrading:
    assignment = load_assignment(assignment_dir)
    expected = expected_verdicts()
    class_dir = workdir / "class"
    class_dir.mkdir()
    for path in iter_handins():
        if stems is None or path.stem in stems:
            shutil.copyfile(path, class_dir / path.name)
    started = time.monotonic()
    result = run_batch(class_dir, assignment, workdir / "graded", BatchOptions(jobs=jobs, progress=False))
    wall = time.monotonic() - started
    by_check = {check.id: judged_function(check) for check in assignment.checks}
    graded: list[Graded] = []
    not_importing: list[Graded] = []
    for record in sorted(result.records, key=lambda r: r.submission.student_id):
        name = record.submission.student_id
        failed = [c.check_id for c in record.result.checks if c.status not in (CheckStatus.PASSED, CheckStatus.MANUAL)]
        one = compare(name, record.result.score, record.result.max_score, failed, expected[name], by_check)
        one.regraded = {
            c.check_id: note.helpers for c in record.result.checks for note in c.notes if isinstance(note, Regraded)
        }
        (graded if expected[name]["imports"] else not_importing).append(one)
    unchecked = [f for f in FUNCTIONS if f not in by_check.values()]
    return ClassGrading(assignment, graded, not_importing, wall, unchecked)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--assignment", type=Path, default=HAND_WRITTEN, help="the assignment's folder")
    parser.add_argument("--handins", nargs="*", help="grade only these hand-ins (stems)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-fixed", action="store_true", help="leave out the fixed-assert checker's figures")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="state-class-") as folder:
        print(grade_class(args.assignment, Path(folder), args.handins, args.jobs).figures())
    if not args.no_fixed:
        from tests.classes.state_fixed_checker import class_figures

        print(class_figures(args.handins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
