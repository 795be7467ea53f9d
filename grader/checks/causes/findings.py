"""What the checks of one submission learnt about its lower-level functions, for the checks after them.

A check of a win test, a draw test, a successor or an empty-cells function reads the
function's defect from its answers (``defects.py``) and returns it on its result; the registry
records it here. A check of a search
built on that function asks :meth:`Findings.root_cause` whether its own failures follow from
a recorded defect (``root_cause.py``), and when they do it names that defect instead of a
cause of its own.

Defects come in two strengths. A *confirmed* one reproduces every answer of its own check.
A *suspect* one is a mistake its own check cannot see (expand placing the maximizer's mark
passes a check of one expansion from the root): it is named only when it reproduces every
answer of the search above, and the sentence says where that was seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from grader.check_notes import Cause, Learnt
from grader.checks.causes.defects import Defect
from grader.checks.causes.root_cause import Observation, follows_from
from grader.execution.channel.call_data import StandIn

__all__ = ["Findings", "RootCause"]


@dataclass(frozen=True)
class RootCause:
    """A defect a check's failures follow from, and the check that found it."""

    source_check: str
    defect: Defect
    sentence: str
    confirmed: bool = True
    """Read from the source check's own (wrong) answers, which cost it its points; a suspect
    is a mistake its check could not see."""

    @property
    def cause(self) -> Cause:
        return Cause("root-cause", self.sentence, self.defect)


@dataclass
class Findings:
    """Per submission: the defects recorded so far, in the order the checks ran."""

    confirmed: list[tuple[str, Defect]] = field(default_factory=list)
    suspects: list[tuple[str, Defect]] = field(default_factory=list)
    spellings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """For a predicate check whose function may spell an answer several ways: how it spells
    it (``{"ongoing": ""}``), for the reference's version to answer alike."""
    wrong_helpers: list[tuple[str, StandIn]] = field(default_factory=list)
    """For each predicate check that failed: the reference's version of its function, to
    stand in for it when the checks built on it are graded again
    (`grader.checks.reference_helpers`)."""
    helpers_known: dict[str, int] = field(default_factory=dict)
    """For each check that ran: how many of ``wrong_helpers`` were known when it did, so that it
    is graded again with those found after it (a search it calls whose check comes later)."""

    def learn(self, check_id: str, learnt: Learnt) -> None:
        """What ``check_id``'s result says it learnt (the registry records it once the check ran)."""
        self.record(check_id, learnt.defect)
        self.suspect(check_id, learnt.suspects)
        if learnt.spellings:
            self.spellings[check_id] = dict(learnt.spellings)

    def record(self, check_id: str, defect: Defect | None) -> None:
        """A defect read from ``check_id``'s own answers (``None``: nothing to record)."""
        if defect is not None and not defect.is_correct:
            self.confirmed.append((check_id, defect))

    def suspect(self, check_id: str, defects: Sequence[Defect]) -> None:
        """Mistakes of a function ``check_id`` could not see, to be tested against searches."""
        self.suspects.extend((check_id, d) for d in defects if not d.is_correct)

    def defects_of(self, check_id: str) -> list[Defect]:
        return [d for c, d in self.confirmed if c == check_id]

    def root_cause(self, check_id: str, observations: Sequence[Observation]) -> RootCause | None:
        """The first defect recorded by another check that every observation of ``check_id``
        follows from (confirmed ones first)."""
        for source, defect in self.confirmed:
            if source != check_id and follows_from(defect, observations):
                return RootCause(source, defect, defect.sentence)
        for source, defect in self.suspects:
            if source != check_id and follows_from(defect, observations):
                sentence = (
                    f"This follows from `{defect.function}` {defect.description}: every answer here is what a "
                    f"search built on such a `{defect.function}` gives (the check of `{defect.function}` alone, "
                    "from the root, cannot see it); fix that first."
                )
                return RootCause(source, defect, sentence, confirmed=False)
        return None
