# %% [markdown]
# # Homework 2: the computer never loses
#
# The board is a list of nine strings, cells 0-8 row by row: `' '` when free, `'X'` for the
# human, who starts, and `'O'` for the computer.
#
# `minimax(board, depth, is_maximizing)` scores a position for the computer: `10 - depth` when O
# has won `depth` moves from now, `depth - 10` when X has, 0 for a tie; `is_maximizing` is True
# on O's turn. `ai_move(board)` does not return anything: it puts the computer's `'O'` on its best
# cell of `board` itself.

# %%
HUMAN, COMPUTER, FREE = 'X', 'O', ' '

WINNING_LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
]


def print_board(board):
    for r in range(3):
        print(' ' + ' | '.join(board[3 * r:3 * r + 3]))
        if r < 2:
            print('---+---+---')


def is_winner(board, mark):
    for a, b, c in WINNING_LINES:
        if board[a] == board[b] == board[c] == mark:
            return True
    return False


def free_cells(board):
    return [i for i, cell in enumerate(board) if cell == FREE]


def minimax(board, depth, is_maximizing):
    if is_winner(board, COMPUTER):
        return 10 - depth
    if is_winner(board, HUMAN):
        return depth - 10
    if not free_cells(board):
        return 0
    if is_maximizing:
        best = -100
        for i in free_cells(board):
            board[i] = COMPUTER
            best = max(best, minimax(board, depth + 1, False))
            board[i] = FREE
        return best
    best = 100
    for i in free_cells(board):
        board[i] = HUMAN
        best = min(best, minimax(board, depth + 1, True))
        board[i] = FREE
    return best


def ai_move(board):
    best_score = -100
    best_index = None
    for i in free_cells(board):
        board[i] = COMPUTER
        score = minimax(board, 1, False)
        board[i] = FREE
        if score > best_score:
            best_score = score
            best_index = i
    board[best_index] = COMPUTER


def play():
    board = [FREE] * 9
    while True:
        print_board(board)
        cell = int(input('your cell (0-8): '))
        if cell not in free_cells(board):
            print('not a free cell')
            continue
        board[cell] = HUMAN
        if is_winner(board, HUMAN) or not free_cells(board):
            break
        ai_move(board)
        if is_winner(board, COMPUTER):
            break
    print_board(board)
    if is_winner(board, COMPUTER):
        print('The computer wins.')
    elif is_winner(board, HUMAN):
        print('You win!')
    else:
        print("It's a tie.")


# %%
play()
