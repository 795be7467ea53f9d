# %% [markdown]
# # Tutorial 9 — Tic-tac-toe: minimax and alpha-beta
#
# A `Board` object keeps the nine squares in `self.cells`, a flat list, `' '` when a square is
# free. Squares are numbered 1-9 from the top left. You (X) start; the computer (O) maximizes:
# a win for O `depth` moves ahead scores `10 - depth`, a win for X `depth - 10`, a draw 0.

# %%
import math

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6),
         (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class Board:
    def __init__(self):
        self.cells = [' '] * 9

    def show(self):
        rows = [' ' + ' | '.join(self.cells[r:r + 3]) for r in (0, 3, 6)]
        print('\n---+---+---\n'.join(rows))

    def is_winner(self, mark):
        for a, b, c in LINES:
            if self.cells[a] == mark and self.cells[b] == mark and self.cells[c] == mark:
                return True
        return False

    def is_full(self):
        return ' ' not in self.cells

    def legal_moves(self):
        return [i + 1 for i, cell in enumerate(self.cells) if cell == ' ']

    def minimax(self, depth, maximizing):
        if self.is_winner('O'):
            return 10 - depth
        if self.is_winner('X'):
            return depth - 10
        if self.is_full():
            return 0
        scores = []
        for square in self.legal_moves():
            self.cells[square - 1] = 'O' if maximizing else 'X'
            scores.append(self.minimax(depth + 1, not maximizing))
            self.cells[square - 1] = ' '
        return max(scores) if maximizing else min(scores)

    def alphabeta(self, depth, alpha, beta, maximizing):
        if self.is_winner('O'):
            return 10 - depth
        if self.is_winner('X'):
            return depth - 10
        if self.is_full():
            return 0
        if maximizing:
            value = -math.inf
            for square in self.legal_moves():
                self.cells[square - 1] = 'O'
                value = max(value, self.alphabeta(depth + 1, alpha, beta, False))
                self.cells[square - 1] = ' '
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = math.inf
        for square in self.legal_moves():
            self.cells[square - 1] = 'X'
            value = min(value, self.alphabeta(depth + 1, alpha, beta, True))
            self.cells[square - 1] = ' '
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    def best_move(self):
        """The square 1-9 for the computer (O)."""
        best_square, best_value = None, -math.inf
        for square in self.legal_moves():
            self.cells[square - 1] = 'O'
            value = self.alphabeta(1, -math.inf, math.inf, False)
            self.cells[square - 1] = ' '
            if value > best_value:
                best_square, best_value = square, value
        return best_square

# %%
board = Board()
print('Squares are numbered 1-9, row by row. You are X.')
while not (board.is_winner('X') or board.is_winner('O') or board.is_full()):
    board.show()
    move = input('Your square (1-9): ')
    if not move.isdigit() or int(move) not in board.legal_moves():
        print('Not a free square, try again.')
        continue
    board.cells[int(move) - 1] = 'X'
    if board.is_winner('X') or board.is_full():
        break
    board.cells[board.best_move() - 1] = 'O'

board.show()
if board.is_winner('X'):
    print('You win!')
elif board.is_winner('O'):
    print('The computer wins.')
else:
    print("It's a draw.")
