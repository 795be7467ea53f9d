"""What logging the heuristic's calls costs a game-search check: the connect4 solution's search
checks run in this process (the kernel's executor on a plain namespace, as the check tests
run them), with the log and without it, CPU time of the process (robust to the machine's load),
the best of ``--rounds``.

    .venv/bin/python bench/heuristic_log_cost.py [--rounds N]

The log keeps a snapshot of each board the heuristic is given; it is what lets a failing
search show the node where it parted from the reference's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.checks.context import CheckContext  # noqa: E402
from grader.checks.registry import run_check  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402
from tests.checks.in_process import InProcessRunner, solution_definitions  # noqa: E402

ASSIGNMENT = load_assignment("connect4")
SOLUTION = solution_definitions(ASSIGNMENT)


def seconds(check_id: str, rounds: int) -> float:
    check = next(c for c in ASSIGNMENT.checks if c.id == check_id)
    best = []
    for _ in range(rounds):
        runner = InProcessRunner(SOLUTION)
        ctx = CheckContext.of(
            ASSIGNMENT, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(ASSIGNMENT)
        )
        started = time.process_time()
        run_check(check, ctx)
        best.append(time.process_time() - started)
    return min(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    student = CheckContext.student

    def unlogged(self: CheckContext, template: Any, **options: Any) -> Any:
        options.pop("log", None)
        return student(self, template, **options)

    print(f"{'check':12} {'without the log':>16} {'with it':>9}")
    for check_id in ("minimax", "alphabeta", "deepening"):
        logged = seconds(check_id, rounds)
        CheckContext.student = unlogged  # type: ignore[method-assign]
        try:
            plain = seconds(check_id, rounds)
        finally:
            CheckContext.student = student  # type: ignore[method-assign]
        print(f"{check_id:12} {plain:>14.2f} s {logged:>7.2f} s")


if __name__ == "__main__":
    main()
