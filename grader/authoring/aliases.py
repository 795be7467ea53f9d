"""Other names students give a function of a known role: the `[aliases]` table init writes.

A student who calls the win test `check_winner` where the solution says `check_win` has
written the same function; without an alias the check says "not defined". The names below
are those the built-in assignments accept and the ones public courses use. A name is offered
only for the job it names (a full-board test is not aliased to `is_draw`), never when the
solution itself defines it, and never for two functions at once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

COMMON_NAMES: dict[str, tuple[str, ...]] = {
    "wins": ("check_win", "checkWin", "check_winner", "is_winner", "isWinner", "has_won", "wins", "is_win"),
    "winner": ("check_winner", "winner", "get_winner", "checkWinner", "check_win", "find_winner"),
    "outcome": ("check_winner", "winner", "get_winner", "game_result", "outcome"),
    "full": ("is_full", "is_board_full", "board_full", "isFull", "full_board", "check_full"),
    "draw": ("check_draw", "checkDraw", "is_draw", "isDraw", "check_tie", "is_tie"),
    "terminal": ("is_terminal", "terminal", "terminal_test", "game_over", "is_game_over", "is_end", "isTerminal"),
    "legal-moves": (
        "get_empty_positions",
        "empty_positions",
        "get_moves",
        "available_moves",
        "get_available_moves",
        "legal_moves",
        "empty_cells",
        "possible_moves",
    ),
    "score": ("evaluate", "score", "utility", "evaluate_board", "static_eval"),
    "minimax": ("minimax", "mini_max", "miniMax", "minimax_value"),
    "alpha-beta": (
        "minimaxAB",
        "minimax_ab",
        "minimax_alpha_beta",
        "alphabeta",
        "alpha_beta",
        "alpha_beta_search",
        "minimax_alphabeta",
        "alphaBeta",
    ),
    "best-move": ("best_move", "bestMove", "find_best_move", "findBestMove", "get_best_move", "ai_move"),
    "to-move": ("player", "current_player", "get_player", "next_player", "whose_turn", "to_move", "get_turn"),
    "successor": ("result", "make_move", "play_move", "apply_move", "select_space", "place_mark", "do_move"),
    "initial-state": ("initial_state", "new_board", "empty_board", "create_board", "init_board", "make_board"),
}
"""Names by job: a board test's expectation (`wins`, `full`, ...) or a search's role."""


def aliases_for(jobs: Iterable[tuple[str, str]], defined: Collection[str]) -> dict[str, tuple[str, ...]]:
    """``jobs``: (a plain function's name, its job) in the order the checks are written.
    Each gets the common names of its job that the solution does not define and no earlier
    function took."""
    taken = set(defined)
    aliases: dict[str, tuple[str, ...]] = {}
    for name, job in jobs:
        if name in aliases:
            continue
        others = tuple(n for n in COMMON_NAMES.get(job, ()) if n not in taken and n != name)
        taken.update(others)
        if others:
            aliases[name] = others
    return aliases
