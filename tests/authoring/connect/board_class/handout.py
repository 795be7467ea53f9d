"""Lab: Connect Four with a class. Implement every method and function that raises
NotImplementedError.

Connect Four with a class that holds the board: moves are made and taken back on the one
object, and the search explores the tree by making a move, searching, and undoing it."""

import math

EMPTY = "."
WIN_SCORE = 10000


class ConnectFour:
    def __init__(self, rows=6, cols=7):
        self.rows = rows
        self.cols = cols
        self.board = [[EMPTY] * cols for _ in range(rows)]  # row 0 is the top row
        self.current_player = "X"

    def get_valid_moves(self):
        raise NotImplementedError

    def make_move(self, col):
        raise NotImplementedError

    def undo_move(self, col):
        raise NotImplementedError

    def check_win(self, piece):
        raise NotImplementedError

    def is_full(self):
        raise NotImplementedError

    def is_game_over(self):
        raise NotImplementedError

    def evaluate(self, piece):
        """Open lines: +1, +4 or +9 for 1, 2 or 3 of `piece`'s pieces in a line of four the
        opponent has not blocked, and minus the same for the opponent's."""
        raise NotImplementedError

    def __str__(self):
        return "\n".join(" ".join(row) for row in self.board) + "\n" + " ".join(map(str, range(self.cols)))


def minimax(game, depth, maximizing, piece):
    """(column, value) of `game` for `piece`, searching `depth` plies; `maximizing` says
    whether `piece` is to move."""
    raise NotImplementedError


def alphabeta(game, depth, alpha, beta, maximizing, piece):
    """`minimax`'s answer, cutting off a column's siblings once alpha >= beta."""
    raise NotImplementedError


game = ConnectFour()
game.make_move(3)
print(game)
print(minimax(game, 3, True, game.current_player), alphabeta(game, 4, -math.inf, math.inf, True, "O"))
