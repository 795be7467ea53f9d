"""Seconds from calling the in-notebook check to its shown result, against `grader check` on
the same notebook, side by side.

    .venv/bin/python bench/notebook_check_bench.py [--rounds 3] [NOTEBOOK ...]

Default notebooks: lab05's solution and two of its example mistakes. For each notebook and
round, in alternating order (a machine that drifts then favours neither side):

* in the notebook: a kernel executes the notebook (nbclient, as a student's Jupyter runs it),
  then a cell times ``notebook.check("lab05")`` through its display (HTML rendered), the
  first time in the kernel (the grader imported by the cell) and again (imported already);
* ``grader check NOTEBOOK --assignment lab05``: the command's wall time, in its own process
  (start, sandboxed kernel, the notebook executed top to bottom, the checks, the report).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.notebook.notebook_runs import displayed, execute, printed, with_cells  # noqa: E402

DEFAULT = [
    REPO / "assignments" / "lab05" / "solution.ipynb",
    REPO / "examples" / "lab05" / "ben-alphabeta-wrong-cutoff.ipynb",
    REPO / "examples" / "lab05" / "dan-missing-anti-diagonal.ipynb",
]
TIMED_CELL = """import time
from IPython.display import display
started = time.perf_counter()
from grader import notebook
display(notebook.check("lab05"))
first = time.perf_counter() - started
started = time.perf_counter()
display(notebook.check("lab05"))
print(f"{first:.3f} {time.perf_counter() - started:.3f}")"""


def in_notebook(path: Path, workdir: Path) -> tuple[float, float]:
    executed = execute(with_cells(path, TIMED_CELL), workdir)
    cell = executed.cells[-1]
    assert "gc-row" in displayed(cell, "text/html")
    first, again = printed(cell).split()
    return float(first), float(again)


def grader_check(path: Path, workdir: Path) -> float:
    started = time.perf_counter()
    command = [sys.executable, "-m", "grader", "check", str(path), "--assignment", "lab05"]
    done = subprocess.run([*command, "--report", str(workdir / "report.html")], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    assert "Score:" in done.stdout, done.stderr
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("notebooks", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'notebook':34} {'round':>5} {'in notebook (first)':>20} {'(again)':>8} {'grader check':>13}")
    for path in args.notebooks:
        firsts, agains, commands = [], [], []
        for round_number in range(args.rounds):
            with tempfile.TemporaryDirectory() as workdir:
                if round_number % 2:
                    command = grader_check(path, Path(workdir))
                    first, again = in_notebook(path, Path(workdir))
                else:
                    first, again = in_notebook(path, Path(workdir))
                    command = grader_check(path, Path(workdir))
            firsts.append(first)
            agains.append(again)
            commands.append(command)
            print(f"{path.stem:34} {round_number + 1:>5} {first:>19.2f}s {again:>7.2f}s {command:>12.2f}s", flush=True)
        print(
            f"{path.stem:34} {'median':>5} {statistics.median(firsts):>19.2f}s {statistics.median(agains):>7.2f}s "
            f"{statistics.median(commands):>12.2f}s"
        )


if __name__ == "__main__":
    main()
