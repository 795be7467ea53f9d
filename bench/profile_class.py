"""Where a class's grading time goes: per check, and per student function the checks call.

    .venv/bin/python bench/profile_class.py                        # the bundled classes
    .venv/bin/python bench/profile_class.py --fixtures lab05       # tests/submissions/lab05
    .venv/bin/python bench/profile_class.py --compare              # also with every call made

Each notebook is graded in this process by ``grade_submission``, one after another (no
worker pool, no spare kernel). Per check: its summed ``CheckResult.duration`` over the class.
Per student function (with its chained methods and the stand-ins bound): the calls the checks
asked for, those really made in the kernel and their kernel time, how many asked a question
already asked in the same submission, and how many of those the answer memo
(`grader.checks.answer_memo`) answered. ``--compare`` grades each notebook twice side by side,
with every call made and with the memo, in alternating order, and checks that every verdict
(status, score, message) is the same.
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
from grader.checks.answer_memo import AnswerMemo, FunctionTally  # noqa: E402
from grader.grading import GradingOptions, grade_submission  # noqa: E402
from grader.results import SubmissionResult  # noqa: E402
from grader.spec.loader import list_assignments, load_assignment  # noqa: E402
from grader.spec.model import Assignment  # noqa: E402

EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "submissions"
ENDLESS = "infinite-loop"  # a notebook that only costs its cell time-out, whoever runs it


class _Observed(AnswerMemo):
    """The memo grading builds, kept where this script can read its tallies."""

    made: list[AnswerMemo] = []

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


def grade(path: Path, assignment: Assignment, memo: bool) -> tuple[SubmissionResult, float, AnswerMemo | None]:
    _Observed.made.clear()
    started = time.perf_counter()
    result = grade_submission(path, assignment, GradingOptions(memo_answers=memo))
    return result, time.perf_counter() - started, (_Observed.made[-1] if _Observed.made else None)


def verdicts(result: SubmissionResult) -> list[tuple[str, str, float, str]]:
    return [(c.check_id, c.status.value, c.score, c.message) for c in result.checks]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixtures", nargs="*", default=[], metavar="ID", help="also tests/submissions/ID")
    parser.add_argument("--no-bundled", action="store_true", help="leave out examples/")
    parser.add_argument("--compare", action="store_true", help="also grade with every call made, side by side")
    parser.add_argument("--top", type=int, default=12, help="rows per table")
    args = parser.parse_args()
    grader.grading.AnswerMemo = _Observed  # type: ignore[misc]

    check_seconds: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    tallies: dict[tuple[str, str], FunctionTally] = defaultdict(FunctionTally)
    wall = [0.0, 0.0]
    phases: dict[str, float] = defaultdict(float)
    changed: list[str] = []
    count = 0
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    for assignment, notebooks in classes(args.fixtures, not args.no_bundled):
        for n, path in enumerate(notebooks):
            count += 1
            modes = ([False, True] if n % 2 == 0 else [True, False]) if args.compare else [True]
            results = {}
            for memo in modes:
                result, seconds, observed = grade(path, assignment, memo)
                results[memo] = result
                wall[memo] += seconds
                for check in result.checks:
                    check_seconds[(assignment.id, check.check_id)][memo] += check.duration
                if memo:
                    for name in ("kernel_start", "execute", "checks"):
                        phases[name] += float(result.timings.get(name, 0.0))
                    for label, tally in (observed.tallies if observed else {}).items():
                        tallies[(assignment.id, label)].add(tally)
            if args.compare and verdicts(results[False]) != verdicts(results[True]):
                changed.append(f"{assignment.id}/{path.name}")
            print(f"  {assignment.id}/{path.name}: {results[True].score:g}/{results[True].max_score:g}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}; {count} notebooks")
    print(
        f"graded with the memo: {wall[True]:.1f} s (kernel start {phases['kernel_start']:.1f} s, "
        f"cells {phases['execute']:.1f} s, checks {phases['checks']:.1f} s)"
    )
    if args.compare:
        print(
            f"graded with every call made: {wall[False]:.1f} s; the memo's time is {wall[True] / wall[False]:.2f} of it"
        )
        print("verdicts changed: " + (", ".join(changed) if changed else "none"))

    print(f"\nchecks by time over the class{' (every call made / memo)' if args.compare else ''}:")
    ranked = sorted(check_seconds.items(), key=lambda item: -max(item[1]))
    for (assignment_id, check_id), (without, with_memo) in ranked[: args.top]:
        both = f"{without:7.2f} s {with_memo:7.2f} s" if args.compare else f"{with_memo:7.2f} s"
        print(f"  {assignment_id:21} {check_id:32} {both}")

    print("\nstudent functions by kernel time (with the memo): calls asked, made, repeats, served, time, time saved")
    for (assignment_id, label), tally in sorted(tallies.items(), key=lambda item: -item[1].seconds)[: args.top]:
        note = "  answers differed" if tally.differed else ""
        print(
            f"  {assignment_id:21} {label[:44]:44} {tally.calls:6} {tally.made:6} {tally.repeats:6} "
            f"{tally.served:6} {tally.seconds:7.2f} s {tally.saved:6.2f} s{note}"
        )
    total = FunctionTally()
    for tally in tallies.values():
        total.add(tally)
    print(
        f"  all: {total.calls} calls asked, {total.made} made ({total.seconds:.1f} s in the kernel), "
        f"{total.repeats} repeats of a question, {total.served} answered by the memo ({total.saved:.1f} s saved)"
    )
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
