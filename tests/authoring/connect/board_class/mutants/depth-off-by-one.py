"""Connect Four with a class that holds the board: moves are made and taken back on the one
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
        return [col for col in range(self.cols) if self.board[0][col] == EMPTY]

    def make_move(self, col):
        for row in range(self.rows - 1, -1, -1):
            if self.board[row][col] == EMPTY:
                self.board[row][col] = self.current_player
                self.current_player = "O" if self.current_player == "X" else "X"
                return row
        raise ValueError(f"column {col} is full")

    def undo_move(self, col):
        for row in range(self.rows):
            if self.board[row][col] != EMPTY:
                self.board[row][col] = EMPTY
                self.current_player = "O" if self.current_player == "X" else "X"
                return
        raise ValueError(f"column {col} is empty")

    def check_win(self, piece):
        for row in range(self.rows):
            for col in range(self.cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + 3 * d_row, col + 3 * d_col
                    if not (0 <= end_row < self.rows and 0 <= end_col < self.cols):
                        continue
                    if all(self.board[row + i * d_row][col + i * d_col] == piece for i in range(4)):
                        return True
        return False

    def is_full(self):
        return all(cell != EMPTY for cell in self.board[0])

    def is_game_over(self):
        return self.check_win("X") or self.check_win("O") or self.is_full()

    def evaluate(self, piece):
        """Open lines: +1, +4 or +9 for 1, 2 or 3 of `piece`'s pieces in a line of four the
        opponent has not blocked, and minus the same for the opponent's."""
        other = "O" if piece == "X" else "X"
        score = 0
        for row in range(self.rows):
            for col in range(self.cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + 3 * d_row, col + 3 * d_col
                    if not (0 <= end_row < self.rows and 0 <= end_col < self.cols):
                        continue
                    line = [self.board[row + i * d_row][col + i * d_col] for i in range(4)]
                    mine, theirs = line.count(piece), line.count(other)
                    if mine and not theirs:
                        score += mine * mine
                    elif theirs and not mine:
                        score -= theirs * theirs
        return score

    def __str__(self):
        return "\n".join(" ".join(row) for row in self.board) + "\n" + " ".join(map(str, range(self.cols)))


def minimax(game, depth, maximizing, piece):
    """(column, value) of `game` for `piece`, searching `depth` plies; `maximizing` says
    whether `piece` is to move."""
    other = "O" if piece == "X" else "X"
    if game.check_win(piece):
        return None, WIN_SCORE
    if game.check_win(other):
        return None, -WIN_SCORE
    if game.is_full():
        return None, 0
    if depth == 0:
        return None, game.evaluate(piece)
    best_col, best = None, -math.inf if maximizing else math.inf
    for col in game.get_valid_moves():
        game.make_move(col)
        _, value = minimax(game, depth - 1, not maximizing, piece)
        game.undo_move(col)
        if (maximizing and value > best) or (not maximizing and value < best):
            best_col, best = col, value
    return best_col, best


def alphabeta(game, depth, alpha, beta, maximizing, piece):
    """`minimax`'s answer, cutting off a column's siblings once alpha >= beta."""
    other = "O" if piece == "X" else "X"
    if game.check_win(piece):
        return None, WIN_SCORE
    if game.check_win(other):
        return None, -WIN_SCORE
    if game.is_full():
        return None, 0
    if depth <= 1:
        return None, game.evaluate(piece)
    best_col, best = None, -math.inf if maximizing else math.inf
    for col in game.get_valid_moves():
        game.make_move(col)
        _, value = alphabeta(game, depth - 1, alpha, beta, not maximizing, piece)
        game.undo_move(col)
        if maximizing:
            if value > best:
                best_col, best = col, value
            alpha = max(alpha, best)
        else:
            if value < best:
                best_col, best = col, value
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best_col, best


game = ConnectFour()
game.make_move(3)
print(game)
print(minimax(game, 3, True, game.current_player), alphabeta(game, 4, -math.inf, math.inf, True, "O"))
