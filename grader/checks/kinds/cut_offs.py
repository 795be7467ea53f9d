"""Whether an alpha-beta really cuts off: its values agree with minimax (judged before), and
recorded from a few small positions it enters clearly fewer of them than minimax does.

Values alone cannot tell alpha-beta from a search that never cuts off: that one returns the
exact value on every window, which a fail-soft search may. The search is counted as the
`node-counts` kind counts it (`NodeCounter`, the calls of the student's recursion wherever it
lives), and compared with the reference's counts on the same position and window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from grader.check_notes import Cause, CutsOff
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.node_counter import NodeCounter
from grader.checks.reference_answers import reference_alphabeta, reference_minimax_nodes
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check
from reference import Position, SearchSpec

NO_CUT_OFF_CAUSE = (
    "A node must stop trying moves once its value reaches the far bound (beta in a MAX node, "
    "alpha in a MIN node), and narrow its own bound as it goes (alpha in MAX nodes, beta in MIN nodes)."
)


@dataclass(frozen=True)
class PrunePosition:
    """A position the search is recorded from, the side to move and the spec the reference
    counts with."""

    board: Position
    side: str
    spec: SearchSpec


@dataclass(frozen=True)
class CutOffs:
    """Where the search is recorded from, and how much of minimax it may enter there."""

    positions: Sequence[PrunePosition]
    window: tuple[float, float]
    ratio: float


def judge_cut_offs(
    check: Check[object], ctx: CheckContext, search: StudentFunction, cut_offs: CutOffs, agreed: CheckResult
) -> CheckResult:
    """``agreed`` (the values agree), its message telling what the counts showed; or a failed
    result naming the counts where the search enters nearly as many positions as minimax.

    Failing is all or nothing: the cut-offs are what an alpha-beta adds to minimax, so a
    search without them has not done that part (the amount of pruning is `node-counts`' job)."""
    counter = NodeCounter()
    alpha, beta = cut_offs.window
    requests = [
        (str(p.board), ctx.placeholders(p.board, to_move=p.side, alpha=alpha, beta=beta)) for p in cut_offs.positions
    ]
    answers = search.ask_many(requests)
    seen: list[CutsOff] = []
    figures = {}
    for position, answer in zip(cut_offs.positions, answers):
        board = str(position.board)
        if not answer.ok:
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"`{search.label}` agrees with minimax, but recorded to count its nodes "
                f"`{answer.call_text}` {answer.failure_text()}",
                counterexample=Counterexample(board, answer.call_text, "a completed search", answer.given()),
            )
        nodes = counter.nodes(answer)
        if nodes is None:
            return CheckResult.for_check(
                check, CheckStatus.FAILED, f"The grader could not count the nodes of `{answer.call_text}`."
            )
        minimax = reference_minimax_nodes(position.board, position.spec, position.side)
        pruned = reference_alphabeta(position.board, position.spec, position.side, alpha, beta).nodes
        figures[board] = {"nodes": nodes, "minimax_nodes": minimax, "reference_alphabeta_nodes": pruned}
        if nodes > cut_offs.ratio * minimax:
            how = f"as many as minimax ({minimax})" if nodes >= minimax else f"nearly as many as minimax ({minimax})"
            verb = "never cuts off" if nodes >= minimax else "hardly cuts off"
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"`{search.label}` agrees with minimax but {verb}: from {board} `{answer.call_text}` entered "
                f"{nodes} positions, {how}; a correct alpha-beta enters {pruned}.",
                counterexample=Counterexample(
                    board,
                    answer.call_text,
                    f"at most {int(cut_offs.ratio * minimax)} positions entered "
                    f"({cut_offs.ratio:.0%} of minimax's {minimax}; alpha-beta enters {pruned})",
                    f"{nodes} positions entered",
                ),
                cause=Cause("local", NO_CUT_OFF_CAUSE),
                figures={**agreed.figures, "cut_offs": figures},
            )
        seen.append(CutsOff(board, answer.call_text, nodes, minimax))
    return replace(
        agreed,
        notes=(*agreed.notes, *seen),
        figures={**agreed.figures, "cut_offs": figures},
    )
