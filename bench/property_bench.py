"""What a failing property check costs: its wall time and its round trips into the kernel.

    .venv/bin/python bench/property_bench.py [--rounds 3] [ASSIGNMENT/SUBMISSION ...]

A passing check asks its whole batch in one round trip and never starts the property run;
a failing one pays a round trip for each input the run tries beyond the batch, while it
shrinks. For each submission this executes the notebook once in the sandbox, then runs every
property check (predicate, search-value, depth-limited, pruning-equivalence, successor,
no-mutation) against the live kernel, after one warm-up run (which generates the hypothesis
examples and reference answers), and prints, per failing check, the median wall time and the
round trips. (This script's first version, commit 36aa93b, measured the same checks with and
without fetching the run's examples ahead, side by side; docs/benchmarks.md and CHANGELOG.md give its figures.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.checks.context import Submission  # noqa: E402
from grader.checks.registry import run_check  # noqa: E402
from grader.execution.channel.calls import Call, CallOutcome, DefinedNames  # noqa: E402
from grader.execution.hangs import HangMemory  # noqa: E402
from grader.execution.session import ExecutionOptions, NotebookSession  # noqa: E402
from grader.results import CheckStatus  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402
from grader.spec.model import Assignment, Check  # noqa: E402
from grader.submission.reader import read_submission  # noqa: E402

PROPERTY_KINDS = {"predicate", "search-value", "depth-limited", "pruning-equivalence", "successor", "no-mutation"}
DEFAULT = [
    "lab05/missing-anti-diagonal",
    "lab05/draw-scored-as-loss",
    "lab05/marks-swapped",
    "lab05/alphabeta-wrong-cutoff",
    "lab05/depth-off-by-one",
    "experiment04/missing-column-check",
    "depth-limits/expand-player-mark",
]


class CountingCalls:
    """The kernel's call channel, counting round trips."""

    def __init__(self, calls: Any) -> None:
        self.calls = calls
        self.trips = 0

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.trips += 1
        return self.calls.call_many(calls)


def _run(check: Check[Any], assignment: Assignment, runner: CountingCalls, names: DefinedNames):
    ctx = Submission(
        assignment=assignment,
        runner=runner,
        defined_names=frozenset(names.functions) | frozenset(names.classes) | frozenset(names.variables),
        hangs=HangMemory(assignment.short_limit, names.references),
    ).check_context()
    runner.trips = 0
    started = time.monotonic()
    result = run_check(check, ctx)
    return time.monotonic() - started, runner.trips, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submissions", nargs="*", default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=3, help="timed runs each way (median reported)")
    args = parser.parse_args()
    print(f"{'submission':34} {'check':22} {'time':>8} {'trips':>6}")
    total = 0.0
    for name in args.submissions:
        assignment_id, submission = name.split("/")
        assignment = load_assignment(assignment_id)
        notebook = read_submission(REPO / "tests" / "submissions" / assignment_id / f"{submission}.ipynb").notebook
        options = ExecutionOptions(
            stdin=assignment.stdin,
            cell_timeout=assignment.cell_timeout,
            notebook_timeout=assignment.notebook_timeout,
            short_limit=assignment.short_limit,
        )
        with NotebookSession(notebook, options) as session:
            session.execute()
            names = session.calls.defined_names()
            runner = CountingCalls(session.calls)
            for check in assignment.checks:
                if check.kind not in PROPERTY_KINDS:
                    continue
                _, _, result = _run(check, assignment, runner, names)  # warm-up: examples and reference answers
                if result.status is CheckStatus.PASSED:
                    continue  # one batch, one round trip
                runs = [_run(check, assignment, runner, names) for _ in range(args.rounds)]
                median = statistics.median(seconds for seconds, _, _ in runs)
                total += median
                print(f"{name:34} {check.id:22} {median:7.3f}s {runs[-1][1]:6d}")
    print(f"{'total over failing checks':57} {total:7.3f}s")


if __name__ == "__main__":
    main()
