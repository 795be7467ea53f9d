"""Naming the likely bug behind a wrong search value, by testing explanations.

Each known mistake is a variant of minimax; when a variant reproduces exactly the value the
student returned (and the correct search does not), that mistake is the likely cause. A
guess from the numbers alone ("the sign is flipped") would often name the wrong bug.
"""

from __future__ import annotations

import functools

from reference import Board, SearchSpec

# variant -> the sentence a student reads
EXPLANATIONS = {
    "scores-swapped": (
        "The value is what you get when each final score favours the wrong player: check which player +1 is "
        "for, and which mark the maximizing branch places."
    ),
    "draw-as-loss": "A drawn game seems to be scored as a loss: a full board without a line is worth 0.",
    "draw-as-win": "A drawn game seems to be scored as a win: a full board without a line is worth 0.",
}


def explain_value(board: Board, side: str, spec: SearchSpec, actual: float) -> str | None:
    """The first known mistake whose value on ``board`` equals ``actual``, as a sentence."""
    if spec.scoring != "unit" or spec.depth_limit is not None:
        return None
    for variant, sentence in EXPLANATIONS.items():
        if _variant_value(board, side, spec.maximizer, variant) == actual:
            return sentence
    return None


@functools.lru_cache(maxsize=100_000)
def _variant_value(board: Board, side: str, maximizer: str, variant: str) -> float:
    winners = board.winners()
    if winners or board.is_full():
        if not winners:
            return {"draw-as-loss": -1, "draw-as-win": 1}.get(variant, 0)
        score = 1 if maximizer in winners else -1
        return -score if variant == "scores-swapped" else score
    other = "O" if side == "X" else "X"
    values = [_variant_value(board.play(c, side), other, maximizer, variant) for c in board.empty_cells()]
    return max(values) if side == maximizer else min(values)
