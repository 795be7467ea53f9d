"""How the nodes of one search call are counted, shared by the checks that count them
(`node-counts`, and `pruning-equivalence` when it asks that the search really cuts off)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from grader.checks.answers import Answer


@dataclass(frozen=True)
class NodeCounter:
    """How the nodes of one search call are counted: the student's own counter (a global),
    the calls of the functions named (resolved to what the notebook defines), or, with no
    names, the search the recorder found wherever its recursion lives."""

    names: tuple[str, ...] = ()
    counter: str | None = None

    def nodes(self, answer: Answer) -> int | None:
        """The count, or None when the call failed or the counter holds no whole number."""
        if not answer.ok:
            return None
        if self.counter:
            value = answer.outcome.globals_after.get(self.counter)
            return value if isinstance(value, int) and not isinstance(value, bool) else None
        if self.names:
            return sum(answer.outcome.counts.get(n, 0) for n in self.names)
        exploration = answer.outcome.exploration
        return None if exploration is None else exploration.nodes

    def calls(self, answer: Answer) -> int | None:
        """The grader's own count, whatever the student's counter says."""
        return replace(self, counter=None).nodes(answer)
