"""Hypothesis as a search engine for the smallest board on which a student is wrong.

Each example costs a round trip into the student's kernel, so the driver works in two steps
with the same seed: the inputs a seeded run will generate are collected first and asked of
the student in ONE batch (`RunPlan.batch`) and judged; only when one of them fails does the
real property run start (`_shrink`), which hits the answers already given and pays a round
trip for each input it tries beyond them, while it shrinks toward the smallest failure.

The smallest failure is recorded here (`_Judging`), not read from hypothesis' exception text
(its wording changes between releases), and a time budget bounds every check: once it is
spent the property stops calling the student and the failure found so far stands. Calls the
check's context refuses to make (`CallsStopped`: its share of CPU time is spent, or
the function keeps running out of time) end the run the same way, and the outcome says why.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from grader.check_notes import RanOutOfTime
from grader.checks.call_budget import CallsStopped
from reference import BoardGame, Position

__all__ = ["Covered", "Mismatch", "PropertyOutcome"]

T = TypeVar("T")


@dataclass(frozen=True)
class Mismatch:
    """The student's answer on one input, where it differs from the reference."""

    call: str
    expected: str
    actual: str
    cause: str | None = None
    ran_out: RanOutOfTime | None = None
    """The call had no answer: it was stopped at its limit (too slow, not wrong)."""


@dataclass(frozen=True)
class Covered:
    """The kinds of answer a run judged (see `grader.checks.recipe.Coverage`)."""

    summary: str
    """What the passing message says the run saw."""
    missing: tuple[str, ...] = ()
    """Kinds the check tests that no judged case showed: it cannot pass without them."""


@dataclass(frozen=True)
class PropertyOutcome:
    tried: int
    """Distinct inputs judged."""
    failing_input: object | None
    mismatch: Mismatch | None
    budget_exhausted: bool
    stopped: str | None = None
    """Why the run stopped judging before it was done, when calls could not be made."""
    covered: Covered | None = None
    """Which kinds of answer were judged, for a check that names them."""
    game: BoardGame[Position, int] | None = None
    """The game the inputs are positions of (`grader.checks.recipe.run_property` names the
    assignment's): a verdict asks it how many pieces the failing position holds."""

    @property
    def passed(self) -> bool:
        return self.mismatch is None

    def board_alone(self) -> PropertyOutcome:
        """The same outcome with the failing case's board (its first item) as the input shown."""
        if isinstance(self.failing_input, tuple):
            return replace(self, failing_input=self.failing_input[0])
        return self


@dataclass(frozen=True)
class RunPlan(Generic[T]):
    """Which inputs a property run judges, and for how long."""

    strategy: st.SearchStrategy[T]
    """What hypothesis draws and shrinks when the batch held a failure: it should lead to
    small inputs."""
    examples: int
    run_seed: int
    budget_seconds: float
    sample: st.SearchStrategy[T] | None = None
    """What the batch is drawn from (default: ``strategy``): it should spread over the inputs."""
    explicit: Sequence[T] = ()
    """Inputs always judged first."""
    cache_key: Hashable | None = None
    """Keeps the generated batch for the life of the process (see `collect_examples`)."""

    def batch(self) -> list[T]:
        generated = collect_examples(
            self.strategy if self.sample is None else self.sample,
            examples=self.examples,
            run_seed=self.run_seed,
            cache_key=self.cache_key,
        )
        return [*self.explicit, *generated]


def example_key(value: object) -> object:
    """A hashable stand-in for an input: itself, or its repr."""
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


def _settings(examples: int, phases: Sequence[Phase]) -> settings:
    return settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,  # the explicit @seed below makes runs reproducible per check
        phases=list(phases),
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )


class _LocalConstantsOff:
    """While a run of the grader's own is inside it, generation depends on the seed alone.

    Hypothesis (since 6.131) sometimes draws a literal constant found in the "local" modules
    imported in the process, i.e. outside the standard library and site-packages. Which ones
    are imported differs between `grader grade`, a batch worker and a Dask worker (and with an
    editable install), so the same check could ask different boards in each. There is no
    setting for this; the pool of local constants is kept empty instead, but only while the
    grader generates: a program that imports the grader (an instructor's own test suite) keeps
    hypothesis as it was. The hook is put back when the last run leaves (runs may overlap in
    threads), and the cache of constants filtered from it is emptied both ways. If a release
    renames the hook, `test_examples_do_not_depend_on_imported_modules` fails.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._hook: Callable[[], providers.Constants] | None = None

    def __enter__(self) -> None:
        with self._lock:
            if self._inside == 0:
                empty = providers.Constants()
                self._hook = providers._get_local_constants
                providers._get_local_constants = lambda: empty
                providers.CONSTANTS_CACHE.cache.clear()
            self._inside += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._inside -= 1
            if self._inside == 0 and self._hook is not None:
                providers._get_local_constants = self._hook
                providers.CONSTANTS_CACHE.cache.clear()


without_local_constants = _LocalConstantsOff()
_COLLECTED: dict[Hashable, list[Any]] = {}


def collect_examples(
    strategy: st.SearchStrategy[T], *, examples: int, run_seed: int, cache_key: Hashable | None = None
) -> list[T]:
    """The inputs a seeded property run will generate, in order, without judging any.

    With a ``cache_key`` the list is kept for the life of the process: generating examples
    costs more than asking the student about them, and every submission of a batch is asked
    about the same ones.
    """
    key = (cache_key, examples, run_seed)
    if cache_key is not None and key in _COLLECTED:
        return _COLLECTED[key]
    seen: list[T] = []

    @seed(run_seed)
    @_settings(examples, [Phase.generate])
    @given(strategy)
    def collect(value: T) -> None:
        seen.append(value)

    with without_local_constants:
        collect()
    if cache_key is not None:
        _COLLECTED[key] = seen
    return seen


@dataclass
class _Judging(Generic[T]):
    """What a run has judged so far: the distinct inputs, the smallest failure, and whether
    its time or its calls ran out."""

    judge: Callable[[T], Mismatch | None]
    size: Callable[[T], tuple[Any, ...]]
    budget_seconds: float
    started: float = field(default_factory=time.monotonic)
    judged: set[object] = field(default_factory=set)
    best: tuple[tuple[Any, ...], T, Mismatch] | None = None
    exhausted: bool = False
    stopped: str | None = None

    @property
    def over_budget(self) -> bool:
        return time.monotonic() - self.started > self.budget_seconds

    def record(self, value: T, *, budgeted: bool = True) -> Mismatch | None:
        """Judge ``value`` unless the run has stopped or its budget is spent; keep the
        smallest failure."""
        if self.stopped is not None:
            return None
        if budgeted and self.over_budget:
            self.exhausted = True
            return None
        try:
            mismatch = self.judge(value)
        except CallsStopped as stop:
            self.stopped = stop.reason
            return None
        self.judged.add(example_key(value))
        if mismatch is not None:
            order = self.size(value)
            if self.best is None or order < self.best[0]:
                self.best = (order, value, mismatch)
        return mismatch

    def outcome(self) -> PropertyOutcome:
        if self.best is None:
            return PropertyOutcome(len(self.judged), None, None, self.exhausted, self.stopped)
        _, value, mismatch = self.best
        return PropertyOutcome(len(self.judged), value, mismatch, self.exhausted, self.stopped)


def find_smallest_failure(
    plan: RunPlan[T],
    judge: Callable[[T], Mismatch | None],
    *,
    size: Callable[[T], tuple[Any, ...]],
    prefetch: Callable[[list[T]], object] | None = None,
) -> PropertyOutcome:
    """Judge the plan's batch; if anything failed, let hypothesis shrink toward the smallest
    failure. ``judge`` returns None when the student agrees with the reference; ``size``
    orders failures (the smallest one seen is reported); ``prefetch`` asks the student the
    whole batch in one round trip before it is judged.

    A submission that passes costs one batch of calls and no property run.
    """
    judging = _Judging(judge, size, plan.budget_seconds)
    batch = plan.batch()
    if prefetch is not None:
        prefetch(batch)
    for value in batch:
        # Prefetched answers are judged whatever the time: asking them is what took it.
        if judging.record(value, budgeted=prefetch is None) is not None or judging.stopped is not None:
            break
    if judging.best is not None:
        _shrink(judging, plan)
    return judging.outcome()


def _shrink(judging: _Judging[T], plan: RunPlan[T]) -> None:
    """The seeded property run over ``plan.strategy``, shrinking from its first failure.

    Not `hypothesis.find`: it seeds its run with ``random.getrandbits(64)``, not with the seed
    given, so it would not replay the batch's inputs (answers already in hand) first. Tried on
    the recipe's own positions: half of the smallest failures came out different, and most
    runs asked more calls of the student."""

    @seed(plan.run_seed)
    @_settings(plan.examples, [Phase.generate, Phase.shrink])
    @given(plan.strategy)
    def prop(value: T) -> None:
        if judging.record(value) is not None:
            raise AssertionError("student differs from the reference")

    try:
        with without_local_constants:
            prop()
    except AssertionError:
        pass
    except Exception:  # noqa: S110 (hypothesis' own complaints: a flaky replay once the budget ran out)
        pass  # the batch's failure is in hand whatever the run could add
