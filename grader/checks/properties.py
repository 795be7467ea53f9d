"""Hypothesis as a search engine for the smallest board on which a student is wrong.

Each example costs a round trip into the student's kernel, so the driver works in two passes
with the same seed: a first pass only collects the boards hypothesis will generate, which are
then asked of the student in ONE batch; the second pass is the real property run, which hits
that cache and only pays for the boards it tries beyond it.

The second pass would still pay a round trip for each example it generates before it meets
a failure: they are drawn from ``strategy``, while the batch was drawn from ``sample``. They
are known in advance (the same seed), so on the run's second miss the rest of them come in
one round trip when the student's calls are cheap (see `grader.checks.lookahead`). Those answers are
kept aside and only become evidence when the property asks for them, so the run judges
exactly the boards it would judge without them. Boards tried while shrinking cost a round
trip each.

The smallest failure is recorded here, not read from hypothesis' exception text (its wording
changes between releases), and a time budget bounds every check: once it is spent the property
stops calling the student and the failure found so far stands. Calls the check's context
refuses to make (`CallsStopped`: its share of the grading time is spent, or the function keeps
running out of time) end the run the same way, and the outcome says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from grader.checks.context import CallsStopped
from grader.checks.lookahead import (
    LOOKAHEAD_BUDGET_SHARE,
    LOOKAHEAD_SECONDS,
    Fetch,
    RunExamplesAhead,
    example_key,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Mismatch:
    """The student's answer on one input, where it differs from the reference."""

    call: str
    expected: str
    actual: str
    cause: str | None = None


@dataclass(frozen=True)
class PropertyOutcome:
    tried: int
    """Distinct inputs judged."""
    failing_input: object | None
    mismatch: Mismatch | None
    budget_exhausted: bool
    stopped: str | None = None
    """Why the run stopped judging before it was done, when calls could not be made."""

    @property
    def passed(self) -> bool:
        return self.mismatch is None

    def board_alone(self) -> PropertyOutcome:
        """The same outcome with the failing case's board (its first item) as the input shown."""
        if isinstance(self.failing_input, tuple):
            return replace(self, failing_input=self.failing_input[0])
        return self


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


def _without_local_constants() -> None:
    """Make generation depend on the seed alone.

    Hypothesis (since 6.131) sometimes draws a literal constant found in the "local" modules
    imported in the process, i.e. outside the standard library and site-packages. Which ones
    are imported differs between `grader grade`, a batch worker and a Dask worker (and with an
    editable install), so the same check could ask different boards in each. There is no
    setting for this; the pool of local constants is kept empty instead. If a release renames
    the hook, `test_examples_do_not_depend_on_imported_modules` fails.
    """
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE.cache.clear()  # what earlier generation in this process collected


_without_local_constants()
_COLLECTED: dict[Hashable, list] = {}


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

    collect()
    if cache_key is not None:
        _COLLECTED[key] = seen
    return seen


def find_smallest_failure(
    strategy: st.SearchStrategy[T],
    judge: Callable[[T], Mismatch | None],
    *,
    size: Callable[[T], tuple],
    examples: int,
    run_seed: int,
    budget_seconds: float,
    prefetch: Fetch | None = None,
    explicit: Sequence[T] = (),
    cache_key: Hashable | None = None,
    sample: st.SearchStrategy[T] | None = None,
    speculate: Fetch | None = None,
) -> PropertyOutcome:
    """Judge explicit inputs, then hypothesis-generated ones; shrink if anything failed.

    ``judge`` returns None when the student agrees with the reference. ``size`` orders
    failures: the smallest one seen is reported. A submission that passes costs one batch
    of calls and no property run; only a failure starts hypothesis, which then shrinks.

    ``sample`` (default: ``strategy``) draws the batch. The two may differ: the batch should
    spread over the input space, while ``strategy`` should lead hypothesis to small inputs.

    ``prefetch`` fetches the batch. ``speculate`` fetches the inputs the property run is
    likely to ask next, whose answers must stay out of sight until ``judge`` asks for them
    (they may never be); without it every input the run adds costs its own round trip.
    """
    started = time.monotonic()
    judged: set[object] = set()
    best: list[tuple[tuple, T, Mismatch]] = []
    exhausted = False
    stopped: str | None = None

    def record(value: T, *, budgeted: bool = True) -> Mismatch | None:
        nonlocal exhausted, stopped
        if stopped is not None:
            return None
        if budgeted and time.monotonic() - started > budget_seconds:
            exhausted = True
            return None
        try:
            mismatch = judge(value)
        except CallsStopped as stop:
            stopped = stop.reason
            return None
        judged.add(example_key(value))
        if mismatch is not None:
            key = size(value)
            if not best or key < best[0][0]:
                best[:] = [(key, value, mismatch)]
        return mismatch

    generated = collect_examples(
        strategy if sample is None else sample, examples=examples, run_seed=run_seed, cache_key=cache_key
    )
    durations: Sequence[float | None] | None = None
    if prefetch is not None:
        durations = prefetch([*explicit, *generated])
    for value in [*explicit, *generated]:
        # Prefetched answers are judged whatever the time: asking them is what took it.
        if record(value, budgeted=prefetch is None) is not None or stopped is not None:
            break
    if not best:
        return PropertyOutcome(len(judged), None, None, exhausted, stopped)

    lookahead = None
    if speculate is not None and sample is not None:
        lookahead = RunExamplesAhead(
            lambda: collect_examples(
                strategy,
                examples=examples,
                run_seed=run_seed,
                cache_key=None if cache_key is None else (cache_key, "property run"),
            ),
            speculate,
            durations,
            known={example_key(v) for v in [*explicit, *generated]},
            allowance=lambda: min(
                LOOKAHEAD_SECONDS, LOOKAHEAD_BUDGET_SHARE * (budget_seconds - (time.monotonic() - started))
            ),
        )

    @seed(run_seed)
    @_settings(examples, [Phase.generate, Phase.shrink])
    @given(strategy)
    def prop(value: T) -> None:
        if lookahead is not None and time.monotonic() - started <= budget_seconds:
            lookahead.before(value)
        mismatch = record(value)
        if lookahead is not None and mismatch is not None:
            lookahead.stop()  # from here on hypothesis shrinks: its inputs are not known ahead
        if mismatch is not None:
            raise AssertionError("student differs from the reference")

    try:
        prop()
    except AssertionError:
        pass
    except Exception:  # hypothesis' own complaints (flaky replay after the budget ran out)
        if not best:
            raise

    if best:
        _, value, mismatch = best[0]
        return PropertyOutcome(len(judged), value, mismatch, exhausted, stopped)
    return PropertyOutcome(len(judged), None, None, exhausted, stopped)
