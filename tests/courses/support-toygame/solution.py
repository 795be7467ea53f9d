# %% [markdown]
# # Toy game lab: minimax on the course's board
#
# `toygame` (given) holds the board and its helpers. Values are from X's side:
# +1 X wins, -1 O wins, 0 draw.

# %%
from toygame import Board, moves, other, play, winner

# %%
def minimax(cells, player):
    """The value of `cells` with `player` to move."""
    won = winner(cells)
    if won == "X":
        return 1
    if won == "O":
        return -1
    if not moves(cells):
        return 0
    values = [minimax(play(cells, cell, player), other(player)) for cell in moves(cells)]
    return max(values) if player == "X" else min(values)


def best_move(cells, player):
    """The first cell (0-8) of the best moves for `player`."""
    pick = max if player == "X" else min
    return pick(moves(cells), key=lambda cell: minimax(play(cells, cell, player), other(player)))

# %%
start = Board()
print(best_move(start.play(4).cells, "O"))
