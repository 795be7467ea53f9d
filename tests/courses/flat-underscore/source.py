# %% [markdown]
# # Lab 6: play tic-tac-toe against the computer
#
# The board is a plain list of 9 cells numbered 0-8, row by row. An empty cell holds `'_'`.
# You play `X` and move first; the computer plays `O`.
#
# The computer scores a finished game from its own side: **+1** when O wins, **-1** when X
# wins, **0** for a draw, and `minimax` maximizes that score on O's turns.

# %%
import math

EMPTY = '_'
HUMAN = 'X'
AI = 'O'

WIN_LINES = [
    [0, 1, 2], [3, 4, 5], [6, 7, 8],   # rows
    [0, 3, 6], [1, 4, 7], [2, 5, 8],   # columns
    [0, 4, 8], [2, 4, 6],              # diagonals
]


def print_board(board):
    for r in range(3):
        print(' '.join(board[3 * r:3 * r + 3]))
    print()

# %% [markdown]
# ## Task 1: the rules
# `check_win(board, player)` says whether `player` has three in a row, `is_full(board)` whether no
# empty cell is left, and `available_moves(board)` lists the free cells.

# %%
def check_win(board, player):
    for a, b, c in WIN_LINES:
        if board[a] == player and board[b] == player and board[c] == player:
            return True
    return False


def is_full(board):
    return EMPTY not in board


def available_moves(board):
    return [i for i in range(9) if board[i] == EMPTY]

# %% [markdown]
# ## Task 2: minimax
# `minimax(board, is_maximizing)` returns the value of the board for O. It tries each free cell,
# scores it recursively and takes back the move before trying the next one.

# %%
def minimax(board, is_maximizing):
    if check_win(board, AI):
        return 1
    if check_win(board, HUMAN):
        return -1
    if is_full(board):
        return 0

    if is_maximizing:
        best_score = -math.inf
        for i in available_moves(board):
            board[i] = AI
            score = minimax(board, False)
            board[i] = EMPTY
            best_score = max(best_score, score)
        return best_score
    else:
        best_score = math.inf
        for i in available_moves(board):
            board[i] = HUMAN
            score = minimax(board, True)
            board[i] = EMPTY
            best_score = min(best_score, score)
        return best_score


def best_move(board):
    """The cell (0-8) where O should play."""
    best_score = -math.inf
    move = None
    for i in available_moves(board):
        board[i] = AI
        score = minimax(board, False)
        board[i] = EMPTY
        if score > best_score:
            best_score = score
            move = i
    return move

# %%
test_board = ['X', '_', '_',
              '_', 'O', '_',
              '_', '_', 'X']
print('value for O:', minimax(test_board, True))
print('O plays', best_move(test_board))

# %% [markdown]
# ## Task 3: the game
# Enter a cell number 0-8 when asked.

# %%
def play_game():
    board = [EMPTY] * 9
    while True:
        print_board(board)
        answer = input('Your move (0-8): ')
        if not answer.strip().isdigit() or int(answer) not in available_moves(board):
            print('Please enter the number of a free cell.')
            continue
        board[int(answer)] = HUMAN
        if check_win(board, HUMAN):
            print_board(board)
            print('You win!')
            return
        if is_full(board):
            print_board(board)
            print("It's a draw.")
            return
        board[best_move(board)] = AI
        if check_win(board, AI):
            print_board(board)
            print('The computer wins.')
            return
        if is_full(board):
            print_board(board)
            print("It's a draw.")
            return


play_game()
