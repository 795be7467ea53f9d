# A tic-tac-toe notebook that stops with an error while it runs: init must say where.
def check_win(board, player):
    return any(all(board[i] == player for i in line) for line in [(0, 1, 2)])


board = [" "] * 9
print(check_win(board, "X"))
print(board[9])
