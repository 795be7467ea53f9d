"""What a board predicate's answers tell beyond one wrong board: the convention the student
followed (the winning mark for True/False), the defect of the function (the lines a win test
misses, a draw test that never fires, cells never listed) for the checks built on it, and
whether the failures follow from a lower-level function another check found wrong."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from grader.check_notes import Cause
from grader.checks.answers import Answer, ShapeError
from grader.checks.causes.defects import Defect
from grader.checks.causes.findings import Findings
from grader.checks.expectations import Expectation, Read
from reference import LineGame, Position

__all__ = ["EveryAnswer"]


@dataclass(frozen=True)
class EveryAnswer:
    """Every answer a predicate check's function gave, read as the check reads them: the
    evidence for the causes that need all of them."""

    function: str
    expectation: Expectation
    game: LineGame[Position]
    """The game the boards are of."""
    seen: tuple[Read, ...]
    """The answers that came back (those that do not read marked so)."""
    asked: int
    """How many were asked, those that raised or timed out included."""

    @classmethod
    def read(
        cls,
        function: str,
        expectation: Expectation,
        game: LineGame[Position],
        answers: Sequence[tuple[Position, str | None, Answer]],
        read: Callable[[Any], Any],
    ) -> EveryAnswer:
        """``read`` turns a raw answer into the check's reading (raising when it does not read)."""
        seen = []
        for board, player, answer in answers:
            if not answer.ok:
                continue
            try:
                seen.append(Read(board, player, answer, read(answer.value)))
            except ShapeError:  # read by the convention, never evidence of a defect
                seen.append(Read(board, player, answer, None, readable=False))
        return cls(function, expectation, game, tuple(seen), len(answers))

    @property
    def readable(self) -> list[Read]:
        """Every answer, when each one reads; else none."""
        readable = [r for r in self.seen if r.readable]
        return readable if len(readable) == self.asked else []

    def defect(self, *, stub: bool) -> Defect | None:
        """The function's defect, for the checks built on it. ``stub``: the shape already
        said the function is not implemented yet, and the defect says so too."""
        readable = self.readable
        if not readable and self.asked:
            return None
        defect = self.expectation.defect(self.game, self.function, readable)
        if defect is not None and stub:
            defect = replace(defect, description="not being implemented yet")
        return defect

    def root_cause(self, findings: Findings, check_id: str) -> Cause | None:
        """A lower-level function's defect, found by an earlier check, that every answer follows from."""
        observations = self.expectation.root_observations(self.game, self.readable) if self.readable else None
        found = None if observations is None else findings.root_cause(check_id, observations)
        return None if found is None else found.cause

    def convention(self, marks: Mapping[str, Any]) -> Cause | None:
        """Another convention every answer follows; ``marks``: how the student spells X and O."""
        if len(self.seen) != self.asked:
            return None
        sentence = self.expectation.convention(self.game, self.function, self.seen, marks)
        return None if sentence is None else Cause("convention", sentence)
