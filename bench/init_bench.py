"""How long `grader init` takes on each solution: goal under a minute per solution.

    .venv/bin/python bench/init_bench.py [--only ID ...] [--sandbox auto]

Runs init on every built-in assignment's solution.ipynb and every course fixture's solution
(tests/courses/<id>/solution.ipynb), each into a fresh temporary folder, and prints one row
per solution: the wall time, how much of it went to probing the functions and to checking
the draft against the solution, and the number of checks written (or why none were).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.authoring.create import InitRequest, create_assignment  # noqa: E402
from grader.cli.options import SANDBOX_CHOICES  # noqa: E402
from grader.spec.loader import BUILTIN_ASSIGNMENTS, list_assignments  # noqa: E402

GOAL_SECONDS = 60.0


def solutions() -> list[tuple[str, Path]]:
    found = [(f"builtin/{a}", BUILTIN_ASSIGNMENTS / a / "solution.ipynb") for a in list_assignments()]
    courses = sorted(p.parent for p in (REPO / "tests" / "courses").glob("*/solution.ipynb"))
    return found + [(f"course/{c.name}", c / "solution.ipynb") for c in courses]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="names as printed (builtin/lab05, course/cs50-none)")
    parser.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    args = parser.parse_args()
    rows = [(name, path) for name, path in solutions() if not args.only or name in args.only]
    print(f"{'solution':32} {'seconds':>8} {'probing':>8} {'checking':>9}  result")
    slowest = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for name, path in rows:
            out = Path(scratch) / name.replace("/", "-")
            started = time.perf_counter()
            report = create_assignment(InitRequest(path, out, sandbox=args.sandbox))
            seconds = time.perf_counter() - started
            slowest = max(slowest, seconds)
            probing, checking = (
                f"{report.timings[k]:.1f}" if k in report.timings else "-" for k in ("probing", "checking")
            )
            result = f"{len(report.results)} checks" if report.return_code == 0 else str(report)
            print(f"{name:32} {seconds:8.1f} {probing:>8} {checking:>9}  {result}", flush=True)
    print(
        f"slowest: {slowest:.1f} s (goal: under {GOAL_SECONDS:.0f} s) -> {'OK' if slowest < GOAL_SECONDS else 'MISSED'}"
    )
    return 0 if slowest < GOAL_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
