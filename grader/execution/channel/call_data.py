"""What one call of a student's function is, and what came back: the plain data of the call
channel, apart from the machinery that carries it (:mod:`grader.execution.channel.calls`).

Loading these loads no kernel machinery, so that the spec's call templates and the stored
results can use them.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grader.execution.channel.kernel.board_reading import unpack_boards
from grader.execution.channel.kernel.exploration import MAX_STEPS
from grader.execution.channel.protocol import (
    STATUS_MISSING,
    STATUS_NODE_CAP,
    STATUS_OK,
    STATUS_RAISED,
    STATUS_SKIPPED,
    STATUS_TIMEOUT,
    STATUS_UNSERIALIZABLE,
    CallRequest,
    ExplorationData,
    ExploreRequest,
    MadeRequest,
    StandInRequest,
)
from grader.execution.channel.stop_clock import StopClock
from grader.execution.channel.wire_format import decode, encode


class CallStatus(str, enum.Enum):
    """What happened to one call."""

    OK = STATUS_OK
    RAISED = STATUS_RAISED
    """Student code raised an exception (``error`` says which)."""
    TIMEOUT = STATUS_TIMEOUT
    MISSING = STATUS_MISSING
    """The target, a counted name or a chained method is not defined, or is not callable."""
    KILLED = "killed"
    """The kernel died during the call; it was restarted for the calls after it."""
    UNSERIALIZABLE = STATUS_UNSERIALIZABLE
    """The result (or an argument) cannot be represented as plain data."""
    SKIPPED = STATUS_SKIPPED
    """Not started (``error`` says why): never evidence about the student's code."""
    NODE_CAP = STATUS_NODE_CAP
    """Stopped once its search had entered the call's ``node_cap`` of nodes: its count is wrong."""


@dataclass(frozen=True)
class Explore:
    """Record the search a call runs: its nodes are the calls of the student's recursive
    code, wherever the recursion lives (a helper, a closure, ``max_value``/``min_value``,
    methods), and optionally the position each node was entered with."""

    trace: bool = False
    board_global: str | None = None
    """The notebook global that holds the board; None: the first argument holding one."""
    board_attribute: str | None = None
    """The attribute of an argument (``self.board``) that holds the board, when the board
    lives in an object."""
    marks: tuple[Any, Any, tuple[Any, ...]] = ("X", "O", (" ",))
    """How the assignment's encoding writes X, O and an empty cell
    (`reference.codecs.BoardEncoding.marks`)."""
    max_steps: int = MAX_STEPS
    """Positions recorded at most; a longer search is reported as incomplete."""
    watch: tuple[str, ...] = ()
    """Notebook globals whose calls during the call record the board they are given
    (``CallExploration.uses``): where a program uses its board functions."""
    record: bool = True
    """Record the search (its nodes, and its positions when ``trace``); False when only the
    watched functions' boards are wanted: no profile hook slows the call, and the
    exploration reports no node."""

    def to_request(self) -> ExploreRequest:
        return {
            "watch": list(self.watch),
            "trace": self.trace,
            "board_global": self.board_global,
            "board_attribute": self.board_attribute,
            "marks": [self.marks[0], self.marks[1], list(self.marks[2])],
            "max_steps": self.max_steps,
            "record": self.record,
        }


@dataclass(frozen=True)
class CallExploration:
    """The search one call ran, as the kernel's recorder saw it."""

    nodes: int
    """Calls of the search (the root included)."""
    search: Mapping[str, int]
    """The functions taken for the search (``qualname:line``) and their calls."""
    steps: tuple[str | None, ...] | None
    """The position each node was entered with, in call order (``None`` where the board could
    not be read); None unless traced."""
    complete: bool
    """``steps`` holds every node: the search ended within the cap."""
    uses: Mapping[str, Mapping[str | None, int]] = field(default_factory=dict)
    """For each watched name, the boards it was called on and how often (``None``: an
    argument that held no board)."""

    @classmethod
    def from_data(cls, data: ExplorationData) -> CallExploration:
        packed = data["steps"]
        uses = {
            name: dict(zip(unpack_boards(boards), counts)) for name, (boards, counts) in data.get("uses", {}).items()
        }
        return cls(
            uses=uses,
            nodes=int(data["nodes"]),
            search=dict(data["search"]),
            steps=None if packed is None else tuple(unpack_boards(packed)),
            complete=bool(data["complete"]),
        )


@dataclass(frozen=True)
class MadeObject:
    """An object the kernel makes for a call, within its time: ``factory(*args, **kwargs)``
    with ``attributes`` written to it, passed as the target's arguments at ``slots``."""

    factory: str
    """Dotted name of a class or function in the notebook's namespace (``"Board"``)."""
    args: tuple = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    attributes: Mapping[str, object] = field(default_factory=dict)
    """Written to the new object: ``{"cells": [...]}``."""
    slots: tuple[int | str, ...] = ()
    """The target's arguments that receive the object: positions, or keyword names."""

    def to_request(self) -> MadeRequest:
        return {
            "factory": self.factory,
            "args": [encode(value) for value in self.args],
            "kwargs": [[name, encode(value)] for name, value in self.kwargs.items()],
            "attributes": [[name, encode(value)] for name, value in self.attributes.items()],
            "slots": list(self.slots),
        }


@dataclass(frozen=True)
class StandIn:
    """The reference's version of a lower-level function, bound to ``name`` in the notebook's
    namespace for one call (:mod:`grader.execution.channel.kernel.stand_ins`)."""

    name: str
    """Dotted name: ``check_win``, ``State.terminal_test``."""
    role: str
    """What it answers (a predicate check's ``expect``): wins, winner, outcome, draw, full,
    terminal, score, legal-moves."""
    marks: tuple[Any, Any, tuple[Any, ...]]
    """How the assignment's encoding writes X, O and an empty cell."""
    board_global: str | None = None
    board_arg: int | None = None
    """The board's position among the function's parameters; None (and no global): the first
    argument, or attribute of one, that holds a board."""
    player_arg: int | None = None
    codes: Mapping[str, Any] = field(default_factory=dict)
    """The answer for each outcome (X, O, tie, ongoing), for ``winner`` and ``outcome``."""
    move_format: str = "index"
    maximizer: str = "X"
    first_player: str = "X"
    """Who moves on a board with as many X as O, for ``to-move`` and ``successor``."""
    move_arg: int | None = None
    """The move's position among the function's parameters, for ``successor``."""
    returns: str = "state"
    """For ``successor``: state (a new board, the given one unchanged) or played (on the given one);
    for ``grid-drop``: new-board (a new board, the given one unchanged), else on the given one."""
    invalid: str = "none"
    """For ``successor``: what a refused move gives: none, raise or false."""
    grid: tuple[int, int, int] | None = None
    """``(rows, cols, k)`` of a Connect-K board, for the ``grid-`` roles; None for tic-tac-toe."""
    top_row_first: bool = True
    """For ``grid-open-row``: whether the student's row 0 is the top row."""
    board_attribute: str = ""
    """For the ``grid-`` roles: the attribute of the course's board object that holds the board."""
    turn_attribute: str = ""
    """For ``grid-drop`` and ``grid-undo``: the attribute of the course's board object that holds
    the side to move's mark."""
    row_arg: int | None = None
    """For ``grid-drop``: the row's position among the function's parameters, for one told it."""
    answers: str = ""
    """For ``grid-drop`` and ``grid-undo``: what the course's method returns (row, none, true,
    column or object); empty: a move its row, a take-back None."""
    win: float = 1000
    """For ``grid-endgame-score``: what a won game is worth to the maximizer."""
    board_object: KernelMade | None = None
    """For ``grid-next-boards``: the course's board object each next board is made as, a
    `KernelName` of `BOARD_SLOT` where the board goes; None: the boards themselves."""
    search: Mapping[str, Any] | None = None
    """For ``state-search``: how the reference's search walks the course's state and reads its
    arguments (:mod:`grader.execution.channel.kernel.called_searches`), in the wire format."""

    def to_request(self) -> StandInRequest:
        return {
            "name": self.name,
            "role": self.role,
            "board_global": self.board_global,
            "board_arg": self.board_arg,
            "player_arg": self.player_arg,
            "marks": [self.marks[0], self.marks[1], list(self.marks[2])],
            "codes": [[outcome, code] for outcome, code in self.codes.items()],
            "move_format": self.move_format,
            "maximizer": self.maximizer,
            "first_player": self.first_player,
            "move_arg": self.move_arg,
            "returns": self.returns,
            "invalid": self.invalid,
            "grid": list(self.grid) if self.grid is not None else None,
            "top_row_first": self.top_row_first,
            "board_attribute": self.board_attribute,
            "turn_attribute": self.turn_attribute,
            "row_arg": self.row_arg,
            "answers": self.answers,
            "win": self.win,
            "board_object": None if self.board_object is None else encode_argument(self.board_object),
            "search": None if self.search is None else dict(self.search),
        }


@dataclass(frozen=True)
class KernelName:
    """A name of the notebook's namespace passed as an argument (a function of the lab handed
    to the course's state object), looked up in the kernel when the call is made."""

    name: str


@dataclass(frozen=True)
class KernelMade:
    """An argument the kernel makes when the call is made: ``factory(*args, **kwargs)``, with
    ``factory`` a dotted name of the notebook's namespace (a course's class) and the arguments
    plain values, `KernelName`s or other `KernelMade`s (the board object inside a state)."""

    factory: str
    args: tuple = ()
    kwargs: tuple[tuple[str, object], ...] = ()
    attributes: tuple[tuple[str, object], ...] = ()
    """Written to the object once made (its board, the side to move), and read again after
    the call: a call that leaves them changed is ``mutated``."""


def encode_argument(value: object) -> object:
    """``value`` in the wire format, with names and objects the kernel makes as the tags the
    kernel reads (`grader.execution.channel.kernel.built_values`)."""
    if isinstance(value, KernelName):
        return {"$name": value.name}
    if isinstance(value, KernelMade):
        made = [
            value.factory,
            [encode_argument(a) for a in value.args],
            [[k, encode_argument(v)] for k, v in value.kwargs],
        ]
        if value.attributes:
            made.append([[k, encode(v)] for k, v in value.attributes])
        return {"$make": made}
    if isinstance(value, (list, tuple)) and any(isinstance(item, (KernelName, KernelMade)) for item in value):
        items = [encode_argument(item) for item in value]
        return items if isinstance(value, list) else {"$tuple": items}
    return encode(value)


@dataclass(frozen=True)
class Call:
    """One call of a student's function, as the grader wants it made."""

    target: str
    """Dotted name in the notebook's namespace: ``"minimax"``, ``"State"`` (constructs)."""
    args: tuple = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    then: tuple[tuple[str, tuple, Mapping[str, object]], ...] = ()
    """Methods called on the result in turn: ``(("minmax", ("max",), {}),)``."""
    set_globals: Mapping[str, object] = field(default_factory=dict)
    """Assigned (dotted names allowed) before the call; they stay assigned afterwards."""
    set_attributes: Mapping[str, object] = field(default_factory=dict)
    """Written to the object the target returns before the ``then`` methods are called:
    ``Game()`` with ``{"board": ...}``, then ``.minimax(0, True)``."""
    made: MadeObject | None = None
    """An object made before the call and passed as some of its arguments."""
    read_globals: tuple[str, ...] = ()
    """Dotted names read after the call into ``CallOutcome.globals_after``."""
    count: tuple[str, ...] = ()
    """Functions or methods (``"min"``, ``"State.minmax"``) whose calls are counted."""
    log: tuple[str, ...] = ()
    """Functions whose calls log the board they are given (their first argument, or a
    ``board`` keyword), in call order (``CallOutcome.logged``). Unlike ``count``, a name that
    cannot be wrapped does not refuse the call: its log is empty."""
    count_all: bool = False
    """Count every function and method the notebook defines, each under its own name."""
    check_mutation: bool = True
    """Report whether the call changed an argument or a ``set_globals`` value."""
    timeout: float = 10.0
    """Seconds of the kernel's CPU time the call may use; the wall clock stops it only at
    `grader.execution.channel.protocol.wall_bound` of that."""
    explore: Explore | None = None
    """Record the search the call runs (``CallOutcome.exploration``)."""
    start_within: float | None = None
    """Not started once the batch has used this many seconds of the kernel's CPU time (what is
    left of a check's share)."""
    start_before: float | None = None
    """Not started once the batch has run this many seconds of wall time (what is left of the
    share's wall-clock safety net, or of the time to the deadline)."""
    wait_until: float | None = None
    """Interrupted, if it waits without computing, once the batch has run this many seconds of
    wall time (what is left before the submission's deadline)."""
    skip_after_timeout: bool = False
    """Not started once an earlier call of the same batch ran out of its time: the grader
    decides what the rest deserve (see `grader.execution.hangs`)."""
    stand_ins: tuple[StandIn, ...] = ()
    """Lower-level functions the reference's versions stand in for during this call."""
    read_after: tuple[int | str, ...] = ()
    """Arguments (positions, keyword names) and attributes of the object the board was written
    to (``".name"``) read back once the call returned, into ``CallOutcome.after``: where a
    function that plays its move in place answers."""
    node_cap: int | None = None
    """Stop the call once its search has entered this many nodes (status ``NODE_CAP``): the
    calls of the ``count`` functions together, else of the recursive code ``explore`` finds;
    far past the reference's count, where the count is wrong whatever the search does next."""
    answer_levels: int = 1
    """How many levels of nested objects in the answer carry their attributes: 2 reads a path
    of a course's state objects down to the board object each holds."""

    def to_request(self) -> CallRequest:
        return {
            "target": self.target,
            "args": [encode_argument(value) for value in self.args],
            "kwargs": [[name, encode_argument(value)] for name, value in self.kwargs.items()],
            "then": [
                [name, [encode(v) for v in args], [[k, encode(v)] for k, v in kwargs.items()]]
                for name, args, kwargs in self.then
            ],
            "set_globals": [[name, encode(value)] for name, value in self.set_globals.items()],
            "set_attributes": [[name, encode(value)] for name, value in self.set_attributes.items()],
            "made": None if self.made is None else self.made.to_request(),
            "read_globals": list(self.read_globals),
            "count": list(self.count),
            "log": list(self.log),
            "count_all": self.count_all,
            "check_mutation": self.check_mutation,
            "timeout": self.timeout,
            "explore": None if self.explore is None else self.explore.to_request(),
            "start_within": self.start_within,
            "start_before": self.start_before,
            "wait_until": self.wait_until,
            "skip_after_timeout": self.skip_after_timeout,
            "stand_ins": [stand_in.to_request() for stand_in in self.stand_ins],
            "read_after": list(self.read_after),
            "node_cap": self.node_cap,
            "answer_levels": self.answer_levels,
        }


@dataclass(frozen=True)
class CallOutcome:
    """What one call did, in plain data."""

    status: CallStatus
    value: object = None
    """The result, decoded: plain data, numpy arrays, :class:`RemoteObject` snapshots."""
    error: str | None = None
    """``"ZeroDivisionError: division by zero"``, or why the call could not run."""
    counts: Mapping[str, int] = field(default_factory=dict)
    logged: Mapping[str, tuple[object, ...]] = field(default_factory=dict)
    """For each ``log`` function, the boards its calls were given, in order, decoded (at most
    ``LOG_CAP`` of them; None for one that could not be sent)."""
    mutated: bool = False
    changed_args: Mapping[int, object] = field(default_factory=dict)
    """Positional argument -> its value after the call, for each argument the call changed."""
    globals_after: Mapping[str, object] = field(default_factory=dict)
    """Values of ``read_globals`` names that exist and could be transferred."""
    after: Mapping[int | str, object] = field(default_factory=dict)
    """The ``read_after`` arguments and attributes as the call left them."""
    stdout: str = ""
    """What the call printed (stdout and stderr), truncated."""
    duration: float = 0.0
    """Seconds of the kernel's CPU time the call used: what its limit and speed are judged on."""
    wall: float = 0.0
    """Seconds of wall time it took, for information: a loaded machine makes it longer."""
    stopped_by: StopClock | None = None
    """For ``TIMEOUT``: the clock that stopped it."""
    traceback: str = ""
    """The last frames of the student's traceback for ``RAISED``."""
    exploration: CallExploration | None = None
    """The search the call ran, when it was asked to ``explore``."""

    @property
    def ok(self) -> bool:
        return self.status is CallStatus.OK


@dataclass(frozen=True)
class RemoteObject:
    """A snapshot of an object that lives in the kernel: its type and plain attributes.

    ``attributes`` is None for objects nested inside another object's attributes (only the
    outermost object is sent with its attributes). Attributes read as ``obj.gameplan``.
    """

    type_name: str
    module: str | None
    attributes: Mapping[str, object] | None

    def __getattr__(self, name: str) -> object:
        attributes = self.__dict__.get("attributes")
        if name.startswith("__") or not attributes or name not in attributes:
            raise AttributeError(name)
        return attributes[name]


@dataclass(frozen=True)
class Unrepresented:
    """Stands in for a value that could not be sent (``kind`` "opaque") or a cycle."""

    kind: str
    type_name: str


@dataclass(frozen=True)
class DefinedNames:
    """What a notebook defines, for suggesting look-alikes of a missing function."""

    functions: tuple[str, ...]
    classes: Mapping[str, tuple[str, ...]]
    """Class name -> its own methods."""
    variables: tuple[str, ...]
    references: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Function or class -> the notebook's functions and classes its code names."""


def decode_value(data: Any) -> Any:
    """Decode tagged data from the kernel into grader-side values."""
    return decode(data, on_object=RemoteObject, on_marker=Unrepresented)
