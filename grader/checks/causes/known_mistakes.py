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
from dataclasses import dataclass, replace

from reference import EMPTY, LINE_NAMES, LINES, Position, SearchSpec, opponent
from reference.engine import Cells, Rules, Search, place
from reference.mistakes import valued_mistakes
from reference.search import WIN_SCORE, spec_search
from reference.tictactoe import board_of

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
    board: Position
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
    for variant in MINIMAX_VARIANTS:
        if variant.depth_sign != -1 and spec.scoring == "unit":
            continue
        if all(
            _variant_search(
                variant, o.maximizer or spec.maximizer, o.depth_limit, spec.cutoff_value, spec.scoring
            ).value(board_of(o.board).cells, -1, o.side, o.start_depth)
            == o.actual
            for o in observations
        ):
            return variant.sentence
    return None


def _smallest(observations: Sequence[Observation]) -> list[Observation]:
    """The evidence a variant must reproduce: the smallest answers that disagree with the
    reference (without them any variant fits boards where every game is a draw) and as many
    that agree (so a variant that is wrong everywhere else does not fit either)."""
    ordered = sorted(observations, key=lambda o: (9 - len(board_of(o.board).empty_cells()), str(o.board)))
    wrong = [o for o in ordered if o.expected is not None and o.actual != o.expected]
    right = [o for o in ordered if o not in wrong]
    return wrong[:MAX_OBSERVATIONS] + right[:MAX_OBSERVATIONS]


class VariantPositions:
    """The game as a mistaken minimax plays it (:class:`reference.engine.Positions`)."""

    def __init__(self, variant: Variant, maximizer: str, limit: int | None, cutoff: float, scoring: str) -> None:
        self.variant = variant
        self.maximizer = maximizer
        self.limit = math.inf if limit is None else limit
        self.cutoff = cutoff
        self.scoring = scoring

    def root_value(self, cells: Cells, depth: int) -> float | None:
        variant = self.variant
        winner = _winner(cells, variant.lines)
        if winner is not None:
            score = 1 if self.scoring == "unit" else WIN_SCORE + variant.depth_sign * depth
            score = score if winner == self.maximizer else -score
            return -score if variant.scores_swapped else score
        if EMPTY not in cells:
            return variant.draw_value
        if depth >= self.limit:
            return self.cutoff
        return None

    def leaf_value(self, cells: Cells, last: int, depth: int) -> float | None:
        # A missed line lets the game go on: a win is looked for on every line, not only through ``last``.
        return self.root_value(cells, depth)

    def children(self, cells: Cells, mover: str, order: Sequence[int]) -> list[tuple[int, Cells]]:
        mark = opponent(mover) if self.variant.marks_swapped else mover
        if self.variant.same_mark:
            mark = self.maximizer if self.variant.same_mark == "max" else opponent(self.maximizer)
        return [(m, place(cells, m, mark)) for m in order if cells[m] == EMPTY]


@functools.lru_cache(maxsize=48)
def _variant_search(variant: Variant, maximizer: str, limit: int | None, cutoff: float, scoring: str) -> Search:
    """One memoized minimax per variant and conventions, shared by every observation."""
    return Search(VariantPositions(variant, maximizer, limit, cutoff, scoring), maximizer)


def _winner(cells: tuple[str, ...], lines: Sequence[tuple[int, int, int]]) -> str | None:
    for a, b, c in lines:
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


# -- alpha-beta ----------------------------------------------------------------


def explain_alphabeta(observations: Sequence[Observation], spec: SearchSpec) -> str | None:
    """The first alpha-beta mistake (``reference.mistakes``) that reproduces every observed value."""
    if spec.scoring != "unit" or spec.depth_limit is not None or not observations:
        return None
    sample = _smallest(observations)
    for mistake in valued_mistakes():
        if any(all(_mistaken_value(o, spec, rules) == o.actual for o in sample) for rules in mistake.rules):
            return mistake.sentence
    return None


def _mistaken_value(o: Observation, spec: SearchSpec, rules: Rules) -> float:
    """What the alpha-beta ``rules`` describe returns for the observed call."""
    spec = replace(spec, maximizer=o.maximizer or spec.maximizer)
    search = spec_search(spec, rules, window=(o.alpha, o.beta))
    return search.search(board_of(o.board).cells, o.side, spec.start_depth, o.alpha, o.beta)[0]
