"""Why a search on a game other than tic-tac-toe answered wrong (`game-search`): the words of
the likely cause, from the reference's answer under the student's own heuristic.

A wrong value names the reference's value of each move at the root; a wrong count compares
it with the counts of the searches a known mistake makes (each evaluation counted twice, a
cut-off only past the bound, a progressive deepening's count restarted or carried over).
"""

from __future__ import annotations

from dataclasses import replace

from reference.connect4 import ConnectK, ConnectState
from reference.game_search import GameSearchResult, GameSearchSpec, minimax_search

__all__ = ["count_cause", "deepening_count_cause", "root_values"]


def root_values(
    game: ConnectK, state: ConnectState, spec: GameSearchSpec, best: GameSearchResult, maximizer: str | None = None
) -> str:
    """The reference's value of each move at the root, under the student's heuristic, for
    ``maximizer`` (the side to move unless given)."""
    if game.is_terminal(state) or spec.depth_limit == 0:
        return "the position itself is scored"
    maximizer = maximizer or game.to_move(state)
    limit = None if spec.depth_limit is None else spec.depth_limit - 1  # None: to the end of the game
    child_spec = replace(spec, depth_limit=limit, win_value=spec.win_value - (spec.scoring == "depth-adjusted"))
    valued = []
    for move in game.actions(state):
        child = game.result(state, move)
        value = minimax_search(game, child, child_spec, player=maximizer).value
        valued.append(f"column {move}: {value:g}")
    return f"under your heuristic the reference values the moves {'; '.join(valued)} (best {best.value:g})"


def count_cause(prune: bool, made: int | None, wanted: int, without_pruning: int) -> str:
    """A search's count ``made`` against the reference's ``wanted`` (``without_pruning``: what
    minimax makes at the same depth)."""
    search = "alpha-beta (left to right, cut off when alpha >= beta)" if prune else "minimax"
    sentence = f"the reference {search} makes {wanted} static evaluations here, your search {made}"
    if made is None:
        return sentence
    if prune and made == without_pruning and made > wanted:
        return f"{sentence}: as many as minimax makes, it never cuts off; does it stop trying moves once alpha >= beta?"
    if wanted and made == 2 * wanted:
        return f"{sentence}: twice as many, is each evaluation counted twice?"
    if prune and made > wanted and made <= without_pruning:
        return f"{sentence}: it prunes less; does it cut off only when alpha > beta instead of alpha >= beta?"
    if made > wanted:
        return f"{sentence}: more than the reference"
    return f"{sentence}: fewer, does it stop before the depth limit or skip the evaluation there?"


def deepening_count_cause(running: bool, made: int | None, depth: int, own: int, total: int) -> str:
    """Progressive deepening's count ``made`` after ``depth``, wrong: the course asks for the
    running total since depth 1 (``running``: the reference's is ``total``) or for that depth's
    search alone (``own``)."""
    if made is not None and total and made == 2 * (total if running else own):
        return (
            f"the count is {made}, twice the reference's {total if running else own}: is each evaluation counted twice?"
        )
    if running:
        sentence = f"the count is {made}, the reference's running total over depths 1 to {depth} is {total}"
        if made == own != total:
            alone = f"{made} is the count of depth {depth}'s search alone"
            return f"{sentence}: {alone}; does it restart the count at each depth?"
        return sentence
    sentence = f"the count is {made}, the reference's search at depth {depth} makes {own}"
    if made == total != own:
        carried = f"{made} is the total over depths 1 to {depth}"
        return f"{sentence}: {carried}; does it carry the count over from the depth before?"
    return sentence
