"""What a check needs to talk to one executed submission.

A `Submission` is what every check of one submission shares (its names, the call channel, what ran
out of time so far, what the checks so far learnt); a `CheckWindow` is one run of one check (when its
calls may start, the reference's stand-ins in them). A `CheckContext` is one check's view through its
window: it resolves the student's names (with the assignment's aliases), encodes boards with the
assignment's codec, and wraps the call channel in `StudentFunction`: a cached, batched way to ask
"what does the student's function say about this board?".
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from grader.checks.answers import Answer, MoveCodec
from grader.checks.assignment_boards import AssignmentBoards
from grader.checks.call_budget import BudgetedCalls, CallsStopped, CallWindow, make_calls, where_it_ran_out
from grader.checks.causes.findings import Findings
from grader.errors import GraderError
from grader.execution.channel.call_data import StandIn
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, Explore
from grader.execution.hangs import HangMemory
from grader.execution.result import ExecutionResult
from grader.spec.board import OBJECT, BoardLocation
from grader.spec.call_template import CallTemplate
from grader.spec.model import Assignment, MoveFormat
from reference import BoardGame, MalformedBoard, O, Position, SearchSpec, X

NOT_READ = object()
"""What `StudentFunction.board_after` gives when the board was not read back."""


class CallRunner(Protocol):
    """The part of the call channel that checks use (a live kernel, or a fake in tests)."""

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]: ...


class CallParams(Protocol):
    """Parameters of a kind that calls one student function, with globals set from
    placeholders first."""

    @property
    def call(self) -> CallTemplate: ...

    @property
    def globals(self) -> Mapping[str, str]: ...


class NotDefined(GraderError):
    """A function the check needs is not defined by the notebook."""

    def __init__(self, name: str, suggestions: Sequence[str]) -> None:
        self.name = name
        self.suggestions = tuple(suggestions)
        hint = (
            f" Your notebook defines {', '.join(f'`{s}`' for s in suggestions)}: is one of them meant to be `{name}`?"
            if suggestions
            else ""
        )
        super().__init__(f"`{name}` is not defined in the notebook.{hint}")


@dataclass
class Submission:
    """What every check of one executed submission shares: its names and how to call them,
    the execution record, the call log, what ran out of time so far and what the checks so
    far learnt about its lower-level functions (recorded by the registry, read by the checks
    after them)."""

    assignment: Assignment
    runner: CallRunner
    defined_names: frozenset[str]
    execution: ExecutionResult | None = None
    """The execution record, for checks about the run itself."""
    outcomes_log: list[CallOutcome] = field(default_factory=list)
    findings: Findings = field(default_factory=Findings)
    hangs: HangMemory | None = None
    """What ran out of time so far (default: nothing, with the assignment's short limit)."""
    shared: dict[Any, dict[Any, Answer]] = field(default_factory=dict)  # `grader.checks.shared_answers`

    def __post_init__(self) -> None:
        if self.hangs is None:
            self.hangs = HangMemory(self.assignment.short_limit)

    @property
    def hang_memory(self) -> HangMemory:
        assert self.hangs is not None
        return self.hangs

    def check_context(self, deadline: float | None = None) -> CheckContext:
        """The context of a check that starts now: it may start calls for its share of the
        time, and never past the submission's ``deadline`` (``time.monotonic()``)."""
        return CheckContext(self, CheckWindow.starting_now(self.assignment.check_share_seconds, deadline))


@dataclass(frozen=True)
class CheckWindow:
    """One run of one check: until when it may start calls, and the reference's versions of
    wrong lower-level functions standing in for them in every call it makes."""

    calls: CallWindow | None = None
    """None: no limit."""
    deadline: float | None = None
    """The submission's deadline the window was cut to."""
    stand_ins: tuple[StandIn, ...] = ()
    """(`grader.checks.reference_helpers`)"""

    @classmethod
    def starting_now(cls, share: float, deadline: float | None, stand_ins: tuple[StandIn, ...] = ()) -> CheckWindow:
        window = CallWindow.check_share(share)
        if deadline is not None and deadline < window.until:
            window = CallWindow(deadline, "out of time: grading reached its deadline", window.cpu, deadline=True)
        return cls(window, deadline, stand_ins)


@dataclass(frozen=True)
class CheckContext:
    """What one check sees of its submission, through its own window."""

    submission: Submission
    run: CheckWindow = field(default_factory=CheckWindow)

    @classmethod
    def of(
        cls,
        assignment: Assignment,
        runner: CallRunner,
        defined_names: frozenset[str],
        *,
        execution: ExecutionResult | None = None,
        hangs: HangMemory | None = None,
    ) -> CheckContext:
        """A context without a time limit on a submission of its own."""
        return cls(Submission(assignment, runner, defined_names, execution=execution, hangs=hangs))

    @property
    def assignment(self) -> Assignment:
        return self.submission.assignment

    @property
    def runner(self) -> CallRunner:
        return self.submission.runner

    @property
    def defined_names(self) -> frozenset[str]:
        return self.submission.defined_names

    @property
    def execution(self) -> ExecutionResult | None:
        return self.submission.execution

    @property
    def game(self) -> BoardGame[Position, int]:
        """The assignment's game: what the check asks about its positions."""
        return self.assignment.board_game

    @property
    def findings(self) -> Findings:
        """What the checks before this one learnt; nothing for a run with the reference's
        helpers standing in (the defects it would name are the ones standing in)."""
        return Findings() if self.run.stand_ins else self.submission.findings

    @property
    def hang_memory(self) -> HangMemory:
        return self.submission.hang_memory

    @property
    def window(self) -> CallWindow | None:
        return self.run.calls

    @property
    def stand_ins(self) -> tuple[StandIn, ...]:
        return self.run.stand_ins

    def within(self, calls: CallWindow) -> CheckContext:
        """This context with calls that start before ``calls`` ends."""
        return replace(self, run=replace(self.run, calls=calls))

    def regrading(self, stand_ins: tuple[StandIn, ...]) -> CheckContext:
        """This check's context for a second run with the reference's ``stand_ins``: a fresh
        window when it had one."""
        if self.run.calls is None:
            return replace(self, run=CheckWindow(stand_ins=stand_ins))
        share = self.assignment.check_share_seconds
        return replace(self, run=CheckWindow.starting_now(share, self.run.deadline, stand_ins))

    # -- names ---------------------------------------------------------------
    def resolve(self, function: str) -> str:
        """The name the notebook uses for ``function`` (itself or an accepted alias)."""
        root = function.split(".")[0]
        for candidate in self.assignment.names_for(root):
            if candidate in self.defined_names:
                return candidate + function[len(root) :]
        raise NotDefined(root, self.look_alikes(root))

    def look_alikes(self, name: str) -> list[str]:
        """Defined names that look like ``name`` (``checkWin`` for ``check_win``)."""

        def squash(s: str) -> str:
            return s.replace("_", "").lower()

        pool = sorted(n for n in self.defined_names if not n.startswith("_"))
        squashed = {squash(n): n for n in pool}
        close = difflib.get_close_matches(squash(name), list(squashed), n=3, cutoff=0.6)
        return [squashed[c] for c in close]

    # -- encodings -----------------------------------------------------------
    @property
    def boards(self) -> AssignmentBoards:
        """How the assignment writes and reads boards (`grader.checks.assignment_boards`)."""
        return AssignmentBoards(self.assignment)

    @property
    def adapter_encodes_boards(self) -> bool:
        return self.boards.adapter_encodes

    def encode_board(self, board: Position) -> Any:
        return self.boards.encode(board)

    def decode_board(self, raw: Any) -> Position:
        return self.boards.decode(raw)

    def encode_player(self, player: str) -> Any:
        """How the student's code writes ``player``: the encoding's mark for it."""
        return self.assignment.encoding.symbol(player)

    def moves(self, move_format: MoveFormat | None = None) -> MoveCodec:
        """The codec of a check's moves: ``move_format``, the assignment's when None. A kind
        gets it once and reads and shows every move through it."""
        return MoveCodec(move_format or self.assignment.move_format)

    # -- reference conventions ----------------------------------------------
    def maximizer_for(self, board: Position, to_move: str | None = None) -> str:
        if self.assignment.maximizer == "to-move":
            return to_move or self.side_to_move(board)
        return self.assignment.maximizer

    def spec(self, board: Position, *, to_move: str | None = None, **overrides: Any) -> SearchSpec:
        base = SearchSpec(
            maximizer=self.maximizer_for(board, to_move),
            first_player=self.assignment.first_player,
            scoring=self.assignment.scoring,
        )
        return replace(base, **overrides)

    def side_to_move(self, board: Position) -> str:
        """The side to move, or the first player on boards where that is undefined
        (arbitrary boards given to predicates need no side to move)."""
        try:
            return self.game.to_move(board)
        except MalformedBoard:
            return self.assignment.first_player

    def placeholders(self, board: Position, *, to_move: str | None = None, **extra: Any) -> dict[str, Any]:
        """Values for a call template's placeholders on ``board``."""
        mover = to_move or self.side_to_move(board)
        other = O if mover == X else X
        values: dict[str, Any] = {
            "board": self.encode_board(board),
            "to_move": self.encode_player(mover),
            "opponent": self.encode_player(other),
            "is_max": mover == self.maximizer_for(board, mover),
            "inf": math.inf,
        }
        values.update(extra)
        return values

    def explore(self, *, trace: bool = False, board_global: str | None = None) -> Explore:
        """Ask a call to record the search it runs; a traced one reads each node's board (from
        ``board_global`` or the global the board lives in, the attribute of an argument when it
        lives in an object, or else the first argument holding a board) with the encoding's marks."""
        if not trace or self.adapter_encodes_boards:
            return Explore()
        location = self.assignment.board
        return Explore(
            trace=True,
            board_global=board_global or location.board_global,
            board_attribute=location.board_attribute,
            marks=self.assignment.encoding.marks,
        )

    def student(self, template: CallTemplate, **options: Any) -> StudentFunction:
        return StudentFunction(self, template, **options)

    def student_for(self, params: CallParams, **options: Any) -> StudentFunction:
        """The student's function a kind's parameters name, with its globals set from placeholders."""
        return StudentFunction(self, params.call, globals_from=params.globals, **options)


class StudentFunction:
    """A student's function bound to a call template; answers are cached per input key."""

    def __init__(
        self,
        ctx: CheckContext,
        template: CallTemplate,
        *,
        globals_from: Mapping[str, str] | None = None,
        reset: Mapping[str, Any] | None = None,
        count: Sequence[str] = (),
        log: Sequence[str] = (),
        read_globals: Sequence[str] = (),
        timeout: float | None = None,
        explore: Explore | None = None,
        read_board: bool = False,
        answer_levels: int = 1,
    ) -> None:
        self.ctx, self.answer_levels = ctx, answer_levels  # answer_levels: `Call.answer_levels`
        location = ctx.assignment.board
        self.template = location.on_object(template)  # game.minimax(...) -> Game().minimax(...)
        self.function = ctx.resolve(self.template.function)  # raises NotDefined
        self.globals_from = dict(globals_from or {})
        if location.board_global is not None:
            self.globals_from.setdefault(location.board_global, "board")
        self.board_attribute = location.board_attribute if self.template is not template else None
        self.factory = None
        if location.factory is not None and OBJECT in self.template.placeholders:
            self.factory = ctx.resolve(location.factory.function)  # raises NotDefined
        self.reset = dict(reset or {})
        self.count = tuple(ctx.resolve(name) for name in count)
        self.log = tuple(ctx.resolve(name) for name in log)  # their calls log their board: `CallOutcome.logged`
        self.board_read = self._board_place(location) if read_board else None
        """Where the board is read back after each call (`board_after`), or None."""
        if location.board_global is not None and self.board_read is not None:
            read_globals = (*read_globals, location.board_global)
        self.read_globals = tuple(read_globals)
        self.timeout = timeout or ctx.assignment.call_timeout
        self.explore = explore
        self._cache: dict[Any, Answer] = {}

    def _board_place(self, location: BoardLocation) -> int | str:
        """Where the board is after a call: the board argument, the attribute holding it, the global."""
        if location.board_global is not None:
            return location.board_global
        if self.board_attribute is not None or self.factory is not None:
            return f".{location.name}"
        slots = self.template.slots_of("board")
        if not slots:
            raise ValueError(f"{self.template.text!r} is not given the board, so it cannot be read back")
        return slots[0]

    def board_after(self, outcome: CallOutcome) -> Any:
        """The board as the call left it (raw, in the student's encoding); `NOT_READ` when the
        call did not return or was not asked to read it back."""
        place = self.board_read
        if place is None or not outcome.ok:
            return NOT_READ
        location = self.ctx.assignment.board
        if location.board_global is not None:
            return outcome.globals_after.get(location.board_global, NOT_READ)
        return outcome.after.get(place, NOT_READ)

    @property
    def label(self) -> str:
        """How feedback names the function: `minimax`, or `State.expand` for a chained call."""
        return f"{self.function}.{self.template.chain[-1].name}" if self.template.chain else self.function

    def _build(self, values: Mapping[str, Any], timeout: float | None = None, **fields: Any) -> Call:
        """The call for one case; ``fields`` are the batch's (when it may start, what follows a
        time-out)."""
        made = None
        if self.factory is not None:  # minimax(game, ...): the kernel makes the object
            made = self.ctx.assignment.board.made_object(self.template, values, factory=self.factory)
            values = {**values, OBJECT: None}
        set_globals = {name: values[placeholder] for name, placeholder in self.globals_from.items()}
        set_globals.update(self.reset)
        if made is not None:
            fields["made"] = made
        if self.board_read is not None and self.ctx.assignment.board.board_global is None:
            fields["read_after"] = (self.board_read,)
        stand_ins = tuple(s for s in self.ctx.stand_ins if s.name not in (self.function, self.label))
        if stand_ins:
            fields["stand_ins"] = stand_ins
        if self.explore is not None:
            fields["explore"] = self.explore
        if self.log:
            fields["log"] = self.log
        fields["answer_levels"] = self.answer_levels
        return self.template.render(
            values,
            function=self.function,
            set_globals=set_globals,
            set_attributes={} if self.board_attribute is None else {self.board_attribute: values["board"]},
            count=self.count,
            read_globals=self.read_globals,
            timeout=timeout or self.timeout,
            **fields,
        )

    def describe(self, values: Mapping[str, Any]) -> str:
        return self.template.describe(values, function=self.function)

    def ask_many(
        self,
        requests: Iterable[tuple[Any, Mapping[str, Any]]],
        *,
        partial: bool = False,
        node_caps: Mapping[Any, int] | None = None,
    ) -> list[Answer]:
        """Answers for (key, placeholder values) pairs: one round trip for the uncached ones.

        Calls that could not be made (:class:`CallsStopped`'s reasons) raise it, unless
        ``partial``: then their answers come back with status SKIPPED, and are not kept. A key's
        ``node_caps`` entry caps the nodes its search may enter (`Call.node_cap`)."""
        requests = list(requests)
        fresh = self._call_uncached(requests, node_caps or {})
        self._cache.update({k: a for k, a in fresh.items() if a.outcome.status is not CallStatus.SKIPPED})
        answers = [self._cache.get(k) or fresh[k] for k, _ in requests]
        if not partial:
            for answer in answers:
                if answer.outcome.status is CallStatus.SKIPPED:
                    raise CallsStopped(answer.outcome.error or "the call was not made")
        return answers

    def _call_uncached(self, requests: Iterable[tuple[Any, Mapping[str, Any]]], caps: Mapping[Any, int]) -> dict:
        """Round trips for the requests whose key has no answer yet (each key asked once),
        within the check's time and what earlier hangs taught (`grader.checks.call_budget`)."""
        pending = {k: v for k, v in requests if k not in self._cache}
        outcomes = make_calls(
            self.ctx.runner,
            BudgetedCalls(
                target=self.function.split(".")[0],
                full_limit=self.timeout,
                hangs=self.ctx.hang_memory,
                window=self.ctx.window,
            ),
            pending,
            build=lambda key, *values_timeout, **fields: self._build(*values_timeout, node_cap=caps.get(key), **fields),
            where=lambda key: where_it_ran_out(key, self.describe(pending[key])),
            log=self.ctx.submission.outcomes_log,
        )
        return {key: Answer(outcome, self.describe(pending[key])) for key, outcome in outcomes.items()}

    def answers(self) -> list[tuple[Any, Answer]]:
        """Every (key, answer) asked so far: the evidence a diagnosis works from."""
        return list(self._cache.items())

    def ask(self, key: Any, values: Mapping[str, Any]) -> Answer:
        return self.ask_many([(key, values)])[0]

    def answer_for(self, key: Any, values: Callable[[], Mapping[str, Any]]) -> Answer:
        """The answer kept for ``key``, else asked with ``values()``: a check that asked a whole
        batch first judges it one case at a time without building each call's values again."""
        kept = self._cache.get(key)
        return kept if kept is not None else self.ask(key, values())
