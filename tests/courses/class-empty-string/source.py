# %% [markdown]
# # Lab 4 — Adversarial search with alpha-beta pruning
#
# `TicTacToe` stores the position in `self.board`, a 3x3 list of lists. An empty cell is the empty
# string `''`; the players are `'X'` (moves first, maximizes) and `'O'`.
#
# Evaluation: `10 - depth` when X has won, `depth - 10` when O has won, `0` for a draw, where
# `depth` is the number of moves made since the search started. Moves are `(row, col)` from 0.
#
# Alpha-beta pruning is part of `minimax` itself: call it with `alpha=-inf, beta=+inf`.

# %%
import math


class TicTacToe:
    def __init__(self):
        self.board = [['', '', ''] for _ in range(3)]

    def print_board(self):
        for row in self.board:
            print('|'.join(cell or ' ' for cell in row))

    def is_winner(self, player):
        b = self.board
        for i in range(3):
            if all(b[i][j] == player for j in range(3)):
                return True
            if all(b[j][i] == player for j in range(3)):
                return True
        if all(b[i][i] == player for i in range(3)):
            return True
        if all(b[i][2 - i] == player for i in range(3)):
            return True
        return False

    def is_full(self):
        return all(cell != '' for row in self.board for cell in row)

    def get_moves(self):
        return [(r, c) for r in range(3) for c in range(3) if self.board[r][c] == '']

    def minimax(self, depth, is_max, alpha, beta):
        if self.is_winner('X'):
            return 10 - depth
        if self.is_winner('O'):
            return depth - 10
        if self.is_full():
            return 0

        if is_max:
            best = -math.inf
            for r, c in self.get_moves():
                self.board[r][c] = 'X'
                best = max(best, self.minimax(depth + 1, False, alpha, beta))
                self.board[r][c] = ''
                alpha = max(alpha, best)
                if beta <= alpha:
                    break
            return best
        else:
            best = math.inf
            for r, c in self.get_moves():
                self.board[r][c] = 'O'
                best = min(best, self.minimax(depth + 1, True, alpha, beta))
                self.board[r][c] = ''
                beta = min(beta, best)
                if beta <= alpha:
                    break
            return best

    def find_best_move(self, player):
        best_move = None
        best_score = -math.inf if player == 'X' else math.inf
        for r, c in self.get_moves():
            self.board[r][c] = player
            score = self.minimax(1, player == 'O', -math.inf, math.inf)
            self.board[r][c] = ''
            if player == 'X' and score > best_score:
                best_score, best_move = score, (r, c)
            elif player == 'O' and score < best_score:
                best_score, best_move = score, (r, c)
        return best_move

# %%
game = TicTacToe()
game.board = [['X', '', ''],
              ['', 'O', ''],
              ['', '', '']]
game.print_board()
print('Best move for X:', game.find_best_move('X'))
print('Value:', game.minimax(0, True, -math.inf, math.inf))
