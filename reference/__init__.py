"""Reference game-search engine: games, board codecs, search algorithms.

The grader judges student code against this package, so every seed notebook's
conventions (who maximizes, scoring, depth, move order, node counting) are knobs here.
It never imports ``grader``. Hypothesis strategies live in ``reference.strategies``,
which is not imported here so that using the engine does not load hypothesis.
"""

from reference.challenges import (
    RecommendedGame,
    SelfPlayResult,
    depth_limited_selfplay,
    recommended_sequence,
)
from reference.codecs import (
    CODECS,
    BoardEncoding,
    CellName,
    MoveFormat,
    cell_to_position,
    cell_to_rowcol,
    get_codec,
    position_to_cell,
    rowcol_to_cell,
)
from reference.connect4 import CONNECT_FOUR, ConnectK, ConnectState
from reference.connect_heuristics import CentreColumn, CentrePreference, OpenWindows, centre_out_order
from reference.drawing import Drawing, Square
from reference.errors import IllegalMove, MalformedBoard
from reference.game import BoardGame, Game, LineGame, winner
from reference.game_search import (
    Evaluation,
    GameSearchResult,
    GameSearchSpec,
    alphabeta_search,
    deepening,
    game_minimax,
    minimax_search,
)
from reference.position import Position, WrittenPosition
from reference.search import (
    SearchResult,
    SearchSpec,
    alphabeta,
    minimax,
    minimax_nodes,
    move_values,
    optimal_moves,
)
from reference.solved import Solution, reachable_positions, solve, solve_all
from reference.tictactoe import EMPTY, LINE_NAMES, LINES, TIC_TAC_TOE, Board, O, TicTacToe, X, opponent

__all__ = [
    # tic-tac-toe
    "EMPTY",
    "LINES",
    "LINE_NAMES",
    "O",
    "X",
    "Board",
    "TIC_TAC_TOE",
    "TicTacToe",
    "opponent",
    "IllegalMove",
    "MalformedBoard",
    # the game protocol, its drawings, and Connect-K
    "BoardGame",
    "Drawing",
    "Game",
    "LineGame",
    "Position",
    "Square",
    "WrittenPosition",
    "winner",
    "CONNECT_FOUR",
    "ConnectK",
    "ConnectState",
    "CentreColumn",
    "CentrePreference",
    "OpenWindows",
    "centre_out_order",
    # depth-limited search over any game
    "Evaluation",
    "GameSearchResult",
    "GameSearchSpec",
    "alphabeta_search",
    "deepening",
    "game_minimax",
    "minimax_search",
    # student encodings
    "CODECS",
    "BoardEncoding",
    "CellName",
    "MoveFormat",
    "get_codec",
    "cell_to_position",
    "cell_to_rowcol",
    "position_to_cell",
    "rowcol_to_cell",
    # search
    "SearchResult",
    "SearchSpec",
    "alphabeta",
    "minimax",
    "minimax_nodes",
    "move_values",
    "optimal_moves",
    # solved table
    "Solution",
    "reachable_positions",
    "solve",
    "solve_all",
    # whole-game replays of the seeds
    "RecommendedGame",
    "SelfPlayResult",
    "depth_limited_selfplay",
    "recommended_sequence",
]
