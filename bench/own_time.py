"""The grader's own time: per submission, per check and per phase, apart from the students' code.

    .venv/bin/python bench/own_time.py                          # tests/submissions/lab05
    .venv/bin/python bench/own_time.py --fixtures lab05 --bundled --rounds 3
    .venv/bin/python bench/own_time.py --repo ../other-checkout # the same, graded by another checkout
    .venv/bin/python bench/own_time.py --class cs50 --rounds 3  # a class of .py hand-ins, beside a fixed checker

Each notebook is graded in this process by ``grade_submission``, one after another (no worker
pool, no spare kernel), in ``--rounds`` rounds; figures are medians over the rounds. A
process keeps what it learnt from one submission for the next (the reference's explorations):
the first round is a class graded by a fresh worker, later rounds a worker that has graded it
once.

Per submission, the grader's own time is the total minus the kernel start, minus the cells
(``timings["execute"]``) and minus the students' functions the checks called (their kernel
time, ``timings["student_code"]``; defined once, in ``bench/own_seconds.py``): what would go
away with a grader that cost nothing. Its median and maximum are the figures to watch.

The checks' own time is split by phase, each counted once (a phase inside another is taken
out of the outer one, and so is the students' kernel time inside any of them):

- diagnosis: a node-count check comparing explorations and naming the known mistake
  (``grader.checks.causes.explorations``), a lower-level function behind every answer of a
  check (``Findings.root_cause``), the cause of a wrong search value
  (``grader.checks.causes.search.search_cause``);
- reference: the reference's answers (``grader.checks.reference_answers``);
- other: the rest of the checks' own time (the call channel, hypothesis, the verdicts' words).

Rendering is the student's report (``render_student_report``) and ``results.json`` of each
result, timed after grading. Counts that do not depend on the load: searches the reference
engine ran (``reference.engine.Search.search``, each an alpha-beta or an exploration of a rule
set) and the positions they entered.

``--class COURSE`` grades a class of ``.py`` hand-ins instead (``tests/classes/COURSE``:
cs50 or codecademy). ``grader init`` is run as ``tests/classes/init_on_class.py`` runs it,
on the hand-in its test takes as the solution plus the course's handout, into a temporary
folder; then every hand-in of the class, the solution included, is graded in this process as
the notebooks are, with the same figures. In the same run, in alternating order between the
rounds, a fixed-assert checker of the same class (33 checks) runs over the same hand-ins, one
after another, each in a fresh process as a course's checker runs them, in two forms: a plain
pytest file (``tests/classes/fixed_asserts.py``, ``python -m pytest`` with no plugin) and the
same checks in a bare interpreter (``tests/classes/fixed_checker.py``). The goal: the class's
summed own time (median over the rounds) at most the pytest file's time for the whole class
(median); exit status 1 when it is missed. The bare interpreter's time is printed beside it.
That checker asks the CS50 API; for another course the comparison is said to be not made.

``--repo PATH`` imports the grader from another checkout (a ``git worktree`` of an earlier
commit, say) so that two versions are measured by the same script; run the two one after
the other, alternating, on a machine that is as quiet as it gets.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from own_seconds import own_seconds  # bench/ is the script's folder

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "submissions"
EXAMPLES = REPO / "examples"
SKIPPED = ("minimax-never-returns", "infinite-loop")
"""Notebooks that only cost a time-out, whoever grades them."""


def _import_from(repo: Path) -> None:
    sys.path.insert(0, str(repo))


@dataclass
class _Frame:
    phase: str
    started: float
    student_started: float
    inner_seconds: float = 0.0
    """Time spent in phases inside this one (student time included)."""


@dataclass
class PhaseClock:
    """Time per phase, each counted once, without the students' kernel time inside it."""

    student_seconds: Callable[[], float] = lambda: 0.0
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    stack: list[_Frame] = field(default_factory=list)

    def wrap(self, phase: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            frame = _Frame(phase, time.perf_counter(), self.student_seconds())
            self.stack.append(frame)
            try:
                return function(*args, **kwargs)
            finally:
                self.stack.pop()
                elapsed = time.perf_counter() - frame.started
                student = self.student_seconds() - frame.student_started
                self.seconds[phase] += max(0.0, elapsed - frame.inner_seconds - student)
                if self.stack:
                    self.stack[-1].inner_seconds += elapsed

        timed.__wrapped__ = function  # type: ignore[attr-defined]
        return timed


def _patch_everywhere(original: Callable[..., Any], replacement: Callable[..., Any]) -> int:
    """Replace ``original`` wherever a grader or reference module holds it by name."""
    patched = 0
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("grader", "reference")):
            continue
        for attribute, value in list(vars(module).items()):
            if value is original:
                setattr(module, attribute, replacement)
                patched += 1
    return patched


@dataclass
class EngineCount:
    """Searches the reference engine ran and the positions they entered."""

    searches: int = 0
    made: list[Any] = field(default_factory=list)

    def nodes(self) -> int:
        return sum(search.nodes for search in self.made)

    def install(self) -> None:
        from reference.engine import Search

        count = self
        original_init, original_search = Search.__init__, Search.search

        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            original_init(self, *args, **kwargs)
            count.made.append(self)

        def search(self: Any, *args: Any, **kwargs: Any) -> Any:
            count.searches += 1
            return original_search(self, *args, **kwargs)

        Search.__init__ = init  # type: ignore[method-assign]
        Search.search = search  # type: ignore[method-assign]

    def take(self) -> tuple[int, int]:
        """(searches, positions) since the last take."""
        taken = (self.searches, self.nodes())
        self.searches = 0
        self.made.clear()
        return taken


@dataclass
class Graded:
    name: str
    timings: Mapping[str, float]
    """The result's ``timings``."""
    render: float
    checks: dict[str, tuple[float, float, int, int]]
    """check id -> (own seconds, student seconds, engine searches, positions)."""
    phases: dict[str, float]

    def _timing(self, name: str) -> float:
        return float(self.timings.get(name, 0.0))

    @property
    def total(self) -> float:
        return self._timing("total")

    @property
    def kernel_start(self) -> float:
        return self._timing("kernel_start")

    @property
    def cells(self) -> float:
        return self._timing("execute")

    @property
    def student(self) -> float:
        return self._timing("student_code")

    @property
    def own(self) -> float:
        return own_seconds(self.timings)


def notebooks(fixtures: Sequence[str], bundled: bool) -> list[tuple[str, list[Path]]]:
    from grader.spec.loader import list_assignments

    found = []
    for assignment_id in fixtures:
        found.append((assignment_id, sorted((FIXTURES / assignment_id).glob("*.ipynb"))))
    if bundled:
        known = set(list_assignments())
        for folder in sorted(EXAMPLES.iterdir()):
            if folder.is_dir() and folder.name in known:
                found.append((folder.name, sorted(folder.glob("*.ipynb"))))
    return [(a, [p for p in paths if not any(s in p.stem for s in SKIPPED)]) for a, paths in found]


def _instrument() -> tuple[PhaseClock, EngineCount, list[Any]]:
    import grader.grading
    from grader.checks import reference_answers
    from grader.checks.call_tally import CallTally
    from grader.checks.causes import explorations, findings, search

    tallies: list[Any] = []

    class Observed(CallTally):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            tallies.append(self)

    grader.grading.CallTally = Observed  # type: ignore[misc]
    clock = PhaseClock(lambda: tallies[-1].kernel_seconds if tallies else 0.0)
    diagnosis = [getattr(explorations, n) for n in ("compare", "explained", "separate") if hasattr(explorations, n)]
    diagnosis.append(search.search_cause)
    for function in diagnosis:
        _patch_everywhere(function, clock.wrap("diagnosis", function))
    findings.Findings.root_cause = clock.wrap("diagnosis", findings.Findings.root_cause)  # type: ignore[method-assign]
    for name in ("reference_answer", "reference_minimax_nodes", "reference_alphabeta"):
        function = getattr(reference_answers, name)
        _patch_everywhere(function, clock.wrap("reference", function))
    engine = EngineCount()
    engine.install()
    return clock, engine, tallies


def grade_one(path: Path, assignment: Any, clock: PhaseClock, engine: EngineCount, tallies: list[Any]) -> Graded:
    from grader.feedback.html import render_student_report
    from grader.grading import GradingOptions, grade_submission

    checks: dict[str, tuple[float, float, int, int]] = {}
    before = {"student": 0.0}
    clock.seconds.clear()
    engine.take()

    def on_check(result: Any) -> None:
        now = tallies[-1].kernel_seconds if tallies else 0.0
        student = now - before["student"]
        before["student"] = now
        searches, positions = engine.take()
        checks[result.check_id] = (result.duration - student, student, searches, positions)

    result = grade_submission(path, assignment, GradingOptions(), on_check=on_check)
    began = time.perf_counter()
    render_student_report(result, submission_name=path.name, student_id=path.stem, assignment=assignment)
    json.dumps(result.to_dict())
    render = time.perf_counter() - began
    return Graded(path.stem, dict(result.timings), render, checks, dict(clock.seconds))


def _median(values: Iterator[float] | Sequence[float]) -> float:
    listed = list(values)
    return statistics.median(listed) if listed else 0.0


def report(rounds: list[list[Graded]], top: int) -> None:
    names = [g.name for g in rounds[0]]
    by_name = {name: [next(g for g in graded if g.name == name) for graded in rounds] for name in names}
    own = {name: _median(g.own for g in runs) for name, runs in by_name.items()}
    print(f"\nper submission, medians over {len(rounds)} round(s): own = total - kernel start - cells - student calls")
    print(f"  {'notebook':36} {'total':>7} {'kernel':>7} {'cells':>7} {'student':>8} {'own':>7} {'render':>7}")
    for name, runs in by_name.items():
        print(
            f"  {name[:36]:36} {_median(g.total for g in runs):7.2f} {_median(g.kernel_start for g in runs):7.2f} "
            f"{_median(g.cells for g in runs):7.2f} {_median(g.student for g in runs):8.2f} {own[name]:7.2f} "
            f"{_median(g.render for g in runs):7.3f}"
        )
    values = sorted(own.values())
    print(
        f"own time per submission: median {statistics.median(values):.2f} s, max {values[-1]:.2f} s "
        f"({max(own, key=lambda n: own[n])}), sum {sum(values):.1f} s over {len(values)} notebooks"
    )
    for index, graded in enumerate(rounds):
        round_own = sorted(g.own for g in graded)
        searches = sum(c[2] for g in graded for c in g.checks.values())
        positions = sum(c[3] for g in graded for c in g.checks.values())
        print(
            f"  round {index + 1}: own median {statistics.median(round_own):.2f} s, max {round_own[-1]:.2f} s; "
            f"engine searches {searches:,}, positions {positions:,}"
        )

    print("\nphases over the class (sum of per-notebook medians):")
    sums: dict[str, float] = defaultdict(float)
    for runs in by_name.values():
        sums["kernel start"] += _median(g.kernel_start for g in runs)
        sums["cells"] += _median(g.cells for g in runs)
        sums["student calls"] += _median(g.student for g in runs)
        for phase in ("diagnosis", "reference"):
            sums[phase] += _median(g.phases.get(phase, 0.0) for g in runs)
        checks_own = _median(sum(c[0] for c in g.checks.values()) for g in runs)
        sums["other (checks)"] += checks_own - _median(sum(g.phases.values()) for g in runs)
        sums["outside the checks"] += own[runs[0].name] - checks_own
        sums["rendering"] += _median(g.render for g in runs)
    for phase, seconds in sums.items():
        print(f"  {phase:22} {seconds:8.2f} s")

    print("\nchecks by own time (median over the rounds; student time, engine searches and positions of round 1):")
    rows = []
    for name, runs in by_name.items():
        for check_id in runs[0].checks:
            own_s = _median(g.checks[check_id][0] for g in runs if check_id in g.checks)
            first = runs[0].checks[check_id]
            rows.append((own_s, name, check_id, first))
    for own_s, name, check_id, (_, student, searches, positions) in sorted(rows, reverse=True)[:top]:
        print(
            f"  {name[:30]:30} {check_id[:26]:26} own {own_s:6.2f} s  student {student:6.2f} s  "
            f"searches {searches:5} positions {positions:9,}"
        )


# -- a class of .py hand-ins beside the fixed-assert checker ---------------------------------------------


@dataclass(frozen=True)
class HandinClass:
    course: str
    solution: str
    """The hand-in init was run on."""
    assignment: Any
    handins: list[Path]


def init_on_class(course: str, workdir: Path) -> HandinClass:
    """``grader init`` as ``tests/classes/init_on_class.py`` runs it: one correct hand-in of the
    class (the one its test takes) as the solution, the course's handout as the template."""
    from grader.spec.loader import load_assignment
    from tests.classes.init_on_class import HERE as CLASSES
    from tests.classes.init_on_class import init_assignment
    from tests.classes.oracle import iter_handins
    from tests.classes.test_init_on_class import SOLUTIONS

    if course not in SOLUTIONS:
        raise SystemExit(f"--class {course}: one of {', '.join(sorted(SOLUTIONS))} (tests/classes/)")
    solution = SOLUTIONS[course]
    handins = list(iter_handins(CLASSES / course))
    report, out = init_assignment(course, solution, workdir)
    if report.return_code != 0:
        raise SystemExit(f"grader init on {course}/{solution} wrote nothing: {report.failure}")
    return HandinClass(course, solution, load_assignment(out), handins)


def fixed_checker_asks(course: str) -> bool:
    """Whether the fixed-assert checker's functions are the course's API (it is written for CS50's)."""
    from tests.classes.fixed_checker import CHECKS
    from tests.classes.oracle import COURSES

    return {function for function, _what, _check in CHECKS} <= set(COURSES[course].functions)


YARDSTICKS = ("a pytest file", "a plain interpreter")
"""The fixed-assert checker run as ``tests/classes/fixed_asserts.py`` (33 tests, a fresh
``python -m pytest`` per hand-in: the issue's yardstick) and as ``tests/classes/fixed_checker.py``
(the same 33 checks, a fresh bare interpreter per hand-in: the cheapest a course's checker gets)."""


def fixed_checker_seconds(handins: Sequence[Path], yardstick: str) -> float:
    """The fixed-assert checker over the class, one hand-in after another, each in a fresh
    process, as a course's checker runs them."""
    from tests.classes.fixed_checker import check_handin, check_handin_with_pytest

    check = check_handin_with_pytest if yardstick == YARDSTICKS[0] else check_handin
    started = time.perf_counter()
    for path in handins:
        check(path)
    return time.perf_counter() - started


def measure_class(course: str, rounds: int, only: Sequence[str], top: int) -> int:
    """Our grading and the fixed-assert checker over the same class, in alternating order;
    exit status 1 when the grader's own share is above the checker's time."""
    with tempfile.TemporaryDirectory(prefix="own-time-class-") as folder:
        handin_class = init_on_class(course, Path(folder))
        paths = [p for p in handin_class.handins if not only or any(o in p.stem for o in only)]
        print(
            f"{course}: grader init on {handin_class.solution} with the course's handout, "
            f"{len(handin_class.assignment.checks)} checks; {len(paths)} hand-ins graded, the solution included; "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        checker_exists = fixed_checker_asks(course)
        clock, engine, tallies = _instrument()
        graded_rounds: list[list[Graded]] = []
        checker: dict[str, list[float]] = {yardstick: [] for yardstick in YARDSTICKS}
        for index in range(rounds):
            # Every other round the checker goes first: a machine that drifts favours neither.
            steps = ["grader", "checker"] if index % 2 == 0 else ["checker", "grader"]
            for step in steps:
                if step == "checker" and checker_exists:
                    for yardstick, seconds in checker.items():
                        seconds.append(fixed_checker_seconds(paths, yardstick))
                        print(f"  round {index + 1} fixed-assert checker, {yardstick}: {seconds[-1]:.1f} s", flush=True)
                elif step == "grader":
                    graded = []
                    for path in paths:
                        one = grade_one(path, handin_class.assignment, clock, engine, tallies)
                        graded.append(one)
                        print(f"  round {index + 1} {course}/{path.stem}: own {one.own:.2f} s", flush=True)
                    graded_rounds.append(graded)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    report(graded_rounds, top)

    shares = [sum(g.own for g in graded) for graded in graded_rounds]
    share = statistics.median(shares)
    print(
        f"\n{course}: the grader's own share of the class (the sum of the own times of {len(paths)} hand-ins): "
        f"{', '.join(f'{s:.1f}' for s in shares)} s, median {share:.1f} s; total "
        f"{statistics.median(sum(g.total for g in graded) for graded in graded_rounds):.1f} s, of which the students' "
        f"calls {statistics.median(sum(g.student for g in graded) for graded in graded_rounds):.1f} s (medians)"
    )
    if not checker_exists:
        print(
            f"{course}: no fixed-assert checker to compare with (tests/classes/fixed_checker.py asks the CS50 API, "
            "not this course's); goal not measured"
        )
        return 0
    met = True
    for yardstick, seconds in checker.items():
        timed = statistics.median(seconds)
        print(
            f"{course}: fixed-assert checker (33 checks) as {yardstick}, a fresh process per hand-in, one after "
            f"another: {', '.join(f'{s:.1f}' for s in seconds)} s, median {timed:.1f} s; own share <= its time: "
            f"{share:.1f} s against {timed:.1f} s: {'met' if share <= timed else 'MISSED'}"
        )
        if yardstick == YARDSTICKS[0]:
            met = share <= timed
    print(f"goal (against {YARDSTICKS[0]}): {'met' if met else 'MISSED'}")
    return 0 if met else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixtures", nargs="*", default=["lab05"], metavar="ID", help="tests/submissions/ID")
    parser.add_argument("--bundled", action="store_true", help="also the bundled classes (examples/)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=[], metavar="NAME", help="notebooks whose name contains NAME")
    parser.add_argument("--repo", type=Path, default=REPO, help="import the grader from this checkout")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--class",
        dest="course",
        default=None,
        metavar="COURSE",
        help="instead of notebooks: init on the class tests/classes/COURSE, grade it, beside the fixed-assert checker",
    )
    args = parser.parse_args()
    _import_from(args.repo.resolve())
    if args.course is not None:
        return measure_class(args.course, args.rounds, args.only, args.top)
    from grader.spec.loader import load_assignment

    classes = [
        (load_assignment(a), [p for p in paths if not args.only or any(o in p.stem for o in args.only)])
        for a, paths in notebooks(args.fixtures, args.bundled)
    ]
    clock, engine, tallies = _instrument()
    print(f"grader from {args.repo.resolve()}; load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    rounds = []
    for index in range(args.rounds):
        graded = []
        for assignment, paths in classes:
            for path in paths:
                one = grade_one(path, assignment, clock, engine, tallies)
                graded.append(one)
                print(f"  round {index + 1} {assignment.id}/{path.stem}: own {one.own:.2f} s", flush=True)
        rounds.append(graded)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    report(rounds, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
