"""The call protocol between the grader and the kernel shim: the one definition of its names.

Both ends load this module. The grader imports it; the kernel receives its source text first,
executed into the shim's private namespace before the wire format, the call executor and the
shim (see :mod:`grader.execution.channel.link`). So it holds only names, limits and wording,
and uses only the standard library.

A request is one JSON object ``{"id", "op", ...}`` on the grader's comm; the shim answers
with messages whose ``kind`` is one of the ``REPLY_*`` names and which carry the request's id.
A run of requests can skip the kernel's message loop: after ``OP_SERVE`` on the comm the shim
reads requests from, and answers them on, a Unix socket of its own (one frame per message:
``FRAME_LENGTH_BYTES`` of length, little-endian, then the JSON text) until ``OP_LEAVE``, the
grader closing its end, or an interrupt outside a call; its last frame is then ``REPLY_LEFT``.
"""

from __future__ import annotations

from typing import Any, TypedDict

# The ``__name__`` of the private namespace the kernel-side sources are executed in. Those
# modules import their neighbours only when loaded under another name (a normal import): they
# test ``__name__ != globals().get("KERNEL_NAMESPACE")``, which in the kernel compares with this
# constant (this module is sent before them) and in a normal import with None.
KERNEL_NAMESPACE = "__grader_shim__"

# --- requests ---------------------------------------------------------------------------------

OP_CALLS = "calls"
"""Run a batch of calls: body ``{"calls": [CallRequest, ...]}``; result a ``BatchTail``."""
OP_DEFINED_NAMES = "defined_names"
"""What the notebook defines: result a ``DefinedNamesReply``."""
OP_STDIN_POSITION = "stdin_position"
"""Rewind or advance the scripted input: body ``{"position": int}``; result None."""
OP_SERVE = "serve"
"""On the comm only: take the following requests from the request socket, body
``{"session": int}`` (the number the ``REPLY_LEFT`` that ends this run carries); no reply."""
OP_LEAVE = "leave"
"""On the request socket only: end the run of requests; no reply but ``REPLY_LEFT``."""

# --- replies (the ``kind`` of a message from the shim) ------------------------------------

REPLY_READY = "ready"
"""The shim took the comm and listens for requests: ``{"serving": bool}``, whether it is
connected to the request socket."""
REPLY_LEFT = "left"
"""On the request socket: the shim stopped reading it, ``{"session": int}``; requests go on
the comm again until the next ``OP_SERVE``."""
REPLY_OUTCOMES = "outcomes"
"""Outcomes of a batch so far: ``{"start": index of the first, "outcomes": [...]}``."""
REPLY_DONE = "done"
"""The request finished: ``{"result": ...}``."""
REPLY_ERROR = "error"
"""The shim itself failed on the request: ``{"error": traceback text}``."""

BOARD_SLOT = "<board>"
"""Inside a stand-in's ``board_object``: where the board goes (a name no namespace binds)."""

# --- call outcome statuses the kernel reports (the grader adds "killed" itself) -------------

STATUS_OK = "ok"
STATUS_RAISED = "raised"
STATUS_TIMEOUT = "timeout"
STATUS_MISSING = "missing"
STATUS_UNSERIALIZABLE = "unserializable"
STATUS_SKIPPED = "skipped"
"""Not started: the batch's time was up, or an earlier call of the batch ran out of time."""
STATUS_NODE_CAP = "node-cap"
"""Stopped when the search it runs had entered its ``node_cap`` of nodes."""

# --- limits -----------------------------------------------------------------------------------

TRACEBACK_FRAMES = 8
"""Frames of a student's traceback kept for a call that raised."""
TRACEBACK_CHARS = 4000
"""Characters kept from the end of a traceback, a call's or a cell's."""
ERROR_CHARS = 1000
"""Characters kept of an error message and of an ``input()`` prompt in the log."""
STDIN_LOG_ENTRIES = 10_000
"""``input()`` exchanges logged per kernel; a loop past the script stops being logged."""
FLUSH_INTERVAL = 0.05
"""Seconds between messages of a batch's outcomes: a message costs about half a millisecond,
many times a small call."""
FRAME_LENGTH_BYTES = 4
"""The length that leads each frame on the request socket."""
FRAME_MAX_BYTES = 2**30
"""Longer frames are refused: only a notebook writing into the shim's socket sends one."""
SPIN_SECONDS = 0.0003
"""How long either end polls for the other's next message, yielding the CPU between polls,
before it sleeps: about what waking from a sleep costs on a virtual machine (0.3 ms), so that
a wait never burns more CPU than sleeping would have cost it in time. Spinning longer does not
pay: most waits are longer than 2 ms (the kernel running a student's search, the grader
shrinking a counterexample), and the CPU a spin burns is taken from the other worker's kernel
when two workers share two cores (0.3 ms since 2026-11-29; it was 2 ms)."""
NOTICE_ROOM = 500
"""Characters the grader allows on top of the kernel's output cap for its truncation notice."""

# --- the clocks of a call ---------------------------------------------------------------------

CLOCK_CPU = "cpu"
"""A call stopped at its limit, which is the kernel's CPU time."""
CLOCK_WALL = "wall"
"""A call stopped by the wall-clock safety net: it waited (slept, blocked) rather than computed."""
WALL_FACTOR = 3.0
"""How many times its CPU limit a call may take on the wall clock: a kernel sharing its core
with two other busy processes takes three times its CPU time."""
WALL_MARGIN_SECONDS = 5.0
"""Wall time on top, for a short limit on a busy machine and the grader's own polling."""
IDLE_WINDOW_SECONDS = 2.0
"""How far back the kernel's CPU time is compared to tell a waiting kernel from a busy one."""
IDLE_CPU_SECONDS = 0.02
"""Less CPU than this over that window is waiting: a kernel that computes on a core shared with
twenty other busy processes still uses five times as much."""
CPU_METER_OFFSET = 4
"""Where in the progress file, after the running call's index (4 bytes), the kernel writes its
CPU time while a batch runs: a little-endian double."""
CPU_METER_SECONDS = 0.2
"""Wall seconds between two of those writes."""


def wall_bound(cpu_limit: float) -> float:
    """The wall seconds after which a call limited to ``cpu_limit`` seconds of CPU time is
    interrupted: the safety net for a call that uses no CPU while it waits (a ``sleep``, a
    blocked read, a child process), which its CPU limit never stops."""
    return WALL_FACTOR * cpu_limit + WALL_MARGIN_SECONDS


# --- truncation notices -------------------------------------------------------------------------

CALL_OUTPUT_TRUNCATED = "\n[output truncated]"
"""Ends a call's captured output that went over the cap."""
GRADER_OUTPUT_TRUNCATED = "\n[output truncated by the grader]\n"
"""Ends a cell output the grader cut (output the kernel's cap did not catch)."""
_CELL_NOTICE_START = "[output truncated: only the first"


def cell_output_truncated(limit: int) -> str:
    """The notice the kernel prints once a cell's output goes over its ``limit``."""
    return f"\n{_CELL_NOTICE_START} {limit} characters of a cell's output are kept]\n"


def shows_cell_truncation(text: str) -> bool:
    """Whether a cell's output carries the kernel's truncation notice."""
    return _CELL_NOTICE_START in text


# --- message shapes -----------------------------------------------------------------------------


class ExploreRequest(TypedDict):
    """Record the search a call runs (see :mod:`~grader.execution.channel.kernel.exploration`)."""

    trace: bool
    """Also record the position each node was entered with, as a board (up to ``max_steps``)."""
    board_global: str | None
    """Read the position from this notebook global; None: from the first argument that holds a board."""
    board_attribute: str | None
    """Also try this attribute of each argument (``self.board``)."""
    marks: list[Any]
    """How the board holds ``[X, O, [empty values...]]`` (``["X", "O", [" "]]``, ``[1, 2, [0]]``)."""
    max_steps: int
    watch: list[str]
    """Notebook globals whose calls record the board they are given (``ExplorationData.uses``)."""
    record: bool
    """Run the recorder (the profile hook on every call); False when only ``watch`` is wanted:
    the call runs at its own speed and its nodes are not counted."""


class ExplorationData(TypedDict):
    """What the recorder saw during one call."""

    nodes: int
    search: dict[str, int]
    """The code objects taken for the search (``qualname:line``) and their calls."""
    steps: str | None
    """The positions, packed two bytes a board (``pack_boards``); None unless traced."""
    complete: bool
    retry: bool
    uses: dict[str, list[Any]]
    """For each watched name: ``[packed distinct boards, [calls on each]]``."""


class MadeRequest(TypedDict):
    """An object the kernel makes for a call and passes as some of its arguments."""

    factory: str
    args: list[Any]
    kwargs: list[list[Any]]
    attributes: list[list[Any]]
    """``[name, value]`` pairs written to the new object."""
    slots: list[int | str]
    """Positions, or keyword names, of the target's arguments that receive it."""


class StandInRequest(TypedDict):
    """The reference's version of a lower-level function, bound to ``name`` for one call
    (see :mod:`grader.execution.channel.kernel.stand_ins`)."""

    name: str
    """Dotted name in the notebook's namespace: ``check_win``, ``State.terminal_test``."""
    role: str
    """What it answers: wins, winner, outcome, draw, full, terminal, score, legal-moves."""
    board_global: str | None
    """The notebook global the board is read from; None: the arguments."""
    board_arg: int | None
    """The position of the board among the function's parameters; None: the first argument
    (or attribute of one) that holds a board."""
    player_arg: int | None
    """The position of the player among the function's parameters (for ``wins``)."""
    marks: list[Any]
    """How the board holds ``[X, O, [empty values...]]``."""
    codes: list[list[Any]]
    """``[outcome, code]`` pairs (X, O, tie, ongoing) for ``winner`` and ``outcome``."""
    move_format: str
    """index, position, rowcol or rowcol1, for ``legal-moves``."""
    maximizer: str
    """X or O, for ``score``."""
    first_player: str
    """X or O, for ``to-move`` on a board with as many X as O, and the mover of ``successor``."""
    move_arg: int | None
    """The position of the move among the function's parameters (for ``successor``)."""
    returns: str
    """state or played, for ``successor``: a new board, or the move played on the given one;
    new-board for a ``grid-drop`` that returns a new board."""
    invalid: str
    """none, raise or false, for ``successor``: what a refused move gives."""
    grid: list[int] | None
    """``[rows, cols, k]`` of a Connect-K board, for the roles ``grid-winner`` (the winner's
    mark), ``grid-terminal``, ``grid-endgame-score``, ``grid-wins`` (whether the player has won),
    ``grid-has-room`` (whether the column has an empty cell) and ``grid-open-row`` (the row a
    piece dropped into the column lands in); None for tic-tac-toe."""
    top_row_first: bool
    """For ``grid-open-row``: whether the student's row 0 is the top row."""
    board_attribute: str
    """For the ``grid-`` roles: the attribute of the course's board object holding the board."""
    turn_attribute: str
    """For ``grid-drop`` and ``grid-undo`` (a move made or taken back on the course's board
    object): the attribute holding the side to move's mark, or empty."""
    row_arg: int | None
    """For ``grid-drop``: the position of the row the piece goes to among the function's
    parameters, for one told it (``drop_piece(board, row, col, piece)``); None: it falls."""
    answers: str
    """For ``grid-drop`` and ``grid-undo``: what the course's method returns (row, none, true,
    column or object); empty: a move its row, a take-back None."""
    win: float
    """For ``grid-endgame-score``: what a won game is worth to the maximizer."""
    board_object: Any
    """For ``grid-next-boards``: the course's board object to make for each next board, in the
    wire format of the objects the kernel makes, the name `BOARD_SLOT` where the board goes;
    None: the next boards are the board itself, of the given one's kind."""
    search: Any
    """For ``state-search`` (a search another search calls): the search's kind (minimax,
    alphabeta, best-leaf), tie-break and count, where its arguments are, where the state holds
    its position, the lab's functions of a position the state is made with, and the state to
    make for each next position (wire format, `BOARD_SLOT` where the position goes)."""


class CallRequest(TypedDict):
    """One call as sent to the kernel; values are in the wire format."""

    target: str
    args: list[Any]
    kwargs: list[list[Any]]
    """``[name, value]`` pairs."""
    then: list[list[Any]]
    """``[method name, [args], [[name, value], ...]]`` per chained method."""
    set_globals: list[list[Any]]
    set_attributes: list[list[Any]]
    """``[name, value]`` pairs written to the target's result before ``then``."""
    made: MadeRequest | None
    read_globals: list[str]
    count: list[str]
    log: list[str]
    """Functions whose calls log the board they are given, in order (wrapped as ``count``'s are)."""
    count_all: bool
    check_mutation: bool
    timeout: float
    explore: ExploreRequest | None
    start_within: float | None
    """Seconds of the kernel's CPU time after the batch started past which this call is not
    started (skipped)."""
    start_before: float | None
    """Seconds of wall time after the batch started past which it is not started either: the
    safety net of a check whose calls wait without computing, and the submission's deadline."""
    wait_until: float | None
    """Seconds of wall time after the batch started past which the grader interrupts the call
    if it waits without computing: the submission's deadline."""
    skip_after_timeout: bool
    """Not started once an earlier call of the same batch ran out of its time."""
    stand_ins: list[StandInRequest]
    """Lower-level functions the reference's versions stand in for during the call."""
    read_after: list[int | str]
    """Arguments (positions, keyword names) and attributes of the object the board was written
    to (``".name"``) read back once the call returned."""
    answer_levels: int
    """How many levels of nested objects in the answer carry their attributes (default 1)."""
    node_cap: int | None
    """Stop the call (status ``STATUS_NODE_CAP``) once its search has entered this many nodes:
    the calls of the ``count`` names together when it names some, else the calls of the code
    the ``explore`` recorder knows to be recursive (see
    :mod:`~grader.execution.channel.kernel.node_cap`). None: no cap."""


class OutcomeData(TypedDict):
    """What one call did, as the kernel reports it; values are in the wire format."""

    status: str
    value: Any
    error: str | None
    traceback: str
    duration: float
    """Seconds of the kernel's CPU time the call used."""
    wall: float
    """Seconds of wall time it took, for information: load makes it longer."""
    clock: str | None
    """``CLOCK_CPU`` or ``CLOCK_WALL`` for a call stopped (status ``timeout``) on that clock."""
    counts: dict[str, int]
    logged: dict[str, list[Any]]
    """For each ``log`` name, the board each call was given (wire format; None: unsendable)."""
    mutated: bool
    changed_args: list[list[Any]]
    """``[position, value]`` for each positional argument the call changed, as it was after the call."""
    globals: list[list[Any]]
    """``[name, value]`` for each ``read_globals`` name that exists and could be encoded."""
    after: list[list[Any]]
    """``[what, value]`` for each ``read_after`` item that exists and could be encoded."""
    stdout: str
    exploration: ExplorationData | None
    """Set when the request asked to ``explore``."""


class BatchTail(TypedDict):
    """The result of an ``OP_CALLS`` request: the outcomes not yet sent."""

    start: int
    outcomes: list[OutcomeData]


class DefinedNamesReply(TypedDict):
    functions: list[str]
    classes: dict[str, list[str]]
    """Class name -> its own methods."""
    variables: list[str]
    references: dict[str, list[str]]
    """Function or class name -> the notebook's functions and classes its code names (a
    method's name counts for its class): who may call whom, read from the code objects."""
