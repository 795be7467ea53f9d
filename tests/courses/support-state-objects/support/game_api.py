"""The course's game API (given to students; do not edit).

ConnectFourBoard  an immutable Connect-Four board: rows top first, 0 an empty cell, 1 the first
                  player's piece, 2 the second player's.
AbstractGameState a position of any game bundled with that game's rules, which the searches
                  of the lab walk without knowing which game they play.
AnytimeValue      the answers of a search that improves them over time.
"""

INF = float("inf")

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class ConnectFourBoard:
    """A Connect-Four position. Columns and rows are counted from 0; row 0 is the top row."""

    num_rows = 6
    num_cols = 7

    def __init__(self, board_array=None, players=("Player One", "Player Two"), whose_turn=None):
        if board_array is None:
            board_array = [[0] * self.num_cols for _ in range(self.num_rows)]
        self.board_array = tuple(tuple(row) for row in board_array)
        self.players = tuple(players)
        if whose_turn is None:
            first, second = (sum(row.count(piece) for row in self.board_array) for piece in (1, 2))
            whose_turn = self.players[0] if first == second else self.players[1]
        self.whose_turn = whose_turn

    # -- the pieces ---------------------------------------------------------------------------

    def piece_of(self, player):
        """The number a player's pieces carry on the board: 1 for the first, 2 for the second."""
        return self.players.index(player) + 1

    def get_piece(self, col, row):
        """The player whose piece is at (col, row), or None."""
        piece = self.board_array[row][col]
        return self.players[piece - 1] if piece else None

    def count_pieces(self, current_player=None):
        """How many pieces are on the board (with a player: that player's only)."""
        if current_player is None:
            return sum(1 for row in self.board_array for cell in row if cell)
        piece = self.piece_of(current_player)
        return sum(1 for row in self.board_array for cell in row if cell == piece)

    def is_column_full(self, col):
        return self.board_array[0][col] != 0

    def is_full(self):
        return all(self.is_column_full(col) for col in range(self.num_cols))

    def add_piece(self, col):
        """A new board: the current player's piece dropped into ``col``, the turn passed on."""
        if self.is_column_full(col):
            raise ValueError(f"column {col} is full")
        rows = [list(row) for row in self.board_array]
        row = max(r for r in range(self.num_rows) if rows[r][col] == 0)
        rows[row][col] = self.piece_of(self.whose_turn)
        return ConnectFourBoard(rows, self.players, self.get_other_player_name())

    # -- chains ---------------------------------------------------------------------------------

    def get_all_chains(self, current_player=None):
        """Every maximal straight run of two or more of one player's pieces, as lists of
        (col, row), in the four directions, then each piece in no such run as a chain of its
        own. With a player: that player's chains only."""
        chains = []
        in_a_run = set()
        pieces = [
            (col, row, self.get_piece(col, row))
            for row in range(self.num_rows)
            for col in range(self.num_cols)
            if self.get_piece(col, row) is not None and current_player in (None, self.get_piece(col, row))
        ]
        for col, row, owner in pieces:
            for d_row, d_col in _DIRECTIONS:
                if self._owner(row - d_row, col - d_col) == owner:
                    continue  # the run starts further back
                run = []
                r, c = row, col
                while self._owner(r, c) == owner:
                    run.append((c, r))
                    r, c = r + d_row, c + d_col
                if len(run) > 1:
                    chains.append(run)
                    in_a_run.update(run)
        return chains + [[(col, row)] for col, row, _ in pieces if (col, row) not in in_a_run]

    def _owner(self, row, col):
        if 0 <= row < self.num_rows and 0 <= col < self.num_cols:
            return self.get_piece(col, row)
        return None

    # -- whose turn -----------------------------------------------------------------------------

    def get_current_player_name(self):
        return self.whose_turn

    def get_other_player_name(self):
        return self.players[1] if self.whose_turn == self.players[0] else self.players[0]

    def is_current_player_maximizer(self):
        """The first player maximizes."""
        return self.whose_turn == self.players[0]

    def __eq__(self, other):
        return isinstance(other, ConnectFourBoard) and (self.board_array, self.whose_turn) == (
            other.board_array,
            other.whose_turn,
        )

    def __hash__(self):
        return hash((self.board_array, self.whose_turn))

    def __str__(self):
        marks = {0: ".", 1: "1", 2: "2"}
        return "\n".join(" ".join(marks[cell] for cell in row) for row in self.board_array)


class AbstractGameState:
    """A position (``snapshot``) and the game's rules, as functions of a snapshot."""

    def __init__(self, snapshot, is_game_over_fn, generate_next_states_fn, endgame_score_fn):
        self.snapshot = snapshot
        self.starting_state = snapshot
        self.is_game_over_fn = is_game_over_fn
        self.generate_next_states_fn = generate_next_states_fn
        self.endgame_score_fn = endgame_score_fn

    def get_snapshot(self):
        return self.snapshot

    def is_game_over(self):
        return bool(self.is_game_over_fn(self.snapshot))

    def generate_next_states(self):
        """The states one move away, in the order the game's function gives their snapshots."""
        return [self._wrap(snapshot) for snapshot in self.generate_next_states_fn(self.snapshot)]

    def get_endgame_score(self, is_current_player_maximizer=True):
        if not self.is_game_over():
            raise ValueError("the game is not over: a finished game has an endgame score")
        return self.endgame_score_fn(self.snapshot, is_current_player_maximizer)

    def restart(self):
        self.snapshot = self.starting_state
        return self

    def _wrap(self, snapshot):
        return AbstractGameState(snapshot, self.is_game_over_fn, self.generate_next_states_fn, self.endgame_score_fn)

    def __eq__(self, other):
        return isinstance(other, AbstractGameState) and self.snapshot == other.snapshot

    def __hash__(self):
        return hash(self.snapshot)

    def __str__(self):
        return f"AbstractGameState(\n{self.snapshot}\n)"


class AnytimeValue:
    """The best answer found so far, and every answer set before it (``history``)."""

    def __init__(self, value=None):
        self.value = value
        self.history = []
        if value is not None:
            self.history.append(value)

    def set_value(self, value):
        self.value = value
        self.history.append(value)

    def get_value(self):
        return self.value


def always_zero(snapshot, is_current_player_maximizer):
    """A heuristic that knows nothing."""
    return 0
