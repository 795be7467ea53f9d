"""
Tic-tac-toe, played by an AI that searches the whole game with minimax.

The board is a list of three rows; each row is a list of three cells, and each cell holds X, O or EMPTY.
"""

import math

X = "X"
O = "O"
EMPTY = None


def initial_state():
    """
    Return the board a game starts from: nine EMPTY cells.
    """
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    """
    Return the mark of the side whose turn it is, X or O; X moves first.
    Any answer is accepted once the game is over.
    """
    raise NotImplementedError


def actions(board):
    """
    Return the set of moves open on the board, each a pair (i, j) of a row and a column between 0 and 2.
    Any answer is accepted once the game is over.
    """
    raise NotImplementedError


def result(board, action):
    """
    Return a new board: the given one after the side to move plays the cell `action`.
    The board passed in must be left as it was. Raise an exception if `action` is not a move open on the board.
    """
    raise NotImplementedError


def winner(board):
    """
    Return X or O if that side has three in a row, column or diagonal, and None otherwise.
    """
    raise NotImplementedError


def terminal(board):
    """
    Return True if the game is over (someone has won, or no cell is left), and False otherwise.
    """
    raise NotImplementedError


def utility(board):
    """
    Return 1 if X has won, -1 if O has won, and 0 otherwise. Only called on a finished game.
    """
    raise NotImplementedError


def minimax(board):
    """
    Return a best move (i, j) for the side to move, assuming both sides play perfectly from here.
    Return None if the game is over.
    """
    raise NotImplementedError
