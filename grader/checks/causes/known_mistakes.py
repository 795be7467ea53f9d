"""Naming the likely bug behind wrong search values, by testing explanations.

Each known mistake is a variant of the search (a line that does not count, scores that
favour the wrong player, a draw scored as a loss, alpha raised in a MIN node, ...). A variant
is named only when it reproduces EVERY answer the student gave on the boards tried, and the
correct search does not: one board can be explained by several mistakes by coincidence, a
few dozen rarely are. A guess from the numbers alone ("the sign is flipped") would often name the
wrong bug.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from reference import EMPTY, LINE_NAMES, LINES, Board, SearchSpec
from reference.search import WIN_SCORE

MAX_OBSERVATIONS = 12


@dataclass(frozen=True)
class Variant:
    """One mistake, as a change to how minimax scores and plays the game."""

    sentence: str
    lines: tuple[tuple[int, int, int], ...] = LINES
    """The lines the mistaken win test recognises."""
    scores_swapped: bool = False
    marks_swapped: bool = False
    same_mark: str | None = None
    """"max" or "min": both branches place that player's mark."""
    draw_value: float = 0
    depth_sign: int = -1
    """Depth-adjusted scores: a win is worth 10 + depth_sign * depth (-1 is right, 0 ignores depth)."""


def _missing(lines: Sequence[tuple[int, int, int]], what: str) -> Variant:
    return Variant(
        f"The values are those of a game in which {what} does not count as a win: check the win test.",
        lines=tuple(line for line in LINES if line not in lines),
    )


MINIMAX_VARIANTS: tuple[Variant, ...] = (
    Variant(
        "The values are what you get when each final score favours the wrong player: check which player +1 is for.",
        scores_swapped=True,
    ),
    Variant(
        "The values are what you get when the maximizing branch places the minimizing player's mark "
        "(and the other way round): check which mark each branch plays.",
        marks_swapped=True,
    ),
    Variant(
        "Both branches place the maximizing player's mark: the minimizing branch must play the other mark.",
        same_mark="max",
    ),
    Variant(
        "Both branches place the minimizing player's mark: the maximizing branch must play its own mark.",
        same_mark="min",
    ),
    Variant("Depth is added instead of subtracted: a win is worth 10 - depth, a loss depth - 10.", depth_sign=1),
    Variant("The score ignores depth: a win should score 10 - depth and a loss depth - 10.", depth_sign=0),
    Variant("A drawn game is scored as a loss: a full board without a line is worth 0.", draw_value=-1),
    Variant("A drawn game is scored as a win: a full board without a line is worth 0.", draw_value=1),
    _missing(LINES[:0] + ((0, 1, 2), (3, 4, 5), (6, 7, 8)), "a complete row"),
    _missing(((0, 3, 6), (1, 4, 7), (2, 5, 8)), "a complete column"),
    _missing(((0, 4, 8), (2, 4, 6)), "a diagonal"),
    *(_missing((line,), words) for line, words in LINE_NAMES.items()),
)


@dataclass(frozen=True)
class Observation:
    board: Board
    side: str
    actual: float
    alpha: float = -math.inf
    beta: float = math.inf
    depth_limit: int | None = None
    start_depth: int = 0
    expected: float | None = None
    """The reference's value: answers that disagree with it are the evidence that matters."""
    maximizer: str | None = None
    """Per observation when the maximizer is the side to move (a "to-move" assignment)."""


def is_full_window(spec: SearchSpec, alpha: float, beta: float) -> bool:
    """A window that contains every value the game can have (the narrow full window (-2, 2) on
    unit scores counts, as well as (-inf, inf))."""
    bound = 1 if spec.scoring == "unit" else 10
    return alpha < -bound and beta > bound


def explain_minimax(observations: Sequence[Observation], spec: SearchSpec) -> str | None:
    """The first mistake that reproduces every observed value of a minimax-like function."""
    if not observations:
        return None
    # Memoized over at most 5,478 positions per variant: cheap enough to demand that a
    # variant reproduce every answer, which keeps coincidences out.
    sample = observations
    for variant in MINIMAX_VARIANTS:
        if variant.depth_sign != -1 and spec.scoring == "unit":
            continue
        if all(
            _variant_value(
                o.board.cells,
                o.side,
                o.maximizer or spec.maximizer,
                variant,
                o.start_depth,
                o.depth_limit,
                spec.cutoff_value,
                spec.scoring,
            )
            == o.actual
            for o in sample
        ):
            return variant.sentence
    return None


def _smallest(observations: Sequence[Observation]) -> list[Observation]:
    """The evidence a variant must reproduce: the smallest answers that disagree with the
    reference (without them any variant fits boards where every game is a draw) and as many
    that agree (so a variant that is wrong everywhere else does not fit either)."""
    ordered = sorted(observations, key=lambda o: (9 - len(o.board.empty_cells()), str(o.board)))
    wrong = [o for o in ordered if o.expected is not None and o.actual != o.expected]
    right = [o for o in ordered if o not in wrong]
    return wrong[:MAX_OBSERVATIONS] + right[:MAX_OBSERVATIONS]


@functools.lru_cache(maxsize=200_000)
def _variant_value(
    cells: tuple[str, ...],
    side: str,
    maximizer: str,
    variant: Variant,
    depth: int,
    limit: int | None,
    cutoff: float,
    scoring: str = "unit",
) -> float:
    winner = _winner(cells, variant.lines)
    if winner is not None:
        score = 1 if scoring == "unit" else WIN_SCORE + variant.depth_sign * depth
        score = score if winner == maximizer else -score
        return -score if variant.scores_swapped else score
    if EMPTY not in cells:
        return variant.draw_value
    if limit is not None and depth >= limit:
        return cutoff
    other = "O" if side == "X" else "X"
    minimizer = "O" if maximizer == "X" else "X"
    mark = other if variant.marks_swapped else side
    if variant.same_mark:
        mark = maximizer if variant.same_mark == "max" else minimizer
    values = [
        _variant_value(
            cells[:c] + (mark,) + cells[c + 1 :], other, maximizer, variant, depth + 1, limit, cutoff, scoring
        )
        for c, v in enumerate(cells)
        if v == EMPTY
    ]
    return max(values) if side == maximizer else min(values)


def _winner(cells: tuple[str, ...], lines: Sequence[tuple[int, int, int]]) -> str | None:
    for a, b, c in lines:
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


# -- alpha-beta --------------------------------------------------------------

AB_VARIANTS: dict[str, str] = {
    "inverted-cut": "The cut-off condition is inverted (for example `beta >= alpha` instead of `beta <= alpha`): "
    "nodes stop after their first child.",
    "alpha-in-min": "A MIN node raises alpha (as a MAX node does) instead of lowering beta.",
    "beta-in-max": "A MAX node lowers beta (as a MIN node does) instead of raising alpha.",
    "bounds-swapped": "Alpha and beta are swapped: MAX nodes update beta and MIN nodes update alpha.",
    "no-bound-update": "The bounds are never updated, so the window passed to children is always the initial one.",
}


def explain_alphabeta(observations: Sequence[Observation], spec: SearchSpec) -> str | None:
    """The first alpha-beta mistake that reproduces every observed value."""
    if spec.scoring != "unit" or spec.depth_limit is not None or not observations:
        return None
    sample = _smallest(observations)
    for name, sentence in AB_VARIANTS.items():
        for style in STYLES:
            if all(
                _ab(o.board.cells, o.side, o.maximizer or spec.maximizer, o.alpha, o.beta, name, style) == o.actual
                for o in sample
            ):
                return sentence
    return None


STYLES = ("bounds", "best")
"""Two ways students write the cut-off. "bounds": update alpha or beta with the child's value,
then cut when beta <= alpha. "best": cut when the best value so far reaches the bound, then
update the bound."""


def _updated(is_max: bool, value: float, alpha: float, beta: float, variant: str) -> tuple[float, float]:
    """The window after a child returned ``value``, as each mistaken variant updates it."""
    if variant == "no-bound-update":
        return alpha, beta
    if variant == "bounds-swapped":  # beta = max(beta, v) in MAX nodes, alpha = min(alpha, v) in MIN nodes
        return (alpha, max(beta, value)) if is_max else (min(alpha, value), beta)
    raises_alpha = is_max if variant in ("correct", "inverted-cut") else variant == "alpha-in-min"
    if variant == "beta-in-max":
        raises_alpha = False
    if raises_alpha:
        return max(alpha, value), beta
    return alpha, min(beta, value)


def _ab(
    cells: tuple[str, ...], side: str, maximizer: str, alpha: float, beta: float, variant: str, style: str
) -> float:
    winner = _winner(cells, LINES)
    if winner is not None:
        return 1 if winner == maximizer else -1
    if EMPTY not in cells:
        return 0
    other = "O" if side == "X" else "X"
    is_max = side == maximizer
    best = -math.inf if is_max else math.inf
    for c, v in enumerate(cells):
        if v != EMPTY:
            continue
        value = _ab(cells[:c] + (side,) + cells[c + 1 :], other, maximizer, alpha, beta, variant, style)
        best = max(best, value) if is_max else min(best, value)
        if style == "best":
            if variant == "inverted-cut":  # `>=` written as `<=` (and the reverse)
                reached = best <= beta if is_max else best >= alpha
            else:
                reached = best >= beta if is_max else best <= alpha
            if reached:
                break
            alpha, beta = _updated(is_max, best, alpha, beta, variant)
            continue
        alpha, beta = _updated(is_max, value, alpha, beta, variant)
        if (beta >= alpha) if variant == "inverted-cut" else (beta <= alpha):
            break
    return best
