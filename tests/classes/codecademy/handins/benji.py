from copy import deepcopy


def print_board(board):
    print("|-------------|")
    print("| Tic Tac Toe |")
    print("|-------------|")
    for row in board:
        print("|    " + " ".join(row) + "    |")
    print("|-------------|")
    print()


def select_space(board, move, turn):
    if move not in range(1, 10):
        return False
    row = int((move - 1) / 3)
    col = (move - 1) % 3
    if board[row][col] != "X" and board[row][col] != "O":
        board[row][col] = turn
        return True
    else:
        return False


def available_moves(board):
    moves = []
    for row in board:
        for col in row:
            if col != "X" and col != "O":
                moves.append(int(col))
    return moves


def has_won(board, player):
    for row in board:
        if row.count(player) == 3:
            return True
    for i in range(3):
        if board[0][i] == player and board[1][i] == player and board[2][i] == player:
            return True
    if board[0][0] == player and board[1][1] == player and board[2][2] == player:
        return True
    if board[0][2] == player and board[1][1] == player and board[2][0] == player:
        return True
    return False


def game_is_over(board):
    return has_won(board, "X") or has_won(board, "O") or len(available_moves(board)) == 0


def evaluate_board(board):
    if has_won(board, "X"):
        return 1
    elif has_won(board, "O"):
        return -1
    else:
        return 0


def minimax(input_board, is_maximizing):
    # Base case - the game is over, so we return the value of the board
    if game_is_over(input_board):
        return [evaluate_board(input_board), ""]
    best_move = ""
    if is_maximizing:
        best_value = -float("Inf")
        symbol = "X"
    else:
        best_value = float("Inf")
        symbol = "O"
    for move in available_moves(input_board):
        new_board = deepcopy(input_board)
        select_space(new_board, move, symbol)
        hypothetical_value = minimax(new_board, not is_maximizing)[0]
        if is_maximizing and hypothetical_value > best_value:
            best_value = hypothetical_value
            best_move = move
        if not is_maximizing and hypothetical_value < best_value:
            best_value = hypothetical_value
            best_move = move
    return [best_value, best_move]


my_board = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
select_space(my_board, 1, "X")
select_space(my_board, 5, "O")
select_space(my_board, 9, "X")
print_board(my_board)
print(minimax(my_board, False))
