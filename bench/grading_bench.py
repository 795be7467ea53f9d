"""What grading costs beyond executing the notebook once.

For each seed notebook (as the student wrote it) this prints, measured side by side in one
process: executing it in the sandbox, grading it the first time in the process (which pays
for generating the hypothesis examples and the reference answers), and grading it again
(what every later submission of a batch pays). The cost of grading is the grade time minus
the execution inside it.

    .venv/bin/python bench/grading_bench.py [--rounds N] [ASSIGNMENT ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from grader.execution.session import ExecutionOptions, execute_notebook
from grader.grading import grade_submission
from grader.spec.loader import load_assignment

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["lab05", "alphabeta-challenges", "experiment04", "minimax-enhanced", "depth-limits"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=2, help="warm gradings per notebook (median reported)")
    args = parser.parse_args()
    print(f"{'assignment':22} {'execute':>8} {'grade 1st':>10} {'cost 1st':>9} {'grade warm':>11} {'cost warm':>10}")
    for assignment_id in args.assignments:
        assignment = load_assignment(assignment_id)
        notebook = ROOT / "tests" / "submissions" / assignment_id / "seed.ipynb"
        options = ExecutionOptions(
            stdin=assignment.stdin, cell_timeout=assignment.cell_timeout, notebook_timeout=assignment.notebook_timeout
        )
        started = time.monotonic()
        execute_notebook(notebook, options)
        executed = time.monotonic() - started
        costs = []
        totals = []
        for _ in range(1 + args.rounds):
            started = time.monotonic()
            result = grade_submission(notebook, assignment)
            total = time.monotonic() - started
            totals.append(total)
            costs.append(total - result.timings.get("execute", 0.0) - result.timings.get("kernel_start", 0.0))
        warm_total = statistics.median(totals[1:])
        warm_cost = statistics.median(costs[1:])
        print(
            f"{assignment_id:22} {executed:7.2f}s {totals[0]:9.2f}s {costs[0]:8.2f}s {warm_total:10.2f}s {warm_cost:9.2f}s"
            f"   (score {result.score:g}/{result.max_score:g})"
        )


if __name__ == "__main__":
    main()
