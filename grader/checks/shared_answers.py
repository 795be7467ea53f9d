"""Internal to the grader: a heuristic's answers shared by the checks of one submission.

The game-search and state-search checks put the student's heuristic to the leaves of their
searches, and the searches of different checks (minimax, alpha-beta, the best move, progressive
deepening) meet many of the same positions: on connect4's solution its four game-search checks
ask 15,640 leaves, 11,448 of them distinct (the state-objects course's solution: 6,105 calls in
all, 4,761 with the leaves shared). A leaf is asked once per submission and its answer read by every check after.
Only an answer that came back within the soft limit (``slow_after``) is kept: a slow answer, a
failure and a call that ran out of time are asked again in every check, which judges them as
before. A run with the reference's stand-ins keeps answers of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grader.checks.answers import Answer
from grader.checks.context import StudentFunction


class SharedStudentFunction(StudentFunction):
    """A `StudentFunction` whose answers, keyed by content (a key names the same call in every
    check that asks this function this way), are read and kept across the submission's checks."""

    def ask_many(self, requests: Iterable[tuple[Any, Mapping[str, Any]]], **options: Any) -> list[Answer]:
        """`StudentFunction.ask_many`, reading the answers kept for the submission first."""
        requests = list(requests)
        asked_so = (self.template.text, self.function, self.timeout, repr(self.ctx.stand_ins))
        shared = self.ctx.submission.shared.setdefault(asked_so, {})
        self._cache.update({key: shared[key] for key, _ in requests if key in shared})
        answers = super().ask_many(requests, **options)
        limit = self.ctx.assignment.slow_after
        for (key, _), answer in zip(requests, answers):
            if answer.ok and (limit is None or answer.outcome.duration <= limit):
                shared.setdefault(key, answer)
        return answers
