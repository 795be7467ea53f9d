"""Connect Four graded end to end: a depth-4 search on the standard 6x7 board under the
student's own heuristic, judged by exact counts, and the grader's own time per submission.

    .venv/bin/python bench/connect4_bench.py [--rounds N] [--skip-standard] [--skip-builtin]
    .venv/bin/python bench/connect4_bench.py --tictactoe /tmp/c4base . --rounds 3

Two parts, each grading in this process with ``grade_submission``, one notebook after another:

- **standard board**: the connect4 solution and its fixtures, resized to 6 rows and 7 columns,
  graded by an assignment of two ``game-search`` checks at depth 4 (alpha-beta, its count
  returned; minimax, its heuristic's calls counted in the kernel) and the heuristic's own
  check. Each search check asks the student's ``evaluate`` on every leaf the reference needs
  (up to 7^4 = 2,401 a position) in one batch, runs the reference search on those values and
  compares the value, the first best column and the static evaluations exactly.
- **built-in**: the connect4 assignment (5x6) on its solution and fixtures.

``--tictactoe REPO ...`` instead grades the lab05 solution with the grader of each checkout (a
``git worktree`` of the commit before, and this one), each grading in a fresh process, the
checkouts alternating round by round: the grader's own CPU time (the process's CPU time for
``grade_submission``, which the kernel's work is not part of) and own wall time, so that a
change for another game is seen not to slow tic-tac-toe.

Per submission: the score, the checks that failed, the total, the students' code in the kernel
(``timings["student_code"]``), and the grader's own time (``bench/own_seconds.py``: the total
minus the kernel start, the cells and the students' code) in wall seconds and as CPU seconds of
this process (robust to the machine's load). Figures are medians over ``--rounds``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from own_seconds import own_seconds  # noqa: E402

from grader.grading import grade_submission  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402
from grader.spec.model import Assignment  # noqa: E402

FIXTURES = ROOT / "tests" / "submissions" / "connect4"
BUILTIN = ROOT / "assignments" / "connect4"

STANDARD_CHECKS = """
[[checks]]
id = "evaluate"
kind = "heuristic"
points = 10
call = "evaluate(board, player)"
zero_without_lines = true
antisymmetric = true

[[checks]]
id = "alphabeta-depth-4"
kind = "game-search"
points = 20
call = "alphabeta(board, depth_limit, to_move)"
heuristic = "evaluate(board, player)"
returns = "move,value,evaluations"
depth_limits = [4]
prune = true
count = "returned"
win_bonus = "plies-left"
include = ["3344", "334455"]
examples = 3

[[checks]]
id = "minimax-depth-4"
kind = "game-search"
points = 20
call = "minimax(board, depth_limit, to_move)"
heuristic = "evaluate(board, player)"
returns = "move,value"
depth_limits = [4]
count = "heuristic-calls"
win_bonus = "plies-left"
include = ["3344"]
examples = 2
"""


def standard_board(folder: Path) -> tuple[Assignment, list[Path]]:
    """The assignment on 6x7 and the solution and fixtures resized to it, written in ``folder``."""
    spec = (BUILTIN / "assignment.toml").read_text(encoding="utf-8")
    head = spec[: spec.index("[[checks]]")].replace("rows = 5", "rows = 6").replace("cols = 6", "cols = 7")
    head = head.replace('id = "connect4"', 'id = "connect4-standard"')
    (folder / "assignment.toml").write_text(head + STANDARD_CHECKS, encoding="utf-8")
    notebooks = []
    for source in [BUILTIN / "solution.ipynb", *sorted(FIXTURES.glob("*.ipynb"))]:
        notebook = nbformat.read(source, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.source = cell.source.replace(
                    "ROWS, COLS, WIN_LENGTH = 5, 6, 4", "ROWS, COLS, WIN_LENGTH = 6, 7, 4"
                )
        path = folder / source.name
        nbformat.write(notebook, path)
        notebooks.append(path)
    shutil.copy(BUILTIN / "template.ipynb", folder / "template.ipynb")
    return load_assignment(folder), notebooks


def measure(assignment: Assignment, notebooks: list[Path], rounds: int) -> None:
    print(f"{'submission':28} {'score':>9} {'total':>7} {'student':>8} {'own':>7} {'own CPU':>8}  failed")
    for notebook in notebooks:
        totals, students, owns, cpus = [], [], [], []
        for _ in range(rounds):
            cpu = time.process_time()
            result = grade_submission(notebook, assignment)
            cpus.append(time.process_time() - cpu)
            totals.append(result.timings["total"])
            students.append(result.timings.get("student_code", 0.0))
            owns.append(own_seconds(result.timings))
        failed = [c.check_id for c in result.checks if c.status.value != "passed" and c.max_score > 0]
        score = f"{result.score:g}/{result.max_score:g}"
        print(
            f"{notebook.stem:28} {score:>9} {statistics.median(totals):6.2f}s {statistics.median(students):7.2f}s "
            f"{statistics.median(owns):6.2f}s {statistics.median(cpus):7.2f}s  {', '.join(failed) or '-'}"
        )
        for check in result.checks:
            if check.kind == "game-search" and notebook.stem == "solution":
                print(f"{'':28} {check.check_id}: {check.message}")


_ONE_GRADING = """
import sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/bench")
from own_seconds import own_seconds
from grader.grading import grade_submission
from grader.spec.loader import load_assignment
assignment = load_assignment("lab05")
cpu = time.process_time()
result = grade_submission(assignment.solution_path, assignment)
print(time.process_time() - cpu, own_seconds(result.timings), result.score, result.max_score)
"""


def tictactoe(repos: list[Path], rounds: int) -> None:
    """The lab05 solution graded by each checkout, alternating, a fresh process each time."""
    seen: dict[Path, list[tuple[float, float]]] = {repo: [] for repo in repos}
    for _ in range(rounds):
        for repo in repos:
            out = subprocess.run(
                [sys.executable, "-c", _ONE_GRADING, str(repo)], capture_output=True, text=True, check=True
            ).stdout.split()
            cpu, own, score, most = (float(x) for x in out[-4:])
            assert score == most, f"{repo}: the lab05 solution scored {score:g}/{most:g}"
            seen[repo].append((cpu, own))
    print(f"{'grader':40} {'own CPU (median, min)':>24} {'own wall (median)':>18}")
    for repo, figures in seen.items():
        cpus = [cpu for cpu, _ in figures]
        owns = [own for _, own in figures]
        print(f"{str(repo):40} {statistics.median(cpus):14.2f}s {min(cpus):6.2f}s {statistics.median(owns):17.2f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="gradings per notebook (median reported)")
    parser.add_argument("--skip-standard", action="store_true", help="leave out the 6x7 part")
    parser.add_argument("--skip-builtin", action="store_true", help="leave out the built-in connect4 part")
    parser.add_argument("--tictactoe", nargs="+", type=Path, help="checkouts whose grader grades the lab05 solution")
    args = parser.parse_args()
    if args.tictactoe:
        tictactoe([repo.resolve() for repo in args.tictactoe], args.rounds)
        return
    if not args.skip_standard:
        print("Connect Four 6x7, depth 4, under each submission's own heuristic")
        with tempfile.TemporaryDirectory() as folder:
            assignment, notebooks = standard_board(Path(folder))
            measure(assignment, notebooks, args.rounds)
    if not args.skip_builtin:
        print("\nThe built-in connect4 (5x6)")
        builtin = load_assignment("connect4")
        measure(builtin, [builtin.solution_path, *sorted(FIXTURES.glob("*.ipynb"))], args.rounds)


if __name__ == "__main__":
    main()
