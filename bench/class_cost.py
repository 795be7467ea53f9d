"""What grading a class costs, before and after a change: every verdict, the students' code
time summed over the class, and the grader's own time per hand-in.

    .venv/bin/python bench/class_cost.py --before /tmp/base --rounds 3
    .venv/bin/python bench/class_cost.py --before /tmp/base --classes cs50 --rounds 1

``--before`` is a checkout of the earlier commit (``git worktree add /tmp/base a6400c8``);
``--after`` (default: this checkout) the one measured against it. Each version grades in a
process of its own, with this interpreter and the grader imported from its checkout (the
worker prints which), one hand-in after another (``grade_submission``, no worker pool).
Rounds alternate the order (before first, then after first), so that a machine that drifts
favours neither; the figures are medians over the rounds.

The classes:

- ``cs50`` and ``codecademy``: ``grader init`` on the hand-in ``tests/classes/test_init_on_class.py``
  takes as the solution, with the course's handout (each version runs its own init), then every
  hand-in of ``tests/classes/COURSE/handins`` graded, the solution included;
- ``lab05``: the built-in assignment and its fixtures (``tests/submissions/lab05``), without
  ``minimax-never-returns``, which only costs its time-out, and ``best-move-takes-5-seconds``,
  whose ``best_move`` sleeps 5 s in every call (its time is the wall-clock net of the checks'
  shares, the same whatever the checks ask; ``--with-waiting`` grades it too).

Per class it prints every hand-in's verdict (its score and the checks that did not pass), with
``same`` or ``CHANGED`` against the other version (a verdict is each check's status and score;
messages that changed are counted apart), the students' code time summed over the class (the
kernel's wall time of the calls the checks made, ``timings["student_code"]``; their CPU time
beside it) and the grader's own time per hand-in, median and maximum (``bench/own_seconds.py``).
Goals: verdicts unchanged, the students' code time down 4 times or more, own time at most 0.3 s
median and 1 s max. The verdicts of each run are written to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CLASSES = ("cs50", "codecademy", "lab05")
LAB05_LEFT_OUT = ("minimax-never-returns",)
WAITING = "best-move-takes-5-seconds"
GOAL_FACTOR, GOAL_OWN_MEDIAN, GOAL_OWN_MAX = 4.0, 0.3, 1.0


# -- the worker: one version, one class, in a process of its own ---------------------------------


def _handins(course: str, repo: Path, with_waiting: bool, workdir: Path) -> tuple[Any, list[Path]]:
    from grader.spec.loader import load_assignment

    if course == "lab05":
        left_out = LAB05_LEFT_OUT if with_waiting else (*LAB05_LEFT_OUT, WAITING)
        paths = sorted(p for p in (repo / "tests/submissions/lab05").glob("*.ipynb") if p.stem not in left_out)
        return load_assignment("lab05"), paths
    from tests.classes.init_on_class import init_assignment
    from tests.classes.oracle import iter_handins
    from tests.classes.test_init_on_class import SOLUTIONS

    report, out = init_assignment(course, SOLUTIONS[course], workdir)
    if report.return_code != 0:
        raise SystemExit(f"grader init on {course}/{SOLUTIONS[course]} wrote nothing: {report.failure}")
    return load_assignment(out), list(iter_handins(repo / "tests/classes" / course))


def worker(repo: Path, course: str, with_waiting: bool, out: Path) -> int:
    sys.path.insert(0, str(repo))
    sys.path.insert(1, str(REPO / "bench"))
    from own_seconds import own_seconds

    import grader
    import grader.grading
    from grader.checks.call_tally import CallTally
    from grader.grading import GradingOptions, grade_submission

    if not Path(grader.__file__).resolve().is_relative_to(repo.resolve()):
        raise SystemExit(f"grader imported from {grader.__file__}, not from {repo}")
    cpu = {"seconds": 0.0}

    class Tally(CallTally):
        def call_many(self, calls: Any) -> Any:
            outcomes = super().call_many(calls)
            cpu["seconds"] += sum(o.duration for o in outcomes if o.status.value != "skipped")
            return outcomes

    grader.grading.CallTally = Tally  # type: ignore[misc]
    graded: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="class-cost-") as folder:
        assignment, paths = _handins(course, repo, with_waiting, Path(folder))
        print(f"  {course}: grader from {Path(grader.__file__).parent}, {len(paths)} hand-ins", flush=True)
        for path in paths:
            cpu["seconds"] = 0.0
            result = grade_submission(path, assignment, GradingOptions())
            timings = dict(result.timings)
            graded[path.stem] = {
                "score": result.score,
                "max_score": result.max_score,
                "verdicts": [[c.check_id, c.status.value, c.score] for c in result.checks],
                "messages": {c.check_id: c.message for c in result.checks},
                "student": float(timings.get("student_code", 0.0)),
                "student_cpu": cpu["seconds"],
                "own": own_seconds(timings),
                "total": float(timings.get("total", 0.0)),
            }
    out.write_text(json.dumps(graded, indent=1))
    return 0


# -- the orchestrator ----------------------------------------------------------------------------


def _run(repo: Path, course: str, with_waiting: bool, out: Path) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--repo", str(repo), "--class", course]
    command += ["--json", str(out)] + (["--with-waiting"] if with_waiting else [])
    env = {**os.environ, "PYTHONPATH": str(repo)}
    started = time.monotonic()
    subprocess.run(command, check=True, env=env, cwd=repo)
    graded: dict[str, Any] = json.loads(out.read_text())
    student = sum(g["student"] for g in graded.values())
    print(
        f"    {course} at {repo}: {time.monotonic() - started:.0f} s, students' code {student:.1f} s, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    return graded


def _verdict(g: dict[str, Any]) -> list[tuple[str, str, float]]:
    return [(c, s, round(p, 4)) for c, s, p in g["verdicts"]]


def _shown(g: dict[str, Any]) -> str:
    off = [f"{c} {s}" for c, s, _ in g["verdicts"] if s != "passed"]
    return f"{g['score']:g}/{g['max_score']:g}" + (f" ({', '.join(off)})" if off else "")


def report(course: str, runs: dict[str, list[dict[str, Any]]]) -> bool:
    before, after = runs["before"], runs["after"]
    names = list(after[0])
    print(f"\n== {course}: {len(names)} hand-ins, {len(after)} round(s)")
    changed, unstable, messages = [], [], 0
    for name in names:
        b, a = before[0][name], after[0][name]
        same = _verdict(b) == _verdict(a)
        if not same:
            changed.append(name)
        for version in (before, after):
            if any(_verdict(r[name]) != _verdict(version[0][name]) for r in version[1:]):
                unstable.append(name)
        messages += sum(b["messages"].get(c) != m for c, m in a["messages"].items())
        shown = _shown(a) if same else f"{_shown(b)}  ->  {_shown(a)}"
        print(f"  {name:38} {'same   ' if same else 'CHANGED'} {shown}")
    print(
        f"  verdicts (status and score of every check): {len(names) - len(changed)} of {len(names)} hand-ins the same"
        + (f"; CHANGED: {', '.join(changed)}" if changed else "")
        + (f"; not the same in every round: {', '.join(sorted(set(unstable)))}" if unstable else "")
        + f"; {messages} check message(s) worded differently"
    )
    met = not changed
    figures: dict[str, dict[str, float]] = {}
    for version, rounds in runs.items():
        student = [sum(g["student"] for g in r.values()) for r in rounds]
        student_cpu = [sum(g["student_cpu"] for g in r.values()) for r in rounds]
        own = {n: statistics.median(r[n]["own"] for r in rounds) for n in names}
        worst = max(own, key=lambda n: own[n])
        figures[version] = {"student": statistics.median(student), "own_median": statistics.median(own.values())}
        figures[version]["own_max"] = own[worst]
        print(
            f"  {version:6}: students' code {', '.join(f'{s:.1f}' for s in student)} s, median "
            f"{statistics.median(student):.1f} s (CPU {statistics.median(student_cpu):.1f} s); own time per hand-in "
            f"median {figures[version]['own_median']:.2f} s, max {own[worst]:.2f} s ({worst}); "
            f"graded in {statistics.median(sum(g['total'] for g in r.values()) for r in rounds):.0f} s"
        )
    factor = figures["before"]["student"] / max(figures["after"]["student"], 1e-9)
    own_met = figures["after"]["own_median"] <= GOAL_OWN_MEDIAN and figures["after"]["own_max"] <= GOAL_OWN_MAX
    print(
        f"  students' code time before / after: {factor:.1f} "
        f"(goal >= {GOAL_FACTOR:g}: {'met' if factor >= GOAL_FACTOR else 'MISSED'}); "
        f"own time {'met' if own_met else 'MISSED'} (goal median <= {GOAL_OWN_MEDIAN} s, max <= {GOAL_OWN_MAX} s); "
        f"verdicts {'unchanged' if met else 'CHANGED'}"
    )
    return met and own_met and factor >= GOAL_FACTOR


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="a checkout of the earlier commit")
    parser.add_argument("--after", type=Path, default=REPO)
    parser.add_argument("--classes", nargs="*", default=list(CLASSES), choices=CLASSES)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--with-waiting", action="store_true", help=f"grade lab05's {WAITING} too")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "class_cost")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--repo", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--class", dest="course", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.repo.resolve(), args.course, args.with_waiting, args.json)
    if args.before is None:
        parser.error("--before CHECKOUT is needed (git worktree add /tmp/base a6400c8)")
    versions = {"before": args.before.resolve(), "after": args.after.resolve()}
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()[0]:.1f}; {versions}", flush=True)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {c: {"before": [], "after": []} for c in args.classes}
    for index in range(args.rounds):
        order = ["before", "after"] if index % 2 == 0 else ["after", "before"]
        print(f"round {index + 1}: {' then '.join(order)}", flush=True)
        for course in args.classes:
            for version in order:
                out = args.out / f"{course}-{version}-{index + 1}.json"
                runs[course][version].append(_run(versions[version], course, args.with_waiting, out))
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    met = [report(course, runs[course]) for course in args.classes]
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
