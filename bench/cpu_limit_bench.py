"""A correct search of about 40 s of CPU, judged alone and while other processes load the cores.

    .venv/bin/python bench/cpu_limit_bench.py [--cpu 40] [--busy 2 4] [--sandbox auto]

lab05's solution, its `check_win` slowed down by a loop of ``SLOWDOWN`` steps (still right),
so that `minimax` from the empty board takes about ``--cpu`` seconds of CPU. It is called once
with the cores to itself, and once while each number of ``--busy`` processes spins on the two
cores (each in a session of its own, as another grader would be), under the limits `grader init`
writes for the empty board: `call_timeout` 66 s and `slow_after` 50 s of CPU time here (above
the search's own time, as a solution's must be). Goal: every run answers the right value, 0,
inside both limits, whatever its wall time.

The figures: the call's CPU and wall seconds, and whether a wall-clock limit of the same
seconds would have stopped it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.cli.options import SANDBOX_CHOICES  # noqa: E402
from grader.execution.channel.calls import Call, CallOutcome  # noqa: E402
from grader.execution.session import ExecutionOptions, NotebookSession  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402

CALL_TIMEOUT = 66.0
SLOW_AFTER = 50.0
SLOWED = """
_right_check_win = check_win
SLOWDOWN = 0


def check_win(board, player):
    for _ in range(SLOWDOWN):
        pass
    return _right_check_win(board, player)
"""


def search(session: NotebookSession, slowdown: int, timeout: float = CALL_TIMEOUT) -> CallOutcome:
    call = Call(
        "minimax", ([" "] * 9, 0, False), set_globals={"SLOWDOWN": slowdown}, timeout=timeout, check_mutation=False
    )
    return session.calls.call(call)


def report(label: str, outcome: CallOutcome) -> bool:
    right = outcome.ok and outcome.value == 0
    within = outcome.duration < SLOW_AFTER
    print(
        f"{label:<28} {outcome.status.value:<8} value={outcome.value!s:<3} cpu={outcome.duration:6.1f} s "
        f"wall={outcome.wall:6.1f} s  wall/cpu={outcome.wall / max(outcome.duration, 1e-9):4.2f}  "
        f"{'right, inside both limits' if right and within else 'MISSED'}"
        f"{'; a wall-clock limit of 66 s would have stopped it' if outcome.wall > CALL_TIMEOUT else ''}"
    )
    return right and within


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu", type=float, default=40.0, help="CPU seconds the search should take")
    parser.add_argument("--busy", type=int, nargs="+", default=[2, 4], help="busy processes, one run for each")
    parser.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    args = parser.parse_args()

    lab05 = load_assignment("lab05")
    notebook = nbformat.read(lab05.solution_path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(SLOWED))
    options = ExecutionOptions(stdin=lab05.stdin, cell_timeout=lab05.cell_timeout, sandbox=args.sandbox)
    good = True
    with NotebookSession(notebook, options) as session:
        session.execute()
        plain = search(session, 0).duration
        steps = 1000  # a slowdown large enough to measure, small enough to be quick
        per_step = (search(session, steps).duration - plain) / steps
        slowdown = max(0, round((args.cpu - plain) / per_step))
        print(f"minimax from the empty board: {plain:.1f} s of CPU; SLOWDOWN={slowdown} for about {args.cpu:g} s")
        good &= report("alone", search(session, slowdown))
        for count in args.busy:
            busy = [
                subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                for _ in range(count)
            ]
            try:
                good &= report(f"{count} busy processes", search(session, slowdown))
            finally:
                for process in busy:
                    process.kill()
                    process.wait()
    print("goal met" if good else "goal MISSED")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
