# %% [markdown]
# # Lab 5: playing tic-tac-toe against minimax
#
# A `Game` holds the position in `self.current_state`: three rows of three cells, `'.'` for a
# free cell, `'X'` for you (you always start) and `'O'` for the computer. `initialize_game()`
# sets up a new game; the constructor calls it.
#
# `is_end()` says how the game stands: `'X'` or `'O'` when that player has three in a row, `'.'`
# for a tie, `None` while the game goes on.
#
# The computer is O and maximizes: +1 when O wins, -1 when X wins, 0 for a tie. `max()` is O's
# search and returns `(value, px, py)`, the value and the row `px` and column `py` (from 0) of
# O's best cell; `min()` is X's search and returns `(value, qx, qy)`. The `_alpha_beta`
# versions prune with the window `(alpha, beta)`.

# %%
import time


class Game:
    def __init__(self):
        self.initialize_game()

    def initialize_game(self):
        self.current_state = [['.', '.', '.'],
                              ['.', '.', '.'],
                              ['.', '.', '.']]
        self.player_turn = 'X'

    def draw_board(self):
        for row in self.current_state:
            print(' '.join(row))
        print()

    def is_valid(self, px, py):
        if not (0 <= px <= 2 and 0 <= py <= 2):
            return False
        return self.current_state[px][py] == '.'

    def is_end(self):
        s = self.current_state
        lines = [[s[0][0], s[1][1], s[2][2]], [s[0][2], s[1][1], s[2][0]]]
        for k in range(3):
            lines.append([s[k][0], s[k][1], s[k][2]])
            lines.append([s[0][k], s[1][k], s[2][k]])
        for line in lines:
            if line[0] != '.' and line.count(line[0]) == 3:
                return line[0]
        for row in s:
            for cell in row:
                if cell == '.':
                    return None
        return '.'

    def max(self):
        # O to move: the largest value O can force, and the cell that forces it
        maxv, px, py = -2, None, None
        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)
        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'O'
                    (m, min_i, min_j) = self.min()
                    if m > maxv:
                        maxv, px, py = m, i, j
                    self.current_state[i][j] = '.'
        return (maxv, px, py)

    def min(self):
        # X to move: the smallest value X can force, and the cell that forces it
        minv, qx, qy = 2, None, None
        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)
        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'X'
                    (m, max_i, max_j) = self.max()
                    if m < minv:
                        minv, qx, qy = m, i, j
                    self.current_state[i][j] = '.'
        return (minv, qx, qy)

    def max_alpha_beta(self, alpha, beta):
        maxv, px, py = -2, None, None
        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)
        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'O'
                    (m, min_i, min_j) = self.min_alpha_beta(alpha, beta)
                    if m > maxv:
                        maxv, px, py = m, i, j
                    self.current_state[i][j] = '.'
                    # X already has a better choice elsewhere: stop looking here
                    if maxv >= beta:
                        return (maxv, px, py)
                    if maxv > alpha:
                        alpha = maxv
        return (maxv, px, py)

    def min_alpha_beta(self, alpha, beta):
        minv, qx, qy = 2, None, None
        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)
        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'X'
                    (m, max_i, max_j) = self.max_alpha_beta(alpha, beta)
                    if m < minv:
                        minv, qx, qy = m, i, j
                    self.current_state[i][j] = '.'
                    if minv <= alpha:
                        return (minv, qx, qy)
                    if minv < beta:
                        beta = minv
        return (minv, qx, qy)

    def play(self):
        while True:
            self.draw_board()
            result = self.is_end()
            if result is not None:
                print("It's a tie!" if result == '.' else f'{result} wins!')
                self.initialize_game()
                return result
            if self.player_turn == 'X':
                start = time.time()
                (m, qx, qy) = self.min_alpha_beta(-2, 2)
                print(f'hint ({time.time() - start:.3f} s): row {qx}, column {qy}')
                px = int(input('row: '))
                py = int(input('column: '))
                if self.is_valid(px, py):
                    self.current_state[px][py] = 'X'
                    self.player_turn = 'O'
                else:
                    print('That cell is not free, try again.')
            else:
                (m, px, py) = self.max_alpha_beta(-2, 2)
                self.current_state[px][py] = 'O'
                self.player_turn = 'X'


# %%
g = Game()
g.current_state = [['X', 'O', 'X'],
                   ['.', 'O', '.'],
                   ['.', '.', 'X']]
g.draw_board()
print('O plays', g.max()[1:], 'with value', g.max()[0])
print('with pruning:', g.max_alpha_beta(-2, 2))

# %%
# To play a game, run: Game().play()
