"""How much a second worker buys: grade the same class of N submissions with 1 and 2 jobs.

    .venv/bin/python bench/batch_bench.py [--count 40] [--rounds 2] [--assignment alphabeta-challenges] [--sandbox auto]

The class is built from the assignment's fixture submissions (tests/submissions/<id>/) and
its solution, repeated to N files. Each run starts from an empty output folder, so nothing
is reused. Goal: 2 workers take at most 0.6 of the time of 1 worker.

With ``--rounds N`` (default 2) the pair is measured N times, every other round in reverse
order (2 workers first): a machine that drifts faster or slower during a run then favours
neither side. The goal is judged on the median of the rounds' ratios.

    .venv/bin/python bench/batch_bench.py --assignment lab05 --each 2 --leave-out minimax-never-returns best-move-takes-5-seconds --rounds 3
    .venv/bin/python bench/batch_bench.py ... --repo /tmp/base   # the grader of another checkout

``--each N`` grades every fixture N times (the solution included) instead of ``--count``;
``--leave-out`` drops the fixtures whose name contains a given word (a notebook that only costs
a time-out or a sleep is one straggler that one worker waits for alone); ``--repo`` imports the
grader from another checkout (a ``git worktree`` of an earlier commit), so that two versions
are measured by the same script.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_repo = Path(sys.argv[sys.argv.index("--repo") + 1]).resolve() if "--repo" in sys.argv[:-1] else REPO
sys.path.insert(0, str(_repo))

from grader.batch.plan import BatchOptions, run_batch  # noqa: E402
from grader.cli.options import SANDBOX_CHOICES  # noqa: E402
from grader.execution.sandbox import SandboxChoice  # noqa: E402
from grader.spec.loader import load_assignment  # noqa: E402

GOAL = 0.6


def build_class(
    assignment_id: str, count: int, folder: Path, each: int | None = None, leave_out: tuple[str, ...] = ()
) -> Path:
    fixtures = sorted((REPO / "tests" / "submissions" / assignment_id).glob("*.ipynb"))
    fixtures.append(load_assignment(assignment_id).solution_path)
    fixtures = [f for f in fixtures if not any(word in f.stem for word in leave_out)]
    if each is not None:
        count = each * len(fixtures)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for n, source in zip(range(count), itertools.cycle(fixtures)):
        shutil.copyfile(source, folder / f"student{n:03d}-{source.stem}.ipynb")
    return folder


def timed_batch(source: Path, assignment_id: str, out: Path, jobs: int, sandbox: SandboxChoice) -> tuple[float, str]:
    if out.exists():
        shutil.rmtree(out)
    started = time.monotonic()
    result = run_batch(
        source, load_assignment(assignment_id), out, BatchOptions(jobs=jobs, sandbox=sandbox, progress=True)
    )
    elapsed = time.monotonic() - started
    scores = sorted(r.result.score for r in result.records)
    return (
        elapsed,
        f"{len(result.graded)} graded, {len(result.not_graded)} not graded, scores {scores[0]:g}..{scores[-1]:g}",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--assignment", default="alphabeta-challenges")
    parser.add_argument("--sandbox", default="auto", choices=SANDBOX_CHOICES)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out")
    parser.add_argument("--rounds", type=int, default=2, help="measure the pair this many times, alternating the order")
    parser.add_argument("--each", type=int, default=None, help="every fixture this many times (instead of --count)")
    parser.add_argument("--leave-out", nargs="*", default=[], metavar="WORD", help="fixtures whose name contains WORD")
    parser.add_argument("--repo", type=Path, default=REPO, help="import the grader from this checkout")
    args = parser.parse_args()
    import grader

    print(f"grader from {Path(grader.__file__).parent}", flush=True)
    source = build_class(args.assignment, args.count, args.out / "class", args.each, tuple(args.leave_out))
    args.count = len(list(source.glob("*.ipynb")))
    ratios = []
    for round_number in range(1, args.rounds + 1):
        order = (1, 2) if round_number % 2 else (2, 1)
        times = {}
        for jobs in order:
            elapsed, outcome = timed_batch(source, args.assignment, args.out / f"jobs{jobs}", jobs, args.sandbox)
            times[jobs] = elapsed
            print(
                f"round {round_number}: {args.count} submissions, {jobs} worker(s): {elapsed:7.1f} s  "
                f"({elapsed / args.count:.2f} s each; {outcome})",
                flush=True,
            )
        ratios.append(times[2] / times[1])
        print(f"round {round_number}: 2 workers / 1 worker: {ratios[-1]:.2f}", flush=True)
    ratio = statistics.median(ratios)
    print(
        f"ratio 2 workers / 1 worker over {len(ratios)} round(s): {', '.join(f'{r:.2f}' for r in ratios)}; "
        f"median {ratio:.2f} (goal <= {GOAL}) {'OK' if ratio <= GOAL else 'MISSED'}"
    )
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
