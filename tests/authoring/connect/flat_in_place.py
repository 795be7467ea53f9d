"""Connect Four on a flat list of 42 cells, row by row from the bottom: 0 for an empty cell,
1 and 2 for the players. A move is played on the board itself; a win is worth 100."""

ROWS, COLS = 6, 7
WIN = 100


def new_board():
    return [0] * (ROWS * COLS)


def play(board, col, piece):
    """Drops `piece` into `col` on `board` itself."""
    for row in range(ROWS):
        if board[row * COLS + col] == 0:
            board[row * COLS + col] = piece
            return
    raise ValueError(f"column {col} is full")


def take_back(board, col):
    for row in range(ROWS - 1, -1, -1):
        if board[row * COLS + col] != 0:
            board[row * COLS + col] = 0
            return


def open_columns(board):
    return [col for col in range(COLS) if board[(ROWS - 1) * COLS + col] == 0]


LINES = [
    [(row + i * dr) * COLS + col + i * dc for i in range(4)]
    for row in range(ROWS)
    for col in range(COLS)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    if 0 <= row + 3 * dr < ROWS and 0 <= col + 3 * dc < COLS
]


def who_won(board):
    for line in LINES:
        first = board[line[0]]
        if first and all(board[i] == first for i in line):
            return first
    return 0


def game_over(board):
    return who_won(board) != 0 or not open_columns(board)


def score(board, piece):
    total = 0
    for line in LINES:
        mine = sum(board[i] == piece for i in line)
        theirs = sum(board[i] == 3 - piece for i in line)
        if not (mine and theirs):
            total += mine * mine - theirs * theirs
    return total


def search(board, depth, piece):
    """(column, value) for `piece`, to move: minimax `depth` plies deep, scored by `score`."""
    return _value(board, depth, piece, piece)


def _value(board, depth, mover, me):
    won = who_won(board)
    if won:
        return None, (WIN if won == me else -WIN)
    cols = open_columns(board)
    if not cols:
        return None, 0
    if depth == 0:
        return None, score(board, me)
    values = []
    for col in cols:
        play(board, col, mover)
        values.append(_value(board, depth - 1, 3 - mover, me)[1])
        take_back(board, col)
    best = max(values) if mover == me else min(values)
    return cols[values.index(best)], best


def alpha_beta(board, depth, alpha, beta, piece):
    """(column, value) of `search`, pruned within the window (alpha, beta)."""
    return _pruned(board, depth, alpha, beta, piece, piece)


def _pruned(board, depth, alpha, beta, mover, me):
    won = who_won(board)
    if won:
        return None, (WIN if won == me else -WIN)
    cols = open_columns(board)
    if not cols:
        return None, 0
    if depth == 0:
        return None, score(board, me)
    best_col, best = None, None
    for col in cols:
        play(board, col, mover)
        _, value = _pruned(board, depth - 1, alpha, beta, 3 - mover, me)
        take_back(board, col)
        if best is None or (value > best if mover == me else value < best):
            best_col, best = col, value
        if mover == me:
            alpha = max(alpha, best)
        else:
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best_col, best


board = new_board()
play(board, 3, 1)
print(search(board, 2, 2), alpha_beta(board, 3, -1000, 1000, 2))
