# %% [markdown]
# # Exercise 6: minimax with a depth limit
#
# The board `state` is a 3x3 list of numbers: `0` for an empty cell, `HUMAN = -1` and
# `COMP = +1`. The human moves first.
#
# `minimax(state, depth, player)` returns `[row, col, score]`: the best cell for `player` and its
# score for the computer (+1 computer wins, -1 human wins, 0 otherwise). It looks at most `depth`
# moves ahead; a position it stops at without a winner scores 0. With
# `depth = len(empty_cells(state))` it searches to the end of the game.

# %%
from math import inf as infinity

HUMAN = -1
COMP = +1


def evaluate(state):
    if wins(state, COMP):
        return +1
    if wins(state, HUMAN):
        return -1
    return 0


def wins(state, player):
    win_state = [
        [state[0][0], state[0][1], state[0][2]],
        [state[1][0], state[1][1], state[1][2]],
        [state[2][0], state[2][1], state[2][2]],
        [state[0][0], state[1][0], state[2][0]],
        [state[0][1], state[1][1], state[2][1]],
        [state[0][2], state[1][2], state[2][2]],
        [state[0][0], state[1][1], state[2][2]],
        [state[2][0], state[1][1], state[0][2]],
    ]
    return [player, player, player] in win_state


def game_over(state):
    return wins(state, HUMAN) or wins(state, COMP)


def empty_cells(state):
    cells = []
    for x, row in enumerate(state):
        for y, cell in enumerate(row):
            if cell == 0:
                cells.append([x, y])
    return cells

# %%
def minimax(state, depth, player):
    if player == COMP:
        best = [-1, -1, -infinity]
    else:
        best = [-1, -1, +infinity]

    cells = empty_cells(state)
    if depth == 0 or not cells or game_over(state):
        return [-1, -1, evaluate(state)]

    for x, y in cells:
        state[x][y] = player
        score = minimax(state, depth - 1, -player)
        state[x][y] = 0
        score[0], score[1] = x, y

        if player == COMP:
            if score[2] > best[2]:
                best = score
        else:
            if score[2] < best[2]:
                best = score
    return best

# %%
board = [[HUMAN, 0, 0],
         [0, 0, 0],
         [0, 0, 0]]
for depth in (1, 2, len(empty_cells(board))):
    print('depth', depth, '->', minimax(board, depth, COMP))
