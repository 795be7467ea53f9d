# %% [markdown]
# # Practical 7: the computer never loses
#
# The game keeps one global list, `board`, of 9 strings. A free square shows its own number, so the
# players can see which number to type:
#
#     1 | 2 | 3
#     4 | 5 | 6
#     7 | 8 | 9
#
# You are `X` and start; the computer is `O`. `minimax` scores a finished game for the computer:
# +1 if O wins, -1 if X wins, 0 for a draw. All the functions work on the global `board`.

# %%
board = [str(i) for i in range(1, 10)]


def show():
    for r in range(3):
        print(' | '.join(board[3 * r:3 * r + 3]))
    print()


def check_winner():
    """'X' or 'O' if that player has three in a row, otherwise None."""
    for r in range(3):
        if board[3 * r] == board[3 * r + 1] == board[3 * r + 2]:
            return board[3 * r]
    for c in range(3):
        if board[c] == board[c + 3] == board[c + 6]:
            return board[c]
    if board[0] == board[4] == board[8]:
        return board[4]
    if board[2] == board[4] == board[6]:
        return board[4]
    return None


def is_draw():
    """No free square is left (ask check_winner first)."""
    return not any(square.isdigit() for square in board)


def free_positions():
    return [i + 1 for i in range(9) if board[i].isdigit()]

# %%
def minimax(is_max):
    w = check_winner()
    if w == 'O':
        return 1
    if w == 'X':
        return -1
    if is_draw():
        return 0
    scores = []
    for pos in free_positions():
        board[pos - 1] = 'O' if is_max else 'X'
        scores.append(minimax(not is_max))
        board[pos - 1] = str(pos)
    return max(scores) if is_max else min(scores)


def computer_move():
    """The square 1-9 the computer (O) takes."""
    best_score, best_pos = -2, None
    for pos in free_positions():
        board[pos - 1] = 'O'
        score = minimax(False)
        board[pos - 1] = str(pos)
        if score > best_score:
            best_score, best_pos = score, pos
    return best_pos

# %%
def play():
    global board
    while True:
        board = [str(i) for i in range(1, 10)]
        while True:
            show()
            choice = input('Your square (1-9): ').strip()
            if choice not in board or not choice.isdigit():
                print('That square is taken or does not exist.')
                continue
            board[int(choice) - 1] = 'X'
            if check_winner() == 'X':
                show()
                print('You win!')
                break
            if is_draw():
                show()
                print('Draw.')
                break
            board[computer_move() - 1] = 'O'
            if check_winner() == 'O':
                show()
                print('The computer wins.')
                break
            if is_draw():
                show()
                print('Draw.')
                break
        if input('Play again? (y/n) ').strip().lower() != 'y':
            print('Bye!')
            break


play()
