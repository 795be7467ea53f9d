"""Where a class's grading time goes: per check, and per student function the checks call.

    .venv/bin/python bench/profile_class.py                        # the bundled classes
    .venv/bin/python bench/profile_class.py --fixtures lab05       # tests/submissions/lab05

Each notebook is graded in this process by ``grade_submission``, one after another (no
worker pool, no spare kernel). Per check: its summed ``CheckResult.duration`` over the class.
Per student function (with its chained methods and the stand-ins bound): the calls the checks
asked for, those made in the kernel and their kernel time (`grader.checks.call_tally`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import grader.grading  # noqa: E402
from grader.checks.call_tally import CallTally, FunctionTally  # noqa: E402
from grader.grading import GradingOptions, grade_submission  # noqa: E402
from grader.results import SubmissionResult  # noqa: E402
from grader.spec.loader import list_assignments, load_assignment  # noqa: E402
from grader.spec.model import Assignment  # noqa: E402

EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "submissions"
ENDLESS = "infinite-loop"  # a notebook that only costs its cell time-out, whoever runs it


class _Observed(CallTally):
    """The tally grading builds, kept where this script can read it."""

    made: list[CallTally] = []

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        _Observed.made.append(self)


def classes(fixtures: Sequence[str], bundled: bool) -> list[tuple[Assignment, list[Path]]]:
    found = []
    if bundled:
        known = set(list_assignments())
        for folder in sorted(EXAMPLES.iterdir()):
            if folder.is_dir() and folder.name in known:
                notebooks = sorted(p for p in folder.glob("*.ipynb") if ENDLESS not in p.stem)
                found.append((load_assignment(folder.name), notebooks))
    for assignment_id in fixtures:
        notebooks = sorted((FIXTURES / assignment_id).glob("*.ipynb"))
        found.append((load_assignment(assignment_id), notebooks))
    return found


def grade(path: Path, assignment: Assignment) -> tuple[SubmissionResult, float, CallTally | None]:
    _Observed.made.clear()
    started = time.perf_counter()
    result = grade_submission(path, assignment, GradingOptions())
    return result, time.perf_counter() - started, (_Observed.made[-1] if _Observed.made else None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixtures", nargs="*", default=[], metavar="ID", help="also tests/submissions/ID")
    parser.add_argument("--no-bundled", action="store_true", help="leave out examples/")
    parser.add_argument("--top", type=int, default=12, help="rows per table")
    args = parser.parse_args()
    grader.grading.CallTally = _Observed  # type: ignore[misc]

    check_seconds: dict[tuple[str, str], float] = defaultdict(float)
    tallies: dict[tuple[str, str], FunctionTally] = defaultdict(FunctionTally)
    wall = 0.0
    phases: dict[str, float] = defaultdict(float)
    count = 0
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    for assignment, notebooks in classes(args.fixtures, not args.no_bundled):
        for path in notebooks:
            count += 1
            result, seconds, observed = grade(path, assignment)
            wall += seconds
            for check in result.checks:
                check_seconds[(assignment.id, check.check_id)] += check.duration
            for name in ("kernel_start", "execute", "checks"):
                phases[name] += float(result.timings.get(name, 0.0))
            for label, tally in (observed.tallies if observed else {}).items():
                tallies[(assignment.id, label)].add(tally)
            print(f"  {assignment.id}/{path.name}: {result.score:g}/{result.max_score:g}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}; {count} notebooks")
    print(
        f"graded: {wall:.1f} s (kernel start {phases['kernel_start']:.1f} s, "
        f"cells {phases['execute']:.1f} s, checks {phases['checks']:.1f} s)"
    )

    print("\nchecks by time over the class:")
    for (assignment_id, check_id), seconds in sorted(check_seconds.items(), key=lambda item: -item[1])[: args.top]:
        print(f"  {assignment_id:21} {check_id:32} {seconds:7.2f} s")

    print("\nstudent functions by kernel time: calls asked, made, time")
    for (assignment_id, label), tally in sorted(tallies.items(), key=lambda item: -item[1].seconds)[: args.top]:
        print(f"  {assignment_id:21} {label[:44]:44} {tally.calls:6} {tally.made:6} {tally.seconds:7.2f} s")
    total = FunctionTally()
    for tally in tallies.values():
        total.add(tally)
    print(f"  all: {total.calls} calls asked, {total.made} made ({total.seconds:.1f} s in the kernel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
