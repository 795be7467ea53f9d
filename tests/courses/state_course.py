"""The course with its own state objects (`support-state-objects/`): a games lab in MIT 6.034's style
whose searches take the course's ``AbstractGameState`` and answer ``(path, score,
evaluations)``, its support modules, and its mutants: real mistakes, each in one function, that
a tester on a few fixed boards lets through."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

COURSE = Path(__file__).parent / "support-state-objects"
SUPPORT = COURSE / "support"
SOLUTION = COURSE / "solution.py"
HANDOUT = COURSE / "template.py"


@dataclass(frozen=True)
class Mutant:
    name: str
    function: str
    checks: tuple[str, ...]
    """The checks of that function (on Connect Four, and on game trees where it has one): the
    ones the mistake must fail, the first on Connect Four."""
    mistake: str
    old: str
    new: str

    def source(self) -> str:
        """The solution with the mistake made."""
        text = SOLUTION.read_text(encoding="utf-8")
        assert text.count(self.old) == 1, f"{self.name}: the solution changed, update the mutant"
        return text.replace(self.old, self.new)


MUTANTS = (
    Mutant(
        "dfs-best-starts-at-zero",
        "dfs_maximizing",
        ("dfs-maximizing", "dfs-maximizing-trees"),
        "the best score starts at 0, so where every finished game below is lost nothing replaces it",
        "    best_path, best_score, evaluations = None, None, 0\n"
        "    for child in state.generate_next_states():\n"
        "        path, score, count = dfs_maximizing(child)\n"
        "        evaluations += count\n"
        "        if best_score is None or score > best_score:",
        "    best_path, best_score, evaluations = [state], 0, 0\n"
        "    for child in state.generate_next_states():\n"
        "        path, score, count = dfs_maximizing(child)\n"
        "        evaluations += count\n"
        "        if score > best_score:",
    ),
    Mutant(
        "ties-to-the-later-branch",
        "minimax_search",
        ("minimax", "minimax-trees"),
        "an equally good later move replaces the best (>= and <=), where the lab keeps the earliest",
        "        path, score, count = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)\n"
        "        evaluations += count\n"
        "        if best_score is None or (score > best_score if maximize else score < best_score):",
        "        path, score, count = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)\n"
        "        evaluations += count\n"
        "        if best_score is None or (score >= best_score if maximize else score <= best_score):",
    ),
    Mutant(
        "won-on-the-last-cell-is-a-tie",
        "endgame_score_connectfour",
        ("endgame-score",),
        "a full board is scored as a tie before the lines are looked at",
        '    The player who just moved is the one who won."""\n',
        '    The player who just moved is the one who won."""\n    if board.is_full():\n        return 0\n',
    ),
    Mutant(
        "endgame-score-sign-flipped",
        "endgame_score_connectfour",
        ("endgame-score",),
        "a won game is scored for the side to move, not for the side that just moved and won",
        "        return -1000 if is_current_player_maximizer else 1000",
        "        return 1000 if is_current_player_maximizer else -1000",
    ),
    Mutant(
        "a-full-board-is-not-over",
        "is_game_over_connectfour",
        ("is-game-over",),
        "the game is over only once someone has four in a line: a full board with no line goes on",
        "    return any(len(chain) >= 4 for chain in board.get_all_chains()) or board.is_full()",
        "    return any(len(chain) >= 4 for chain in board.get_all_chains())",
    ),
    Mutant(
        "heuristic-not-negated",
        "heuristic_connectfour",
        ("heuristic",),
        "the current player's advantage is returned for both sides, never negated for the minimizer",
        "    return score if is_current_player_maximizer else -score",
        "    return score",
    ),
    Mutant(
        "alphabeta-never-prunes",
        "minimax_search_alphabeta",
        ("alphabeta", "alphabeta-trees"),
        "alpha and beta are kept up to date but no move is ever cut off",
        "        if alpha >= beta:\n            break\n",
        "",
    ),
    Mutant(
        "deepening-always-maximizes",
        "progressive_deepening",
        ("progressive-deepening",),
        "each depth's alpha-beta is asked for the maximizer, whatever the call's `maximize`",
        "        anytime.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))",
        "        anytime.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, True))",
    ),
    Mutant(
        "terminal-leaves-not-counted",
        "minimax_search",
        ("minimax", "minimax-trees"),
        "a finished game's endgame score is not counted as a static evaluation, only the heuristic's",
        "def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):\n"
        '    """Minimax to `depth_limit` moves ahead, the positions there valued by `heuristic_fn`."""\n'
        "    if state.is_game_over():\n"
        "        return [state], state.get_endgame_score(maximize), 1",
        "def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):\n"
        '    """Minimax to `depth_limit` moves ahead, the positions there valued by `heuristic_fn`."""\n'
        "    if state.is_game_over():\n"
        "        return [state], state.get_endgame_score(maximize), 0",
    ),
)


NEXT_BOARDS_REVERSED = Mutant(
    "next-boards-last-column-first",
    "next_boards_connectfour",
    ("next-boards",),
    "the boards one move away from the last column to the first: every search's state walks them so",
    "    return [board.add_piece(col) for col in range(board.num_cols) if not board.is_column_full(col)]",
    "    return [board.add_piece(col) for col in reversed(range(board.num_cols)) if not board.is_column_full(col)]",
)
"""Kept out of `MUTANTS`: graded with the searches built on it alone (a mistake the searches' state carries)."""
