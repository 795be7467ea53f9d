"""How long grading a search whose node count explodes takes: the course fixture
`board-cells-loop`'s mutant `moves-include-o` (its legal moves include the other side's squares).

    .venv/bin/python bench/runaway_search.py [--course board-cells-loop] [--mutant moves-include-o] [--repeat 1]

Inits the course's solution into a temporary folder as `grader init` writes it, then grades the
mutant ``--repeat`` times and prints, per run: the wall time, the CPU time of the grader's own
process, the kernel's CPU time in the calls the checks made (the sum of the outcomes'
``duration``, the kernel's own figure), and each node-count check's time, status and message.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import grader.checks.context as check_context  # noqa: E402
from grader.authoring.create import InitRequest, create_assignment  # noqa: E402
from grader.grading import GradingOptions, grade_submission  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402

COURSES = REPO / "tests" / "courses"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


_CALLS_CPU = [0.0]


def _counting_call_cpu(make_calls: Any) -> Any:
    """``make_calls`` that adds the kernel's CPU time of every call it makes to `_CALLS_CPU`."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        outcomes = make_calls(*args, **kwargs)
        _CALLS_CPU[0] += sum(outcome.duration for outcome in outcomes.values())
        return outcomes

    return timed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", default="board-cells-loop")
    parser.add_argument("--mutant", default="moves-include-o")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    course = COURSES / args.course
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / args.course
        report = create_assignment(InitRequest(course / "solution.ipynb", out))
        if report.return_code != 0:
            print(report)
            return 1
        assignment = load_assignment(out)
        mutant = course / "mutants" / f"{args.mutant}.ipynb"
        check_context.make_calls = _counting_call_cpu(check_context.make_calls)  # type: ignore[attr-defined]
        for run in range(args.repeat):
            _CALLS_CPU[0] = 0.0
            wall, own = time.perf_counter(), _cpu()
            result = grade_submission(mutant, assignment, GradingOptions())
            wall, own = time.perf_counter() - wall, _cpu() - own
            print(
                f"run {run + 1}: {wall:.1f} s wall; CPU: grader {own:.1f} s, kernel in the checks' calls "
                f"{_CALLS_CPU[0]:.1f} s; score {result.score:g}/{result.max_score:g}",
                flush=True,
            )
            for check in result.checks:
                if check.check_id.startswith("node"):
                    print(f"  {check.check_id}: {check.status.value}, {check.duration:.1f} s: {check.headline}")
                    for note in check.notes:
                        print(f"    note: {note}")
                    if check.cause is not None:
                        print(f"    cause ({check.cause.source}): {check.cause.sentence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
