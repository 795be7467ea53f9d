"""What the test suite's time is spent on: gradings, inits and notebook runs, as recorded by
`bench/suite_trace/sitecustomize.py` in every process of a run.

    SUITE_TRACE_DIR=/tmp/trace PYTHONPATH=bench/suite_trace \\
        .venv/bin/python -m pytest -n auto --dist loadscope --no-loadscope-reorder -q --junitxml=/tmp/suite.xml
    .venv/bin/python bench/suite_work.py /tmp/trace

The figures: the gradings' wall time and what it went to (the kernels' starts, the notebooks'
cells, the checks, and of those the students' own functions), the same per test module and per
check; the inits; and the gradings repeated, the same bytes under the same checks in more than
one test, with the wall time their repeats took; and the Python processes the suite started
(the sandboxed kernels aside), with their own CPU time.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def _records(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]


def _module(test: str) -> str:
    return test.split("::")[0] or "(outside a test)"


def _grading_figures(gradings: list[dict[str, Any]], top: int) -> None:
    timing = defaultdict(float)
    for record in gradings:
        for name in ("kernel_start", "execute", "checks", "student_code"):
            timing[name] += record["timings"].get(name, 0.0)
    print(f"{len(gradings)} gradings, {sum(r['wall'] for r in gradings):.0f} s of wall time:")
    print(f"  kernel starts {timing['kernel_start']:.0f} s, notebooks' cells {timing['execute']:.0f} s,")
    print(f"  checks {timing['checks']:.0f} s, of which the students' functions {timing['student_code']:.0f} s;")
    print(f"  the grading processes' own CPU {sum(r['cpu'] for r in gradings):.0f} s")
    per_module: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for record in gradings:
        row = per_module[_module(record["test"])]
        row[0] += 1
        row[1] += record["wall"]
        row[2] += record["timings"].get("execute", 0.0)
        row[3] += record["timings"].get("student_code", 0.0)
    print(f"\ngradings by test module (top {top}): wall, count, cells, students' functions")
    for module, (count, wall, cells, student) in sorted(per_module.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{wall:8.1f} {count:5.0f} {cells:7.1f} {student:7.1f}  {module}")
    per_check: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for record in gradings:
        for check_id, _status, seconds in record["checks"]:
            row = per_check[(record["assignment"].split(":")[0], check_id)]
            row[0] += 1
            row[1] += seconds
    print(f"\nchecks by summed time (top {top}): seconds, gradings, assignment/check")
    for (assignment, check_id), (count, seconds) in sorted(per_check.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{seconds:8.1f} {count:5.0f}  {assignment}/{check_id}")


def _repeats(gradings: list[dict[str, Any]], top: int) -> None:
    alike: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in gradings:
        if record["bytes"] is not None:
            alike[(record["bytes"], record["assignment"])].append(record)
    repeated = [
        (sum(r["wall"] for r in group) - min(r["wall"] for r in group), group)
        for group in alike.values()
        if len({_module(r["test"]) for r in group}) > 1
    ]
    repeated.sort(key=lambda item: -item[0])
    print(f"\nthe same bytes under the same checks graded in more than one test module: {len(repeated)},")
    print(f"their repeats {sum(seconds for seconds, _ in repeated):.0f} s of wall time (top {top}):")
    for seconds, group in repeated[:top]:
        modules = sorted({_module(r["test"]).rsplit("/", 1)[-1] for r in group})
        print(
            f"{seconds:8.1f} {len(group):4d}x  {Path(group[0]['submission']).name} ({group[0]['assignment']}): {', '.join(modules)}"
        )


def _what_started(argv: list[str], xdist_worker: str | None = None) -> str:
    """A process's kind from its first arguments: ``grader batch``, the fork server, a script."""
    if not argv:
        return "python"
    if argv[0] == "-c" and xdist_worker is not None:
        return "pytest-xdist worker (or a process it started with python -c)"
    if argv[0].endswith("__main__.py"):  # python -m <package>
        name = Path(argv[0]).parent.name
        return f"{name} {argv[1] if name == 'grader' and len(argv) > 1 else ''}".strip()
    if argv[0] == "-c":
        return "python -c (multiprocessing's fork servers, Dask's workers)"
    return Path(argv[0]).name


def _processes(records: list[dict[str, Any]], top: int) -> None:
    kinds: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for record in records:
        row = kinds[_what_started(record["argv"], record.get("xdist_worker"))]
        row[0] += 1
        row[1] += record["cpu"]
    print(
        f"\n{len(records)} Python processes started (the sandboxed kernels aside: they start without site), by kind (top {top}): count, their own CPU"
    )
    for kind, (count, cpu) in sorted(kinds.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{cpu:8.1f} {count:5.0f}  {kind}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("trace", type=Path, help="the folder SUITE_TRACE_DIR named")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    records = _records(args.trace)
    unrecorded = [r for r in records if r["event"] == "unrecorded"]
    if unrecorded:
        print(f"{len(unrecorded)} calls could not be recorded, the first: {unrecorded[0]['error']}")
    gradings = [r for r in records if r["event"] == "grade"]
    inits = [r for r in records if r["event"] == "init"]
    runs = [r for r in records if r["event"] == "execute"]
    _grading_figures(gradings, args.top)
    print(
        f"\n{len(inits)} inits, {sum(r['wall'] for r in inits):.0f} s of wall time, {sum(r['cpu'] for r in inits):.0f} s of their processes' CPU"
    )
    print(
        f"{len(runs)} notebook runs (in gradings, inits and the rest), {sum(r['wall'] for r in runs):.0f} s of wall time"
    )
    _repeats(gradings, args.top)
    _processes([r for r in records if r["event"] == "process"], args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
