"""Which questions a class's grading pays for: every call the checks make, by check, by
function and by position, and the questions asked again (the same function with the same
arguments, in the same check or another).

    .venv/bin/python bench/call_costs.py --fixtures lab05
    .venv/bin/python bench/call_costs.py --course codecademy       # init on the hand-in, then the class

Each notebook (or hand-in) is graded in this process by ``grade_submission``, one after another.
Per check and function: calls made, their kernel wall time and CPU time; the costliest
positions (the first argument of the call, as the kernel got it) over the class; and the time
spent on calls whose function and arguments (globals set, stand-ins, chained methods, counted
names and recording included) were asked before in the same hand-in, split into those asked
again by the same check and by another.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import grader.grading  # noqa: E402
from grader.checks.call_tally import CallTally, function_label  # noqa: E402
from grader.execution.channel.call_data import Call, CallOutcome, CallStatus  # noqa: E402
from grader.grading import GradingOptions, grade_submission  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402

LEFT_OUT = ("minimax-never-returns", "best-move-takes-5-seconds")

_current = {"check": "?"}
_calls: list[tuple[str, str, str, str, float, float]] = []
"""(hand-in, check, function, arguments, wall, cpu) of every call made."""


def _question(call: Call) -> str:
    """What a call asks, as a key: its function and every input that can change the answer."""
    return repr((call.args, sorted(call.kwargs.items()), sorted(call.set_globals.items()), call.then, call.stand_ins))


def _observe(handin: str) -> None:
    class Logged(CallTally):
        def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
            outcomes = super().call_many(calls)
            for call, outcome in zip(calls, outcomes):
                if outcome.status is not CallStatus.SKIPPED:
                    what = _question(call) + repr((call.count, call.explore is not None))
                    _calls.append(
                        (handin, _current["check"], function_label(call), what, outcome.wall, outcome.duration)
                    )
            return outcomes

    grader.grading.CallTally = Logged  # type: ignore[misc]
    original = grader.grading.run_check

    def run_check(check: Any, ctx: Any) -> Any:
        _current["check"] = check.id
        return original(check, ctx)

    if not hasattr(grader.grading, "_unlogged"):
        grader.grading._unlogged = original  # type: ignore[attr-defined]
        grader.grading.run_check = run_check  # type: ignore[assignment]


def _handins(args: argparse.Namespace, workdir: Path) -> tuple[Any, list[Path]]:
    if args.course:
        from tests.classes.init_on_class import init_assignment
        from tests.classes.oracle import iter_handins
        from tests.classes.test_init_on_class import SOLUTIONS

        report, out = init_assignment(args.course, SOLUTIONS[args.course], workdir)
        if report.return_code != 0:
            raise SystemExit(f"grader init wrote nothing: {report.failure}")
        return load_assignment(out), list(iter_handins(REPO / "tests/classes" / args.course))
    folder = REPO / "tests/submissions" / args.fixtures
    return load_assignment(args.fixtures), sorted(p for p in folder.glob("*.ipynb") if p.stem not in LEFT_OUT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fixtures", metavar="ID", help="tests/submissions/ID")
    which.add_argument("--course", choices=("cs50", "codecademy"), help="a modelled class of tests/classes")
    parser.add_argument("--top", type=int, default=15, help="rows per table")
    parser.add_argument("--check", help="also each hand-in's calls and time in this check, and its status")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="call-costs-") as folder:
        assignment, paths = _handins(args, Path(folder))
        for path in paths:
            _observe(path.stem)
            result = grade_submission(path, assignment, GradingOptions())
            shown = ""
            if args.check:
                mine = [c for c in _calls if c[0] == path.stem and c[1] == args.check]
                status = next((c.status.value for c in result.checks if c.check_id == args.check), "-")
                shown = f"; {args.check} {status}: {len(mine)} calls, {sum(c[4] for c in mine):.2f} s"
            print(f"  {path.stem}: {result.score:g}/{result.max_score:g}{shown}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")

    by_check: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    by_board: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    asked: dict[tuple[str, str, str], str] = {}
    again = Counter[str]()
    again_seconds: dict[str, float] = defaultdict(float)
    for handin, check, function, what, wall, cpu in _calls:
        row = by_check[(check, function)]
        row[0] += 1
        row[1] += wall
        row[2] += cpu
        board = by_board[(function, what[:60])]
        board[0] += 1
        board[1] += wall
        key = (handin, function, what)
        if key in asked:
            where = "same check" if asked[key] == check else f"{asked[key]} -> {check}"
            again[where] += 1
            again_seconds[where] += wall
        else:
            asked[key] = check
    total = sum(c[4] for c in _calls)
    print(f"\n{len(_calls)} calls made, {total:.1f} s wall in the kernel, {sum(c[5] for c in _calls):.1f} s CPU")
    print("\nby check and function: calls, wall, CPU")
    for (check, function), (n, wall, cpu) in sorted(by_check.items(), key=lambda item: -item[1][1])[: args.top]:
        print(f"  {check:28} {function[:40]:40} {n:6} {wall:7.2f} s {cpu:7.2f} s")
    print("\ncostliest questions (function, start of the arguments): calls, wall")
    for (function, what), (n, wall) in sorted(by_board.items(), key=lambda item: -item[1][1])[: args.top]:
        print(f"  {function[:30]:30} {what:60} {n:5} {wall:7.2f} s")
    print("\nasked again in the same hand-in: calls, wall")
    for where, n in again.most_common():
        print(f"  {where:50} {n:6} {again_seconds[where]:7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
