"""The reference's version of a student's lower-level function, standing in for it during a call.

When a student's win test is wrong, the search built on it can still be graded on its own
merits: for the calls of that check the name the search reaches (``check_win``, or a method
such as ``State.terminal_test``) is bound to a *stand-in* that answers as the reference does,
in the student's board encoding and the answer convention the assignment's check of that
function reads (True/False, the winner's mark or an outcome code, a list of moves in the
assignment's move format). The original is put back when the call ends, however it ends.

The stand-in takes whatever arguments the student's function takes: it finds the board in a
notebook global, in the argument at a given position, or else in the first argument (or
attribute of an argument: ``self.gameplan`` for a method) that reads as a board, and the
player in the argument at a given position.

Shipped into the kernel as source after the exploration recorder (whose board reader it
uses), the predicates' truths, the boards one move away and the searches another search calls,
and before the call executor:
standard library only.
"""

from __future__ import annotations

import copy
import inspect
import operator
from collections.abc import Callable, Sequence
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.kernel.board_reading import board_text
    from grader.execution.channel.kernel.called_searches import SEARCH_ROLE, search_stand_in
    from grader.execution.channel.kernel.held_moves import HELD_MOVE_ROLES, held_move_stand_in
    from grader.execution.channel.kernel.names import CallRefused, argument_binder, resolve
    from grader.execution.channel.kernel.next_boards import (
        NEXT_BOARDS_ROLE,
        connect_lines,
        line_winner,
        next_boards_stand_in,
        players,
        rows_upward,
    )
    from grader.execution.channel.kernel.predicate_truths import PREDICATE_TRUTHS
    from grader.execution.channel.protocol import STATUS_MISSING, StandInRequest


def install_stand_ins(namespace: dict[str, Any], requests: Sequence[StandInRequest]) -> Callable[[], None]:
    """Bind each request's name to its stand-in; returns what puts every original back."""
    undo: list[Callable[[], None]] = []
    try:
        for request in requests:
            undo.append(_install(namespace, request))
    except BaseException:
        for step in reversed(undo):
            step()
        raise

    def restore() -> None:
        for step in reversed(undo):
            step()

    return restore


def _install(namespace: dict[str, Any], request: StandInRequest) -> Callable[[], None]:
    dotted = request["name"]
    owner_name, _, attribute = dotted.rpartition(".")
    original = resolve(namespace, dotted)
    if not callable(original):
        raise CallRefused(STATUS_MISSING, f"{dotted!r} is not a function the reference can stand in for")
    if not _takes_the_arguments(original, request):
        raise CallRefused(
            STATUS_MISSING,
            f"the reference cannot stand in for {dotted!r}: it takes other parameters than the call passes",
        )
    stand_in = reference_stand_in(namespace, request, original)
    if not owner_name:
        namespace[attribute] = stand_in

        def put_back() -> None:
            namespace[attribute] = original

        return put_back
    owner = resolve(namespace, owner_name)
    own = vars(owner).get(attribute, _NOT_OWN) if hasattr(owner, "__dict__") else _NOT_OWN
    setattr(owner, attribute, stand_in)

    def put_back_attribute() -> None:
        if own is _NOT_OWN:  # it was inherited: the class's own entry goes again
            delattr(owner, attribute)
        else:
            setattr(owner, attribute, own)

    return put_back_attribute


_NOT_OWN = object()


def _takes_the_arguments(original: Any, request: StandInRequest) -> bool:
    """Whether ``original`` has a parameter at the board's, the player's and the move's positions
    (a win test written ``check_winner(board)`` where the assignment calls ``check_win(board,
    player)`` has none for the player: the reference's version would not be called as it expects)."""
    positions = [p for p in (request["board_arg"], request["player_arg"], request.get("move_arg")) if p is not None]
    if not positions:
        return True
    try:
        inspect.signature(original).bind_partial(*[None] * (max(positions) + 1))
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): let the calls tell
        return True
    return True


def reference_stand_in(namespace: dict[str, Any], request: StandInRequest, original: Any) -> Callable[..., Any]:
    """A plain function (so that it binds as a method too) answering ``request["role"]`` as the
    reference does, for the calls the student's code makes of ``original``."""
    if request["role"] == "successor":
        return _successor_stand_in(request, original)
    if request["role"] in HELD_MOVE_ROLES:
        return held_move_stand_in(request, original)
    if request["role"] == NEXT_BOARDS_ROLE:
        return next_boards_stand_in(namespace, request, original)
    if request["role"] == SEARCH_ROLE:
        return search_stand_in(namespace, request, original)
    if request["role"].startswith("grid-"):
        return _grid_stand_in(request, original)
    text = board_text(request["marks"])
    player_of = {request["marks"][0]: "X", request["marks"][1]: "O"}
    board_global, board_at, player_at = request["board_global"], request["board_arg"], request["player_arg"]
    answer = _answerer(request)
    arguments = argument_binder(original)
    found: list[str] = []  # the attribute of an argument that held the board last time

    def board_of(given: tuple[Any, ...]) -> str:
        if board_global is not None:
            board = text(namespace.get(board_global))
        elif board_at is not None:
            board = text(given[board_at]) if board_at < len(given) else None
        else:
            board = _held(given, text, found)
        if board is None:
            raise TypeError("the reference's stand-in found no board in the arguments")
        return board

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        given = arguments(args, kwargs)
        board = board_of(given)
        player = None
        if player_at is not None:
            if player_at >= len(given) or given[player_at] not in player_of:
                raise TypeError("the reference's stand-in found no player in the arguments")
            player = player_of[given[player_at]]
        return answer(board, player)

    stand_in.__name__ = stand_in.__qualname__ = getattr(original, "__name__", "stand_in")
    return stand_in


def _grid_stand_in(request: StandInRequest, original: Any) -> Callable[..., Any]:
    """A board function of a Connect-K board as the student's code holds it (rows of cells, a
    numpy array, one flat list, whichever row comes first, or the course's board object holding
    one of these at ``board_attribute``), answering as the reference does: ``grid-winner`` the
    winner's mark, else None; ``grid-terminal`` whether someone has ``k`` in a line or the board
    is full; ``grid-endgame-score`` a finished game's value for the maximizer (``win``, ``-win``,
    0 for a tie), the argument at ``player_arg`` saying whether the side to move maximizes;
    ``grid-wins`` whether the player in the argument at ``player_arg`` has won; ``grid-has-room``
    whether the column at ``move_arg`` has an empty cell; ``grid-open-row`` the row, as the
    student's code indexes rows, a piece dropped into it lands in, else None; ``grid-legal-moves``
    the columns with an empty cell, left to right, in a list. The arguments are
    bound by the student's function's signature; a column outside the board is refused (an
    error, as the student's indexing would give), never wrapped into another."""
    grid = request.get("grid") or [0, 0, 0]
    rows, cols, k = grid
    role, attribute, win = request["role"], request.get("board_attribute") or "", request.get("win", 1000)
    first, second = players(request)
    board_at = request["board_arg"] or 0
    lines = connect_lines(rows, cols, k)
    upward = rows_upward(request)

    def cells_of(board: Any) -> list[Any]:
        if attribute and not isinstance(board, (list, tuple)) and not hasattr(board, "tolist"):
            board = getattr(board, attribute, None)
        if hasattr(board, "tolist"):
            board = board.tolist()
        if isinstance(board, (list, tuple)) and len(board) == rows and all(isinstance(r, (list, tuple)) for r in board):
            board = [cell for row in board for cell in row]
        if not isinstance(board, (list, tuple)) or len(board) != rows * cols:
            raise TypeError("the reference's stand-in found no board in the arguments")
        return list(board)

    arguments = argument_binder(original)

    def has_line(cells: list[Any], mark: Any) -> bool:
        return any(all(cells[i] == mark for i in line) for line in lines)

    def winner(cells: list[Any]) -> Any:
        return line_winner(cells, lines, first, second)

    def argument(given: tuple[Any, ...], at: int | None, what: str) -> Any:
        if at is None or at >= len(given):
            raise TypeError(f"the reference's stand-in found no {what} in the arguments")
        return given[at]

    def endgame_score(cells: list[Any], is_max: Any) -> float:
        won = winner(cells)
        if won is None:
            return 0
        to_move = first if cells.count(first) == cells.count(second) else second
        maximizer = to_move if is_max else (second if to_move == first else first)
        return win if won == maximizer else -win

    def column(given: tuple[Any, ...]) -> int:
        given_col = argument(given, request["move_arg"], "column")
        try:
            col = operator.index(given_col)  # numpy's integers too
        except TypeError:
            col = None
        if col is None or isinstance(given_col, bool):
            raise TypeError(f"the column must be a whole number, not {given_col!r}")
        if not 0 <= col < cols:
            raise ValueError(f"column {col} is outside the board: its columns are 0 to {cols - 1}")
        return col

    def open_rows(cells: list[Any], col: int) -> list[int]:
        """The column's empty rows, the lowest first."""
        return [row for row in upward if cells[row * cols + col] not in (first, second)]

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        given = arguments(args, kwargs)
        cells = cells_of(given[board_at] if board_at < len(given) else None)
        if role == "grid-winner":
            return winner(cells)
        if role == "grid-terminal":
            return winner(cells) is not None or all(cell == first or cell == second for cell in cells)
        if role == "grid-endgame-score":
            return endgame_score(cells, argument(given, request["player_arg"], "is_max"))
        if role == "grid-wins":
            mark = argument(given, request["player_arg"], "player")
            return (mark == first or mark == second) and has_line(cells, mark)
        if role == "grid-legal-moves":
            return [col for col in range(cols) if open_rows(cells, col)]
        room = open_rows(cells, column(given))
        if role == "grid-has-room":
            return bool(room)
        return room[0] if room else None

    stand_in.__name__ = stand_in.__qualname__ = getattr(original, "__name__", "stand_in")
    return stand_in


def _successor_stand_in(request: StandInRequest, original: Any) -> Callable[..., Any]:
    """Tic-tac-toe's move (the state kind's successor; another game's is ``held_moves``'s),
    played as the reference plays it, on the board argument the student's code passes: a new
    board of the same shape (the given one unchanged), or the given board itself with the mark
    written in (``played``, answering True); a refused move (a taken cell, or a move that names
    none) raises, or answers None or False, as the assignment's check of the function reads it."""
    marks = request["marks"]
    text = board_text(marks)
    mark = {"X": marks[0], "O": marks[1]}
    board_at = request["board_arg"] or 0
    move_at = request["move_arg"] if request["move_arg"] is not None else board_at + 1
    first, fmt, played, invalid = (
        request["first_player"],
        request["move_format"],
        request["returns"],
        request["invalid"],
    )
    arguments = argument_binder(original)

    def refused(why: str) -> Any:
        if invalid == "raise":
            raise ValueError(why)
        return False if invalid == "false" else None

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        given = arguments(args, kwargs)
        if max(board_at, move_at) >= len(given):
            raise TypeError("the reference's stand-in found no board and move in the arguments")
        board, move = given[board_at], given[move_at]
        cells = text(board)
        if cells is None:
            raise TypeError("the reference's stand-in found no board in the arguments")
        cell = _cell(move, fmt)
        if cell is None:
            return refused(f"{move!r} is not a cell of the board")
        if cells[cell] != ".":
            return refused(f"cell {move!r} is taken")
        mover = first if cells.count("X") == cells.count("O") else ("O" if cells.count("X") > cells.count("O") else "X")
        if played == "played":
            _write(board, cell, mark[mover])
            return True
        return _written(board, cell, mark[mover])

    stand_in.__name__ = stand_in.__qualname__ = getattr(original, "__name__", "stand_in")
    return stand_in


def _cell(move: Any, move_format: str) -> int | None:
    """The tic-tac-toe cell 0-8 a move names in ``move_format``; None when it names none."""
    if move_format in ("index", "position"):
        if isinstance(move, bool) or not isinstance(move, int):
            return None
        cell = move - (move_format == "position")
        return cell if 0 <= cell < 9 else None
    try:
        row, column = move
    except (TypeError, ValueError):
        return None
    base = 1 if move_format == "rowcol1" else 0
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (row, column)):
        return None
    row, column = row - base, column - base
    return row * 3 + column if 0 <= row < 3 and 0 <= column < 3 else None


def _write(board: Any, cell: int, mark: Any) -> None:
    """The mark written into ``board`` itself: three rows of three, or nine cells."""
    if len(board) == 3:
        board[cell // 3][cell % 3] = mark
    else:
        board[cell] = mark


def _written(board: Any, cell: int, mark: Any) -> Any:
    """A new board of ``board``'s kind with the mark written in."""
    if isinstance(board, str):
        return board[:cell] + str(mark) + board[cell + 1 :]
    if isinstance(board, tuple):
        if len(board) == 3:
            rows = [list(row) for row in board]
            rows[cell // 3][cell % 3] = mark
            return tuple(type(board[i])(rows[i]) for i in range(3))
        return tuple(mark if i == cell else value for i, value in enumerate(board))
    new = copy.deepcopy(board)
    _write(new, cell, mark)
    return new


def _held(given: tuple[Any, ...], text: Callable[[Any], str | None], found: list[str]) -> str | None:
    """The first argument that reads as a board, or attribute of an argument (``self.gameplan``):
    the attribute that held it last time (``found``) is tried first."""
    for value in given:
        board = text(value)
        if board is not None:
            return board
        attributes = getattr(value, "__dict__", None)
        if not isinstance(attributes, dict):
            continue
        for name in [*found, *attributes]:
            board = text(attributes.get(name))
            if board is not None:
                found[:] = [name]
                return board
    return None


def _answerer(request: StandInRequest) -> Callable[[str, str | None], Any]:
    role = request["role"]
    truth = PREDICATE_TRUTHS.get(role)
    codes = {outcome: code for outcome, code in request["codes"]}
    move_format = request["move_format"]
    maximizer = request["maximizer"]
    # The side to move is asked with no player: on a board with as many X as O it is the first.
    default_player = request.get("first_player", "X") if role == "to-move" else None
    known: dict[tuple[str, str | None], Any] = {}

    def move(cell: int) -> Any:
        return _move(cell, move_format)

    def answer(board: str, player: str | None) -> Any:
        # The student's search asks about the same boards over and over.
        try:
            found = known[board, player]
        except KeyError:
            if truth is None:
                raise ValueError(f"no stand-in for the role {role!r}") from None
            asked = player if player is not None else default_player
            found = known[board, player] = truth.spelled(truth.truth(board, asked, None, maximizer), codes, move)
        return list(found) if isinstance(found, list) else found  # a list the caller may change

    return answer


def _move(cell: int, move_format: str) -> Any:
    if move_format == "index":
        return cell
    if move_format == "position":
        return cell + 1
    base = 1 if move_format == "rowcol1" else 0
    return (cell // 3 + base, cell % 3 + base)
