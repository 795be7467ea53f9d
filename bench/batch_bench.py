"""How much a second worker buys: grade the same class of N submissions with 1 and 2 jobs.

    .venv/bin/python bench/batch_bench.py [--count 40] [--assignment alphabeta-challenges] [--sandbox auto]

The class is built from the assignment's fixture submissions (tests/submissions/<id>/) and
its solution, repeated to N files. Each run starts from an empty output folder, so nothing
is reused. Goal: 2 workers take at most 0.6 of the time of 1 worker.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.assignment import load_assignment  # noqa: E402
from grader.batch import BatchOptions, run_batch  # noqa: E402

GOAL = 0.6


def build_class(assignment_id: str, count: int, folder: Path) -> Path:
    fixtures = sorted((REPO / "tests" / "submissions" / assignment_id).glob("*.ipynb"))
    fixtures.append(load_assignment(assignment_id).solution_path)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for n, source in zip(range(count), itertools.cycle(fixtures)):
        shutil.copyfile(source, folder / f"student{n:03d}-{source.stem}.ipynb")
    return folder


def timed_batch(source: Path, assignment_id: str, out: Path, jobs: int, sandbox: str) -> tuple[float, str]:
    if out.exists():
        shutil.rmtree(out)
    started = time.monotonic()
    result = run_batch(source, load_assignment(assignment_id), out, BatchOptions(jobs=jobs, sandbox=sandbox, progress=True))
    elapsed = time.monotonic() - started
    scores = sorted(r.result.score for r in result.records)
    return elapsed, f"{len(result.graded)} graded, {len(result.not_graded)} not graded, scores {scores[0]:g}..{scores[-1]:g}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--assignment", default="alphabeta-challenges")
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "limits", "none"))
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out")
    args = parser.parse_args()

    source = build_class(args.assignment, args.count, args.out / "class")
    times = {}
    for jobs in (1, 2):
        elapsed, outcome = timed_batch(source, args.assignment, args.out / f"jobs{jobs}", jobs, args.sandbox)
        times[jobs] = elapsed
        print(f"{args.count} submissions, {jobs} worker(s): {elapsed:7.1f} s  ({elapsed / args.count:.2f} s each; {outcome})")
    ratio = times[2] / times[1]
    print(f"ratio 2 workers / 1 worker: {ratio:.2f} (goal <= {GOAL}) {'OK' if ratio <= GOAL else 'MISSED'}")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
