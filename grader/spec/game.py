"""The spec's game: which game the assignment is played on, and how the student's code holds
its board, read from the ``[game]`` table of ``assignment.toml``.

    [game]
    name = "connect-four"     # "tic-tac-toe" (the default: the table may be left out)
    rows = 5                  # connect-four: the board's size and how many in a row win
    cols = 6
    k = 4
    encoding = "grid-space"   # a preset: grid-space | numpy-012 | numpy-012-bottom | flat-space
    # layout, container, empty, x, o, top_row_first: override the preset's fields
    # board_object = "ConnectFour()"   # the course's object holding the board (optional)
    # board_attribute = "board"         # its attribute holding the board
    # turn_attribute = "current_player" # its attribute holding the side to move

Without the table (or with ``name = "tic-tac-toe"``) the assignment is tic-tac-toe, its board
described by ``[assignment] encoding`` and ``[board]`` as before. Any other game is a
:class:`~reference.game.BoardGame` of ``reference`` and its board a
:class:`~reference.grid_codec.GridEncoding` with the game's rows, columns and gravity; only the
check kinds that ask the game (`grader.checks.kinds.game_board` and its siblings) run on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from grader.spec.call_template import CallTemplateError
from grader.spec.made_template import MadeTemplate, parse_made
from reference.connect4 import ConnectK
from reference.grid_codec import GRID_CONTAINERS, GRID_LAYOUTS, GRID_PRESETS, GridEncoding

__all__ = ["GAME_FIELDS", "GAME_NAMES", "GameName", "GameSetup", "read_game"]

GameName = Literal["tic-tac-toe", "connect-four"]
GAME_NAMES: tuple[GameName, ...] = get_args(GameName)

GAME_FIELDS: dict[str, str] = {
    "name": '`"tic-tac-toe"` (the default) or `"connect-four"`.',
    "rows": "Connect Four: the board's rows (4 to 10; default 6).",
    "cols": "Connect Four: the board's columns (4 to 10; default 7).",
    "k": "Connect Four: how many in a line win (default 4).",
    "first_player": '`"X"` (the default) or `"O"`: who drops the first piece.',
    "encoding": "A board preset: " + ", ".join(f"`{name}`" for name in GRID_PRESETS) + " (default `grid-space`).",
    "layout": '`"rows"` (a list of rows, `board[row][col]`) or `"flat"` (the cells row by row).',
    "container": '`"list"`, `"tuple"` or `"numpy"`.',
    "empty": "An empty cell's symbol: a string or an integer.",
    "x": "X's mark: a string or an integer.",
    "o": "O's mark: a string or an integer.",
    "top_row_first": "true (the default): the student's row 0 is the top row; false: the bottom row, "
    "where a dropped piece lands first.",
    "board_object": "The course's board object, made in the kernel from the board in the encoding above for every "
    'call: `"ConnectFourBoard(board)"` (a class of a support module); `board` in a call is then that object.',
    "board_attribute": "With `board_object`: the object's attribute that holds the board in the encoding above, "
    'read back from the objects a search logs or answers (`"board_array"`). When `board_object` is not given the '
    'board (`"ConnectFour()"`), the board is written to this attribute of the object made.',
    "turn_attribute": "With a `board_object` not given the board: the object's attribute written with the mark of "
    'the side to move (`"current_player"`), read back after a move is made or taken back.',
}
"""Every field of the ``[game]`` table and what it says (the format page lists them)."""


@dataclass(frozen=True)
class GameSetup:
    """A game other than tic-tac-toe: the reference's game and the student's board."""

    name: GameName
    game: ConnectK
    encoding: GridEncoding
    board_object: MadeTemplate | None = None
    """The course's board object the kernel makes from the encoded board (``board``), or None:
    the encoded board is the argument."""
    board_attribute: str = ""
    """The attribute of ``board_object`` that holds the encoded board."""
    turn_attribute: str = ""
    """The attribute of ``board_object`` the side to move's mark is written to, or empty."""

    @property
    def board_written(self) -> bool:
        """Whether the board is written to the object made (``ConnectFour()``, then its
        ``board``) rather than given to its constructor: the object holds the game, and a call
        must leave it as it was made unless it is asked to change it."""
        return self.board_object is not None and "board" not in self.board_object.placeholders

    @property
    def label(self) -> str:
        """How reports name it: ``Connect Four (5 rows, 6 columns, 4 in a line)``."""
        return f"Connect Four ({self.game.rows} rows, {self.game.cols} columns, {self.game.k} in a line)"


def read_game(table: Mapping[str, Any]) -> GameSetup | None | list[tuple[str, str]]:
    """The game ``table`` describes: None for tic-tac-toe, or every problem found (field, what)."""
    unknown = sorted(set(table) - set(GAME_FIELDS))
    if unknown:
        return [(f"game.{name}", f"unknown field; the [game] fields are {', '.join(GAME_FIELDS)}") for name in unknown]
    name = table.get("name", "tic-tac-toe")
    if name not in GAME_NAMES:
        return [("game.name", f"must be one of {', '.join(GAME_NAMES)}, not {name!r}")]
    if name == "tic-tac-toe":
        extra = sorted(set(table) - {"name"})
        return [(f"game.{field}", "tic-tac-toe's board is [assignment] encoding or [board]") for field in extra] or None
    problems: list[tuple[str, str]] = []
    sizes = {}
    for field, default, low, high in (("rows", 6, 4, 10), ("cols", 7, 4, 10), ("k", 4, 3, 10)):
        value = table.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append((f"game.{field}", f"must be a whole number from {low} to {high}, not {value!r}"))
        sizes[field] = value
    first = table.get("first_player", "X")
    if first not in ("X", "O"):
        problems.append(("game.first_player", f'must be "X" or "O", not {first!r}'))
    if problems:
        return problems
    try:
        game = ConnectK(sizes["rows"], sizes["cols"], sizes["k"], first_player=first)
    except ValueError as problem:
        return [("game.k", str(problem))]
    encoding = _encoding(table, game)
    if isinstance(encoding, list):
        return encoding
    made = _board_object(table)
    if isinstance(made, list):
        return made
    return GameSetup(name, game, encoding, *made)


def _board_object(table: Mapping[str, Any]) -> tuple[MadeTemplate | None, str, str] | list[tuple[str, str]]:
    """The course's board object, its board's attribute and its turn's, or the problems with them."""
    text, attribute = table.get("board_object"), table.get("board_attribute", "")
    turn = table.get("turn_attribute", "")
    if text is None:
        named = [field for field, value in (("board_attribute", attribute), ("turn_attribute", turn)) if value]
        return [(f"game.{field}", "names an attribute of board_object: give board_object") for field in named] or (
            None,
            "",
            "",
        )
    if not isinstance(text, str):
        return [("game.board_object", f'must be a call text such as "ConnectFourBoard(board)", not {text!r}')]
    if not isinstance(attribute, str) or not attribute.isidentifier():
        return [("game.board_attribute", f"must name the object's attribute that holds the board, not {attribute!r}")]
    try:
        made = parse_made(text, frozenset({"board", "to_move", "opponent"}))
    except CallTemplateError as problem:
        return [("game.board_object", str(problem))]
    if turn and (not isinstance(turn, str) or not turn.isidentifier()):
        return [("game.turn_attribute", f"must name the object's attribute that holds the side to move, not {turn!r}")]
    if "board" in made.placeholders and turn:
        return [("game.turn_attribute", "is written only to an object not given the board: leave it out")]
    return made, attribute, turn  # not given the board: it is written to the attribute


def _encoding(table: Mapping[str, Any], game: ConnectK) -> GridEncoding | list[tuple[str, str]]:
    preset = table.get("encoding", "grid-space")
    if preset not in GRID_PRESETS:
        return [("game.encoding", f"must be one of {', '.join(GRID_PRESETS)}, not {preset!r}")]
    fields: dict[str, Any] = {}
    for field, allowed in (("layout", GRID_LAYOUTS), ("container", GRID_CONTAINERS)):
        if field in table:
            if table[field] not in allowed:
                return [(f"game.{field}", f"must be one of {', '.join(allowed)}, not {table[field]!r}")]
            fields[field] = table[field]
    for field in ("empty", "x", "o"):
        if field in table:
            value = table[field]
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                return [(f"game.{field}", f"must be a string or an integer, not {value!r}")]
            fields[field] = value
    if "top_row_first" in table:
        if not isinstance(table["top_row_first"], bool):
            return [("game.top_row_first", f"must be true or false, not {table['top_row_first']!r}")]
        fields["top_row_first"] = table["top_row_first"]
    try:
        return replace(GRID_PRESETS[preset].sized(game.rows, game.cols), **fields)
    except ValueError as problem:
        return [("game", str(problem))]
