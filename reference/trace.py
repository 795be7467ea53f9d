"""The exploration of a search: the positions it entered, in call order, root first.

A node count says how much a search explored; the exploration says what. Two searches with
the same count can still differ, and a search whose count is off is told apart from the
reference at the first position where they part. The traced search here follows the node
structure of :func:`reference.search.alphabeta` (seed 003's loop) and records one step per
call of the search, root included, so ``len(trace) == alphabeta(...).nodes``.

Each known alpha-beta mistake is a set of :class:`Rules` for the same loop. A mistake is
named only when its whole exploration equals the student's step for step: a node count can
be matched by coincidence, a sequence of thousands of positions practically cannot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from reference.search import FailMode, SearchSpec, _leaf_value, _side_to_move, _TreeSearch
from reference.tictactoe import Board, opponent

__all__ = [
    "MAX_STEPS",
    "MISTAKES",
    "Divergence",
    "Mistake",
    "Rules",
    "Trace",
    "alphabeta_trace",
    "first_divergence",
    "minimax_trace",
    "name_cause",
    "rules_trace",
]

MAX_STEPS = 200_000
"""Traces stop here; past it node counts are compared as numbers (minimax from the empty
board visits 549,946 positions)."""

Style = Literal["best", "bounds"]
"""How the loop is written. ``best`` (seed 003): keep the best value, cut when it reaches
the bound, then move the bound to it. ``bounds`` (seed 004): move the bound to the child's
value, then cut when ``beta <= alpha``. Correct searches explore the same in both styles;
some mistakes do not."""

COLUMN_MAJOR = (0, 3, 6, 1, 4, 7, 2, 5, 8)
REVERSED = tuple(range(8, -1, -1))


@dataclass(frozen=True)
class Rules:
    """How one alpha-beta loop prunes. The defaults are the correct search."""

    prune: bool = True
    """False: no cut-off at all (plain minimax's exploration)."""
    strict_max: bool = False
    """MAX nodes cut on ``best > beta`` instead of ``best >= beta``."""
    strict_min: bool = False
    """MIN nodes cut on ``best < alpha`` instead of ``best <= alpha``."""
    max_tests: Literal["alpha", "beta"] = "beta"
    """The bound a MAX node's cut-off test compares with (style ``best``)."""
    min_tests: Literal["alpha", "beta"] = "alpha"
    max_moves: Literal["alpha", "beta"] = "alpha"
    """The bound a MAX node moves (raise alpha, or lower beta by mistake)."""
    min_moves: Literal["alpha", "beta"] = "beta"
    pass_alpha: bool = True
    """False: children receive the counted call's alpha, not the node's current one."""
    pass_beta: bool = True
    order: tuple[int, ...] | None = None
    """Move order of the children (``None``: the spec's)."""
    style: Style = "best"


@dataclass(frozen=True)
class Trace:
    """The positions a search entered, as 9-character boards (``X``, ``O``, ``.``)."""

    steps: tuple[str, ...]
    complete: bool
    """False when the search went on past the cap: ``steps`` is then only its beginning."""


@dataclass(frozen=True)
class Divergence:
    """Where a student's exploration first parts from the reference's."""

    position: str
    """The board the counted call started from."""
    step: int
    """Index of the first differing step (the root is step 0)."""
    student: str | None
    """The student's board at that step; ``None`` when their search had already ended."""
    reference: str | None

    def as_dict(self) -> dict[str, object]:
        return {"position": self.position, "step": self.step, "student": self.student, "reference": self.reference}


class _Stop(Exception):
    """Ends a traced search early: the cap is reached or the expected trace is left."""


class _TracedSearch(_TreeSearch):
    def __init__(
        self,
        spec: SearchSpec,
        rules: Rules,
        window: tuple[float, float],
        fail: FailMode,
        cap: int,
        expected: Sequence[str] | None,
    ) -> None:
        super().__init__(spec, fail)
        if rules.order is not None:
            self.order = rules.order
        self.rules = rules
        self.root_alpha, self.root_beta = window
        self.cap = cap
        self.expected = expected
        self.steps: list[str] = []

    def record(self, cells: tuple[str, ...]) -> None:
        step = "".join(cells)
        n = len(self.steps)
        # Comparing while searching lets a wrong explanation fail at its first wrong step
        # instead of after exploring a tree that may be a hundred times larger.
        if n >= self.cap or (self.expected is not None and (n >= len(self.expected) or self.expected[n] != step)):
            raise _Stop
        self.steps.append(step)

    def alphabeta(self, cells: tuple[str, ...], last: int, player: str, depth: int, alpha: float, beta: float) -> float:
        self.record(cells)
        leaf = self.leaf_value(cells, last, depth)
        if leaf is not None:
            return self.clamp(leaf, alpha, beta)
        return self.expand_alphabeta(cells, player, depth, alpha, beta)[0]

    def expand_alphabeta(
        self, cells: tuple[str, ...], player: str, depth: int, alpha: float, beta: float
    ) -> tuple[float, int | None]:
        rules = self.rules
        window = (alpha, beta)
        following = opponent(player)
        is_max = player == self.maximizer
        best = -math.inf if is_max else math.inf
        for move, child in self.children(cells, player):
            value = self.alphabeta(
                child,
                move,
                following,
                depth + 1,
                alpha if rules.pass_alpha else self.root_alpha,
                beta if rules.pass_beta else self.root_beta,
            )
            best = max(best, value) if is_max else min(best, value)
            if not rules.prune:
                continue
            if rules.style == "bounds":
                alpha, beta = self.moved(is_max, value, alpha, beta)
                strict = rules.strict_max if is_max else rules.strict_min
                if beta < alpha if strict else beta <= alpha:
                    break
                continue
            if is_max:
                bound = beta if rules.max_tests == "beta" else alpha
                if best > bound if rules.strict_max else best >= bound:
                    break
            else:
                bound = alpha if rules.min_tests == "alpha" else beta
                if best < bound if rules.strict_min else best <= bound:
                    break
            alpha, beta = self.moved(is_max, best, alpha, beta)
        return self.clamp(best, *window), None

    def moved(self, is_max: bool, value: float, alpha: float, beta: float) -> tuple[float, float]:
        """The window after a node saw ``value`` (the child's, or its best so far)."""
        bound = self.rules.max_moves if is_max else self.rules.min_moves
        if bound == "alpha":
            return max(alpha, value), beta
        return alpha, min(beta, value)


def rules_trace(
    board: Board,
    spec: SearchSpec,
    rules: Rules = Rules(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
    expected: Sequence[str] | None = None,
) -> Trace | None:
    """The exploration of the alpha-beta loop ``rules`` describe, from ``board``.

    With ``expected``, the search stops at the first step that differs from it and the
    answer is ``None``; the answer is a trace only when the whole exploration equals it.
    """
    if not alpha < beta:
        raise ValueError(f"alpha-beta needs alpha < beta, got alpha={alpha}, beta={beta}")
    search = _TracedSearch(spec, rules, (alpha, beta), fail, cap, expected)
    try:
        search.record(board.cells)
        if _leaf_value(board, spec) is None:
            search.expand_alphabeta(board.cells, _side_to_move(board, spec, to_move), spec.start_depth, alpha, beta)
    except _Stop:
        if expected is not None:
            return None
        return Trace(tuple(search.steps), complete=False)
    if expected is not None and len(search.steps) != len(expected):
        return None
    return Trace(tuple(search.steps), complete=True)


def alphabeta_trace(
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
) -> Trace:
    """The positions :func:`reference.search.alphabeta` enters, root first, at most ``cap``."""
    trace = rules_trace(board, spec, alpha=alpha, beta=beta, fail=fail, to_move=to_move, cap=cap)
    assert trace is not None  # no expected trace, so never abandoned
    return trace


def minimax_trace(
    board: Board, spec: SearchSpec = SearchSpec(), *, to_move: str | None = None, cap: int = MAX_STEPS
) -> Trace:
    """The positions :func:`reference.search.minimax` enters, root first, at most ``cap``."""
    trace = rules_trace(board, spec, Rules(prune=False), to_move=to_move, cap=cap)
    assert trace is not None
    return trace


def first_divergence(student: Sequence[str], reference: Sequence[str]) -> Divergence | None:
    """The first step where the two explorations differ, or ``None`` if there is none.

    Both must start from the same position. A trace that stopped at the cap only shows its
    beginning: ``None`` then means "equal as far as the shorter one goes".
    """
    if not reference:
        raise ValueError("the reference trace holds at least the root")
    for step, (mine, theirs) in enumerate(zip(student, reference)):
        if mine != theirs:
            return Divergence(reference[0], step, mine, theirs)
    step = min(len(student), len(reference))
    if len(student) == len(reference):
        return None
    return Divergence(
        reference[0],
        step,
        student[step] if step < len(student) else None,
        reference[step] if step < len(reference) else None,
    )


@dataclass(frozen=True)
class Mistake:
    """One known way to get alpha-beta wrong, as the loop that makes it."""

    name: str
    clause: str
    """Completes "your search explored exactly the positions of an alpha-beta in which ..."."""
    rules: tuple[Rules, ...]
    """The ways students write it (styles); the mistake fits when any of them does."""


MISTAKES: tuple[Mistake, ...] = (
    Mistake(
        "no-pruning",
        "nothing is ever pruned, as in plain minimax: check that each node stops once its value reaches the "
        "other bound",
        (Rules(prune=False),),
    ),
    Mistake(
        "strict-cutoff",
        "both MAX and MIN nodes cut off only past the bound (`>` and `<`) instead of on reaching it (`>=` and `<=`)",
        (Rules(strict_max=True, strict_min=True),),
    ),
    Mistake(
        "strict-cutoff-max",
        "MAX nodes cut off only when their value exceeds beta (`>`) instead of reaching it (`>=`)",
        (Rules(strict_max=True),),
    ),
    Mistake(
        "strict-cutoff-min",
        "MIN nodes cut off only when their value is below alpha (`<`) instead of reaching it (`<=`)",
        (Rules(strict_min=True),),
    ),
    Mistake(
        "min-tests-beta",
        "MIN nodes compare their value with beta (`value <= beta`) where they should compare it with alpha",
        (Rules(min_tests="beta"),),
    ),
    Mistake(
        "max-tests-alpha",
        "MAX nodes compare their value with alpha (`value >= alpha`) where they should compare it with beta",
        (Rules(max_tests="alpha"),),
    ),
    Mistake(
        "window-reset",
        "the recursive calls receive the initial window instead of the node's alpha and beta",
        (Rules(pass_alpha=False, pass_beta=False),),
    ),
    Mistake(
        "alpha-not-passed",
        "the recursive calls receive the initial alpha instead of the node's current alpha",
        (Rules(pass_alpha=False),),
    ),
    Mistake(
        "beta-not-passed",
        "the recursive calls receive the initial beta instead of the node's current beta",
        (Rules(pass_beta=False),),
    ),
    Mistake(
        "alpha-in-min",
        "MIN nodes raise alpha instead of lowering beta",
        (Rules(min_moves="alpha"), Rules(min_moves="alpha", style="bounds")),
    ),
    Mistake(
        "beta-in-max",
        "MAX nodes lower beta instead of raising alpha",
        (Rules(max_moves="beta"), Rules(max_moves="beta", style="bounds")),
    ),
    Mistake(
        "reversed-order",
        "children are tried from the last cell to the first instead of in the assignment's order",
        (Rules(order=REVERSED),),
    ),
    Mistake(
        "column-major-order",
        "children are tried column by column instead of in the assignment's order",
        (Rules(order=COLUMN_MAJOR),),
    ),
)


def name_cause(
    student: Sequence[str],
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
    mistakes: Sequence[Mistake] = MISTAKES,
) -> str | None:
    """A sentence naming the mistakes whose whole exploration is the student's, if any.

    ``None`` when the student's exploration is the correct one, reached the cap (so is not
    whole), or no known mistake reproduces it. Several mistakes can explore alike (with the
    full window, children called with the initial window prune nothing); all are named then.
    """
    if not student or len(student) >= cap:
        return None

    def fits(rules: Rules) -> bool:
        trace = rules_trace(
            board, spec, rules, alpha=alpha, beta=beta, fail=fail, to_move=to_move, cap=cap, expected=student
        )
        return trace is not None

    if fits(Rules()):
        return None
    # An order variant that is the assignment's own order would only repeat the correct search.
    clauses = [m.clause for m in mistakes if any(r.order != spec.move_order and fits(r) for r in m.rules)]
    if not clauses:
        return None
    return (
        "Your search explored exactly the positions of an alpha-beta in which " + "; or in which ".join(clauses) + "."
    )
