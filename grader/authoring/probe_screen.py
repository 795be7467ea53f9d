"""Probe calls asked a few first: a function whose first answers already fit no reading is not
asked the rest.

A reading of a function is kept only when every answer fits it, so the answers to the first few
calls decide for most functions that are not what is asked: a search asked whether a column has
room (its depth the column) answers a column, not a bool, from the first position on, and each
of the rest of its calls is a whole search. The rest are asked after, in the same kernel and in
the same order, so a function that fits gets exactly the answers it would in one batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from grader.checks.context import CallRunner
from grader.execution.channel.call_data import Call, CallOutcome

FIRST_ASKED = 7
"""Calls asked before the rest: one position's columns on a board of seven."""


def asked_in_turn(
    runner: CallRunner,
    calls: Sequence[Call],
    fits: Callable[[Sequence[CallOutcome]], bool],
    first: int = FIRST_ASKED,
) -> list[CallOutcome] | None:
    """The outcomes of ``calls``, or None when those of the first ``first`` already do not
    ``fits`` (which must hold of every prefix of outcomes that fit as a whole)."""
    head = runner.call_many(calls[:first])
    if not fits(head):
        return None
    return head + runner.call_many(calls[first:]) if len(calls) > first else head
