"""Check kinds: each is a `Params` dataclass (validated when the assignment loads) and a `run`
function from (check, context) to a `CheckResult`. Kinds are reusable across assignments."""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import SimpleNamespace

from grader.checks.base import CheckKind, make_result
from grader.checks.context import CheckContext
from grader.checks.kinds import node_counts, predicates
from grader.checks.kinds.games import AdapterCheck, MoveSequence, PrintedSequence, RandomOpponent
from grader.checks.kinds.hygiene import Manual, NoMutation, RunsCleanly
from grader.checks.kinds.search import DepthLimited, PruningEquivalence, SearchValue
from grader.checks.kinds.state import SelfPlayTable, Successor
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Check

CHECK_KINDS: Mapping[str, CheckKind] = {
    "predicate": SimpleNamespace(Params=predicates.Params, run=predicates.run),
    "search-value": SearchValue,
    "depth-limited": DepthLimited,
    "pruning-equivalence": PruningEquivalence,
    "node-counts": SimpleNamespace(Params=node_counts.Params, run=node_counts.run),
    "move-sequence": MoveSequence,
    "random-opponent": RandomOpponent,
    "printed-sequence": PrintedSequence,
    "successor": Successor,
    "selfplay-table": SelfPlayTable,
    "adapter": AdapterCheck,
    "no-mutation": NoMutation,
    "runs-cleanly": RunsCleanly,
    "manual": Manual,
}


def run_check(check: Check, ctx: CheckContext) -> CheckResult:
    """Run one check; whatever goes wrong inside becomes an ERROR result, never an exception."""
    started = time.monotonic()
    try:
        return CHECK_KINDS[check.kind].run(check, ctx)
    except Exception as exc:  # the boundary: a grader-side failure must not lose the submission
        return make_result(
            check,
            CheckStatus.ERROR,
            f"The check could not be completed: {type(exc).__name__}: {exc}",
            started=started,
        )


__all__ = ["CHECK_KINDS", "CheckContext", "run_check"]
