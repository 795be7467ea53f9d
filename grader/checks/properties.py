"""Hypothesis as a search engine for the smallest board on which a student is wrong.

Each example costs a round trip into the student's kernel, so the driver works in two passes
with the same seed: a first pass only collects the boards hypothesis will generate, which are
then asked of the student in ONE batch; the second pass is the real property run, which hits
that cache and only pays for the extra boards tried while shrinking.

The smallest failure is recorded here, not read from hypothesis' exception text (its wording
changes between releases), and a time budget bounds every check: once it is spent the property
stops calling the student and the failure found so far stands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

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

    @property
    def passed(self) -> bool:
        return self.mismatch is None


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


def collect_examples(strategy: st.SearchStrategy[T], *, examples: int, run_seed: int) -> list[T]:
    """The inputs a seeded property run will generate, in order, without judging any."""
    seen: list[T] = []

    @seed(run_seed)
    @_settings(examples, [Phase.generate])
    @given(strategy)
    def collect(value: T) -> None:
        seen.append(value)

    collect()
    return seen


def find_smallest_failure(
    strategy: st.SearchStrategy[T],
    judge: Callable[[T], Mismatch | None],
    *,
    size: Callable[[T], tuple],
    examples: int,
    run_seed: int,
    budget_seconds: float,
    prefetch: Callable[[list[T]], None] | None = None,
    explicit: Sequence[T] = (),
) -> PropertyOutcome:
    """Judge explicit inputs, then hypothesis-generated ones; shrink the first failure.

    ``judge`` returns None when the student agrees with the reference. ``size`` orders
    failures: the smallest one seen is reported.
    """
    started = time.monotonic()
    judged: set[object] = set()
    best: list[tuple[tuple, T, Mismatch]] = []
    exhausted = False

    def record(value: T) -> Mismatch | None:
        nonlocal exhausted
        if time.monotonic() - started > budget_seconds:
            exhausted = True
            return None
        judged.add(_key(value))
        mismatch = judge(value)
        if mismatch is not None:
            key = size(value)
            if not best or key < best[0][0]:
                best[:] = [(key, value, mismatch)]
        return mismatch

    if prefetch is not None and explicit:
        prefetch(list(explicit))
    for value in explicit:
        record(value)

    if prefetch is not None:
        prefetch(collect_examples(strategy, examples=examples, run_seed=run_seed))

    @seed(run_seed)
    @_settings(examples, [Phase.generate, Phase.shrink])
    @given(strategy)
    def prop(value: T) -> None:
        if record(value) is not None:
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
        return PropertyOutcome(len(judged), value, mismatch, exhausted)
    return PropertyOutcome(len(judged), None, None, exhausted)


def _key(value: object) -> object:
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)
