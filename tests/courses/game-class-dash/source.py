# %% [markdown]
# # Assignment 3: an unbeatable tic-tac-toe player
#
# The `Game` class keeps the board in `self.board`: three rows of three cells, `'-'` for an empty
# cell, `'x'` and `'o'` for the players. x moves first and is the maximizing player.
#
# Scores prefer quick wins: a win for x found `depth` moves ahead is worth `10 - depth`, a win for
# o `depth - 10`, a draw 0. Squares are named `(row, col)` with rows and columns counted **from 1**,
# as on the handout's drawing.

# %%
class Game:
    def __init__(self):
        self.board = [['-', '-', '-'],
                      ['-', '-', '-'],
                      ['-', '-', '-']]

    def show(self):
        for row in self.board:
            print(' '.join(row))

    def winner(self):
        b = self.board
        for i in range(3):
            if b[i][0] != '-' and b[i][0] == b[i][1] == b[i][2]:
                return b[i][0]
            if b[0][i] != '-' and b[0][i] == b[1][i] == b[2][i]:
                return b[0][i]
        if b[1][1] != '-' and b[0][0] == b[1][1] == b[2][2]:
            return b[1][1]
        if b[1][1] != '-' and b[0][2] == b[1][1] == b[2][0]:
            return b[1][1]
        return None

    def is_draw(self):
        if self.winner() is not None:
            return False
        return all(cell != '-' for row in self.board for cell in row)

    def empty_squares(self):
        return [(r + 1, c + 1) for r in range(3) for c in range(3) if self.board[r][c] == '-']

    def minimax(self, depth, is_max):
        w = self.winner()
        if w == 'x':
            return 10 - depth
        if w == 'o':
            return depth - 10
        if self.is_draw():
            return 0

        if is_max:
            best = -1000
            for r, c in self.empty_squares():
                self.board[r - 1][c - 1] = 'x'
                best = max(best, self.minimax(depth + 1, False))
                self.board[r - 1][c - 1] = '-'
        else:
            best = 1000
            for r, c in self.empty_squares():
                self.board[r - 1][c - 1] = 'o'
                best = min(best, self.minimax(depth + 1, True))
                self.board[r - 1][c - 1] = '-'
        return best

    def best_move(self, player):
        """The square (row, col), counted from 1, where player should move."""
        best_square = None
        best_score = -1000 if player == 'x' else 1000
        for r, c in self.empty_squares():
            self.board[r - 1][c - 1] = player
            score = self.minimax(1, player == 'o')
            self.board[r - 1][c - 1] = '-'
            if (player == 'x' and score > best_score) or (player == 'o' and score < best_score):
                best_score = score
                best_square = (r, c)
        return best_square

# %%
game = Game()
game.board = [['x', 'o', 'x'],
              ['-', 'o', '-'],
              ['-', '-', '-']]
game.show()
print('x should play', game.best_move('x'))
print('value with x to move:', game.minimax(0, True))
