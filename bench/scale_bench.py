"""Speed and scale: grading next to plain notebook execution, and what a second worker buys.

    .venv/bin/python bench/scale_bench.py            # every bundled notebook, a class of 200: hours
    .venv/bin/python bench/scale_bench.py --quick    # 3 notebooks per class, a class of 40: about an hour

Everything is measured side by side in one run (the machine is noisy; figures from
different runs do not compare):

1. The bundled classes (``examples/<id>/`` with a matching ``assignments/<id>/``). Each
   notebook is executed by plain nbclient (``NotebookClient`` with the stock ``python3``
   kernel, no sandbox, the same cell time-out; plain nbclient cannot answer ``input()``, so a
   first cell hands the assignment's scripted answers to the kernel's ``raw_input``): what
   running the notebooks costs with no grader. With ``--sandbox-floor`` also by ``grader.execution.session``
   with ``sandbox="none"``. Then all the classes are graded by ``run_batches`` through one
   pool, as ``grader demo`` does, with 1 worker and with 2, from empty output folders. The
   load average is printed at each step: a shared machine drifts. The
   per-phase times come from each ``SubmissionResult.timings`` (kernel start is the time
   the submission waited for its kernel); "report" is ``write_student_outputs`` timed on
   the results; "pool" is what the worker pool adds around ``grade_submission``.
   The notebooks that loop forever (``*-infinite-loop``: each costs its cell time-out,
   the same for every grader) are left out unless ``--with-timeouts``.
2. A generated class of ``--count`` submissions (default 200; 40 with ``--quick``): copies
   of the solutions and wrong submissions (``tests/submissions/<id>/``,
   ``assignments/<id>/solution.ipynb``) of the assignments in ``--generated-from`` (default:
   lab05), each with a comment of its own so that every file has its own content hash: a
   class of mixed correctness. It is measured in the same rounds, the same way, plain
   nbclient on every copy. Its wrong submissions include one whose minimax never returns:
   plain nbclient pays the cell time-out at every cell that calls it, the grader at the
   first, so each round also prints the ratio without the notebooks plain nbclient timed
   out on.

Each set is measured in ``--rounds`` rounds (default 3), every other one in reverse order
(2 workers, 1 worker, plain nbclient): a machine that speeds up or slows down during a run
then favours neither side. Each round prints its table and these figures, all from the
1-worker run unless said otherwise:

- the *floor*: grading with no grader of its own at all, i.e. executing the notebooks (the
  cells, ``timings["execute"]``, plus the waits for a kernel, ``timings["kernel_start"]``)
  plus the students' own functions the checks called, in the kernel
  (``timings["student_code"]``: the searches the rubric asks for, whole games, the empty
  board), summed over the submissions. What is above it is the grader's own;
- 1 worker's wall clock over the floor, the floor printed beside it;
- 2 workers' wall clock over 1 worker's;
- the grader's own time per submission: the total minus the kernel start, the cells and the
  students' calls (``bench/own_seconds.py``, the definition ``bench/own_time.py`` uses), its
  median, its max and the submission with the max;
- for information: 1 worker's wall clock over plain nbclient's, the floor over plain
  nbclient, and the same without the notebooks plain nbclient timed out on.

Goals, for each set, on the medians over the rounds (a submission's own time is its median
over the rounds); exit status 1 when any is missed:

- 1 worker at most 1.05 times the floor;
- 2 workers at most 0.6 of 1 worker;
- the grader's own time per submission at most 0.3 s median and 1 s max.

Output is line-buffered: a run redirected to a file and stopped keeps what it printed.
"""

from __future__ import annotations

import argparse
import io
import logging
import math
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from own_seconds import own_seconds  # noqa: E402  (bench/ is the script's folder)
from plain_nbclient import FloorRun, plain_nbclient  # noqa: E402

from grader.batch.plan import BatchJob, BatchOptions, run_batches  # noqa: E402
from grader.class_folder.outputs import write_student_outputs  # noqa: E402
from grader.class_folder.records import GradingRecord  # noqa: E402
from grader.cli.options import SANDBOX_CHOICES  # noqa: E402
from grader.execution.sandbox import SandboxChoice, resolve_mode  # noqa: E402
from grader.execution.session import ExecutionOptions, execute_notebook  # noqa: E402
from grader.spec.loader import list_assignments, load_assignment  # noqa: E402
from grader.spec.model import Assignment  # noqa: E402
from grader.submission.reader import SubmissionUnreadable  # noqa: E402

EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "submissions"
ENDLESS = "infinite-loop"  # examples/README.md: the solution plus a game loop that never ends
FLOOR_GOAL = 1.05
"""1 worker's wall clock over the floor."""
WORKERS_GOAL = 0.6
"""2 workers' wall clock over 1 worker's."""
OWN_MEDIAN_GOAL = 0.3
OWN_MAX_GOAL = 1.0
"""The grader's own seconds per submission: median and max over a set."""
PHASES = ("kernel_start", "execute", "checks", "student_code")
logging.getLogger("traitlets").setLevel(logging.CRITICAL)


# -- the floors ------------------------------------------------------------------------------------


def unsandboxed_execution(path: Path, assignment: Assignment) -> FloorRun:
    """The grader's execution layer without a sandbox (and without checks)."""
    options = ExecutionOptions(
        stdin=assignment.stdin,
        cell_timeout=assignment.cell_timeout,
        notebook_timeout=assignment.notebook_timeout,
        sandbox="none",
    )
    started = time.perf_counter()
    try:
        result = execute_notebook(path, options)
    except SubmissionUnreadable:
        return FloorRun(time.perf_counter() - started, "unreadable")
    outcome = "timeout" if any(c.status.value == "timeout" for c in result.cells) else "ok"
    return FloorRun(time.perf_counter() - started, outcome)


# -- grading ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GradedRun:
    workers: int
    wall: float
    records: dict[tuple[str, str], GradingRecord]
    """By (assignment id, student id)."""
    report_seconds: dict[tuple[str, str], float]

    def per_submission(self, key: tuple[str, str]) -> float:
        return self.records[key].seconds + self.report_seconds[key]


def grade_classes(
    classes: Sequence[tuple[Path, Assignment]], workers: int, sandbox: SandboxChoice, scratch: Path
) -> GradedRun:
    jobs = [BatchJob(folder, assignment, scratch / f"out-{workers}" / assignment.id) for folder, assignment in classes]
    for job in jobs:
        shutil.rmtree(job.out_dir, ignore_errors=True)
    started = time.perf_counter()
    results = run_batches(jobs, BatchOptions(jobs=workers, sandbox=sandbox, progress=False, force=True))
    wall = time.perf_counter() - started
    records, reports = {}, {}
    for job, result in zip(jobs, results):
        for record in result.records:
            key = (job.assignment.id, record.submission.student_id)
            records[key] = record
            began = time.perf_counter()
            write_student_outputs(scratch / "report-timing", record, job.assignment)
            reports[key] = time.perf_counter() - began
    return GradedRun(workers, wall, records, reports)


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


# -- the classes ----------------------------------------------------------------------------------------


def bundled_classes() -> list[tuple[Path, Assignment]]:
    known = set(list_assignments())
    return [
        (folder, load_assignment(folder.name))
        for folder in sorted(EXAMPLES.iterdir())
        if folder.is_dir() and folder.name in known
    ]


def class_notebooks(folder: Path, with_timeouts: bool, per_class: int | None) -> list[Path]:
    notebooks = sorted(p for p in folder.glob("*.ipynb") if with_timeouts or ENDLESS not in p.stem)
    return notebooks[:per_class]


def generate_class(assignment_ids: Iterable[str], count: int, folder: Path) -> dict[Path, Path]:
    """``count`` copies of the fixtures and solutions, each with a comment of its own.
    Returns each generated file's original."""
    originals = []
    for assignment_id in assignment_ids:
        originals += sorted((FIXTURES / assignment_id).glob("*.ipynb")) + [load_assignment(assignment_id).solution_path]
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    for n in range(count):
        original = originals[n % len(originals)]
        notebook = nbformat.read(original, as_version=4)
        first_code = next(c for c in notebook.cells if c.cell_type == "code")
        first_code.source = f"# submission {n:03d} ({original.parent.name}/{original.stem})\n" + first_code.source
        target = folder / original.parent.name / f"s{n:03d}-{original.stem}.ipynb"
        target.parent.mkdir(exist_ok=True)
        nbformat.write(notebook, target)
        made[target] = original
    return made


def with_cell_timeout(assignment: Assignment, seconds: float | None, scratch: Path) -> Assignment:
    """The assignment, or a copy of its folder whose cells time out after ``seconds``."""
    if seconds is None:
        return assignment
    copy = scratch / "assignments" / assignment.id
    shutil.copytree(assignment.directory, copy, dirs_exist_ok=True)
    toml = copy / "assignment.toml"
    text, found = re.subn(r"(?m)^cell_timeout\s*=.*$", f"cell_timeout = {seconds:g}", toml.read_text(encoding="utf-8"))
    if not found:
        text = text.replace("[assignment]\n", f"[assignment]\ncell_timeout = {seconds:g}\n", 1)
    toml.write_text(text, encoding="utf-8")
    return load_assignment(copy)


# -- printing -------------------------------------------------------------------------------------------------


def _phase(record: GradingRecord, name: str) -> float:
    return float(record.result.timings.get(name, 0.0))


def _verdict(value: float, goal: float) -> str:
    return f"goal <= {goal:g}: {'met' if value <= goal else 'MISSED'}"


@dataclass(frozen=True)
class RoundFigures:
    ratio: float
    """1 worker's wall clock over plain nbclient's (information: the goal is the floor's)."""
    workers: float
    """2 workers' wall clock over 1 worker's."""
    floor_seconds: float
    """The floor: executing the notebooks (kernel waits included) plus the students' code the
    checks call, summed over the 1-worker run's submissions."""
    to_floor: float
    """1 worker's wall clock over the floor."""
    floor_ratio: float
    """The floor over plain nbclient."""
    finished: float
    """1 worker over plain nbclient, summed per notebook over those plain nbclient ran
    without a cell time-out."""
    own: dict[str, float]
    """The grader's own seconds per submission (``assignment/student``), 1-worker run."""


def _own_per_submission(run: GradedRun) -> dict[str, float]:
    return {f"{a}/{s}": own_seconds(record.result.timings) for (a, s), record in run.records.items()}


def _own_figures(own: dict[str, float]) -> tuple[float, float, str]:
    """Median, max and the submission with the max."""
    slowest = max(own, key=lambda name: own[name])
    return statistics.median(own.values()), own[slowest], slowest


def print_round(
    classes: Sequence[tuple[Path, Assignment, list[Path]]],
    plain: dict,
    unsandboxed: dict,
    one: GradedRun,
    two: GradedRun,
) -> RoundFigures:
    own = _own_per_submission(one)
    head = (
        f"{'assignment':22} {'n':>3} {'plain nbclient':>15} {'no-sandbox exec':>16} {'grader, 1 worker':>17} {'ratio':>6}"
        f"   per submission: {'kernel wait':>11} {'execute':>8} {'checks':>7} {'(student)':>9} {'report':>7} {'pool':>6}"
        f" {'own med':>8}"
    )
    print(head)
    print("-" * len(head))
    total_plain = total_graded = total_unsandboxed = 0.0
    for _folder, assignment, notebooks in classes:
        keys = [(assignment.id, p.stem) for p in notebooks]
        floor = sum(plain[p].seconds for p in notebooks)
        bare = sum(unsandboxed[p].seconds for p in notebooks) if unsandboxed else None
        graded = sum(one.per_submission(k) for k in keys)
        records = [one.records[k] for k in keys]
        means = [statistics.fmean(_phase(r, name) for r in records) for name in PHASES]
        report = statistics.fmean(one.report_seconds[k] for k in keys)
        other = statistics.fmean(max(0.0, r.seconds - _phase(r, "total")) for r in records)
        own_median = statistics.median(own[f"{a}/{s}"] for a, s in keys)
        bare_text = f"{bare:>15.1f}s" if bare is not None else f"{'-':>16}"
        print(
            f"{assignment.id:22} {len(keys):>3} {floor:>14.1f}s {bare_text} {graded:>16.1f}s {graded / floor:>6.2f}"
            f"   {'':17}{means[0]:>10.2f}s {means[1]:>7.2f}s {means[2]:>6.2f}s {means[3]:>8.2f}s"
            f" {1000 * report:>5.0f}ms {1000 * other:>4.0f}ms {own_median:>7.2f}s"
        )
        total_plain += floor
        total_graded += graded
        total_unsandboxed += bare or 0.0
    count = sum(len(n) for *_, n in classes)
    bare_text = f"{total_unsandboxed:>15.1f}s" if unsandboxed else f"{'(not run)':>16}"
    print("-" * len(head))
    print(
        f"{'total (sum per notebook)':26} {total_plain:>14.1f}s {bare_text} {total_graded:>16.1f}s {total_graded / total_plain:>6.2f}"
    )
    ratio = one.wall / total_plain
    print(
        f"{'whole batch, wall clock':26} {'':>15} {'':>16} {one.wall:>16.1f}s {ratio:>6.2f}"
        "   (times plain nbclient, for information: the goal is the floor's, below)"
    )
    # A cell that loops costs plain nbclient its time-out, and every later cell that calls the
    # same code costs it again; the grader stops at the first. Without those notebooks:
    timed_out = [(a.id, p) for _, a, ns in classes for p in ns if plain[p].outcome != "ok"]
    kept = [(a.id, p) for _, a, ns in classes for p in ns if (a.id, p) not in timed_out]
    kept_plain = sum(plain[p].seconds for _, p in kept)
    kept_graded = sum(one.per_submission((a, p.stem)) for a, p in kept)
    finished = kept_graded / kept_plain if kept_plain else math.nan  # every notebook timed out
    if timed_out and kept:
        print(
            f"{f'without {len(timed_out)} timed out':26} {kept_plain:>14.1f}s {'':>16} {kept_graded:>16.1f}s "
            f"{finished:>6.2f}   (sum per notebook, leaving out "
            f"{', '.join(p.stem for _, p in timed_out)}: plain nbclient hit a cell time-out there)"
        )
    records = list(one.records.values())
    phases = {name: sum(_phase(r, name) for r in records) for name in PHASES}
    executing = sum(_phase(r, "kernel_start") + _phase(r, "execute") for r in records)
    floor_seconds = executing + phases["student_code"]
    floor_ratio = floor_seconds / total_plain
    print(
        f"\nWhere the 1-worker time goes: executing the notebooks {executing:.1f} s (kernel waits included; plain "
        f"nbclient: {total_plain:.1f} s), the checks {phases['checks']:.1f} s, of which the students' own functions "
        f"{phases['student_code']:.1f} s in the kernel (the searches the rubric calls: whole games, the empty board), "
        f"everything else {one.wall - executing - phases['checks']:.1f} s (reading, closing kernels, reports, the pool)."
        f"\nThe floor, executing plus the students' functions the checks call with no grader around them: "
        f"{floor_seconds:.1f} s, {floor_ratio:.2f} times plain nbclient."
    )
    to_floor = one.wall / floor_seconds
    print(
        f"1 worker against the floor: {one.wall:.1f} s, floor {floor_seconds:.1f} s: {to_floor:.2f} "
        f"({_verdict(to_floor, FLOOR_GOAL)})"
    )
    median, slowest, name = _own_figures(own)
    print(
        f"The grader's own time per submission (1 worker; total - kernel start - cells - student calls): "
        f"median {median:.2f} s ({_verdict(median, OWN_MEDIAN_GOAL)}), max {slowest:.2f} s, {name} "
        f"({_verdict(slowest, OWN_MAX_GOAL)}); {sum(own.values()):.1f} s over the {len(own)} submissions"
    )
    workers = two.wall / one.wall
    print(
        f"\nThroughput over the {count} notebooks: 1 worker {one.wall:.1f} s ({60 * count / one.wall:.1f} per minute), "
        f"2 workers {two.wall:.1f} s ({60 * count / two.wall:.1f} per minute): 2 workers take {workers:.2f} of the "
        f"1-worker time ({_verdict(workers, WORKERS_GOAL)})"
    )
    outcomes = Counter(run.outcome for run in plain.values())
    print(f"plain nbclient outcomes: {dict(outcomes)}")
    _check_same_scores(one, two)
    return RoundFigures(ratio, workers, floor_seconds, to_floor, floor_ratio, finished, own)


def _check_same_scores(*runs: GradedRun) -> None:
    first, *others = runs
    for other in others:
        differ = [k for k in first.records if first.records[k].result.score != other.records[k].result.score]
        if differ:
            print(
                f"WARNING: scores differ between {first.workers} and {other.workers} worker(s) for {differ} "
                "(a cell near its time-out on a loaded machine?)"
            )


# -- main ----------------------------------------------------------------------------------------------------------


def measure_round(
    name: str,
    classes: Sequence[tuple[Path, Assignment, list[Path]]],
    round_number: int,
    args: argparse.Namespace,
    scratch: Path,
) -> RoundFigures:
    """Plain nbclient, 1 worker and 2 workers on ``classes``, one after another, then the table."""
    # Even rounds run the steps in reverse order: a machine that drifts faster or slower
    # during a round then favours neither side.
    steps: list[str | int] = ["plain", 1, 2] if round_number % 2 else [2, 1, "plain"]
    loads = [_load()]
    graded: dict[int, GradedRun] = {}
    plain: dict[Path, FloorRun] = {}
    for step in steps:
        if step == "plain":
            plain = {p: plain_nbclient(p, a.stdin, a.cell_timeout) for _, a, ns in classes for p in ns}
        else:
            out = scratch / f"round-{round_number}" / name
            graded[int(step)] = grade_classes([(f, a) for f, a, _ in classes], int(step), args.sandbox, out)
        loads.append(_load())
    unsandboxed = (
        {p: unsandboxed_execution(p, a) for _, a, ns in classes for p in ns}
        if args.sandbox_floor and round_number == 1
        else {}
    )
    order = ", ".join(f"{s} worker(s)" if s != "plain" else "plain nbclient" for s in steps)
    print(f"{name}, round {round_number} ({order}):")
    figures = print_round(classes, plain, unsandboxed, graded[1], graded[2])
    print(
        "load average (1 min) before and after each step: "
        + ", ".join(loads)
        + " (a shared machine drifts; compare runs with similar figures)\n",
        flush=True,
    )
    return figures


def summarize(name: str, figures: Sequence[RoundFigures]) -> bool:
    """The medians over the rounds against the goals; True when all are met."""

    def rounds(values: Iterable[float]) -> str:
        return ", ".join(f"{v:.2f}" for v in values)

    ratio = statistics.median(f.ratio for f in figures)
    to_floor = statistics.median(f.to_floor for f in figures)
    floor_seconds = statistics.median(f.floor_seconds for f in figures)
    workers = statistics.median(f.workers for f in figures)
    floor_ratio = statistics.median(f.floor_ratio for f in figures)
    finished = statistics.median(f.finished for f in figures)
    # Each submission's own time is its median over the rounds; the goals read the class's
    # median and max of those.
    own = {key: statistics.median(f.own[key] for f in figures) for key in figures[0].own}
    own_median, own_max, slowest = _own_figures(own)
    print(
        f"{name}, over {len(figures)} round(s), medians:\n"
        f"  1 worker over the floor: {rounds(f.to_floor for f in figures)} (median {to_floor:.2f}, floor "
        f"{floor_seconds:.1f} s; {_verdict(to_floor, FLOOR_GOAL)})\n"
        f"  2 workers over 1 worker: {rounds(f.workers for f in figures)} (median {workers:.2f}; "
        f"{_verdict(workers, WORKERS_GOAL)})\n"
        f"  the grader's own time per submission (1 worker, each submission's median over the rounds): median "
        f"{own_median:.2f} s ({_verdict(own_median, OWN_MEDIAN_GOAL)}), max {own_max:.2f} s, {slowest} "
        f"({_verdict(own_max, OWN_MAX_GOAL)})\n"
        f"  for information: 1 worker {rounds(f.ratio for f in figures)} times plain nbclient (median {ratio:.2f}); "
        f"the floor {floor_ratio:.2f} times plain nbclient; summed over the notebooks plain nbclient ran without a "
        f"cell time-out {finished:.2f}"
    )
    return (
        to_floor <= FLOOR_GOAL and workers <= WORKERS_GOAL and own_median <= OWN_MEDIAN_GOAL and own_max <= OWN_MAX_GOAL
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 notebooks per bundled class, a generated class of 40")
    parser.add_argument(
        "--count", type=int, default=None, help="size of the generated class (default 200; 40 with --quick; 0: none)"
    )
    parser.add_argument("--generated-from", nargs="+", default=["lab05"], metavar="ID")
    parser.add_argument(
        "--with-timeouts", action="store_true", help="include the notebooks that loop until their time-out"
    )
    parser.add_argument(
        "--cell-timeout",
        type=float,
        default=None,
        metavar="S",
        help="cap every cell at S seconds, on both sides (with --with-timeouts)",
    )
    parser.add_argument(
        "--sandbox-floor", action="store_true", help="also execute with grader.execution.session, sandbox='none'"
    )
    parser.add_argument("--sandbox", default="auto", choices=SANDBOX_CHOICES)
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR", help="work in DIR and keep the outputs")
    parser.add_argument(
        "--rounds", type=int, default=3, help="measure each set this many times, alternating the order (default 3)"
    )
    args = parser.parse_args()
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A run redirected to a file and stopped part-way keeps every line printed so far.
        sys.stdout.reconfigure(line_buffering=True)
    count = args.count if args.count is not None else (40 if args.quick else 200)
    per_class = 3 if args.quick else None

    scratch = args.keep or Path(tempfile.mkdtemp(prefix="scale-bench-"))
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        print(
            f"{os.cpu_count()} cores, sandbox {resolve_mode(args.sandbox).value}, load average "
            f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; scratch {scratch}\n",
            flush=True,
        )
        sets: dict[str, list[tuple[Path, Assignment, list[Path]]]] = {}
        bundled = []
        for folder, assignment in bundled_classes():
            assignment = with_cell_timeout(assignment, args.cell_timeout, scratch)
            notebooks = class_notebooks(folder, args.with_timeouts, per_class)
            chosen = scratch / "bundled" / assignment.id
            chosen.mkdir(parents=True, exist_ok=True)
            for path in notebooks:
                shutil.copyfile(path, chosen / path.name)
            bundled.append((chosen, assignment, [chosen / p.name for p in notebooks]))
        sets["Bundled classes"] = bundled
        print(
            f"Bundled classes: {sum(len(n) for *_, n in bundled)} notebooks"
            + ("" if args.with_timeouts else f" (the *-{ENDLESS} ones left out; --with-timeouts to include them)")
        )
        if count:
            made = generate_class(args.generated_from, count, scratch / "generated")
            by_folder: dict[Path, list[Path]] = defaultdict(list)
            for path in made:
                by_folder[path.parent].append(path)
            sets["Generated class"] = [
                (folder, load_assignment(folder.name), sorted(paths)) for folder, paths in sorted(by_folder.items())
            ]
            originals = Counter(made.values())
            print(
                f"Generated class: {len(made)} submissions of mixed correctness, copies of {len(originals)} notebooks "
                f"({', '.join(sorted({p.parent.name for p in originals}))}: the solution and the wrong submissions)"
            )
        print(f"{args.rounds} round(s) each\n", flush=True)
        figures: dict[str, list[RoundFigures]] = defaultdict(list)
        for round_number in range(1, args.rounds + 1):
            for name, classes in sets.items():
                figures[name].append(measure_round(name, classes, round_number, args, scratch))
        met = all([summarize(name, found) for name, found in figures.items()])
        print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)
    print("goals met" if met else "goals missed")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
